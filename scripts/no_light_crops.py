#!/usr/bin/env python3
"""Writes a labelled folder of crops with no lit traffic light in them, for `evaluate`: every
one must read `unknown` (SPEC section 6: sky, walls, grey and colour gradients and a light
with every lamp dark are no evidence of a colour).

    scripts/no_light_crops.py SHARED_FRAMES OUT_FOLDER

From the whole frames of SHARED_FRAMES/cinta and SHARED_FRAMES/sim (shared/frames), every
third frame, three boxes the size of one of its lights, placed at random (seeded, so the
folder is the same on every run) where they keep 4 pixels clear of every labelled light;
plus synthetic crops: grey and colour gradients, sky blues, and a dark housing with three
unlit lamps. All go to OUT_FOLDER/unknown/, so `traffic-light evaluate OUT_FOLDER` reports
the share read `unknown` as its agreement. The frames' licences travel with them: cinta is
CC BY 4.0 (Roboflow project cinta_v2), sim is MIT (Udacity); see SHARED_FRAMES' READMEs.
Needs: pip install pillow
"""
import csv
import os
import random
import sys

from PIL import Image, ImageDraw


def cut_from_frames(frames, out, rng):
    count = 0
    for folder in ["cinta", "sim"]:
        boxes = {}
        with open(os.path.join(frames, folder, "boxes.csv"), newline="") as f:
            for row in csv.DictReader(f):
                box = tuple(int(row[k]) for k in ["xmin", "ymin", "xmax", "ymax"])
                boxes.setdefault(row["file"], []).append(box)
        for name in sorted(boxes)[::3]:
            image = Image.open(os.path.join(frames, folder, "frames", name)).convert("RGB")
            width, height = image.size
            for k in range(3):
                light = rng.choice(boxes[name])
                w = max(12, light[2] - light[0])
                h = max(30, light[3] - light[1])
                for _ in range(50):
                    x = rng.randint(0, width - w)
                    y = rng.randint(0, height - h)
                    if all(
                        x + w <= b[0] - 4 or x >= b[2] + 4 or y + h <= b[1] - 4 or y >= b[3] + 4
                        for b in boxes[name]
                    ):
                        break
                else:
                    continue
                stem = os.path.splitext(name)[0]
                image.crop((x, y, x + w, y + h)).save(os.path.join(out, f"{folder}_{stem}_{k}.png"))
                count += 1
    return count


def synthetic(out):
    size = (40, 100)
    crops = {}
    for level in (60, 128, 200):
        crops[f"grey_{level}"] = Image.new("RGB", size, (level, level, level))
    gradients = {
        "grey_down": ((30, 30, 30), (230, 230, 230)),
        "grey_up": ((230, 230, 230), (30, 30, 30)),
        "red_to_green": ((200, 40, 40), (40, 200, 80)),
        "green_to_red": ((40, 200, 80), (200, 40, 40)),
        "amber_to_grey": ((230, 150, 20), (120, 120, 120)),
        "sky": ((110, 160, 230), (190, 215, 240)),
        "dusk_sky": ((60, 90, 160), (230, 160, 110)),
        "overcast": ((170, 180, 195), (210, 214, 220)),
    }
    for name, (top, bottom) in gradients.items():
        image = Image.new("RGB", size)
        for y in range(size[1]):
            t = y / (size[1] - 1)
            colour = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom))
            for x in range(size[0]):
                image.putpixel((x, y), colour)
        crops[name] = image
    for name, background in [("dark_housing_sky", (120, 170, 230)), ("dark_housing_wall", (200, 190, 170))]:
        image = Image.new("RGB", size, background)
        draw = ImageDraw.Draw(image)
        draw.rectangle((4, 2, 35, 97), fill=(25, 25, 28))
        for k in range(3):
            cy = 18 + 32 * k
            draw.ellipse((9, cy - 11, 30, cy + 11), fill=(45, 45, 48))
        crops[name] = image
    for name, image in crops.items():
        image.save(os.path.join(out, f"synthetic_{name}.png"))
    return len(crops)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    frames, folder = sys.argv[1], sys.argv[2]
    out = os.path.join(folder, "unknown")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(1)
    count = cut_from_frames(frames, out, rng) + synthetic(out)
    print(f"wrote {count} crops with no lit light to {out}")


if __name__ == "__main__":
    main()
