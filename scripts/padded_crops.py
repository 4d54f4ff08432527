#!/usr/bin/env python3
"""Cuts the labelled lights of a frames folder (frames/ and boxes.csv of
file,state,xmin,ymin,xmax,ymax, as in shared/frames/cinta) into labelled crop folders, the box
alone and with margins of its own size added on every side, for `evaluate`: a reading that
finds the light inside its crop reads them all alike.

    scripts/padded_crops.py FRAMES_FOLDER OUT_FOLDER [MARGIN ...]     (default margins 0 0.25 0.5)

Writes OUT_FOLDER/pad-M/{red,yellow,green}/NAME_I.png for each margin M (0.25 adds a quarter of
the box's width on the left and on the right, and of its height above and below; clipped to
the frame). The frames' licence travels with the crops (see the frames folder). Needs pillow.
"""
import csv
import os
import sys

from PIL import Image

frames, out = sys.argv[1], sys.argv[2]
margins = [float(m) for m in sys.argv[3:]] or [0.0, 0.25, 0.5]
counts = {}
with open(os.path.join(frames, "boxes.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
seen = {}
for row in rows:
    state = row["state"]
    if state not in ("red", "yellow", "green"):
        continue
    name = os.path.splitext(row["file"])[0]
    index = seen.get(name, 0)
    seen[name] = index + 1
    image = Image.open(os.path.join(frames, "frames", row["file"])).convert("RGB")
    x0, y0, x1, y1 = (int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
    for margin in margins:
        dx, dy = round((x1 - x0) * margin), round((y1 - y0) * margin)
        box = (max(0, x0 - dx), max(0, y0 - dy), min(image.width, x1 + dx), min(image.height, y1 + dy))
        folder = os.path.join(out, f"pad-{margin:g}", state)
        os.makedirs(folder, exist_ok=True)
        image.crop(box).save(os.path.join(folder, f"{name}_{index}.png"))
        counts[margin] = counts.get(margin, 0) + 1
print(", ".join(f"pad-{m:g}: {n} crops" for m, n in counts.items()))
