#!/usr/bin/env python3
"""Two builds of traffic-light on the same command, in alternating rounds: the median wall time
of each, and their ratio. For a change's before-and-after figures on this noisy shared machine.

    Benchmarks/before_after.py BEFORE AFTER [--rounds N] [--cpu] -- ARGUMENTS...

BEFORE and AFTER are built `traffic-light` binaries (copy `.build/release/traffic-light` aside
before and after the change); ARGUMENTS are what each runs, for example
`classify --jobs 1 --profile seed ../shared/datasets/mit-crops`. Each build runs the command
once first, untimed, and a failure there stops the script; the timed rounds are
compare.py's `alternate`, output to /dev/null. With --cpu, each round's time is the processor
time the command's process used (user and system), not the wall clock: steadier on a shared
machine whose other tenants take the cores in turns (for a one-thread command that waits on
nothing, the two agree when the machine is idle).
"""

import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import alternate  # noqa: E402


def cpu_seconds(command):
    """The user and system seconds `command`'s process used, output to /dev/null."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime


def alternate_cpu(ours, theirs, rounds):
    """Median processor milliseconds of two commands run in turn, `rounds` times each."""
    a, b = [], []
    for _ in range(rounds):
        a.append(cpu_seconds(ours))
        b.append(cpu_seconds(theirs))
    return statistics.median(a) * 1000, statistics.median(b) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--cpu", action="store_true", help="processor time, not wall time")
    own = sys.argv[1:]
    if "--" not in own or own.index("--") == len(own) - 1:
        sys.exit("give the command's arguments after --")
    split = own.index("--")
    args = parser.parse_args(own[:split])
    arguments = own[split + 1 :]
    for binary in (args.before, args.after):
        subprocess.run([binary, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    timed = alternate_cpu if args.cpu else alternate
    before, after = timed([args.before, *arguments], [args.after, *arguments], args.rounds)
    kind = "processor" if args.cpu else "wall"
    print(f"{args.rounds} alternating rounds of: {' '.join(arguments)}")
    print(f"before {args.before}: median {before:.1f} ms ({kind})")
    print(f"after  {args.after}: median {after:.1f} ms ({kind})")
    print(f"after / before: {after / before:.3f}")


if __name__ == "__main__":
    main()
