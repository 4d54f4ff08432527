#!/usr/bin/env python3
"""Trains the light network of the `fitted` profile from the shared folders, and measures it
with each folder left out of its training.

    scripts/train_light_network.py SHARED OUT.json [--folds [--dump FILE]] [--blocks N [--cinta-blocks DIR]]
                                   [--housing-negatives] [--epochs N] [--fixtures FILE]

SHARED is the shared data folder (../shared). Writes the `fitted` profile, its network trained on
every folder, to OUT.json (Sources/TrafficLight/Profiles/fitted.json is what it wrote; the
network's form is `LightNetwork`'s, Sources/TrafficLight/Reading/LightNetwork.swift).
With --folds it first trains once per folder with that folder left out and prints how each
left-out folder reads (--dump writes each left-out image's class probabilities, for
scripts/fusion_check.py), and with --blocks N it reads each of N contiguous blocks of every folder
(cinta's: the crops of each block of frames/cinta's frames in name order) with a network trained
on the rest: the held-out figures of CALIBRATION.md. --fixtures writes thumbnails of
made-up images, and of a few shared crops with the scores PyTorch gives them, for the Swift
tests (Tests/TrafficLightTests/Fixtures/light-network.json). With --housing-negatives it trains
the network that confirms `default`'s housing search instead (scripts/fit_housing_search.py
puts it in default.json): the same data and the windows that search finds in frames/cinta
away from every box, as `unknown`.

The network reads a light's thumbnail (`thumbnail` below, the same arithmetic as
`LightThumbnail` in Swift): the light turned upright when it is wider than tall, averaged
down to 24x48 cells, each channel divided by the brightest cell's brightest channel (at least
64). Three 3x3 convolutions with ReLU (the first two followed by a 2x2 max pool), then the
largest response of each channel in the top, middle and bottom thirds of the rows, so that
the lamp's place counts; a linear readout gives red, yellow, green and unknown.

Training data, grouped by folder so that a fold leaves a whole source out: mit-crops,
carpark-crops, sim-crops, and cinta (cinta-crops, and its housings cut from frames/cinta with
a random margin of 0 to 60% of the box each epoch). `unknown` examples are the dark lights of
each folder, patches of cinta and sim frames clear of every light (frames whose index is not a
multiple of 3: scripts/no_light_crops.py cuts its test patches from the others), and made-up
gradients. Each epoch pads some crops with their own edge, trims up to a tenth of a side,
flips, changes saturation, and brightens or darkens (a fifth of the time until lamps burn out
to white); the probability of green given to a red light is added to the loss. Seeded: the
same PyTorch version on the same CPU gives the same weights.

Needs: pip install torch pillow numpy
"""
import argparse
import csv
import glob
import json
import os
import random
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_lamp_evidence import block_frames, frame_boxes  # noqa: E402
from network_reading import CLASSES, MINIMUM, VETO, read  # noqa: E402

WIDTH, HEIGHT, FLOOR = 24, 48, 64.0
CHANNELS = [3, 12, 24, 24]
POOLS = [True, True, False]


def thumbnail(rgb):
    """rgb: HxWx3 uint8. Returns 3xHEIGHTxWIDTH float32, as LightThumbnail does."""
    h, w = rgb.shape[:2]
    if w > h:
        rgb = rgb.transpose(1, 0, 2)
        h, w = w, h
    xs = np.array([(i * w) // WIDTH for i in range(WIDTH + 1)])
    ys = np.array([(j * h) // HEIGHT for j in range(HEIGHT + 1)])
    x0, x1 = xs[:-1], np.maximum(xs[1:], xs[:-1] + 1)
    y0, y1 = ys[:-1], np.maximum(ys[1:], ys[:-1] + 1)
    # Sums over each cell from the summed-area table: whole numbers, so exact.
    table = np.zeros((h + 1, w + 1, 3), dtype=np.int64)
    table[1:, 1:] = rgb.astype(np.int64).cumsum(axis=0).cumsum(axis=1)
    sums = (table[y1][:, x1] - table[y0][:, x1] - table[y1][:, x0] + table[y0][:, x0]).astype(np.float64)
    cells = sums / ((y1 - y0)[:, None, None] * (x1 - x0)[None, :, None]).astype(np.float64)
    scale = 1.0 / max(cells.max(), FLOOR)
    return (cells * scale).astype(np.float32).transpose(2, 0, 1)


class LightNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList(
            nn.Conv2d(CHANNELS[k], CHANNELS[k + 1], 3, padding=1) for k in range(len(POOLS)))
        self.readout = nn.Linear(CHANNELS[-1] * 3, len(CLASSES))

    def features(self, x):
        for conv, pool in zip(self.convs, POOLS):
            x = F.relu(conv(x))
            if pool:
                x = F.max_pool2d(x, 2)
        rows = x.shape[2]
        thirds = [x[:, :, (k * rows) // 3:((k + 1) * rows) // 3, :].amax(dim=(2, 3)) for k in range(3)]
        return torch.cat(thirds, dim=1)

    def forward(self, x):
        return self.readout(self.features(x))


def load(path):
    return np.asarray(Image.open(path).convert("RGB"))


def labelled_folder(folder):
    csv_path = os.path.join(folder, "labels.csv")
    if os.path.exists(csv_path):
        with open(csv_path, newline="") as f:
            return [(os.path.join(folder, r["file"]), r["state"]) for r in csv.DictReader(f)]
    items = []
    for state in CLASSES:
        for path in sorted(glob.glob(os.path.join(folder, state, "*"))):
            if path.lower().endswith((".jpg", ".jpeg", ".png")):
                items.append((path, state))
    return items


def clear_patches(folder, rng, per_frame=2):
    """Patches the size of a light, 4 pixels clear of every box, from frames not cut by
    no_light_crops.py."""
    boxes = frame_boxes(folder)
    patches = []
    for index, name in enumerate(sorted(boxes)):
        if index % 3 == 0:
            continue
        image = load(os.path.join(folder, "frames", name))
        height, width = image.shape[:2]
        for _ in range(per_frame):
            (_, light) = rng.choice(boxes[name])
            w, h = max(12, light[2] - light[0]), max(30, light[3] - light[1])
            if w >= width or h >= height:
                continue
            for _ in range(50):
                x, y = rng.randint(0, width - w), rng.randint(0, height - h)
                if all(x + w <= b[0] - 4 or x >= b[2] + 4 or y + h <= b[1] - 4 or y >= b[3] + 4
                       for _, b in boxes[name]):
                    patches.append(image[y:y + h, x:x + w])
                    break
    return patches


def gradients(rng, count):
    out = []
    for _ in range(count):
        top = np.array([rng.randint(0, 255) for _ in range(3)], dtype=np.float64)
        bottom = np.array([rng.randint(0, 255) for _ in range(3)], dtype=np.float64)
        t = np.linspace(0, 1, 100)[:, None, None]
        out.append(np.broadcast_to(top + (bottom - top) * t, (100, 40, 3)).astype(np.uint8).copy())
    return out


class Example:
    """An image and its label, or a frame and a box to cut with a random margin."""

    def __init__(self, state, image=None, frame=None, box=None, place=None, source=None):
        self.state, self.image, self.frame, self.box = state, image, frame, box
        # Where in its folder's order the example lies, 0 to 1 (None: in every block's training).
        self.place = place
        # The file of frames/cinta the example comes from (its crop, housing or window), if any.
        self.source = source

    def sample(self, rng):
        if self.frame is None:
            image = self.image
            if rng.random() < 0.4:
                h, w = image.shape[:2]
                pad = [int(rng.uniform(0, 0.3) * s) for s in (h, h, w, w)]
                image = np.pad(image, ((pad[0], pad[1]), (pad[2], pad[3]), (0, 0)), mode="edge")
        else:
            x0, y0, x1, y1 = self.box
            m = rng.uniform(0, 0.6)
            mx, my = int(m * (x1 - x0)), int(m * (y1 - y0))
            height, width = self.frame.shape[:2]
            image = self.frame[max(0, y0 - my):min(height, y1 + my), max(0, x0 - mx):min(width, x1 + mx)]
        h, w = image.shape[:2]
        if rng.random() < 0.3 and h > 8 and w > 8:
            cut = [int(rng.uniform(0, 0.1) * s) for s in (h, h, w, w)]
            image = image[cut[0]:h - cut[1], cut[2]:w - cut[3]]
        if rng.random() < 0.5:
            image = image[:, ::-1]
        pixels = image.astype(np.float32)
        grey = pixels.mean(axis=2, keepdims=True)
        pixels = grey + (pixels - grey) * rng.uniform(0.6, 1.3)
        gain = rng.uniform(0.6, 1.5) if rng.random() < 0.8 else rng.uniform(1.5, 3.0)
        return np.clip(pixels * gain, 0, 255).astype(np.uint8)


def crop_frame(path):
    """The file of frames/cinta a cinta crop was cut from (cinta_0013_0.jpg: cinta_0013.jpg)."""
    return os.path.basename(path).rsplit("_", 1)[0] + ".jpg"


def gather(shared, rng, housing_negatives=None):
    """Training examples by folder, and the crops each left-out folder is read on. With
    `housing_negatives` (name -> boxes in frames/cinta), those boxes join cinta as `unknown`."""
    groups, tests = {}, {}
    datasets = os.path.join(shared, "datasets")
    for name in ["mit", "carpark", "sim", "cinta"]:
        items = labelled_folder(os.path.join(datasets, f"{name}-crops"))
        groups[name] = [Example(state, image=load(path), place=k / len(items)) for k, (path, state) in enumerate(items)]
        tests[name] = items
    # Cinta's examples are placed by their frame (`source`), not by the crops' order.
    for e, (path, _) in zip(groups["cinta"], tests["cinta"]):
        e.place, e.source = None, crop_frame(path)
    cinta = os.path.join(shared, "frames", "cinta")
    for name, lights in sorted(frame_boxes(cinta).items()):
        frame = load(os.path.join(cinta, "frames", name))
        for state, box in lights:
            groups["cinta"].append(Example(state, frame=frame, box=box, source=name))
    groups["cinta"] += [Example("unknown", image=p) for p in clear_patches(cinta, rng)]
    for name, boxes in sorted((housing_negatives or {}).items()):
        frame = load(os.path.join(cinta, "frames", name))
        groups["cinta"] += [Example("unknown", image=frame[y0:y1, x0:x1], source=name) for x0, y0, x1, y1 in boxes]
    groups["sim"] += [Example("unknown", image=p) for p in clear_patches(os.path.join(shared, "frames", "sim"), rng)]
    groups["made-up"] = [Example("unknown", image=g) for g in gradients(rng, 60)]
    return groups, tests


def train(examples, epochs, seed):
    torch.manual_seed(seed)
    rng = random.Random(seed)
    model = LightNetwork()
    counts = np.bincount([CLASSES.index(e.state) for e in examples], minlength=len(CLASSES))
    weights = torch.tensor((counts.sum() / np.maximum(counts, 1) / len(CLASSES)) ** 0.5, dtype=torch.float32)
    labels = torch.tensor([CLASSES.index(e.state) for e in examples])
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, epochs)
    for _ in range(epochs):
        inputs = torch.from_numpy(np.stack([thumbnail(e.sample(rng)) for e in examples]))
        order = torch.randperm(len(examples))
        model.train()
        for start in range(0, len(order), 64):
            batch = order[start:start + 64]
            scores = model(inputs[batch])
            loss = F.cross_entropy(scores, labels[batch], weight=weights)
            # A red read as green costs more: the probability green takes from a red light.
            red = labels[batch] == 0
            if red.any():
                loss = loss + F.softmax(scores[red], dim=1)[:, 2].mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        schedule.step()
    return model.eval()


def probabilities(model, images):
    with torch.no_grad():
        x = torch.from_numpy(np.stack([thumbnail(i) for i in images]))
        return F.softmax(model(x), dim=1).numpy()


def report(name, items, p):
    """Prints the share of lit lights read as their colour (as `evaluate`'s accuracy), the
    share of every image read as its label, unknown included, and red lights read green."""
    answers = [read(q) for q in p]
    pairs = list(zip(answers, [s for _, s in items]))
    lit = [(a, s) for a, s in pairs if s != "unknown"]
    right = sum(a == s for a, s in lit)
    agreed = sum(a == s for a, s in pairs)
    red_green = sum(a == "green" and s == "red" for a, s in pairs)
    lit_text = f"lit {right}/{len(lit)} = {100 * right / len(lit):.1f}%" if lit else "no lit"
    print(f"{name:24} {lit_text}  every label {agreed}/{len(pairs)} = {100 * agreed / len(pairs):.1f}%"
          f"  red read green {red_green}", flush=True)


# The profile's parts other than the network: the whole crop is the light (a frame's lights
# are found by the lamp finder, then read the same way); the class map drawn for masks uses the
# default profile's pixel thresholds; a recording is smoothed as `default` smooths it.
PROFILE = {
    "name": "fitted", "sigma": 2, "points": 9, "columns": 9, "orientation": "auto",
    "thresholds": {"saturationFloor": 0.4, "valueFloor": 0.2,
                   "green": {"lower": 90, "upper": 195, "saturationFloor": 0.4},
                   "yellow": {"lower": 15, "upper": 65, "saturationFloor": 0.6},
                   "red": {"lower": 325, "upper": 15, "saturationFloor": 0.4}},
    "locator": {"kind": "wholeRegion"}, "smoothing": {"kind": "offline"},
}


def export(model, path):
    """Writes the profile holding `model`, as `Profile` reads it."""
    state = model.state_dict()
    layers = []
    for k, pool in enumerate(POOLS):
        w = state[f"convs.{k}.weight"].numpy()
        layers.append({
            "inputs": CHANNELS[k], "outputs": CHANNELS[k + 1], "pool": pool,
            # [output][input][dy][dx], flattened
            "weights": [round(float(v), 7) for v in w.reshape(-1)],
            "bias": [round(float(v), 7) for v in state[f"convs.{k}.bias"].numpy()],
        })
    network = {
        "width": WIDTH, "height": HEIGHT, "brightnessFloor": FLOOR, "classes": CLASSES,
        "convolutions": layers,
        # [class][feature], features third by third: top's channels, then middle's, then bottom's
        "readout": {"weights": [[round(float(v), 7) for v in row] for row in state["readout.weight"].numpy()],
                    "bias": [round(float(v), 7) for v in state["readout.bias"].numpy()]},
    }
    profile = dict(PROFILE, minimumConfidence=MINIMUM,
                   decider={"kind": "network", "redVeto": VETO, "network": network})
    with open(path, "w") as f:
        json.dump(profile, f, separators=(",", ":"))
        f.write("\n")


def load_exported(path):
    """The network as OUT.json holds it (its rounded weights), for fixtures."""
    with open(path) as f:
        network = json.load(f)["decider"]["network"]
    model = LightNetwork()
    with torch.no_grad():
        for k, layer in enumerate(network["convolutions"]):
            model.convs[k].weight.copy_(torch.tensor(layer["weights"]).reshape(model.convs[k].weight.shape))
            model.convs[k].bias.copy_(torch.tensor(layer["bias"]))
        model.readout.weight.copy_(torch.tensor(network["readout"]["weights"]))
        model.readout.bias.copy_(torch.tensor(network["readout"]["bias"]))
    return model.eval()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("shared")
    parser.add_argument("out")
    parser.add_argument("--folds", action="store_true")
    parser.add_argument("--blocks", type=int, default=0)
    parser.add_argument("--leave-out", nargs="*", help="with --folds: only these folders (mit, carpark, sim, cinta)")
    parser.add_argument("--no-final", action="store_true", help="measure only: train and write no profile")
    parser.add_argument("--cinta-blocks", metavar="DIR",
                        help="with --blocks N: write DIR/blockB.json for each B < N, a profile whose network is "
                        "trained without block B of frames/cinta (its frames in name order, as "
                        "fit_housing_search.py's blocks: their crops, housings and windows) and without cinta's "
                        "clear patches (they come from every block's frames), for fit_housing_search.py --held-out")
    parser.add_argument("--housing-negatives", action="store_true",
                        help="train the network that confirms `default`'s housing search: add, as unknown, the "
                        "windows that search finds away from every box of frames/cinta "
                        "(fit_housing_search.search_negatives, with default.json's weights)")
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--fixtures")
    parser.add_argument("--extra", nargs="*", default=[], help="labelled folders read by every model")
    parser.add_argument("--dump", help="with --folds: write each left-out image's class probabilities "
                        "(JSON of path: {state, p}) for scripts/fusion_check.py")
    args = parser.parse_args()
    torch.set_num_threads(2)
    negatives = None
    if args.housing_negatives:
        from fit_housing_search import search_negatives
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "..", "Sources", "TrafficLight", "Profiles", "default.json")) as f:
            housings = json.load(f)["locator"]["finder"]["housings"]
        negatives = search_negatives(os.path.join(args.shared, "frames", "cinta"), housings)
        print(f"housing search negatives: {sum(len(b) for b in negatives.values())}", flush=True)
    groups, tests = gather(args.shared, random.Random(1), negatives)
    extras = {e: labelled_folder(e) for e in args.extra}
    if args.folds:
        dumped = {}
        for left in args.leave_out or ["mit", "carpark", "sim", "cinta"]:
            model = train([e for g, es in groups.items() if g != left for e in es], args.epochs, 1)
            p = probabilities(model, [load(path) for path, _ in tests[left]])
            report(left, tests[left], p)
            for (path, state), q in zip(tests[left], p):
                dumped[os.path.abspath(path)] = {"state": state, "p": [round(float(v), 6) for v in q]}
        if args.dump:
            with open(args.dump, "w") as f:
                json.dump(dumped, f)
                f.write("\n")
    if args.blocks:
        # Block B of cinta is the frames of block B of frames/cinta in name order (as
        # fit_housing_search.py and finder_heldout.py cut it): their crops, housings and windows.
        # Cinta's clear patches come from every block's frames, so no block's network has them.
        # Block B of every other folder is the Bth contiguous block of its order (labels.csv's,
        # or red/, yellow/, green/, unknown/ in turn), as `calibrate --folds` splits; the
        # housing search's networks (--cinta-blocks), read on cinta's frames alone, keep them.
        frames = os.path.join(args.shared, "frames", "cinta")
        cinta_blocks = [set(block_frames(frames, args.blocks, b)) for b in range(args.blocks)]

        def held(name, e, block):
            if name == "cinta":
                return e.source in cinta_blocks[block]
            return not args.cinta_blocks and e.place is not None and int(e.place * args.blocks) == block

        kept = {name: [e for e in es if name != "cinta" or e.source is not None] for name, es in groups.items()}
        answers = {name: [None] * len(items) for name, items in tests.items()}
        if args.cinta_blocks:
            os.makedirs(args.cinta_blocks, exist_ok=True)
        for block in range(args.blocks):
            model = train([e for name, es in kept.items() for e in es if not held(name, e, block)], args.epochs, 1)
            if args.cinta_blocks:
                export(model, os.path.join(args.cinta_blocks, f"block{block}.json"))
                continue
            for name, items in tests.items():
                # A folder's first examples are its crops, in `items`' order.
                chosen = [k for k in range(len(items)) if held(name, groups[name][k], block)]
                p = probabilities(model, [load(items[k][0]) for k in chosen])
                for k, q in zip(chosen, p):
                    answers[name][k] = q
        if not args.cinta_blocks:
            for name, items in tests.items():
                report(f"{name} ({args.blocks} blocks)", items, answers[name])
    if args.no_final:
        return
    model = train([e for es in groups.values() for e in es], args.epochs, 1)
    export(model, args.out)
    model = load_exported(args.out)
    for name in ["mit", "carpark", "sim", "cinta"]:
        report(f"{name} (fitted)", tests[name], probabilities(model, [load(p) for p, _ in tests[name]]))
    for folder, items in extras.items():
        report(os.path.basename(folder.rstrip("/")), items, probabilities(model, [load(p) for p, _ in items]))
    if args.fixtures:
        write_fixtures(model, tests, args.shared, args.fixtures)


def made_up_image(width, height):
    """The image the Swift test makes too: channel values from the pixel's place."""
    y, x = np.mgrid[0:height, 0:width]
    return np.stack([(x * 7 + y * 3) % 256, (x * y) % 256, (x + 2 * y) % 256], axis=2).astype(np.uint8)


def write_fixtures(model, tests, shared, path):
    """Thumbnails of made-up images, and the scores PyTorch gives the thumbnails of four
    shared crops, for the Swift tests."""
    thumbnails = [{"width": w, "height": h, "values": [float(v) for v in thumbnail(made_up_image(w, h)).transpose(1, 2, 0).reshape(-1)]}
                  for w, h in [(37, 83), (90, 31), (11, 20)]]
    scores = []
    for path_, state in [tests["mit"][0], tests["carpark"][2], tests["sim"][5], tests["cinta"][-1]]:
        x = thumbnail(load(path_))
        with torch.no_grad():
            logits = model(torch.from_numpy(x[None]))[0].numpy()
        scores.append({"file": os.path.relpath(path_, shared), "state": state,
                       "thumbnail": [float(v) for v in x.transpose(1, 2, 0).reshape(-1)],
                       "scores": [float(v) for v in logits]})
    with open(path, "w") as f:
        json.dump({"thumbnails": thumbnails, "scores": scores}, f)
        f.write("\n")

if __name__ == "__main__":
    main()
