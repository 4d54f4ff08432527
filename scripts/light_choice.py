#!/usr/bin/env python3
"""How a frame's light is chosen among the lights found in it, measured on the shared frames.

    scripts/light_choice.py BINARY FRAMES_DIR...    (e.g. ../shared/frames/{cinta,kr,sim})

BINARY is a built `traffic-light`; each FRAMES_DIR holds frames/ and boxes.csv. Every frame is
searched once (`classify --find-lights --format jsonl`, the lights each finds); then each
choice rule picks one light a frame, and a frame is right when the light's colour is the one
colour of its labelled lit boxes (frames whose boxes disagree, or have none lit, are left
out). The rules: today's "most restrictive colour first" and a score, confidence plus
SIZE * ln(area / largest area) minus PLACE * |centre x - 0.5| (in frame widths), the most
restrictive colour winning among the lights within TIE of the best score. Prints each rule's
figures per folder (right / answered, red read green, and on frames whose lights disagree),
then each folder read by the rule chosen on the others (leave one folder out).
"""
import collections
import csv
import json
import math
import os
import struct
import subprocess
import sys

ORDER = ["red", "yellow", "green"]


def image_width(path):
    """The width of a JPEG or PNG, from its header."""
    with open(path, "rb") as f:
        data = f.read(1 << 16)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">I", data[16:20])[0]
    i = 2
    while i < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return struct.unpack(">H", data[i + 7:i + 9])[0]
        i += 2 + length
    raise ValueError(f"{path}: no frame header")


def load(binary, folder):
    truth = collections.defaultdict(set)
    with open(os.path.join(folder, "boxes.csv"), newline="") as f:
        for row in csv.DictReader(f):
            state = row.get("state") or row.get("lamp")
            if state in ORDER:
                truth[row["file"]].add(state)
    run = subprocess.run([binary, "classify", "--find-lights", "--format", "jsonl", os.path.join(folder, "frames")],
                         capture_output=True, text=True)
    frames = []
    for line in run.stdout.splitlines():
        record = json.loads(line)
        states = truth.get(os.path.basename(record["path"]), set())
        if len(states) == 1 and "error" not in record:
            frames.append((states.pop(), record.get("lights", []), image_width(record["path"])))
    return frames


def restrictive(lights, width):
    for color in ORDER:
        of = [l for l in lights if l["color"] == color]
        if of:
            return max(of, key=lambda l: (l["confidence"], l["box"][2] * l["box"][3]))
    return None


def scored(tie, size, place):
    def rule(lights, width):
        if not lights:
            return None
        largest = max(l["box"][2] * l["box"][3] for l in lights)

        def score(l):
            centre = (l["box"][0] + l["box"][2] / 2) / width
            return l["confidence"] + size * math.log(l["box"][2] * l["box"][3] / largest) - place * abs(centre - 0.5)
        best = max(score(l) for l in lights)
        tied = [l for l in lights if score(l) >= best - tie]
        return min(tied, key=lambda l: (ORDER.index(l["color"]), -score(l)))
    return rule


def figures(rule, frames):
    right = answered = red_green = mixed = mixed_right = 0
    for truth, lights, width in frames:
        chosen = rule(lights, width)
        if chosen is None:
            continue
        answered += 1
        right += chosen["color"] == truth
        red_green += truth == "red" and chosen["color"] == "green"
        if len({l["color"] for l in lights}) > 1:
            mixed += 1
            mixed_right += chosen["color"] == truth
    return right, answered, red_green, mixed, mixed_right


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, folders = sys.argv[1], sys.argv[2:]
    data = {os.path.basename(os.path.normpath(f)): load(binary, f) for f in folders}
    rules = {"most restrictive first (before)": restrictive}
    for tie in (0, 0.01, 0.05, 0.1, 0.2):
        for size in (0, 0.025, 0.05):
            for place in (0, 0.1, 0.2):
                rules[f"tie {tie} size {size} place {place}"] = scored(tie, size, place)
    print("rule | " + " | ".join(f"{name}: right / answered, red read green, mixed right" for name in data))
    for name, rule in rules.items():
        cells = []
        for folder, frames in data.items():
            right, answered, red_green, mixed, mixed_right = figures(rule, frames)
            cells.append(f"{right}/{answered}, {red_green}, {mixed_right}/{mixed}")
        print(f"{name} | " + " | ".join(cells))
    print("\nleave one folder out (rule chosen by lights right on the others; the simplest of equals):")
    names = [n for n in rules if n != "most restrictive first (before)"]
    for held in data:
        others = [d for d in data if d != held]
        best = max(names, key=lambda n: (sum(figures(rules[n], data[d])[0] for d in others), -names.index(n)))
        right, answered, red_green, _, _ = figures(rules[best], data[held])
        before = figures(restrictive, data[held])
        print(f"{held}: {best} -> {right}/{answered} ({red_green} red read green); before {before[0]}/{before[1]}")


if __name__ == "__main__":
    main()
