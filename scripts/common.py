"""Helpers shared by scripts/overhead, scripts/responsiveness and scripts/scaling: running coop-bench
with progress, naming the device's results folder, statistics, and writing CSV and markdown; and by
the trace readers (scripts/timeline, scripts/round-cost, scripts/gather-cost): loading a trace."""

import argparse
import csv
import datetime
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "build" / "bin" / "coop-bench"
GRAPHS = ROOT.parent / "shared" / "graphs"
RESULTS = ROOT / "benchmarks" / "results"
SCRATCH = ROOT / "scratch"


def common_arguments(description):
    """The options both scripts take."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true",
                        help="a small subset: tiny generated inputs, 1 repeat (the smoke test)")
    parser.add_argument("--device", help="device index or name substring, passed to coop-bench as COOP_DEVICE")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path,
                        help="folder for the CSV, plots and report (default scratch/<script>/<device>/, which git "
                        "ignores)")
    where.add_argument("--report", action="store_true",
                        help="write into benchmarks/results/<device>/<script>/, the folder docs/PERFORMANCE.md quotes, "
                        "replacing its files")
    parser.add_argument("--bench", type=Path, default=BENCH, help="the coop-bench program (default %(default)s)")
    parser.add_argument("--graphs", type=Path, default=GRAPHS, help="folder of the real graphs (default %(default)s)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds one coop-bench run may take (default %(default)s)")
    return parser


def device_slug(device, platform):
    """A folder name for a device: 'h100' for 'NVIDIA H100 80GB HBM3', 'pocl-<cpu>' for PoCL."""
    def slug(text):
        return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "device"
    if "Portable Computing Language" in platform or device.startswith("pthread"):
        return "pocl-" + slug(re.sub(r"^pthread-?", "", device))
    words = [w for w in re.split(r"[\s_-]+", device)
             if not re.fullmatch(r"(?i)nvidia|geforce|tesla|quadro|\d+gb|hbm\d*e?|pcie|sxm\d*|nvl", w)]
    return slug(" ".join(words) or device)


def geomean(values):
    values = [v for v in values if v and v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def quantile(values, q):
    """The q-quantile (0..1) as coop-bench computes it (the ceil(q n)-th smallest); nan for none."""
    values = sorted(values)
    if not values:
        return float("nan")
    index = max(math.ceil(q * len(values)) - 1, 0)
    return values[min(index, len(values) - 1)]


def deciles(values):
    """(10th percentile, median, 90th percentile) of at least one value."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0], ordered[0], ordered[0]
    cuts = statistics.quantiles(ordered, n=10, method="inclusive")
    return cuts[0], statistics.median(ordered), cuts[-1]


def load_trace(path):
    """A libcoop trace (Chrome trace event JSON) as a dict; ValueError naming the file when the file
    is not JSON or not a trace."""
    with open(path) as handle:
        try:
            trace = json.load(handle)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not JSON: {error}") from None
    if not isinstance(trace, dict) or "traceEvents" not in trace:
        raise ValueError(f"{path}: not a trace (no traceEvents)")
    return trace


def fmt(value, digits=3):
    """A number for a table: blank-safe, 'n/a' for nan or None."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def write_csv(path, header, rows):
    with open(path, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        for row in rows:
            writer.writerow(["" if v is None or (isinstance(v, float) and not math.isfinite(v)) else
                             (f"{v:.6g}" if isinstance(v, float) else v) for v in row])


def git_commit():
    """The checkout's short commit, with '+changes' when the tree differs from it."""
    def git(*args):
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True).stdout.strip()
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def report_header(title, device, platform, args):
    """The report's first lines: what ran, where, when, from which commit, with which command."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    command = " ".join([Path(sys.argv[0]).name] + sys.argv[1:])
    lines = [f"# {title}", "",
             f"- Device: {device} ({platform})" + (f", selected with COOP_DEVICE={args.device}" if args.device else ""),
             f"- Date: {now}. Code: commit `{git_commit()}`.",
             f"- Command: `scripts/{command}`" + (" (quick: a smoke-test subset, not a measurement)" if args.quick else ""),
             ]
    workers = os.environ.get("POCL_MAX_PTHREAD_COUNT")
    if "Portable Computing Language" in platform and workers:
        lines.append(f"- PoCL workers: POCL_MAX_PTHREAD_COUNT={workers}")
    return lines


class Bench:
    """Runs coop-bench, one run at a time, and shows progress: '[ 3/12] what ... result (time)'."""

    def __init__(self, args, total):
        self.args = args
        self.total = total
        self.done = 0
        self.started = time.monotonic()
        self.failures = []
        self.scratch = tempfile.TemporaryDirectory(prefix="coop-scripts.")
        self.env = dict(os.environ)
        if args.device is not None:
            self.env["COOP_DEVICE"] = args.device
        if not Path(args.bench).exists():
            sys.exit(f"{args.bench} is missing: build it with make (or pass --bench)")

    def device(self):
        """(device name, platform) of the device coop-bench selects, from a one-node run."""
        result = self.run("device", ["bfs", "--gen", "grid:1:1", "--mode", "standalone"], counted=False)
        if result is None:
            sys.exit("coop-bench cannot run on the selected device: " + self.failures[-1][1])
        self.failures.clear()
        return result["device"], result["platform"]

    def run(self, what, arguments, counted=True):
        """Runs coop-bench with `arguments` plus --json; returns its JSON, or None after a failure
        (recorded in self.failures and shown)."""
        json_path = Path(self.scratch.name) / "run.json"
        if json_path.exists():
            json_path.unlink()
        if counted:
            self.done += 1
            print(f"[{self.done:{len(str(self.total))}}/{self.total}] {what} ...", end=" ", flush=True)
        command = [str(self.args.bench), *arguments, "--json", str(json_path)]
        began = time.monotonic()
        try:
            process = subprocess.run(command, env=self.env, capture_output=True, text=True,
                                     timeout=self.args.timeout)
            output, status = process.stdout + process.stderr, process.returncode
        except subprocess.TimeoutExpired as expired:
            output = f"timed out after {self.args.timeout:.0f} s\n" + (expired.stdout or b"").decode(errors="replace")
            status = None
        seconds = time.monotonic() - began
        if status != 0 or not json_path.exists():
            tail = "\n".join(output.strip().splitlines()[-6:])
            self.failures.append((what, f"exit status {status}: {tail}", " ".join(command)))
            if counted:
                print(f"FAILED ({seconds:.1f} s)\n    " + tail.replace("\n", "\n    "), flush=True)
            return None
        with open(json_path) as data:
            result = json.load(data)
        if counted:
            elapsed = time.monotonic() - self.started
            left = elapsed / self.done * (self.total - self.done)
            print(f"{result['time_ms_median']:.3f} ms ({seconds:.1f} s; {elapsed:.0f} s elapsed, ~{left:.0f} s left)",
                  flush=True)
        return result


def script_name():
    return Path(sys.argv[0]).name


def results_folder(args, device, platform):
    """Where a measuring script writes: --out, or with --report the tree's report folder for the
    device, else an ignored scratch folder (experiments stay out of the tree)."""
    if args.out:
        folder = args.out
    else:
        folder = (RESULTS if args.report else SCRATCH / script_name()) / device_slug(device, platform)
        if args.report:
            folder = folder / script_name()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def failures_section(bench):
    """Markdown lines listing the runs that failed (none: nothing)."""
    if not bench.failures:
        return []
    lines = ["", "## Runs that failed", ""]
    for what, why, command in bench.failures:
        lines += [f"- {what}: `{command}`", "", "  ```", *("  " + l for l in why.splitlines()), "  ```"]
    return lines


def plot_module():
    """matplotlib.pyplot without a display, or None (with a warning) where matplotlib is missing,
    e.g. on a GPU machine without python3-matplotlib: the CSV and the report are written anyway."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError as error:
        print(f"warning: no plots ({error}); install python3-matplotlib", file=sys.stderr, flush=True)
        return None
    return pyplot
