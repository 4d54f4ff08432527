#!/usr/bin/env python3
"""Two builds of traffic-light on the same command, in alternating rounds: the median wall time
of each, and their ratio. For a change's before-and-after figures on this noisy shared machine.

    Benchmarks/before_after.py BEFORE AFTER [--rounds N] -- ARGUMENTS...

BEFORE and AFTER are built `traffic-light` binaries (copy `.build/release/traffic-light` aside
before and after the change); ARGUMENTS are what each runs, for example
`classify --jobs 1 --profile seed ../shared/datasets/mit-crops`. Each build runs the command
once first, untimed, and a failure there stops the script; the timed rounds are
compare.py's `alternate`, output to /dev/null.
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import alternate  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=11)
    own = sys.argv[1:]
    if "--" not in own or own.index("--") == len(own) - 1:
        sys.exit("give the command's arguments after --")
    split = own.index("--")
    args = parser.parse_args(own[:split])
    arguments = own[split + 1 :]
    for binary in (args.before, args.after):
        subprocess.run([binary, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    before, after = alternate([args.before, *arguments], [args.after, *arguments], args.rounds)
    print(f"{args.rounds} alternating rounds of: {' '.join(arguments)}")
    print(f"before {args.before}: median {before:.1f} ms")
    print(f"after  {args.after}: median {after:.1f} ms")
    print(f"after / before: {after / before:.3f}")


if __name__ == "__main__":
    main()
