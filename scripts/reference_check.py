#!/usr/bin/env python3
"""An independent Float64 implementation of SPEC.md's pipeline with the seed profile, to check
`traffic-light classify --profile seed` against.

It shares no code with the Swift package: Pillow decodes (its own libjpeg build), numpy blurs in
Float64 (separable, radius ceil(3 sigma), replicated borders, rounded to nearest), and the
classifier and sampler are the SPEC's formulas written out again.

    scripts/reference_check.py BINARY FOLDER [--min-agreement 0.99]

Runs BINARY (a built traffic-light) on FOLDER, compares the colours image by image, prints the
agreement and the disagreements, and exits 1 when the agreement is under the minimum.
Needs: pip install pillow numpy
"""
import json
import math
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageOps

SIGMA = 2.0
SATURATION_FLOOR = 0.8
POINTS = 7


def blur(rgb):
    radius = math.ceil(3 * SIGMA)
    offsets = np.arange(-radius, radius + 1)
    weights = np.exp(-(offsets**2) / (2 * SIGMA * SIGMA))
    weights /= weights.sum()
    image = rgb.astype(np.float64)
    h, w, _ = image.shape
    padded = np.pad(image, ((0, 0), (radius, radius), (0, 0)), mode="edge")
    across = sum(weights[i] * padded[:, i : i + w, :] for i in range(len(weights)))
    padded = np.pad(across, ((radius, radius), (0, 0), (0, 0)), mode="edge")
    down = sum(weights[i] * padded[i : i + h, :, :] for i in range(len(weights)))
    return np.clip(np.floor(down + 0.5), 0, 255).astype(np.uint8)


def pixel_class(r, g, b):
    r, g, b = float(r) / 255, float(g) / 255, float(b) / 255
    high, low = max(r, g, b), min(r, g, b)
    s = 0.0 if high == low else (high - low) / high
    if s <= SATURATION_FLOOR:
        return None
    if high == r:
        h = 60 * (g - b) / (high - low)
    elif high == g:
        h = 60 * (b - r) / (high - low) + 120
    else:
        h = 60 * (r - g) / (high - low) + 240
    if h < 0:
        h += 360
    if 140 < h < 220:
        return "green"
    if 5 < h < 60:
        return "yellow"
    if h < 5 or h > 340:
        return "red"
    return None


def frame_colour(path):
    # Turned as its EXIF orientation tag says, as the tool does by default.
    rgb = np.asarray(ImageOps.exif_transpose(Image.open(path)).convert("RGB"))
    blurred = blur(rgb)
    h, w, _ = blurred.shape
    counts = {"red": 0, "yellow": 0, "green": 0}
    for k in range(1, POINTS + 1):
        y = min((k * h) // (POINTS + 1), h - 1)
        c = pixel_class(*blurred[y, w // 2])
        if c:
            counts[c] += 1
    best = max(counts.values())
    if best == 0:
        return "unknown"
    return next(c for c in ("red", "yellow", "green") if counts[c] == best)


def main(argv):
    minimum = 0.99
    if "--min-agreement" in argv:
        i = argv.index("--min-agreement")
        minimum = float(argv[i + 1])
        del argv[i : i + 2]
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    binary, folder = argv
    run = subprocess.run(
        [binary, "classify", "--profile", "seed", "--format", "jsonl", folder],
        capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print(f"traffic-light exited {run.returncode}: {run.stderr}", file=sys.stderr)
        return 1
    ours = [json.loads(line) for line in run.stdout.splitlines()]
    agree = 0
    for record in ours:
        theirs = frame_colour(record["path"])
        if theirs == record["color"]:
            agree += 1
        else:
            print(f"differs: {record['path']}: traffic-light {record['color']}, reference {theirs}")
    share = agree / len(ours)
    print(f"agreement: {agree}/{len(ours)} = {share:.2%} (minimum {minimum:.0%})")
    return 0 if share >= minimum else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
