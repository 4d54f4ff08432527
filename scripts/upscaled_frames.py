#!/usr/bin/env python3
"""Writes a frames folder (frames/ and boxes.csv, as in shared/frames) enlarged SCALE times,
boxes and all, so that its frames are large enough to be searched at a reduced scale
(`LampFinder.searchDenominator`: a longer side of 1800 pixels or more):

    scripts/upscaled_frames.py FRAMES_FOLDER OUT_FOLDER SCALE        (needs pillow)

Each frame is resized by bicubic interpolation and saved as a JPEG (quality 92) under the
same name; each box's corners are multiplied by SCALE and rounded. Other columns of
boxes.csv (the state or lamp, a shape) are copied as they are, and so are the folder's
other files (its licence, attribution and README travel with the frames).
"""
import csv
import os
import shutil
import sys

from PIL import Image

source, out, scale = sys.argv[1], sys.argv[2], float(sys.argv[3])
os.makedirs(os.path.join(out, "frames"), exist_ok=True)
with open(os.path.join(source, "boxes.csv"), newline="") as f:
    rows = list(csv.reader(f))
header, boxes = rows[0], rows[1:]
corners = [header.index(name) for name in ("xmin", "ymin", "xmax", "ymax")]
with open(os.path.join(out, "boxes.csv"), "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(header)
    for row in boxes:
        for i in corners:
            row[i] = str(round(int(row[i]) * scale))
        writer.writerow(row)
names = sorted(os.listdir(os.path.join(source, "frames")))
for name in names:
    image = Image.open(os.path.join(source, "frames", name)).convert("RGB")
    size = (round(image.width * scale), round(image.height * scale))
    image.resize(size, Image.BICUBIC).save(os.path.join(out, "frames", name), quality=92)
for entry in os.listdir(source):
    path = os.path.join(source, entry)
    if entry != "boxes.csv" and os.path.isfile(path):
        shutil.copy(path, out)
print(f"{len(names)} frames, {len(boxes)} boxes, enlarged {scale:g} times, in {out}")
