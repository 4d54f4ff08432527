#!/usr/bin/env python3
"""Builds labelled recordings from a folder of labelled crops, for `traffic-light evaluate`.

Each recording is a folder with frames/ (links to crops of each frame's state) and labels.csv
(index,file,state), the layout of ../shared/sequences: runs of states in a light's cycle
(green, yellow, red, dark, red, green, yellow, red), yellow 2 to 4 frames, the others 3 to 15,
a dark frame a black PNG (no light lit), and 5% of the frames an unreadable file. Crops are
drawn independently frame by frame, so a recording is as noisy as the folder's crops.

    scripts/built_recordings.py ../shared/datasets/sim-crops /tmp/built-sim --count 20
    traffic-light evaluate --format jsonl /tmp/built-sim/rec_*
"""
import argparse
import csv
import os
import random
import struct
import zlib


def black_png(width=40, height=90):
    """A black RGB PNG, written by hand (no imaging library needed)."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(3 * width) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("crops", help="a folder of labelled crops: red/, yellow/, green/, or labels.csv (file,state)")
    parser.add_argument("out", help="where to write rec_00, rec_01, ...")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    crops = {"red": [], "yellow": [], "green": []}
    labels = os.path.join(args.crops, "labels.csv")
    if os.path.exists(labels):
        with open(labels) as f:
            for row in csv.DictReader(f):
                if row["state"] in crops:
                    crops[row["state"]].append(os.path.join(args.crops, row["file"]))
    else:
        for state in crops:
            folder = os.path.join(args.crops, state)
            crops[state] = [os.path.join(folder, name) for name in os.listdir(folder)
                            if name.lower().endswith((".jpg", ".jpeg", ".png"))]
    for state in crops:
        crops[state].sort()
    cycle = ["green", "yellow", "red", "unknown", "red", "green", "yellow", "red"]
    for number in range(args.count):
        folder = os.path.join(args.out, "rec_%02d" % number)
        frames = os.path.join(folder, "frames")
        os.makedirs(frames, exist_ok=True)
        rows = ["index,file,state"]
        index = 0
        for state in cycle:
            length = rng.randint(2, 4) if state == "yellow" else rng.randint(3, 15)
            for _ in range(length):
                if rng.random() < 0.05:
                    name = "f_%04d.png" % index
                    with open(os.path.join(frames, name), "wb") as f:
                        f.write(b"not an image")
                elif state == "unknown":
                    name = "f_%04d.png" % index
                    with open(os.path.join(frames, name), "wb") as f:
                        f.write(black_png())
                else:
                    source = rng.choice(crops[state])
                    name = "f_%04d%s" % (index, os.path.splitext(source)[1].lower())
                    os.symlink(os.path.abspath(source), os.path.join(frames, name))
                rows.append("%d,%s,%s" % (index, name, state))
                index += 1
        with open(os.path.join(folder, "labels.csv"), "w") as f:
            f.write("\n".join(rows) + "\n")
    print("wrote %d recordings to %s" % (args.count, args.out))


if __name__ == "__main__":
    main()
