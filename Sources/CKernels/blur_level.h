// The blur of one level, included once per level by blur.c with the level's vocabulary
// defined: TL_TARGET (the function attribute), VEC (a vector of 16-bit lanes), LANES,
// LOAD_BYTES(p) (LANES bytes widened to 16 bits), LOAD(p) and STORE(p, v) (16-bit lanes),
// STORE_BYTES(p, v) (16-bit lanes narrowed to bytes, saturating), ADD, HIGH_PRODUCT (the high
// half of each 16-bit product), UP7 and DOWN7 (shifts by 7 bits), SPLAT(x), and NAME(f) (the
// level's name for f). A level may add the wide vocabulary, for a vertical pass of 2 LANES
// channels a step from whole vectors of bytes: LOAD_WIDE(p) (2 LANES bytes), UNPACK_UP8_LOW(v)
// and UNPACK_UP8_HIGH(v) (half of them each, every byte in the high half of its lane: x << 8),
// AVERAGE(a, b) ((a + b + 1) >> 1 without overflow), DOWN1(v), and STORE_WIDE(p, low, high)
// (the two halves' lanes stored in channel order). This file undefines all of them at its
// end, for the next level. The arithmetic is that of `high_product` and the scalar tails
// below, lane by lane, so every level computes the same bits.

#ifdef LOAD_WIDE
/// The vertical pass's channels from 0 in steps of 2 LANES while a whole step fits; returns
/// the first channel it did not do. The same sums as `vertical`'s: a pair's (a + b) << 7 is
/// the rounding-up average of a << 8 and b << 8 (their sum is even, so the rounding adds
/// nothing), and the centre's c << 7 is (c << 8) >> 1. Called with `radius` a constant, so
/// that the taps unroll and the weights stay in registers.
TL_TARGET TL_INLINE int NAME(vertical_wide)(
  const uint8_t *centre, const uint8_t *const *above, const uint8_t *const *below, int radius,
  const uint16_t *weights, uint16_t *restrict out, int n) {
  const VEC start = SPLAT(pass_bias(radius));
  VEC w[TL_BLUR_MAX_RADIUS + 1];
  for (int k = 0; k <= radius; k++) w[k] = SPLAT(weights[k]);
  int i = 0;
  for (; i + 2 * LANES <= n; i += 2 * LANES) {
    const VEC c = LOAD_WIDE(centre + i);
    VEC low = ADD(start, HIGH_PRODUCT(DOWN1(UNPACK_UP8_LOW(c)), w[0]));
    VEC high = ADD(start, HIGH_PRODUCT(DOWN1(UNPACK_UP8_HIGH(c)), w[0]));
#pragma clang loop unroll(full)
    for (int k = 1; k <= radius; k++) {
      const VEC a = LOAD_WIDE(above[k] + i), b = LOAD_WIDE(below[k] + i);
      low = ADD(low, HIGH_PRODUCT(AVERAGE(UNPACK_UP8_LOW(a), UNPACK_UP8_LOW(b)), w[k]));
      high = ADD(high, HIGH_PRODUCT(AVERAGE(UNPACK_UP8_HIGH(a), UNPACK_UP8_HIGH(b)), w[k]));
    }
    STORE_WIDE(out + i, low, high);
  }
  return i;
}
#endif

/// The vertical pass for one output row: `n` channels, from the source rows `above[k]` and
/// `below[k]` (k = 1...radius, already clamped to the image) and `centre`, into `out` with
/// 7 fractional bits.
TL_TARGET static void NAME(vertical)(
  const uint8_t *centre, const uint8_t *const *above, const uint8_t *const *below, int radius,
  const uint16_t *weights, uint16_t *restrict out, int n) {
  const uint16_t bias = pass_bias(radius);
  int i = 0;
#ifdef LOAD_WIDE
  // The two sigmas the library uses (2, and 1 for the light finder) take the wide steps first.
  if (radius == 6) {
    i = NAME(vertical_wide)(centre, above, below, 6, weights, out, n);
  } else if (radius == 3) {
    i = NAME(vertical_wide)(centre, above, below, 3, weights, out, n);
  }
#endif
  if (radius == 6) {
    // The default sigma (2): the taps unrolled, the weights and rows in registers.
    const VEC w0 = SPLAT(weights[0]), w1 = SPLAT(weights[1]), w2 = SPLAT(weights[2]),
              w3 = SPLAT(weights[3]), w4 = SPLAT(weights[4]), w5 = SPLAT(weights[5]),
              w6 = SPLAT(weights[6]), start = SPLAT(bias);
    const uint8_t *a1 = above[1], *a2 = above[2], *a3 = above[3], *a4 = above[4],
                  *a5 = above[5], *a6 = above[6];
    const uint8_t *b1 = below[1], *b2 = below[2], *b3 = below[3], *b4 = below[4],
                  *b5 = below[5], *b6 = below[6];
    for (; i + LANES <= n; i += LANES) {
      VEC s = ADD(start, HIGH_PRODUCT(UP7(LOAD_BYTES(centre + i)), w0));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a1 + i), LOAD_BYTES(b1 + i))), w1));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a2 + i), LOAD_BYTES(b2 + i))), w2));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a3 + i), LOAD_BYTES(b3 + i))), w3));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a4 + i), LOAD_BYTES(b4 + i))), w4));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a5 + i), LOAD_BYTES(b5 + i))), w5));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a6 + i), LOAD_BYTES(b6 + i))), w6));
      STORE(out + i, s);
    }
  } else if (radius == 3) {
    // The light finder's sigma (1): the same, three taps a side.
    const VEC w0 = SPLAT(weights[0]), w1 = SPLAT(weights[1]), w2 = SPLAT(weights[2]),
              w3 = SPLAT(weights[3]), start = SPLAT(bias);
    const uint8_t *a1 = above[1], *a2 = above[2], *a3 = above[3];
    const uint8_t *b1 = below[1], *b2 = below[2], *b3 = below[3];
    for (; i + LANES <= n; i += LANES) {
      VEC s = ADD(start, HIGH_PRODUCT(UP7(LOAD_BYTES(centre + i)), w0));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a1 + i), LOAD_BYTES(b1 + i))), w1));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a2 + i), LOAD_BYTES(b2 + i))), w2));
      s = ADD(s, HIGH_PRODUCT(UP7(ADD(LOAD_BYTES(a3 + i), LOAD_BYTES(b3 + i))), w3));
      STORE(out + i, s);
    }
  } else {
    for (; i + LANES <= n; i += LANES) {
      VEC s = ADD(SPLAT(bias), HIGH_PRODUCT(UP7(LOAD_BYTES(centre + i)), SPLAT(weights[0])));
      for (int k = 1; k <= radius; k++) {
        VEC pair = UP7(ADD(LOAD_BYTES(above[k] + i), LOAD_BYTES(below[k] + i)));
        s = ADD(s, HIGH_PRODUCT(pair, SPLAT(weights[k])));
      }
      STORE(out + i, s);
    }
  }
  // The channels past the last whole vector: one more vector ending at the row's end, over
  // channels already done (the same bits again), when the row holds a whole vector.
  if (i < n && n >= LANES) {
    i = n - LANES;
    VEC s = ADD(SPLAT(bias), HIGH_PRODUCT(UP7(LOAD_BYTES(centre + i)), SPLAT(weights[0])));
    for (int k = 1; k <= radius; k++) {
      VEC pair = UP7(ADD(LOAD_BYTES(above[k] + i), LOAD_BYTES(below[k] + i)));
      s = ADD(s, HIGH_PRODUCT(pair, SPLAT(weights[k])));
    }
    STORE(out + i, s);
    i = n;
  }
  for (; i < n; i++) out[i] = vertical_one(centre + i, above, below, i, radius, weights);
}

/// The horizontal pass: output channel i from the padded row's channels `i + 3 t`,
/// t = -radius...radius (`row` points at the first output channel), rounded to a byte.
TL_TARGET static void NAME(horizontal)(
  const uint16_t *row, int radius, const uint16_t *weights, uint8_t *restrict out, int n) {
  const uint16_t bias = (uint16_t)(pass_bias(radius) + 64);
  int i = 0;
  if (radius == 6) {
    const VEC w0 = SPLAT(weights[0]), w1 = SPLAT(weights[1]), w2 = SPLAT(weights[2]),
              w3 = SPLAT(weights[3]), w4 = SPLAT(weights[4]), w5 = SPLAT(weights[5]),
              w6 = SPLAT(weights[6]), start = SPLAT(bias);
    for (; i + LANES <= n; i += LANES) {
      const uint16_t *p = row + i;
      VEC s = ADD(start, HIGH_PRODUCT(LOAD(p), w0));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 3), LOAD(p + 3)), w1));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 6), LOAD(p + 6)), w2));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 9), LOAD(p + 9)), w3));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 12), LOAD(p + 12)), w4));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 15), LOAD(p + 15)), w5));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 18), LOAD(p + 18)), w6));
      STORE_BYTES(out + i, DOWN7(s));
    }
  } else if (radius == 3) {
    const VEC w0 = SPLAT(weights[0]), w1 = SPLAT(weights[1]), w2 = SPLAT(weights[2]),
              w3 = SPLAT(weights[3]), start = SPLAT(bias);
    for (; i + LANES <= n; i += LANES) {
      const uint16_t *p = row + i;
      VEC s = ADD(start, HIGH_PRODUCT(LOAD(p), w0));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 3), LOAD(p + 3)), w1));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 6), LOAD(p + 6)), w2));
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 9), LOAD(p + 9)), w3));
      STORE_BYTES(out + i, DOWN7(s));
    }
  } else {
    for (; i + LANES <= n; i += LANES) {
      const uint16_t *p = row + i;
      VEC s = ADD(SPLAT(bias), HIGH_PRODUCT(LOAD(p), SPLAT(weights[0])));
      for (int k = 1; k <= radius; k++)
        s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 3 * k), LOAD(p + 3 * k)), SPLAT(weights[k])));
      STORE_BYTES(out + i, DOWN7(s));
    }
  }
  if (i < n && n >= LANES) {
    i = n - LANES;
    const uint16_t *p = row + i;
    VEC s = ADD(SPLAT(bias), HIGH_PRODUCT(LOAD(p), SPLAT(weights[0])));
    for (int k = 1; k <= radius; k++)
      s = ADD(s, HIGH_PRODUCT(ADD(LOAD(p - 3 * k), LOAD(p + 3 * k)), SPLAT(weights[k])));
    STORE_BYTES(out + i, DOWN7(s));
    i = n;
  }
  for (; i < n; i++) out[i] = horizontal_one(row + i, 3, radius, weights);
}

/// The blur, one output row at a time: the vertical pass into the padded row (which stays in
/// the first-level cache), the edges repeated, then the horizontal pass out of it. Output
/// row k is the image's row `rows[k]`, or row k when `rows` is NULL.
TL_TARGET static void NAME(blur)(
  const uint8_t *source, size_t source_stride, uint8_t *destination, int width, int height,
  int radius, const uint16_t *weights, uint16_t *scratch, const int *rows, int row_count) {
  const int channels = width * 3;
  uint16_t *row = scratch + 3 * radius;
  const uint8_t *above[TL_BLUR_MAX_RADIUS + 1];
  const uint8_t *below[TL_BLUR_MAX_RADIUS + 1];
  for (int k = 0; k < row_count; k++) {
    const int y = rows ? rows[k] : k;
    for (int t = 1; t <= radius; t++) {
      above[t] = source + (size_t)clamp(y - t, height) * source_stride;
      below[t] = source + (size_t)clamp(y + t, height) * source_stride;
    }
    NAME(vertical)(source + (size_t)y * source_stride, above, below, radius, weights, row, channels);
    replicate_edges(row, channels, radius);
    NAME(horizontal)(row, radius, weights, destination + (size_t)k * channels, channels);
  }
}

// The vocabulary was this level's alone.
#undef TL_TARGET
#undef VEC
#undef LANES
#undef LOAD_BYTES
#undef LOAD
#undef STORE
#undef STORE_BYTES
#undef ADD
#undef HIGH_PRODUCT
#undef UP7
#undef DOWN7
#undef SPLAT
#undef NAME
#undef LOAD_WIDE
#undef UNPACK_UP8_LOW
#undef UNPACK_UP8_HIGH
#undef AVERAGE
#undef DOWN1
#undef STORE_WIDE
