#!/usr/bin/env python3
"""smith: random cooperative kernels, merged by coop-merge and run by smith-run (docs/TESTING.md).

  smith.py gen SEED [--drop IDS] [-o DIR]        write one program (kernel, header, tasks, spec)
  smith.py check SEED [--drop IDS] [--chaos N]   generate, merge and run one program; print its class
  smith.py campaign [--first S] [--count N | --seconds T] [--chaos N]
                                                  many programs; a line per failure, a summary
  smith.py reduce SEED [--drop IDS] [--chaos N]  shrink a failing program while its class stays;
                                                  write the reproducer to tests/merge/smith/
  smith.py export [--first S] --count N DIR      generate and merge, for a machine without coop-merge
  smith.py replay DIR [--seconds T] [--chaos N]  run what export wrote (the GPU machine's campaign)

--only-plain (check, campaign, reduce): run only plain.cl, the user's kernel as plain OpenCL for
one group (no coop-merge, no libcoop): class platform when it is wrong. Reduces a platform
finding to the smallest plain kernel the platform runs wrong.

--plain (gen, check, campaign, reduce, export): the programs without the shapes added on
2026-11-29 (jumps in a loop's middle, do-while, else-if, id branches by barriers), as the seed
gave them before; make check's seed range runs them so, until the findings of those shapes are
fixed (docs/TESTING.md).

Classes: pass, mismatch (a wrong output word in the megakernel or the standalone form, and the
user's kernel as plain OpenCL, plain.cl run as one group without libcoop, right: "merge: only the
merged forms are wrong"), platform (a wrong word, and the plain kernel wrong too: "platform: the
plain kernel is wrong too"), hang (the watchdog or a time limit), build (the
merged program does not build), run-crash (smith-run died of a signal: the platform's compiler
or runtime crashed, e.g. an assertion in PoCL), merge-crash (coop-merge died or said "internal error"),
merge-reject (coop-merge -Werror refused the program: a generator bug unless the message is a
file:line rejection of a construct the generator should not write), run-error (anything else).
Run from the repository root; COOP_MERGE and SMITH_RUN override build/bin/coop-merge and
build/bin/smith-run, COOP_PLATFORM and COOP_DEVICE choose the device.
"""

import argparse
import concurrent.futures
import itertools
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

RUN_TIMEOUT_S = 1500  # a whole smith-run (two PoCL compiles and every run) that takes longer hangs
MERGE_TIMEOUT_S = 120
CLASSES = ["pass", "mismatch", "platform", "hang", "build", "run-crash", "merge-crash", "merge-reject", "run-error"]
RUN_EXITS = {0: "pass", 2: "mismatch", 3: "hang", 4: "build", 5: "platform"}
SHAPES = True  # False with --plain
ONLY_PLAIN = False  # --only-plain: run the user's kernel as plain OpenCL alone, nothing merged


def tool(variable, default):
    return os.environ.get(variable) or default


def write(seed, dropped, directory):
    program, files = gen.generate(seed, dropped, SHAPES)
    os.makedirs(directory, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(directory, name), "w") as f:
            f.write(text)
    return program


def merge(directory, standalone):
    form = "standalone" if standalone else "mega"
    args = [tool("COOP_MERGE", "build/bin/coop-merge"), os.path.join(directory, "smith.cl"), "-Werror",
            "-o", os.path.join(directory, form + ".cl"), "--host-header", os.path.join(directory, form + ".h")]
    args += ["--standalone"] if standalone else ["--task", os.path.join(directory, "smith_task.cl")]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=MERGE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "merge-crash", "coop-merge ran past %d s" % MERGE_TIMEOUT_S
    if done.returncode < 0:
        return "merge-crash", "coop-merge died of signal %d: %s" % (-done.returncode, last_line(done.stderr))
    if "internal error" in done.stderr:
        return "merge-crash", last_line(done.stderr)
    if done.returncode != 0:
        return "merge-reject", first_line(done.stderr)
    return None, None


def first_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "(no message)"


def last_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "(no message)"


def environment():
    env = dict(os.environ)
    # PoCL: one worker thread per group the spec can ask for (tests/testutil.h's tu_env)
    env.setdefault("POCL_MAX_PTHREAD_COUNT", "4")
    return env


def prepare(seed, dropped, directory):
    """Writes the program into `directory` and merges it: (class, message) of a merge failure, or
    (None, None)."""
    write(seed, dropped, directory)
    for standalone in (False, True):
        cls, message = merge(directory, standalone)
        if cls:
            return cls, message
    return None, None


def execute(directory, seed, chaos):
    """(class, message) of smith-run on a merged program."""
    args = [os.path.abspath(tool("SMITH_RUN", "build/bin/smith-run")), os.path.abspath(directory), "--seeds",
            str(chaos), "--first", str(seed * 7 % 100000 + 1)] + (["--only-plain"] if ONLY_PLAIN else [])
    try:
        # in the program's folder: PoCL writes its CFG dumps (*.dot) where it crashes
        done = subprocess.run(args, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=environment(),
                              cwd=directory)
    except subprocess.TimeoutExpired:
        return "hang", "smith-run ran past %d s" % RUN_TIMEOUT_S
    if done.returncode < 0:
        return "run-crash", "smith-run died of signal %d after: %s" % (-done.returncode,
                                                                       last_line(done.stderr + done.stdout))
    cls = RUN_EXITS.get(done.returncode, "run-error")
    return cls, "" if cls == "pass" else last_line(done.stderr or done.stdout)


def check(seed, dropped=(), chaos=3, directory=None):
    """(class, message) for one program; kept in `directory` if one is given."""
    own = directory is None
    directory = directory or tempfile.mkdtemp(prefix="smith.")
    try:
        if ONLY_PLAIN:
            write(seed, dropped, directory)
            return execute(directory, seed, chaos)
        cls, message = prepare(seed, dropped, directory)
        return (cls, message) if cls else execute(directory, seed, chaos)
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)


def campaign(seeds, job, jobs, seconds, out, where):
    """Runs job(seed) for `seeds` (an iterator), `jobs` at a time, for at most `seconds`; prints a
    line per failure and the summary. Returns the number of failures."""
    counts = {c: 0 for c in CLASSES}
    start = time.monotonic()
    first = last = None
    running = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        while True:
            while len(running) < jobs and (seconds is None or time.monotonic() - start < seconds):
                seed = next(seeds, None)
                if seed is None:
                    break
                first = seed if first is None else first
                last = seed
                running[pool.submit(job, seed)] = seed
            if not running:
                break
            done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                cls, message = future.result()
                counts[cls] += 1
                if cls != "pass":
                    print("seed %d: %s: %s" % (running[future], cls, message), file=out, flush=True)
                del running[future]
    for c in CLASSES[1:]:
        print("%-13s %d" % (c, counts[c]), file=out)
    failed = sum(counts.values()) - counts["pass"]
    print("seeds %s .. %s on %s" % (first, last, where), file=out)
    print("%d passed, %d failed" % (counts["pass"], failed), file=out, flush=True)
    return failed


def export(first, count, directory):
    """Merges seeds first .. first+count-1 into directory/seedN/ for replay on a machine without
    coop-merge; prints the ones coop-merge refuses."""
    failed = 0
    for seed in range(first, first + count):
        cls, message = prepare(seed, (), os.path.join(directory, "seed%d" % seed))
        if cls:
            failed += 1
            print("seed %d: %s: %s" % (seed, cls, message), flush=True)
            shutil.rmtree(os.path.join(directory, "seed%d" % seed), ignore_errors=True)
    print("%d merged, %d failed" % (count - failed, failed))
    return failed


def reduce(seed, chaos, findings, dropped=()):
    """Drops statements one at a time (outermost first) while the failure's class stays the same,
    starting from the program without the statements `dropped`."""
    cls, message = check(seed, dropped, chaos=chaos)
    if cls == "pass":
        print("seed %d passes: nothing to reduce" % seed)
        return 0
    print("seed %d: %s: %s" % (seed, cls, message), flush=True)
    dropped = set(dropped)
    changed = True
    while changed:
        changed = False
        gone = set()
        for node in list(gen.walk(gen.drop(gen.Program(seed, SHAPES), dropped).body)):
            if node.id in gone:  # held by a statement dropped in this pass
                continue
            trial = dropped | {node.id}
            got, got_message = check(seed, sorted(trial), chaos=chaos)
            if got == cls:
                dropped, message, changed = trial, got_message, True
                gone |= {child.id for child in gen.walk([node])}
                print("  dropped statement %d: still %s" % (node.id, cls), flush=True)
    write_finding(seed, sorted(dropped), cls, message, chaos, findings)
    return 1


def write_finding(seed, dropped, cls, message, chaos, findings):
    """tests/merge/smith/seedSEED.cl (+ _helpers.h, _task.cl): the reduced program, headed by its
    class, the command that reproduces it, its launch, arguments and expected words."""
    ids = ",".join(str(i) for i in dropped)
    os.makedirs(findings, exist_ok=True)
    directory = tempfile.mkdtemp(prefix="smith.")
    write(seed, dropped, directory)
    command = "python3 fuzz/smith/smith.py check %d%s --chaos %d%s%s" % (seed, " --drop " + ids if ids else "", chaos,
                                                                        "" if SHAPES else " --plain",
                                                                        " --only-plain" if ONLY_PLAIN else "")
    stem = os.path.join(findings, "seed%d" % seed)
    spec = [line for line in read(directory, "smith.spec").splitlines() if line.split()[1:2] in (["smith"], [])
            or line.startswith("size")]
    with open(stem + ".cl", "w") as f:
        f.write("/* smith finding: %s\n * %s\n * Reproduce: %s\n" % (cls, message, command))
        f.write(" * Merge: build/bin/coop-merge %s.cl --task %s_task.cl -Werror -o mega.cl --host-header mega.h\n"
                % (stem, stem))
        f.write(" * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):\n")
        f.write("".join(" *   %s\n" % line for line in spec))
        f.write(" */\n")
        f.write(read(directory, "smith.cl").replace('#include "smith_helpers.h"',
                                                    '#include "seed%d_helpers.h"' % seed))
    with open(stem + "_task.cl", "w") as f:
        f.write(read(directory, "smith_task.cl"))
    if os.path.exists(os.path.join(directory, "smith_helpers.h")):
        with open(stem + "_helpers.h", "w") as f:
            f.write(read(directory, "smith_helpers.h"))
    shutil.rmtree(directory, ignore_errors=True)
    print("%s.cl: %s (%s)" % (stem, cls, command))


def read(directory, name):
    with open(os.path.join(directory, name)) as f:
        return f.read()


def ids(text):
    return [int(x) for x in text.split(",") if x] if text else []


def device():
    return os.environ.get("COOP_PLATFORM") or "the default device"


def main():
    parser = argparse.ArgumentParser(prog="smith.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("gen")
    p.add_argument("seed", type=int)
    p.add_argument("--drop", default="")
    p.add_argument("-o", dest="out", default="scratch/smith")
    p = sub.add_parser("check")
    p.add_argument("seed", type=int)
    p.add_argument("--drop", default="")
    p.add_argument("--chaos", type=int, default=3)
    p.add_argument("--keep", metavar="DIR", help="leave the program and its merged forms in DIR")
    p = sub.add_parser("campaign")
    p.add_argument("--first", type=int)
    p.add_argument("--count", type=int)
    p.add_argument("--seconds", type=float)
    p.add_argument("--chaos", type=int, default=3)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p = sub.add_parser("export")
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("directory")
    p = sub.add_parser("replay")
    p.add_argument("directory")
    p.add_argument("--seconds", type=float, help="start no program after this many seconds")
    p.add_argument("--chaos", type=int, default=3)
    p.add_argument("--jobs", type=int, default=1)
    p = sub.add_parser("reduce")
    p.add_argument("seed", type=int)
    p.add_argument("--drop", default="")
    p.add_argument("--chaos", type=int, default=3)
    p.add_argument("--findings", default="tests/merge/smith")
    for name in ("gen", "check", "campaign", "reduce", "export"):
        sub.choices[name].add_argument("--plain", action="store_true",
                                       help="without the shapes added on 2026-11-29")
    for name in ("check", "campaign", "reduce"):
        sub.choices[name].add_argument("--only-plain", action="store_true",
                                       help="run only the user's kernel as plain OpenCL (plain.cl)")
    a = parser.parse_args()
    global SHAPES, ONLY_PLAIN
    SHAPES = not getattr(a, "plain", False)
    ONLY_PLAIN = getattr(a, "only_plain", False)
    if a.command == "gen":
        write(a.seed, ids(a.drop), a.out)
        print(a.out)
        return 0
    if a.command == "check":
        cls, message = check(a.seed, ids(a.drop), a.chaos, a.keep)
        print("seed %d: %s%s" % (a.seed, cls, ": " + message if message else ""))
        return 0 if cls == "pass" else 1
    if a.command == "campaign":
        if a.count is None and a.seconds is None:
            parser.error("campaign needs --count or --seconds")
        first = a.first if a.first is not None else random.SystemRandom().randrange(1, 1 << 30)
        seeds = itertools.count(first) if a.count is None else iter(range(first, first + a.count))
        return 1 if campaign(seeds, lambda seed: check(seed, (), a.chaos), a.jobs, a.seconds, sys.stdout,
                             device()) else 0
    if a.command == "export":
        return 1 if export(a.first, a.count, a.directory) else 0
    if a.command == "replay":
        found = sorted(int(name[4:]) for name in os.listdir(a.directory) if name.startswith("seed"))
        job = lambda seed: execute(os.path.join(a.directory, "seed%d" % seed), seed, a.chaos)  # noqa: E731
        return 1 if campaign(iter(found), job, a.jobs, a.seconds, sys.stdout, device()) else 0
    return reduce(a.seed, a.chaos, a.findings, ids(a.drop))


if __name__ == "__main__":
    sys.exit(main())
