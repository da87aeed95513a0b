#!/usr/bin/python3
"""Per-sweep times from run 86's traces (xz-compressed): barrier b's time is the last group's arrival stamp at b
minus the last one's at b - 1 (barrier 1: from the trace's time zero, discovery's end)."""
import glob
import lzma
import json

for path in sorted(glob.glob("*.json.xz")):
    data = json.load(lzma.open(path, "rt"))
    stamps = {}
    for event in data["traceEvents"]:
        if event.get("cat") == "barrier":
            stamps.setdefault(event["args"]["barrier"], []).append(event["ts"])
    print(path, "groups", data["otherData"]["groups"], "members", data["otherData"]["members_start"])
    last, parts = 0.0, []
    for barrier in sorted(stamps):
        parts.append("%d:%.1f" % (barrier, max(stamps[barrier]) - last))
        last = max(stamps[barrier])
    print("   us per sweep:", " ".join(parts))
