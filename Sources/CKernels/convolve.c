// The light network's 3x3 convolution with ReLU, one copy per level (the same source under
// each level's target attribute). Each output's sum is taken in the same order at every
// level (its bias, then the kernel's rows, columns and input channels in turn, a tap off the
// image skipped), and products are not fused into additions, so that every level gives the
// same bits. TL_BLOCK (six) neighbouring pixels are summed at once, their lanes across eight
// or four output channels, the sums held in registers; output channels left over (fewer than
// four), and rows narrower than a block, go a pixel at a time.

#include "kernels.h"
#include "targets.h"

#include <string.h>

#pragma STDC FP_CONTRACT OFF

/// Pixels summed at once.
#define TL_BLOCK 6

typedef float tl_floats8 __attribute__((vector_size(32)));
typedef int32_t tl_ints8 __attribute__((vector_size(32)));
typedef float tl_floats4 __attribute__((vector_size(16)));
typedef int32_t tl_ints4 __attribute__((vector_size(16)));

/// One pixel, every output: `sums` is scratch of `outputs` floats.
TL_INLINE void convolve_pixel(
  const float *restrict input, int height, int width, int inputs, const float *restrict weights,
  const float *restrict bias, int outputs, float *restrict output, float *restrict sums, int y, int x) {
  for (int o = 0; o < outputs; o++) sums[o] = bias[o];
  for (int dy = -1; dy <= 1; dy++) {
    int sy = y + dy;
    if (sy < 0 || sy >= height) continue;
    for (int dx = -1; dx <= 1; dx++) {
      int sx = x + dx;
      if (sx < 0 || sx >= width) continue;
      const float *pixel = input + ((size_t)sy * width + sx) * inputs;
      const float *tap = weights + (size_t)((dy + 1) * 3 + (dx + 1)) * inputs * outputs;
      for (int i = 0; i < inputs; i++) {
        float value = pixel[i];
        const float *row = tap + (size_t)i * outputs;
        for (int o = 0; o < outputs; o++) {
          float product = value * row[o];
          sums[o] = sums[o] + product;
        }
      }
    }
  }
  float *out = output + ((size_t)y * width + x) * outputs;
  for (int o = 0; o < outputs; o++) out[o] = sums[o] > 0 ? sums[o] : 0;
}

/// TL_BLOCK pixels from (y, x) on, outputs `first` to `first + LANES`: the same sums as
/// `convolve_pixel`'s, in the same order. A tap off the image is skipped for the pixel it
/// falls off for (the block's first pixel in the image's first column, its last in the
/// last): `NAME_taps` adds one tap's products for pixels `lo` to `hi`, each call with
/// constant bounds so that the sums stay in registers.
#define TL_DEFINE_BLOCK(NAME, FLOATS, INTS)                                                       \
  TL_INLINE void NAME##_taps(                                                                     \
    FLOATS *sums, const float *restrict pixel, int dx, const float *restrict tap, int inputs,     \
    int outputs, int lo, int hi) {                                                                \
    for (int i = 0; i < inputs; i++) {                                                            \
      FLOATS row;                                                                                 \
      memcpy(&row, tap + (size_t)i * outputs, sizeof row);                                        \
      for (int p = lo; p < hi; p++) {                                                             \
        FLOATS product = pixel[(p + dx) * inputs + i] * row;                                      \
        sums[p] = sums[p] + product;                                                              \
      }                                                                                           \
    }                                                                                             \
  }                                                                                               \
                                                                                                  \
  TL_INLINE void NAME(                                                                            \
    const float *restrict input, int height, int width, int inputs,                               \
    const float *restrict weights, const float *restrict bias, int outputs,                       \
    float *restrict output, int y, int x, int first) {                                            \
    FLOATS sums[TL_BLOCK];                                                                        \
    FLOATS start;                                                                                 \
    memcpy(&start, bias + first, sizeof start);                                                   \
    for (int p = 0; p < TL_BLOCK; p++) sums[p] = start;                                           \
    for (int dy = -1; dy <= 1; dy++) {                                                            \
      int sy = y + dy;                                                                            \
      if (sy < 0 || sy >= height) continue;                                                       \
      const float *pixel = input + ((size_t)sy * width + x) * inputs;                             \
      for (int dx = -1; dx <= 1; dx++) {                                                          \
        const float *tap = weights + (size_t)((dy + 1) * 3 + (dx + 1)) * inputs * outputs + first; \
        int lo = x + dx < 0;                                                                      \
        int hi = x + TL_BLOCK - 1 + dx >= width;                                                  \
        if (!lo && !hi) {                                                                         \
          NAME##_taps(sums, pixel, dx, tap, inputs, outputs, 0, TL_BLOCK);                        \
        } else if (!hi) {                                                                         \
          NAME##_taps(sums, pixel, dx, tap, inputs, outputs, 1, TL_BLOCK);                        \
        } else if (!lo) {                                                                         \
          NAME##_taps(sums, pixel, dx, tap, inputs, outputs, 0, TL_BLOCK - 1);                    \
        } else {                                                                                  \
          NAME##_taps(sums, pixel, dx, tap, inputs, outputs, 1, TL_BLOCK - 1);                    \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
    for (int p = 0; p < TL_BLOCK; p++) {                                                          \
      FLOATS relu = (FLOATS)((INTS)sums[p] & (sums[p] > (FLOATS){0}));                            \
      memcpy(output + ((size_t)y * width + x + p) * outputs + first, &relu, sizeof relu);         \
    }                                                                                             \
  }

TL_DEFINE_BLOCK(convolve_block8, tl_floats8, tl_ints8)
TL_DEFINE_BLOCK(convolve_block4, tl_floats4, tl_ints4)

/// The block of pixels from (y, x) on, every output: blocks of eight and four outputs, and
/// the last few pixel by pixel.
TL_INLINE void convolve_blocks(
  const float *restrict input, int height, int width, int inputs, const float *restrict weights,
  const float *restrict bias, int outputs, float *restrict output, float *restrict sums, int y, int x) {
  int first = 0;
  for (; first + 8 <= outputs; first += 8) {
    convolve_block8(input, height, width, inputs, weights, bias, outputs, output, y, x, first);
  }
  for (; first + 4 <= outputs; first += 4) {
    convolve_block4(input, height, width, inputs, weights, bias, outputs, output, y, x, first);
  }
  // The last outputs (fewer than four): pixel by pixel, every output again, the same sums.
  if (first < outputs) {
    for (int p = 0; p < TL_BLOCK; p++) {
      convolve_pixel(input, height, width, inputs, weights, bias, outputs, output, sums, y, x + p);
    }
  }
}

TL_INLINE void convolve(
  const float *restrict input, int height, int width, int inputs, const float *restrict weights,
  const float *restrict bias, int outputs, float *restrict output, float *restrict sums) {
  for (int y = 0; y < height; y++) {
    if (outputs < 4 || width < TL_BLOCK) {
      for (int x = 0; x < width; x++) {
        convolve_pixel(input, height, width, inputs, weights, bias, outputs, output, sums, y, x);
      }
      continue;
    }
    // Blocks across the row; the last one ends at the row's end (overlapping the one before
    // where the width is no multiple of the block: those pixels are written twice, alike).
    for (int x = 0;; x += TL_BLOCK) {
      if (x + TL_BLOCK > width) x = width - TL_BLOCK;
      convolve_blocks(input, height, width, inputs, weights, bias, outputs, output, sums, y, x);
      if (x + TL_BLOCK == width) break;
    }
  }
}

static void convolve_generic(
  const float *input, int height, int width, int inputs, const float *weights, const float *bias,
  int outputs, float *output, float *sums) {
  convolve(input, height, width, inputs, weights, bias, outputs, output, sums);
}

#if defined(__x86_64__)
TL_TARGET_AVX2 static void convolve_avx2(
  const float *input, int height, int width, int inputs, const float *weights, const float *bias,
  int outputs, float *output, float *sums) {
  convolve(input, height, width, inputs, weights, bias, outputs, output, sums);
}

TL_TARGET_AVX512 static void convolve_avx512(
  const float *input, int height, int width, int inputs, const float *weights, const float *bias,
  int outputs, float *output, float *sums) {
  convolve(input, height, width, inputs, weights, bias, outputs, output, sums);
}
#endif

void tl_convolve3x3_relu(
  int level, const float *input, int height, int width, int inputs, const float *weights,
  const float *bias, int outputs, float *output, float *sums) {
  switch (level) {
#if defined(__x86_64__)
  case TL_LEVEL_AVX2:
    convolve_avx2(input, height, width, inputs, weights, bias, outputs, output, sums);
    return;
  case TL_LEVEL_AVX512:
    convolve_avx512(input, height, width, inputs, weights, bias, outputs, output, sums);
    return;
#endif
  default:
    convolve_generic(input, height, width, inputs, weights, bias, outputs, output, sums);
  }
}
