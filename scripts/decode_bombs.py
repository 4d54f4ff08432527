#!/usr/bin/env python3
"""Writes the decoding bombs of the hostile-input measurements in BENCHMARKS.md, beside the
ordinary files they are compared with, all 1920x1080:

    scripts/decode_bombs.py OUT_FOLDER        (needs pillow and numpy)

base.jpg (baseline JPEG), prog.jpg (progressive, libjpeg's usual 10 scans), same.png (the
same pixels as PNG); repN.jpg: prog.jpg with its scan N repeated 90 more times (each a pass
over the image); bomb99.jpg: its largest scan repeated up to 99 scans; textbomb.png: a 64x64
PNG with 100 zTXt chunks each inflating to 8 MB.
"""
import io
import os
import struct
import sys
import zlib

import numpy as np
from PIL import Image

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
w, h = 1920, 1080
noise = rng.integers(0, 255, (h // 8, w // 8, 3)).astype(np.uint8)
image = Image.fromarray(noise).resize((w, h), Image.BILINEAR)
image.save(os.path.join(out, "base.jpg"), quality=90)
image.save(os.path.join(out, "prog.jpg"), quality=90, progressive=True)
image.save(os.path.join(out, "same.png"))
data = open(os.path.join(out, "prog.jpg"), "rb").read()
starts = [i for i in range(len(data) - 1) if data[i] == 0xFF and data[i + 1] == 0xDA]
end = len(data) - 2
scans = [data[s:(starts[k + 1] if k + 1 < len(starts) else end)] for k, s in enumerate(starts)]
for k, scan in enumerate(scans):
    open(os.path.join(out, f"rep{k}.jpg"), "wb").write(data[:end] + scan * 90 + data[end:])
largest = max(scans[1:], key=len)
open(os.path.join(out, "bomb99.jpg"), "wb").write(data[:end] + largest * (99 - len(scans)) + data[end:])


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


buffer = io.BytesIO()
Image.fromarray(np.zeros((64, 64, 3), np.uint8)).save(buffer, "PNG")
png = buffer.getvalue()
text = zlib.compress(b"\0" * (8_000_000 - 100), 9)
open(os.path.join(out, "textbomb.png"), "wb").write(
    png[:33] + b"".join(chunk(b"zTXt", b"k\0\0" + text) for _ in range(100)) + png[33:])
print(f"wrote {len(scans) + 5} files to {out}")
