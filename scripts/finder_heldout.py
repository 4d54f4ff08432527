#!/usr/bin/env python3
"""The lamp finder measured held out: each folder of boxed frames cut into contiguous blocks,
each block read by an evidence model fitted to the candidates of every other block.

    scripts/finder_heldout.py BINARY FOLDER[:HEADS]... [--blocks K] [--profile PROFILE.json]
                              [--penalty P] [--each-block]

BINARY is a built `traffic-light`; each FOLDER holds frames/ and boxes.csv (as in shared/frames)
and HEADS is the way of head its frames are read with (auto, vertical or horizontal; auto when
not given). The steps are the ones CALIBRATION.md names for its held-out finder figures:
`BINARY evaluate --candidates` over every folder; for each block I (the I-th of K contiguous
runs of each folder's frames in name order, so that near-copies stay together),
`fit_lamp_evidence.py --blocks K --block I --penalty P` (10 by default, as the kept fit's)
over those candidates with PROFILE's finder
(profiles/untrained.json by default: the finder of `default`, its heads set by HEADS); then
`BINARY evaluate --profile fold.json --orientation HEADS` on block I's frames of each folder.
Prints, per folder, the lights found over all blocks, false lights per frame, red lights read
green and the found lights' colours right (with --each-block, each block's lights found and
false lights first). The folds search by lamps alone: PROFILE's housing
search, fitted to the shared frames, is left out (scripts/fit_housing_search.py --held-out
measures it held out). Needs numpy.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_lamp_evidence  # noqa: E402

TOTALS = ["found", "labelled", "falseLights", "frames", "foundRedReadGreen", "foundColorsRight"]


def block_folder(folder, blocks, block, target):
    """Makes `target` a boxed folder of the frames of `folder`'s block (links to its frames and
    their rows of boxes.csv); returns it."""
    chosen = set(fit_lamp_evidence.block_frames(folder, blocks, block))
    os.makedirs(os.path.join(target, "frames"))
    for name in sorted(chosen):
        os.symlink(os.path.abspath(os.path.join(folder, "frames", name)), os.path.join(target, "frames", name))
    with open(os.path.join(folder, "boxes.csv"), newline="") as source:
        rows = list(csv.reader(source))
    with open(os.path.join(target, "boxes.csv"), "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(rows[0])
        writer.writerows(row for row in rows[1:] if os.path.basename(row[0]) in chosen)
    return target


def fold_profile(candidates, blocks, block, profile, path, penalty):
    """Writes `profile` with its finder's evidence fitted to the `candidates` (as
    `fit_lamp_evidence.load` gives them) outside `block`."""
    evidence = fit_lamp_evidence.evidence_without_block(candidates, blocks, block, penalty)
    written = fit_lamp_evidence.with_evidence(profile, evidence)
    # The lamps alone: the housing search is fitted to the shared frames, and is measured held
    # out by scripts/fit_housing_search.py --held-out.
    written.get("locator", {}).get("finder", {}).pop("housings", None)
    with open(path, "w") as handle:
        json.dump(written, handle)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("folders", nargs="+", metavar="FOLDER[:HEADS]")
    parser.add_argument("--blocks", type=int, default=5)
    default_profile = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "profiles", "untrained.json")
    parser.add_argument("--profile", default=default_profile)
    parser.add_argument("--penalty", type=float, default=fit_lamp_evidence.PENALTY)
    parser.add_argument("--each-block", action="store_true", help="also print each block's lights found and false")
    args = parser.parse_args()
    if args.blocks < 2:
        sys.exit("--blocks must be at least 2")

    folders = []
    for spec in args.folders:
        folder, _, heads = spec.partition(":")
        heads = heads or "auto"
        if heads not in ("auto", "vertical", "horizontal"):
            sys.exit(f"{spec}: HEADS must be auto, vertical or horizontal")
        if not os.path.isfile(os.path.join(folder, "boxes.csv")):
            sys.exit(f"{folder}: no boxes.csv")
        folders.append((folder.rstrip("/"), heads))

    with tempfile.TemporaryDirectory() as work:
        candidates = os.path.join(work, "candidates.csv")
        unique = list(dict.fromkeys(folder for folder, _ in folders))
        subprocess.run(
            [args.binary, "evaluate", "--profile", args.profile, "--candidates", candidates, *unique],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        loaded = fit_lamp_evidence.load(candidates)
        totals = {spec: dict.fromkeys(TOTALS, 0) for spec in folders}
        for block in range(args.blocks):
            profile = os.path.join(work, f"fold{block}.json")
            fold_profile(loaded, args.blocks, block, args.profile, profile, args.penalty)
            # One block folder per folder, however many ways of head it is read with.
            targets = {
                folder: block_folder(folder, args.blocks, block, os.path.join(work, f"b{block}-{number}"))
                for number, folder in enumerate(unique)
            }
            for folder, heads in folders:
                target = targets[folder]
                report = subprocess.run(
                    [args.binary, "evaluate", "--profile", profile, "--orientation", heads, "--format", "jsonl", target],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                outcome = json.loads(report.splitlines()[0])
                if args.each_block:
                    print(f"{folder} ({heads} heads), block {block}: {outcome['found']} of {outcome['labelled']} "
                          f"found, {outcome['falseLights']} false lights in {outcome['frames']} frames")
                for key in TOTALS:
                    totals[(folder, heads)][key] += outcome[key]

    print(f"held out, {args.blocks} contiguous blocks of each folder, each read by a fit to the rest:")
    for (folder, heads), t in totals.items():
        found = 100 * t["found"] / t["labelled"] if t["labelled"] else 0
        per_frame = t["falseLights"] / t["frames"] if t["frames"] else 0
        print(
            f"{folder} ({heads} heads): {t['found']} of {t['labelled']} found ({found:.1f}%), "
            f"{per_frame:.3f} false lights per frame, {t['foundRedReadGreen']} red read green, "
            f"colours right {t['foundColorsRight']} of {t['found']}"
        )


if __name__ == "__main__":
    main()
