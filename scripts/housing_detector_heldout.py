#!/usr/bin/env python3
"""A housing-first light detector, measured held out: the question it answers is whether
looking for the dark housing of a vertical head, rather than for its lit lamp, finds the lights
the lamp finder misses. A prototype, not part of the package.

    scripts/housing_detector_heldout.py FOLDER [--blocks K] [--c C] [--candidates CAND.csv]

FOLDER holds frames/ and boxes.csv (as in shared/frames; housing boxes, so cinta or sim). The
detector is the usual one without a neural network: a sliding window of 4 x 10 cells of 4
pixels (16 x 40, a vertical head's shape) over a pyramid of the frame (from twice its size down
by 2^(1/3) a level), described by histograms of oriented gradients of the value channel (9
unsigned orientations, cells in overlapping 2 x 2 blocks, L2-Hys) with each cell's mean value
and chroma, scored by a linear support-vector machine (`--c`, 0.01 by default). It is trained on
the windows that overlap a vertical box by at least half (intersection over union) against 15
random windows per level of each frame that overlap none by more than a fifth, then twice more
with the highest-scoring of those negatives added (30 per level of each frame: hard negatives).
Each of K contiguous blocks of the frames (`fit_lamp_evidence.block_frames`: near-copies stay
together) is read by the detector trained on the others; a block's windows scoring above -1
are thinned (a window overlapping a higher one by 0.3, or whose centre lies in it, goes).

Prints, for a range of score thresholds, the vertical boxes found (a window's centre inside)
and the windows per frame whose centre lies in no box. With CAND.csv (`traffic-light evaluate
--candidates` on FOLDER), also the share of every box that some lamp candidate of its colour
finds, at any confidence, or that a window finds: the most any choice among the two could find.
Needs numpy, Pillow and scikit-learn; about 25 minutes for cinta on two cores.
"""

import argparse
import collections
import csv
import os
import sys

import numpy as np
from PIL import Image
from sklearn.svm import LinearSVC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_lamp_evidence  # noqa: E402

CELL = 4
ACROSS, ALONG = 4, 10  # the window, in cells
WINDOW_W, WINDOW_H = ACROSS * CELL, ALONG * CELL
LEVEL_STEP = 2 ** (1 / 3)
ORIENTATIONS = 9
BLOCK_LENGTH = (ALONG - 1) * (ACROSS - 1) * 4 * ORIENTATIONS
THRESHOLDS = [-0.5, 0, 0.25, 0.5, 0.75, 0.875, 1.0, 1.25, 1.5]


def read_boxes(folder):
    boxes = collections.defaultdict(list)
    with open(os.path.join(folder, "boxes.csv"), newline="") as handle:
        for row in csv.DictReader(handle):
            box = tuple(int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            boxes[os.path.basename(row["file"])].append(box + (row.get("state") or row.get("lamp"),))
    return boxes


def is_vertical(box):
    return box[3] - box[1] >= box[2] - box[0]


def cell_means(channel, rows, columns):
    return channel[: rows * CELL, : columns * CELL].reshape(rows, CELL, columns, CELL).mean((1, 3))


def gradient_blocks(value):
    """The L2-Hys normalised 2 x 2 blocks of cells' orientation histograms of `value`, each
    pixel's gradient magnitude shared between the two nearest of 9 orientations (0 to 180)."""
    gx = np.zeros_like(value)
    gy = np.zeros_like(value)
    gx[:, 1:-1] = value[:, 2:] - value[:, :-2]
    gy[1:-1] = value[2:] - value[:-2]
    magnitude = np.hypot(gx, gy)
    bins = (np.degrees(np.arctan2(gy, gx)) % 180) / (180 / ORIENTATIONS)
    lower = np.floor(bins).astype(int) % ORIENTATIONS
    share = bins - np.floor(bins)
    upper = (lower + 1) % ORIENTATIONS
    rows, columns = value.shape[0] // CELL, value.shape[1] // CELL
    cells = np.zeros((rows, columns, ORIENTATIONS), np.float32)
    for b in range(ORIENTATIONS):
        weight = (lower == b) * (1 - share) + (upper == b) * share
        cells[..., b] = cell_means(magnitude * weight, rows, columns) * CELL * CELL
    blocks = np.concatenate([cells[:-1, :-1], cells[:-1, 1:], cells[1:, :-1], cells[1:, 1:]], 2)
    blocks = blocks / np.sqrt((blocks**2).sum(2, keepdims=True) + 1e-4)
    blocks = np.minimum(blocks, 0.2)
    return (blocks / np.sqrt((blocks**2).sum(2, keepdims=True) + 1e-4)).astype(np.float32)


def pyramid(path):
    """The frame's levels: (scale, gradient blocks, cells' mean value, cells' mean chroma). Each
    level's shorter side is at least the window's length and 8 pixels more: it holds a window."""
    image = Image.open(path).convert("RGB")
    width, height = image.size
    scale, levels = 2.0, []
    while min(width, height) * scale >= WINDOW_H + 8:
        size = (round(width * scale), round(height * scale))
        pixels = np.asarray(image.resize(size, Image.BILINEAR)).astype(np.float32) / 255
        value, chroma = pixels.max(2), pixels.max(2) - pixels.min(2)
        rows, columns = value.shape[0] // CELL, value.shape[1] // CELL
        levels.append(
            (
                scale,
                gradient_blocks(value),
                cell_means(value, rows, columns).astype(np.float32),
                cell_means(chroma, rows, columns).astype(np.float32),
            )
        )
        scale /= LEVEL_STEP
    return levels


def window_count(level):
    _, _, value, _ = level
    return value.shape[0] - ALONG + 1, value.shape[1] - ACROSS + 1


def window_features(level, row, column):
    _, blocks, value, chroma = level
    return np.concatenate(
        [
            blocks[row : row + ALONG - 1, column : column + ACROSS - 1].ravel(),
            value[row : row + ALONG, column : column + ACROSS].ravel(),
            chroma[row : row + ALONG, column : column + ACROSS].ravel(),
        ]
    )


def window_scores(level, weights, bias):
    """Every window's score, summed offset by offset (no window's features are copied)."""
    _, blocks, value, chroma = level
    rows, columns = window_count(level)
    cells = ALONG * ACROSS
    by_block = weights[:BLOCK_LENGTH].reshape(ALONG - 1, ACROSS - 1, -1)
    by_value = weights[BLOCK_LENGTH : BLOCK_LENGTH + cells].reshape(ALONG, ACROSS)
    by_chroma = weights[BLOCK_LENGTH + cells :].reshape(ALONG, ACROSS)
    scores = np.full((rows, columns), bias, np.float32)
    for dy in range(ALONG - 1):
        for dx in range(ACROSS - 1):
            scores += blocks[dy : dy + rows, dx : dx + columns] @ by_block[dy, dx]
    for dy in range(ALONG):
        for dx in range(ACROSS):
            scores += value[dy : dy + rows, dx : dx + columns] * by_value[dy, dx]
            scores += chroma[dy : dy + rows, dx : dx + columns] * by_chroma[dy, dx]
    return scores


def window_boxes(level):
    scale = level[0]
    rows, columns = window_count(level)
    ys, xs = np.mgrid[0:rows, 0:columns]
    x0, y0 = xs.ravel() * CELL / scale, ys.ravel() * CELL / scale
    return np.column_stack([x0, y0, x0 + WINDOW_W / scale, y0 + WINDOW_H / scale])


def overlap(box, others):
    """Intersection over union of `box` with each of `others` (x0, y0, x1, y1)."""
    ix = np.clip(np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1]), 0, None)
    inter = ix * iy
    area = (box[2] - box[0]) * (box[3] - box[1])
    return inter / (area + (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1]) - inter)


def window_labels(boxes, windows):
    """1 for a window on a vertical box, 0 for one clear of every box, -1 for the rest."""
    labels = np.zeros(len(windows), np.int8)
    best = np.zeros(len(windows))
    for box in boxes:
        o = overlap(np.array(box[:4], float), windows)
        if is_vertical(box):
            best = np.maximum(best, o)
        else:
            labels[o > 0.1] = -1
    labels[best >= 0.5] = 1
    labels[(best > 0.2) & (best < 0.5)] = -1
    return labels


def thinned(windows, scores):
    order, kept = np.argsort(-scores), []
    while len(order):
        first, rest = order[0], order[1:]
        kept.append(first)
        box = windows[first]
        cx = (windows[rest, 0] + windows[rest, 2]) / 2
        cy = (windows[rest, 1] + windows[rest, 3]) / 2
        inside = (cx >= box[0]) & (cx <= box[2]) & (cy >= box[1]) & (cy <= box[3])
        order = rest[(overlap(box, windows[rest]) < 0.3) & ~inside] if len(rest) else rest
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--blocks", type=int, default=5)
    parser.add_argument("--c", type=float, default=0.01)
    parser.add_argument("--candidates")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    boxes = read_boxes(args.folder)
    frames = sorted(os.listdir(os.path.join(args.folder, "frames")))
    levels, labels_by_level, positives, negatives = {}, {}, {}, {}
    for name in frames:
        levels[name] = pyramid(os.path.join(args.folder, "frames", name))
        labels_by_level[name] = [window_labels(boxes[name], window_boxes(level)) for level in levels[name]]
        found, drawn = [], []
        for level, labels in zip(levels[name], labels_by_level[name]):
            columns = window_count(level)[1]
            found += [window_features(level, k // columns, k % columns) for k in np.flatnonzero(labels == 1)]
            clear = np.flatnonzero(labels == 0)
            for k in rng.choice(clear, min(15, len(clear)), replace=False):
                drawn.append(window_features(level, k // columns, k % columns))
        positives[name] = np.array(found).reshape(-1, BLOCK_LENGTH + 2 * ALONG * ACROSS)
        negatives[name] = np.array(drawn)

    def hard_negatives(name, weights, bias):
        taken = []
        for level, labels in zip(levels[name], labels_by_level[name]):
            columns = window_count(level)[1]
            scores = window_scores(level, weights, bias).ravel()
            chosen = np.flatnonzero((scores > -1) & (labels == 0))
            chosen = chosen[np.argsort(-scores[chosen])[:30]]
            taken += [window_features(level, k // columns, k % columns) for k in chosen]
        return taken

    detections = []
    for block in range(args.blocks):
        held = set(fit_lamp_evidence.block_frames(args.folder, args.blocks, block))
        training = [name for name in frames if name not in held]
        found = np.concatenate([positives[name] for name in training])
        clear = np.concatenate([negatives[name] for name in training])
        for training_round in range(3):
            features = np.concatenate([found, clear])
            labels = np.r_[np.ones(len(found)), np.zeros(len(clear))]
            model = LinearSVC(C=args.c, class_weight="balanced", max_iter=10000, random_state=0)
            model.fit(features, labels)
            weights, bias = model.coef_[0].astype(np.float32), float(model.intercept_[0])
            if training_round == 2:
                break
            hard = [window for name in training for window in hard_negatives(name, weights, bias)]
            if hard:
                clear = np.concatenate([clear, np.array(hard)])
        for name in sorted(held):
            windows, scores = [], []
            for level in levels[name]:
                all_scores = window_scores(level, weights, bias).ravel()
                chosen = np.flatnonzero(all_scores > -1)
                windows.append(window_boxes(level)[chosen])
                scores.append(all_scores[chosen])
            windows, scores = np.concatenate(windows), np.concatenate(scores)
            kept = thinned(windows, scores)
            detections.append((name, windows[kept], scores[kept]))

    def centres(windows):
        return (windows[:, 0] + windows[:, 2]) / 2, (windows[:, 1] + windows[:, 3]) / 2

    def holds(box, x, y):
        return (x >= box[0]) & (x < box[2]) & (y >= box[1]) & (y < box[3])

    vertical = sum(1 for name in frames for box in boxes[name] if is_vertical(box))
    print(f"{args.folder}: {len(frames)} frames, {vertical} vertical boxes, {args.blocks} blocks held out")
    for threshold in THRESHOLDS:
        found = false = 0
        for name, windows, scores in detections:
            x, y = centres(windows[scores >= threshold])
            found += sum(1 for box in boxes[name] if is_vertical(box) and holds(box, x, y).any())
            anywhere = np.zeros(len(x), bool)
            for box in boxes[name]:
                anywhere |= holds(box, x, y)
            false += int((~anywhere).sum())
        print(
            f"score >= {threshold:6.3f}: {found} of {vertical} found ({100 * found / vertical:.1f}%),"
            f" {false / len(frames):.3f} false windows per frame"
        )
    if not args.candidates:
        return
    lamps = collections.defaultdict(list)
    with open(args.candidates, newline="") as handle:
        for row in csv.DictReader(handle):
            x, y, w, h = (int(row[k]) for k in ("x", "y", "width", "height"))
            lamps[os.path.basename(row["path"])].append((x + w / 2, y + h / 2, row["color"]))
    total = sum(len(boxes[name]) for name in frames)
    for threshold in [None, 1.0, 0.875, 0.75]:
        reached = 0
        for name, windows, scores in detections:
            x, y = (np.zeros(0), np.zeros(0)) if threshold is None else centres(windows[scores >= threshold])
            for box in boxes[name]:
                lamp = any(holds(box, lx, ly) and color == box[4] for lx, ly, color in lamps[name])
                reached += lamp or bool(holds(box, x, y).any())
        windows_said = f"or a window scoring at least {threshold}" if threshold is not None else "alone"
        share = 100 * reached / total
        print(f"a lamp candidate of its colour {windows_said}: {reached} of {total} ({share:.1f}%)")


if __name__ == "__main__":
    main()
