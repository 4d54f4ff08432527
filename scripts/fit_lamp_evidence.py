#!/usr/bin/env python3
"""Fits the lamp finder's evidence model (LampEvidence) to labelled candidate lamps.

Usage:
  traffic-light evaluate --candidates cand.csv ../shared/frames/{cinta,kr,sim}
  scripts/fit_lamp_evidence.py cand.csv [--leave-out FOLDER | --blocks K --block I]
                                        [--profile PROFILE.json -o OUT.json]

The model is a logistic regression of the `litLamp` column (1 when the candidate's light finds
a labelled box of its colour) on the measurement columns and every product of two of them (a
measurement with itself included; `expand`), with an L2 penalty on the weights of the
standardised terms (`--penalty`, 10 by default) and each folder weighing the same. The yellow
indicator's terms are left out (REFERENCE_COLOUR: the colours are one-hot). Prints the
bias and weights in the order of the terms (as JSON, LampEvidence's form). With `--profile`, writes that profile with the finder's evidence replaced by the fit
(`-o`), for `traffic-light evaluate --profile OUT.json` on a folder left out of the fit.
Needs numpy only.
"""

import argparse
import csv
import json
import os
import sys

import numpy as np

FIRST_MEASUREMENT = "red"

# The colour columns (red, yellow, green) are one-hot, so one of them and its products are
# sums of the others' and the intercept. The model leaves yellow's out (reference coding):
# its weights are 0, and a yellow lamp is one that is neither red nor green. Which colour is
# left out changes only where the penalty falls; leaving out yellow, which the shared frames
# have fewest lit lamps of, read kr's held-out blocks best (CALIBRATION.md, "The lamp
# evidence model").
REFERENCE_COLOUR = "yellow"

# The L2 penalty on the standardised terms of the shipped fit (`--penalty`'s default).
PENALTY = 10.0


def load(path):
    """The candidates of an `evaluate --candidates` CSV: (measurement names, folders, paths,
    litLamp labels, measurements), with the reference colour's column at 0."""
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    header, rows = rows[0], rows[1:]
    start = header.index(FIRST_MEASUREMENT)
    folders = np.array([row[0] for row in rows])
    paths = np.array([row[1] for row in rows])
    labels = np.array([float(row[header.index("litLamp")]) for row in rows])
    values = np.array([[float(v) for v in row[start:]] for row in rows])
    names = header[start:]
    values[:, names.index(REFERENCE_COLOUR)] = 0
    return names, folders, paths, labels, values


def in_block(folders, paths, blocks, block):
    """Whether each candidate's frame lies in block `block` of `blocks` contiguous blocks of
    its folder's frames (the files of FOLDER/frames in name order): neighbouring frames,
    near-copies, stay together."""
    held = np.zeros(len(paths), dtype=bool)
    for folder in np.unique(folders):
        frames = [os.path.join(folder, "frames", name) for name in block_frames(folder, blocks, block)]
        held |= np.isin(paths, frames) & (folders == folder)
    return held


def block_frames(folder, blocks, block):
    """The file names of block `block` of `blocks` contiguous blocks of FOLDER/frames, in name
    order."""
    frames = sorted(os.listdir(os.path.join(folder, "frames")))
    return frames[len(frames) * block // blocks : len(frames) * (block + 1) // blocks]


def frame_boxes(folder):
    """The boxes of FOLDER/boxes.csv by frame: {file: [(state, (xmin, ymin, xmax, ymax))]}.
    Lamp-box folders (frames/kr) give the lamp's colour in a `lamp` column instead of `state`."""
    boxes = {}
    with open(os.path.join(folder, "boxes.csv"), newline="") as handle:
        for row in csv.DictReader(handle):
            box = tuple(int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            boxes.setdefault(row["file"], []).append((row.get("state") or row.get("lamp"), box))
    return boxes


def expand(values):
    """The model's terms: the measurements, then m[i] * m[j] for i <= j in row order."""
    count = values.shape[1]
    products = [values[:, i] * values[:, j] for i in range(count) for j in range(i, count)]
    return np.column_stack([values] + products)


def fit(values, labels, weights, penalty, iterations=50):
    """Newton's method on the penalised, weighted log-likelihood; returns raw-scale weights."""
    mean = values.mean(axis=0)
    scale = values.std(axis=0)
    scale[scale == 0] = 1
    z = np.column_stack([np.ones(len(values)), (values - mean) / scale])
    beta = np.zeros(z.shape[1])
    ridge = penalty * np.eye(z.shape[1])
    ridge[0, 0] = 0  # the intercept is not penalised
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(z @ beta)))
        gradient = z.T @ (weights * (labels - p)) - ridge @ beta
        hessian = (z * (weights * p * (1 - p))[:, None]).T @ z + ridge
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < 1e-9:
            break
    raw = beta[1:] / scale
    return beta[0] - raw @ mean, raw


def fit_kept(folders, labels, values, kept, penalty):
    """The model fitted to the candidates where `kept` is true, each folder weighing the same
    however many candidates it has: (bias, raw-scale weights)."""
    weights = np.zeros(len(labels))
    fitted = np.unique(folders[kept])
    for folder in fitted:
        mask = kept & (folders == folder)
        weights[mask] = kept.sum() / (mask.sum() * len(fitted))
    return fit(expand(values[kept]), labels[kept], weights[kept], penalty)


def evidence_without_block(candidates, blocks, block, penalty=PENALTY):
    """The evidence model (LampEvidence's JSON form) fitted to the `candidates` (as `load`
    gives them) outside block `block` of `blocks` of every folder."""
    _, folders, paths, labels, values = candidates
    kept = ~in_block(folders, paths, blocks, block)
    bias, raw = fit_kept(folders, labels, values, kept, penalty)
    return {"bias": float(bias), "weights": [float(w) for w in raw]}


def with_evidence(profile_path, evidence):
    """The profile at `profile_path` with its finder's evidence replaced by `evidence`."""
    with open(profile_path) as handle:
        profile = json.load(handle)
    locator = profile.setdefault("locator", {"kind": "litLamp"})
    locator.setdefault("finder", {})["evidence"] = evidence
    return profile


def check(path, bias, raw, tolerance=1e-3):
    """Exits 1 unless the model in the JSON file at `path` (LampEvidence's form) is (bias, raw)."""
    with open(path) as handle:
        stored = json.load(handle)
    stored_bias, weights = stored["bias"], np.array(stored["weights"], dtype=float)
    worst = max(abs(stored_bias - bias), np.abs(weights - raw).max()) if len(weights) == len(raw) else np.inf
    if worst > tolerance:
        sys.exit(f"{path}: the shipped evidence model is not this fit (largest difference {worst:.3g})")
    print(f"{path}: the shipped evidence model is this fit (largest difference {worst:.3g})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("candidates")
    parser.add_argument("--leave-out", action="append", default=[], help="a folder not fitted to")
    parser.add_argument("--blocks", type=int, default=0, help="split each folder into this many blocks")
    parser.add_argument("--block", type=int, default=0, help="the block (from 0) not fitted to")
    parser.add_argument("--penalty", type=float, default=PENALTY)
    parser.add_argument("--profile", help="a profile JSON to write with the fitted evidence")
    parser.add_argument("-o", "--output")
    parser.add_argument("--check", metavar="JSON", help="exit 1 unless the model in JSON (lamp-evidence.json) is this fit")
    args = parser.parse_args()

    names, folders, paths, labels, values = load(args.candidates)
    kept = ~np.isin(folders, args.leave_out)
    if args.blocks:
        kept &= ~in_block(folders, paths, args.blocks, args.block)
    if not kept.any():
        sys.exit("no candidates left to fit")
    bias, raw = fit_kept(folders, labels, values, kept, args.penalty)

    held = "" if kept.all() else f", not fitted to {int((~kept).sum())} others"
    print(f"fitted to {kept.sum()} candidates ({int(labels[kept].sum())} lit lamps){held}")
    print("measurements: " + ", ".join(names))
    evidence = {"bias": float("%.6g" % bias), "weights": [float("%.6g" % w) for w in raw]}
    print(json.dumps(evidence))
    if args.check:
        check(args.check, bias, raw)
    if args.profile:
        with open(args.output or "/dev/stdout", "w") as handle:
            json.dump(with_evidence(args.profile, evidence), handle, indent=2)
            handle.write("\n")


if __name__ == "__main__":
    main()
