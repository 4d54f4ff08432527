// The light network's 3x3 convolution with ReLU, one copy per level (the same source under
// each level's target attribute). Lanes run over output channels: each output's sum is
// taken in the same order at every level, and products are not fused into additions, so
// that every level gives the same bits.

#include "kernels.h"
#include "targets.h"

#pragma STDC FP_CONTRACT OFF

TL_INLINE void convolve(
  const float *restrict input, int height, int width, int inputs, const float *restrict weights,
  const float *restrict bias, int outputs, float *restrict output, float *restrict sums) {
  for (int y = 0; y < height; y++) {
    for (int x = 0; x < width; x++) {
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
