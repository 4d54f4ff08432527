#!/usr/bin/env python3
"""Each smoothing's figures on labelled recordings, summed over each group of them.

    scripts/smoothing_figures.py .build/release/traffic-light /tmp/built-sim /tmp/built-carpark
    scripts/smoothing_figures.py .build/release/traffic-light ../shared/sequences/carpark-a ../shared/sequences/carpark-b

A GROUP is a labelled recording (frames/ and labels.csv of index,file,state) or a folder of
them (as scripts/built_recordings.py writes). For each group and each of vote, online and
offline: lit frames right, frame by frame and smoothed; red read as green; dark frames read
unknown; the label's changes made within 2 frames; the recordings where the smoothed colour
is right on fewer lit frames than the frames' own.
"""
import json
import os
import subprocess
import sys


def recordings(group):
    if os.path.exists(os.path.join(group, "labels.csv")):
        return [group]
    return sorted(os.path.join(group, name) for name in os.listdir(group)
                  if os.path.exists(os.path.join(group, name, "labels.csv")))


def main():
    binary, groups = sys.argv[1], sys.argv[2:]
    print("group | smoothing | lit right: frames / smoothed | red read green: frames / smoothed | "
          "dark unknown: frames / smoothed | changes within 2 | smoothed below frames")
    for group in groups:
        folders = recordings(group)
        for kind in ("vote", "online", "offline"):
            # Exit status 1 says some frames could not be read (the built recordings have some).
            run = subprocess.run([binary, "evaluate", "--format", "jsonl", "--smoothing", kind] + folders,
                                 capture_output=True, text=True)
            if run.returncode not in (0, 1):
                sys.exit("evaluate failed: " + run.stderr)
            out = run.stdout
            rows = [json.loads(line) for line in out.splitlines() if line.strip()]
            total = lambda f: sum(f(r) for r in rows)
            lit, dark = total(lambda r: r["lit"]), total(lambda r: r["dark"])
            fr, sr = total(lambda r: r["frames"]["right"]), total(lambda r: r["smoothed"]["right"])
            worse = sum(1 for r in rows if r["smoothed"]["right"] < r["frames"]["right"])
            print("%s | %s | %.1f%% / %.1f%% | %d / %d | %d / %d of %d | %d of %d | %d of %d" % (
                os.path.basename(group.rstrip("/")), kind, 100 * fr / lit, 100 * sr / lit,
                total(lambda r: r["frames"]["redCalledGreen"]), total(lambda r: r["smoothed"]["redCalledGreen"]),
                total(lambda r: r["frames"]["darkUnknown"]), total(lambda r: r["smoothed"]["darkUnknown"]), dark,
                total(lambda r: r["changesWithinTwo"]), total(lambda r: r["changes"]), worse, len(rows)))


if __name__ == "__main__":
    main()
