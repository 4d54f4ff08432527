// Each pixel's value (largest channel) and chroma (largest less smallest) of a row of
// interleaved 8-bit RGB, and their sums (see tl_value_chroma_rgb8 and
// tl_sum_value_chroma_rgb8 in kernels.h), 16 bytes at a time in the compiler's vector types:
// each pixel's channels are lined up on its first byte by loads one and two bytes on, so a
// pixel's results land at its first byte. One form: the baseline's 16-byte vectors are
// enough for what they do.

#include "kernels.h"

#include <string.h>

typedef uint8_t tl_bytes16 __attribute__((vector_size(16)));

/// The largest channel and the spread (largest less smallest) of the 16 bytes at `bytes`
/// with the two after each, so that a pixel's land at its first byte (two bytes past the
/// block are read).
static inline __attribute__((always_inline)) void block16(
  const uint8_t *bytes, tl_bytes16 *high, tl_bytes16 *spread) {
  tl_bytes16 a, b, c;
  memcpy(&a, bytes, sizeof a);
  memcpy(&b, bytes + 1, sizeof b);
  memcpy(&c, bytes + 2, sizeof c);
  *high = __builtin_elementwise_max(a, __builtin_elementwise_max(b, c));
  *spread = *high - __builtin_elementwise_min(a, __builtin_elementwise_min(b, c));
}

/// One pixel's value and chroma, at `rgb`.
static inline __attribute__((always_inline)) void pixel(
  const uint8_t *rgb, uint8_t *value, uint8_t *chroma) {
  const uint8_t r = rgb[0], g = rgb[1], b = rgb[2];
  const uint8_t high = r > g ? (r > b ? r : b) : (g > b ? g : b);
  const uint8_t low = r < g ? (r < b ? r : b) : (g < b ? g : b);
  *value = high;
  *chroma = (uint8_t)(high - low);
}

void tl_value_chroma_rgb8(const uint8_t *pixels, int count, uint8_t *values, uint8_t *chromas) {
  const int bytes = 3 * count;
  int i = 0;
  // A block's last pixel reads two bytes past it.
  for (; i + 18 <= bytes; i += 16) {
    tl_bytes16 high, chroma;
    block16(pixels + i, &high, &chroma);
    memcpy(values + i, &high, sizeof high);
    memcpy(chromas + i, &chroma, sizeof chroma);
  }
  // The pixels that start past the last whole block, one by one.
  for (int p = (i + 2) / 3; p < count; p++) pixel(pixels + 3 * p, values + 3 * p, chromas + 3 * p);
}

void tl_sum_value_chroma_rgb8(
  const uint8_t *pixels, int count, uint64_t *value_sum, uint64_t *chroma_sum) {
  typedef uint16_t lanes8 __attribute__((vector_size(16)));
  // The bytes of a block where a pixel starts, by the block's first byte's place in its
  // pixel (0, 1 or 2).
  static const tl_bytes16 starts[3] = {
    {0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff},
    {0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0},
    {0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0},
  };
  const int bytes = 3 * count;
  uint64_t value = 0, chroma = 0;
  int i = 0;
  while (i + 18 <= bytes) {
    // A 16-bit lane adds at most one pixel's byte a block (of its bytes k and k + 8, never
    // both start a pixel), 255 at most: 128 blocks fit, then the lanes are summed.
    lanes8 values = {0}, chromas = {0};
    for (int block = 0; block < 128 && i + 18 <= bytes; block++, i += 16) {
      tl_bytes16 high, spread;
      block16(pixels + i, &high, &spread);
      const tl_bytes16 start = starts[i % 3];
      const tl_bytes16 v = high & start, s = spread & start;
      values += __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7), lanes8)
        + __builtin_convertvector(__builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15), lanes8);
      chromas += __builtin_convertvector(__builtin_shufflevector(s, s, 0, 1, 2, 3, 4, 5, 6, 7), lanes8)
        + __builtin_convertvector(__builtin_shufflevector(s, s, 8, 9, 10, 11, 12, 13, 14, 15), lanes8);
    }
    for (int k = 0; k < 8; k++) value += values[k], chroma += chromas[k];
  }
  // The pixels that start past the last whole block, one by one.
  for (int p = (i + 2) / 3; p < count; p++) {
    uint8_t high, spread;
    pixel(pixels + 3 * p, &high, &spread);
    value += high;
    chroma += spread;
  }
  *value_sum = value;
  *chroma_sum = chroma;
}
