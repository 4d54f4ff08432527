#!/usr/bin/env python3
"""Measures the cascade and the light network (`fitted`'s) read together, each folder of crops
read by models fitted to the other three: `default`'s reading (the cascade, and where it names
no colour or is unsure the network's reading, NetworkFallback) held out, beside the other ways
of putting the two together (CALIBRATION.md, "`default`'s network fallback").

    scripts/train_light_network.py ../shared /tmp/unused.json --folds --no-final --dump /tmp/net.json
    scripts/fusion_check.py .build/release/traffic-light ../shared /tmp/net.json [--least-share S]
                            [--reads-below B]

The network's side is the dump of `train_light_network.py --folds`: each crop's class
probabilities from a network trained with its folder left out. The cascade's side is made
here: for each folder, `calibrate --from profiles/untrained.json` on the other three folders,
then `classify --format jsonl` of the left-out folder with that profile, its fallback taken out
(it would read with the network trained on every folder). Then, for each folder, the share of
its lit crops read as their colour, red lights read green, and dark lights read `unknown`, for
the cascade alone, the network alone (its own red veto and 0.5 floor, as `LightNetworkDecider`
with `fitted`'s `minimumConfidence`), the cascade with the network's answer where the cascade
names no colour, the reverse, and `default`'s way: the cascade where it names a colour at least
B sure (default.json's `readsBelow` unless given), else the network's red or yellow at least B
sure where the cascade names no colour, else the network's other colour where at least S of
the crop's pixels (default.json's `leastShare` unless given) are of it under the fold's
thresholds (the classifier's rules, mirrored here on the unblurred crop; the network's green
does not stand against the cascade's red evidence), else the cascade's.

Needs: pip install numpy pillow
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from network_reading import read as network_reading  # noqa: E402

FOLDERS = ["mit", "carpark", "sim", "cinta"]
DEFAULT = "Sources/TrafficLight/Profiles/default.json"


def cascade_readings(tool, shared, left, work):
    """Each crop of folder `left` read by a cascade fitted to the other folders: path ->
    (colour, confidence, what decided it), and the fitted profile's thresholds."""
    crops = lambda name: os.path.abspath(os.path.join(shared, "datasets", f"{name}-crops"))
    profile = os.path.join(work, f"{left}.json")
    others = [crops(name) for name in FOLDERS if name != left]
    subprocess.run([tool, "calibrate", "--from", "profiles/untrained.json", *others, "-o", profile],
                   check=True, stdout=subprocess.DEVNULL)
    # The cascade alone: the fallback reads with the network trained on every folder.
    with open(profile) as handle:
        fitted = json.load(handle)
    fitted.pop("networkFallback", None)
    with open(profile, "w") as handle:
        json.dump(fitted, handle)
    lines = subprocess.run([tool, "classify", "--profile", profile, "--format", "jsonl", crops(left)],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    readings = {}
    for line in lines:
        row = json.loads(line)
        readings[os.path.abspath(row["path"])] = (
            row.get("color", "unknown"), row.get("confidence", 0), row.get("decidedBy", "vote"))
    return readings, fitted["thresholds"]


def pixel_classes(path, thresholds):
    """Each pixel of the image at `path`, unblurred, as HSVClassifier classes it under
    `thresholds` (a profile's JSON form): "green", "yellow", "red" or None."""
    rgb = np.asarray(Image.open(path).convert("RGB"), dtype=np.int32)
    high, low = rgb.max(axis=2), rgb.min(axis=2)
    spread = high - low
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    safe = np.maximum(spread, 1)
    hue = np.where(high == r, 60.0 * (g - b) / safe, np.where(high == g, 120 + 60.0 * (b - r) / safe, 240 + 60.0 * (r - g) / safe))
    hue = np.mod(hue, 360)
    saturation = np.where(high > 0, spread / np.maximum(high, 1), 0)
    value = high / 255
    classes = np.full(high.shape, None, dtype=object)
    for colour in ["red", "yellow", "green"]:  # the last written wins: green first, as the classifier
        rule = thresholds[colour]
        lower, upper = rule["lower"], rule["upper"]
        in_hue = (hue > lower) & (hue < upper) if lower <= upper else (hue > lower) | (hue < upper)
        floor = rule.get("saturationFloor", thresholds["saturationFloor"])
        chosen = in_hue & (saturation > floor) & (value > thresholds["valueFloor"]) & (spread > 0)
        classes[chosen] = colour
    return classes


# What names `unknown` for red evidence beside green (RedEvidence): the network's green does not undo it.
RED_VETOES = ("redVetoesGreen", "litRedLamp", "redEvidence")


def fallback_reading(path, cascade, confidence, decided_by, network, network_confidence, thresholds,
                     least_share, reads_below):
    """`default`'s reading with its fallback (NetworkFallback): the cascade's colour where it
    names one at least `reads_below` sure; else the network's red or yellow where the cascade
    names no colour and the network is at least `reads_below` sure (`network_confidence`, its
    colour's probability); else the network's other colour where at least `least_share` of
    the crop's pixels are of it (green not where red evidence made the cascade's `unknown`,
    and `unknown` against the cascade's red); else the cascade's."""
    if (cascade != "unknown" and confidence >= reads_below) or network in ("unknown", cascade):
        return cascade
    if network == "green" and decided_by in RED_VETOES:
        return cascade
    if cascade == "unknown" and network != "green" and network_confidence >= reads_below:
        return network
    classes = pixel_classes(path, thresholds)
    shown = np.count_nonzero(classes == network)
    if shown == 0 or shown < least_share * classes.size:
        return cascade
    return "unknown" if network == "green" and cascade == "red" else network


RULES = {
    "cascade": lambda cascade, network, path: cascade,
    "network": lambda cascade, network, path: network,
    "cascade, else network": lambda cascade, network, path: cascade if cascade != "unknown" else network,
    "network, else cascade": lambda cascade, network, path: network if network != "unknown" else cascade,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool", help="the traffic-light binary")
    parser.add_argument("shared", help="the shared data folder (../shared)")
    parser.add_argument("network", help="train_light_network.py --folds --dump's file")
    parser.add_argument("--least-share", type=float, help="the fallback's leastShare (default: default.json's)")
    parser.add_argument("--reads-below", type=float, help="the fallback's readsBelow (default: default.json's)")
    args = parser.parse_args()
    with open(args.network) as f:
        network = json.load(f)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", DEFAULT)) as f:
        fallback = json.load(f)["networkFallback"]
    least_share = fallback["leastShare"] if args.least_share is None else args.least_share
    reads_below = fallback.get("readsBelow", 0) if args.reads_below is None else args.reads_below
    print(f"{'folder left out':16} {'reading':24} {'lit right':>18} {'red read green':>15} {'dark unknown':>13}")
    with tempfile.TemporaryDirectory() as work:
        for left in FOLDERS:
            cascade, thresholds = cascade_readings(args.tool, args.shared, left, work)
            rules = dict(RULES)
            rules["default (network shown)"] = lambda c, n, path: fallback_reading(
                path, c, cascade[path][1], cascade[path][2], n, max(network[path]["p"]), thresholds, least_share,
                reads_below)
            missing = [path for path in cascade if path not in network]
            if missing:
                sys.exit(f"{missing[0]}: not in {args.network} (dumped from another shared folder?)")
            for name, rule in rules.items():
                answers = [
                    (rule(cascade[path][0], network_reading(np.array(network[path]["p"])), path), network[path]["state"])
                    for path in cascade
                ]
                lit = [(a, s) for a, s in answers if s != "unknown"]
                dark = [a for a, s in answers if s == "unknown"]
                right = sum(a == s for a, s in lit)
                red_green = sum(a == "green" and s == "red" for a, s in answers)
                dark_text = f"{sum(a == 'unknown' for a in dark)} of {len(dark)}" if dark else "-"
                print(f"{left:16} {name:24} {100 * right / len(lit):6.1f}% ({right:4} of {len(lit):4}) "
                      f"{red_green:15} {dark_text:>13}", flush=True)


if __name__ == "__main__":
    main()
