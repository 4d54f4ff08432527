#!/usr/bin/env python3
"""Fits the housing search of `default`'s lamp finder (HousingSearch, read for every camera) to
boxed frames: windows of three lamps in a column, scored by a logistic model of their 11
measurements and every product of two.

Usage:
  scripts/fit_housing_search.py FOLDER... [--blocks K --block I] [--penalty P]
                                [--least-confidence C] [--confirm-least Q] [--limit N]
                                [--network PROFILE.json] [--profile PROFILE.json -o OUT.json]
                                [--check PROFILE.json]

Each FOLDER holds frames/ and a boxes.csv of housings (file,state,xmin,ymin,xmax,ymax), as
../shared/frames/cinta. Every window of every frame is measured as HousingSearch.scan measures
it (this script's `windows` mirrors that scan, its blur by scipy's Gaussian, so its figures
differ from the Swift search's in the last digits). A window is a positive where its box
(HousingWindow.light's: 1.4 lamps wide, two pitches and 1.4 lamps tall) overlaps a lit box
by at least half (intersection over union) and its lit lamp's place names that box's colour;
a negative where it overlaps no box by more than 0.3 and holds no box's centre; others are
left out. A folder of lamp boxes (../shared/frames/kr, whose boxes.csv names the lamp's colour
`lamp`) gives negatives only: windows away from its lights. Of each frame's
negatives, the 3000 most like a light by the search's prior and 3000 drawn at random (seeded)
are kept. The model: Newton's method on the penalised log-likelihood of the standardised terms
(L2 `--penalty`, 10 by default, the bias free), positives weighing a fifth of the negatives
together, each folder weighing the same.

Prints the fit as the JSON of a `housings` search (run for vertical heads, its lights ranked
below the lamps'; frames searched halved while their longer side is over `--longest-side`,
320 by default; every window read, `kept` 0; at most `--limit` lights a frame, 8 by default;
the least confidence `--least-confidence`, 0.999 by default; each window confirmed at
`--confirm-least`, 0.99 by default, by the network of `--network`'s profile, inline, or by
`fitted`'s without it). `default`'s network is `train_light_network.py SHARED OUT.json
--housing-negatives`: `fitted`'s training and the windows this search finds away from every
box (`search_negatives`). With `--profile`, writes that profile with its finder's housings
replaced by the fit (`-o`), each list of numbers on one line. With `--blocks K --block I`,
block I (the I-th of K contiguous runs of each folder's frames in name order) is left out of
the fit. `--check` exits 1 unless PROFILE.json's finder holds this fit's weights (to 1e-3).

With `--held-out BINARY --networks DIR` (one FOLDER), measures the search held out instead:
for each of `--blocks` contiguous blocks, the fit to the other blocks, each window confirmed
by DIR/blockB.json (`train_light_network.py --blocks K --cinta-blocks DIR
[--housing-negatives]`: a network trained without that block's frames), in `--profile`
(default `default`'s JSON) read by `BINARY evaluate --orientation vertical` on the block's
frames; prints the lights found and false lights per frame over all blocks. With
`--lamp-candidates CSV` (`BINARY evaluate --candidates CSV ../shared/frames/{cinta,kr,sim}`),
each block's lamp evidence model is fitted without that block too (as finder_heldout.py fits
it, every folder's block left out): the lamps held out as well as the housings.

Needs numpy, scipy and pillow.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image
from scipy import ndimage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import finder_heldout  # noqa: E402
import fit_lamp_evidence  # noqa: E402
from fit_lamp_evidence import block_frames, expand, fit, frame_boxes  # noqa: E402  (the same penalised logistic fit)

NAMES = 11
COLORS = {"red": 0, "yellow": 1, "green": 2}


def integral(a):
    s = np.zeros((a.shape[0] + 1, a.shape[1] + 1))
    s[1:, 1:] = a.cumsum(0).cumsum(1)
    return s


def windows(rgb, smallest=6.0, scale_step=1.2, scales=13, step=0.25, pitch=1.35, sigma=1.0):
    """Every window of `rgb` (HxWx3 float) as HousingSearch.scan makes it: centres, lamp
    diameters, the lit lamp (0 top, 1 middle, 2 bottom), the 11 measurements and the prior."""
    a = ndimage.gaussian_filter(rgb, (sigma, sigma, 0), mode="nearest") if sigma > 0 else rgb
    value, chroma = a.max(2) / 255, (a.max(2) - a.min(2)) / 255
    height, width = value.shape
    tables = integral(value), integral(chroma)

    def mean(x0, x1, y0, y1):
        x0, x1 = np.clip(x0.astype(int), 0, width), np.clip(x1.astype(int), 0, width)
        y0, y1 = np.clip(y0.astype(int), 0, height), np.clip(y1.astype(int), 0, height)
        inside = (x1 > x0) & (y1 > y0)
        count = np.maximum((x1 - x0) * (y1 - y0), 1)
        return [(t[y1, x1] - t[y0, x1] - t[y1, x0] + t[y0, x0]) / count * inside for t in tables]

    parts, d, longer = [], smallest, max(height, width)
    for _ in range(scales):
        p, stride, r = pitch * d, max(1.0, step * d), 0.3 * d
        cys = np.arange(p + 0.6 * d, height - p - 0.6 * d, stride)
        cxs = np.arange(1.3 * d, width - 1.3 * d, stride)
        if len(cys) and len(cxs):
            cx, cy = (g.ravel() for g in np.meshgrid(cxs, cys))
            lamps = [mean(cx - r, cx + r, cy + k * p - r, cy + k * p + r) for k in (-1, 0, 1)]
            y0, y1 = cy - p - 0.55 * d, cy + p + 0.55 * d

            def strips(near, far):
                left, right = mean(cx - far * d, cx - near * d, y0, y1), mean(cx + near * d, cx + far * d, y0, y1)
                return (left[0] + right[0]) / 2, (left[1] + right[1]) / 2

            housing, surround = strips(0.45, 0.7), strips(0.95, 1.3)
            v = np.stack([lamp[0] for lamp in lamps])
            c = np.stack([lamp[1] for lamp in lamps])
            lit = np.argmax(v, 0)
            index = np.arange(len(cx))
            lit_value, lit_chroma = v[lit, index], c[lit, index]
            ordered = np.sort(v, 0)
            brighter, dimmer = ordered[1], ordered[0]
            unlit_value, unlit_chroma = (v.sum(0) - lit_value) / 2, (c.sum(0) - lit_chroma) / 2
            m = np.stack([
                lit_value - brighter, lit_value - housing[0], unlit_value - housing[0], brighter - dimmer,
                housing[0] - surround[0], np.abs(housing[0] - surround[0]), housing[1], surround[1],
                lit_chroma, unlit_chroma, np.full(len(cx), np.log(d / longer)),
            ], 1)
            prior = m[:, 0] + m[:, 5] - m[:, 3]
            parts.append((cx, cy, np.full(len(cx), d), lit, m, prior))
        d *= scale_step
    return [np.concatenate([part[k] for part in parts]) for k in range(6)]


def window_boxes(cx, cy, d, pitch=1.35):
    half = 0.7 * d
    return cx - half, cy - pitch * d - half, cx + half, cy + pitch * d + half


def overlap(box, x0, y0, x1, y1):
    """Intersection over union of `box` (xmin, ymin, xmax, ymax) with each window's box."""
    ix = np.maximum(0, np.minimum(box[2], x1) - np.maximum(box[0], x0))
    iy = np.maximum(0, np.minimum(box[3], y1) - np.maximum(box[1], y0))
    inter = ix * iy
    return inter / ((box[2] - box[0]) * (box[3] - box[1]) + (x1 - x0) * (y1 - y0) - inter)


def labelled_windows(folder, seed=0):
    """Per frame of `folder`: (name, measurements, labels) of its kept windows."""
    rng = np.random.default_rng(seed)
    boxes = frame_boxes(folder)
    frames = []
    for name in sorted(os.listdir(os.path.join(folder, "frames"))):
        rgb = np.asarray(Image.open(os.path.join(folder, "frames", name)).convert("RGB")).astype(float)
        cx, cy, d, lit, m, prior = windows(rgb)
        x0, y0, x1, y1 = window_boxes(cx, cy, d)
        positive = np.zeros(len(cx), dtype=bool)
        nearest = np.zeros(len(cx))
        for state, box in boxes.get(name, []):
            u = overlap(box, x0, y0, x1, y1)
            nearest = np.maximum(nearest, u)
            if state in COLORS:
                positive |= (u >= 0.5) & (lit == COLORS[state])
        # A negative overlaps no box by more than 0.3 and holds no box's centre (a lamp box
        # inside a window is a light there, whichever way its head runs).
        negative = nearest < 0.3
        for _, box in boxes.get(name, []):
            x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            negative &= ~((x0 <= x) & (x <= x1) & (y0 <= y) & (y <= y1))
        top = np.argsort(-prior, kind="stable")[:3000]
        drawn = np.flatnonzero(negative)
        drawn = rng.choice(drawn, size=min(3000, len(drawn)), replace=False)
        keep = np.unique(np.concatenate([np.flatnonzero(positive), top[negative[top]], drawn]))
        frames.append((name, m[keep], positive[keep].astype(float)))
    return frames


def readable_json(value):
    """`value` as JSON indented by two, each list of numbers on one line (a network's weights
    would otherwise take a line each)."""
    text = json.dumps(value, indent=2)
    return re.sub(r"\[\s*(-?[0-9][-0-9.eE+]*(?:,\s*-?[0-9][-0-9.eE+]*)*)\s*\]",
                  lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]", text) + "\n"


def halved(rgb):
    """`rgb` averaged over 2x2 blocks (an odd last row or column dropped), as RGBImage.halved."""
    h, w = rgb.shape[0] // 2 * 2, rgb.shape[1] // 2 * 2
    return rgb[:h:2, :w:2] / 4 + rgb[1:h:2, :w:2] / 4 + rgb[:h:2, 1:w:2] / 4 + rgb[1:h:2, 1:w:2] / 4


def search_negatives(folder, housings, per_frame=12, least=0.9):
    """Where `housings` (a profile's `housings` JSON) finds lights that are not there: per frame
    of `folder`, name -> the boxes (xmin, ymin, xmax, ymax, in the frame's pixels, cut to it)
    of up to `per_frame` windows at least `least` sure, none overlapping another (as
    HousingSearch.lights keeps them, with no network), that share no pixel with a box: the
    windows a network confirming the search must learn to refuse. A window on part of a light
    is left out: it is no light's housing, but its pixels are a light's."""
    weights, bias = np.array(housings["weights"]), housings["bias"]
    boxes = frame_boxes(folder)
    negatives = {}
    for name in sorted(os.listdir(os.path.join(folder, "frames"))):
        rgb = np.asarray(Image.open(os.path.join(folder, "frames", name)).convert("RGB")).astype(float)
        height, width = rgb.shape[:2]
        scale = 1
        while housings.get("longestSide", 0) and max(rgb.shape[:2]) > housings["longestSide"]:
            rgb, scale = halved(rgb), scale * 2
        cx, cy, d, _, m, _ = windows(rgb)
        score = expand(m) @ weights + bias
        order = [k for k in np.argsort(-score, kind="stable") if score[k] >= np.log(least / (1 - least))]
        x0, y0, x1, y1 = (v * scale for v in window_boxes(cx, cy, d))
        kept, found = [], []
        for k in order:
            if len(kept) == per_frame:
                break
            window = (x0[k], y0[k], x1[k], y1[k])
            if any(overlap(other, *window) > 0 for other in kept):
                continue
            kept.append(window)
            if any(overlap(box, *window) > 0 for _, box in boxes.get(name, [])):
                continue
            cut = (max(0, round(window[0])), max(0, round(window[1])),
                   min(width, round(window[2])), min(height, round(window[3])))
            if cut[2] - cut[0] >= 4 and cut[3] - cut[1] >= 4:
                found.append(tuple(int(v) for v in cut))
        negatives[name] = found
    return negatives


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--blocks", type=int, default=0)
    parser.add_argument("--block", type=int, default=0)
    parser.add_argument("--penalty", type=float, default=10.0)
    parser.add_argument("--least-confidence", type=float, default=0.999)
    parser.add_argument("--confirm-least", type=float, default=0.99)
    parser.add_argument("--limit", type=int, default=8)
    parser.add_argument("--longest-side", type=int, default=320)
    parser.add_argument("--network", help="a profile JSON whose network confirms windows (default: fitted)")
    parser.add_argument("--profile")
    parser.add_argument("-o", "--output")
    parser.add_argument("--check")
    parser.add_argument("--cache", help="a folder to keep each folder's measured windows in (.npz)")
    parser.add_argument("--held-out", metavar="BINARY", help="a built traffic-light: measure the fit held out")
    parser.add_argument("--networks", metavar="DIR", help="with --held-out: each block's network, DIR/blockB.json")
    parser.add_argument("--lamp-candidates", metavar="CSV",
                        help="with --held-out: `evaluate --candidates`' CSV; each block's lamp evidence model is "
                             "fitted to its candidates outside that block too")
    args = parser.parse_args()
    if args.held_out:
        return held_out(args)

    terms, labels, weights = [], [], []
    for folder in args.folders:
        cached = args.cache and os.path.join(args.cache, os.path.basename(os.path.normpath(folder)) + ".npz")
        if cached and os.path.exists(cached):
            stored = np.load(cached, allow_pickle=True)
            frames = list(stored["frames"])
        else:
            frames = labelled_windows(folder)
            if cached:
                os.makedirs(args.cache, exist_ok=True)
                np.savez(cached, frames=np.array(frames, dtype=object))
        # The block left out is fit_lamp_evidence's (and finder_heldout's): the frames the
        # held-out reading reads.
        held = set(block_frames(folder, args.blocks, args.block)) if args.blocks else set()
        kept = [(m, y) for name, m, y in frames if name not in held]
        m = np.concatenate([m for m, _ in kept])
        y = np.concatenate([y for _, y in kept])
        w = np.where(y == 1, 0.2 * (y == 0).sum() / max(y.sum(), 1), 1.0)
        terms.append(expand(m))
        labels.append(y)
        weights.append(w / w.sum())
        print(f"{folder}: {len(kept)} frames, {int(y.sum())} positive windows, {int((y == 0).sum())} negative",
              file=sys.stderr)
    weights = np.concatenate(weights)
    labels = np.concatenate(labels)
    bias, raw = fit(np.concatenate(terms), labels, weights * len(labels) / weights.sum(), args.penalty)

    search = {"searchedWith": "vertical", "longestSide": args.longest_side, "ranksBelowLamps": True,
              "kept": 0, "limit": args.limit, "bias": float("%.6g" % bias),
              "weights": [float("%.6g" % w) for w in raw], "minimumConfidence": args.least_confidence}
    if args.network:
        with open(args.network) as handle:
            decider = json.load(handle)["decider"]
        search["confirmation"] = {"network": decider["network"], "redVeto": decider["redVeto"],
                                  "least": args.confirm_least}
    else:
        search["confirmation"] = {"profile": "fitted", "least": args.confirm_least}
    print(json.dumps({k: v for k, v in search.items() if k != "confirmation"}))
    if args.check:
        with open(args.check) as handle:
            stored = json.load(handle)["locator"]["finder"]["housings"]
        worst = max(abs(stored["bias"] - bias), np.abs(np.array(stored["weights"]) - raw).max())
        if worst > 1e-3 * max(1, np.abs(raw).max()):
            sys.exit(f"{args.check}: the shipped housing search is not this fit (largest difference {worst:.3g})")
        print(f"{args.check}: the shipped housing search is this fit (largest difference {worst:.3g})")
    if args.profile:
        with open(args.profile) as handle:
            profile = json.load(handle)
        profile.setdefault("locator", {"kind": "litLamp"}).setdefault("finder", {})["housings"] = search
        with open(args.output or "/dev/stdout", "w") as handle:
            handle.write(readable_json(profile))


def held_out(args):
    if len(args.folders) != 1 or not args.networks or not args.blocks:
        sys.exit("--held-out reads one FOLDER, with --networks DIR and --blocks K")
    folder = args.folders[0]
    here = os.path.dirname(os.path.abspath(__file__))
    base = args.profile or os.path.join(here, "..", "Sources", "TrafficLight", "Profiles", "default.json")
    candidates = fit_lamp_evidence.load(args.lamp_candidates) if args.lamp_candidates else None
    totals = {"found": 0, "labelled": 0, "falseLights": 0, "frames": 0, "foundRedReadGreen": 0}
    with tempfile.TemporaryDirectory() as work:
        for block in range(args.blocks):
            start = base
            if candidates:
                # The lamps held out too: the evidence model fitted without this block of any folder.
                start = os.path.join(work, f"lamps{block}.json")
                evidence = fit_lamp_evidence.evidence_without_block(candidates, args.blocks, block)
                with open(start, "w") as handle:
                    json.dump(fit_lamp_evidence.with_evidence(base, evidence), handle)
            profile = os.path.join(work, f"fold{block}.json")
            command = [sys.executable, os.path.abspath(__file__), folder, "--blocks", str(args.blocks),
                       "--block", str(block), "--penalty", str(args.penalty),
                       "--least-confidence", str(args.least_confidence), "--confirm-least", str(args.confirm_least),
                       "--limit", str(args.limit), "--longest-side", str(args.longest_side), "--network", os.path.join(args.networks, f"block{block}.json"),
                       "--profile", start, "-o", profile]
            if args.cache:
                command += ["--cache", args.cache]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            target = finder_heldout.block_folder(folder, args.blocks, block, os.path.join(work, f"b{block}"))
            report = subprocess.run(
                [args.held_out, "evaluate", "--profile", profile, "--orientation", "vertical", "--format", "jsonl",
                 target], check=True, capture_output=True, text=True).stdout
            outcome = json.loads(report.splitlines()[0])
            for key in totals:
                totals[key] += outcome[key]
    t = totals
    lamps = ", the lamps' evidence too" if candidates else ""
    print(f"{folder} (vertical heads), {args.blocks} blocks held out{lamps}: {t['found']} of {t['labelled']} found "
          f"({100 * t['found'] / t['labelled']:.1f}%), {t['falseLights'] / t['frames']:.3f} false lights per frame, "
          f"{t['foundRedReadGreen']} red read green")


if __name__ == "__main__":
    main()
