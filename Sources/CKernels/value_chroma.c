// Each pixel's value (largest channel) and chroma (largest less smallest) of a row of
// interleaved 8-bit RGB (see tl_value_chroma_rgb8 in kernels.h), 16 bytes at a time in the
// compiler's vector types: each pixel's channels are lined up on its first byte by loads one
// and two bytes on, so a pixel's results land at its first byte. One form: the baseline's
// 16-byte vectors are enough for what it does.

#include "kernels.h"

#include <string.h>

typedef uint8_t tl_bytes16 __attribute__((vector_size(16)));

void tl_value_chroma_rgb8(const uint8_t *pixels, int count, uint8_t *values, uint8_t *chromas) {
  const int bytes = 3 * count;
  int i = 0;
  // A block's last pixel reads two bytes past it.
  for (; i + 18 <= bytes; i += 16) {
    tl_bytes16 a, b, c;
    memcpy(&a, pixels + i, sizeof a);
    memcpy(&b, pixels + i + 1, sizeof b);
    memcpy(&c, pixels + i + 2, sizeof c);
    tl_bytes16 high = __builtin_elementwise_max(a, __builtin_elementwise_max(b, c));
    tl_bytes16 chroma = high - __builtin_elementwise_min(a, __builtin_elementwise_min(b, c));
    memcpy(values + i, &high, sizeof high);
    memcpy(chromas + i, &chroma, sizeof chroma);
  }
  // The pixels that start past the last whole block, one by one.
  for (int p = (i + 2) / 3; p < count; p++) {
    const uint8_t r = pixels[3 * p], g = pixels[3 * p + 1], b = pixels[3 * p + 2];
    const uint8_t high = r > g ? (r > b ? r : b) : (g > b ? g : b);
    const uint8_t low = r < g ? (r < b ? r : b) : (g < b ? g : b);
    values[3 * p] = high;
    chromas[3 * p] = (uint8_t)(high - low);
  }
}
