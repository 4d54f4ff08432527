#!/usr/bin/env python3
"""Measures the cascade (`default`'s kind) and the light network (`fitted`'s) read together,
each folder of crops read by models fitted to the other three: the question of which reading
`default` should be (CALIBRATION.md, "The cascade and the network together").

    scripts/train_light_network.py ../shared /tmp/unused.json --folds --no-final --dump /tmp/net.json
    scripts/fusion_check.py .build/release/traffic-light ../shared /tmp/net.json

The network's side is the dump of `train_light_network.py --folds`: each crop's class
probabilities from a network trained with its folder left out. The cascade's side is made
here: for each folder, `calibrate --from profiles/untrained.json` on the other three folders,
then `classify --format jsonl` of the left-out folder with that profile. Then, for each folder,
the share of its lit crops read as their colour, red lights read green, and dark lights read
`unknown`, for the cascade alone, the network alone (its own red veto and 0.5 floor, as
`LightNetworkDecider` with `fitted`'s `minimumConfidence`), the cascade with the network's
answer where the cascade names no colour, and the reverse.

Needs: pip install numpy
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from network_reading import read as network_reading  # noqa: E402

FOLDERS = ["mit", "carpark", "sim", "cinta"]


def cascade_readings(tool, shared, left, work):
    """Each crop of folder `left` read by a cascade fitted to the other folders: path -> colour."""
    crops = lambda name: os.path.abspath(os.path.join(shared, "datasets", f"{name}-crops"))
    profile = os.path.join(work, f"{left}.json")
    others = [crops(name) for name in FOLDERS if name != left]
    subprocess.run([tool, "calibrate", "--from", "profiles/untrained.json", *others, "-o", profile],
                   check=True, stdout=subprocess.DEVNULL)
    lines = subprocess.run([tool, "classify", "--profile", profile, "--format", "jsonl", crops(left)],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    readings = {}
    for line in lines:
        row = json.loads(line)
        readings[os.path.abspath(row["path"])] = row.get("color", "unknown")
    return readings


RULES = {
    "cascade": lambda cascade, network: cascade,
    "network": lambda cascade, network: network,
    "cascade, else network": lambda cascade, network: cascade if cascade != "unknown" else network,
    "network, else cascade": lambda cascade, network: network if network != "unknown" else cascade,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool", help="the traffic-light binary")
    parser.add_argument("shared", help="the shared data folder (../shared)")
    parser.add_argument("network", help="train_light_network.py --folds --dump's file")
    args = parser.parse_args()
    with open(args.network) as f:
        network = json.load(f)
    print(f"{'folder left out':16} {'reading':24} {'lit right':>18} {'red read green':>15} {'dark unknown':>13}")
    with tempfile.TemporaryDirectory() as work:
        for left in FOLDERS:
            cascade = cascade_readings(args.tool, args.shared, left, work)
            missing = [path for path in cascade if path not in network]
            if missing:
                sys.exit(f"{missing[0]}: not in {args.network} (dumped from another shared folder?)")
            for name, rule in RULES.items():
                answers = [(rule(cascade[path], network_reading(np.array(network[path]["p"]))), network[path]["state"])
                           for path in cascade]
                lit = [(a, s) for a, s in answers if s != "unknown"]
                dark = [a for a, s in answers if s == "unknown"]
                right = sum(a == s for a, s in lit)
                red_green = sum(a == "green" and s == "red" for a, s in answers)
                dark_text = f"{sum(a == 'unknown' for a in dark)} of {len(dark)}" if dark else "-"
                print(f"{left:16} {name:24} {100 * right / len(lit):6.1f}% ({right:4} of {len(lit):4}) "
                      f"{red_green:15} {dark_text:>13}", flush=True)


if __name__ == "__main__":
    main()
