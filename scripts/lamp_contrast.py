#!/usr/bin/env python3
"""How much the labelled lamp of each vertical housing box stands out from the other two lamps:
a check of labels against what the image shows.

    scripts/lamp_contrast.py FRAMES_FOLDER [--all]

FRAMES_FOLDER holds frames/ and boxes.csv of file,state,xmin,ymin,xmax,ymax (housing boxes of
three-lamp heads, as in shared/frames/cinta). For each box labelled red, yellow or green that is
taller than wide, the lamp the label names (top, middle or bottom third) and the other two are
each measured on a square disc at their third's centre, half as wide as the box or the third,
whichever is smaller: the mean brightness (largest channel) and the mean chroma (largest minus
smallest channel), 0 to 1. The labelled lamp's lead is its value and its chroma less the largest
of the other two lamps'. Prints the boxes whose labelled lamp leads in neither (no brighter and
no more colourful than an unlit neighbour: a lamp off in this image, or a label of the wrong
lamp), or every box with --all, as NAME_I (the crop names of scripts/padded_crops.py and
shared/datasets/cinta-crops), state, box size, value lead, chroma lead. Horizontal heads are
left out: their lamp order differs between countries. Needs numpy and pillow.
"""
import csv
import os
import sys

import numpy as np
from PIL import Image

LAMP = {"red": 0, "yellow": 1, "green": 2}


def disc_means(pixels, x0, y0, width, height):
    """The mean value and chroma of each third's centre square, top to bottom."""
    third = height / 3
    side = max(1.0, 0.5 * min(width, third))
    means = []
    for t in range(3):
        cx, cy = x0 + width / 2, y0 + (t + 0.5) * third
        square = pixels[int(cy - side / 2) : int(cy + side / 2) + 1, int(cx - side / 2) : int(cx + side / 2) + 1]
        high, low = square.max(axis=2), square.min(axis=2)
        means.append((high.mean(), (high - low).mean()))
    return means


def main():
    args = [a for a in sys.argv[1:] if a != "--all"]
    if len(args) != 1:
        sys.exit(__doc__.split("\n\n")[1])
    folder, every = args[0], "--all" in sys.argv
    with open(os.path.join(folder, "boxes.csv"), newline="") as handle:
        rows = list(csv.DictReader(handle))
    seen, results = {}, []
    for row in rows:
        name = os.path.splitext(row["file"])[0]
        index = seen.get(name, 0)
        seen[name] = index + 1
        state = row["state"]
        x0, y0, x1, y1 = (int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
        if state not in LAMP or y1 - y0 <= x1 - x0:
            continue
        pixels = np.asarray(Image.open(os.path.join(folder, "frames", row["file"])).convert("RGB")) / 255.0
        means = disc_means(pixels, x0, y0, x1 - x0, y1 - y0)
        lit = LAMP[state]
        others = [means[t] for t in range(3) if t != lit]
        lead = (means[lit][0] - max(o[0] for o in others), means[lit][1] - max(o[1] for o in others))
        if every or (lead[0] <= 0 and lead[1] <= 0):
            results.append((f"{name}_{index}", state, x1 - x0, y1 - y0, lead[0], lead[1]))
    for name, state, width, height, value, chroma in sorted(results, key=lambda r: r[4] + r[5]):
        print(f"{name}\t{state}\t{width}x{height}\tvalue {value:+.3f}\tchroma {chroma:+.3f}")


if __name__ == "__main__":
    main()
