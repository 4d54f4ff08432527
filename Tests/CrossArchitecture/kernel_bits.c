// Prints a hash of what each C kernel computes on made-up inputs, at the level given (a
// TL_LEVEL_ number; default 0, generic): built for x86-64 at each of its levels and for arm64
// (run under qemu), every run must print the same lines, since every level, on every
// architecture, promises the same bits (kernels.h). scripts/arm64_check.sh builds and
// compares them.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

static uint64_t state = 0x2545F4914F6CDD1DULL;

/// The next pseudo-random 32 bits (xorshift64*): the same sequence everywhere.
static uint32_t next(void) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return (uint32_t)((state * 0x2545F4914F6CDD1DULL) >> 32);
}

/// FNV-1a over `count` bytes, continuing from `hash`.
static uint64_t fnv(uint64_t hash, const void *bytes, size_t count) {
  const uint8_t *p = bytes;
  for (size_t i = 0; i < count; i++) {
    hash ^= p[i];
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

/// An image of random pixels, with runs of grey and of saturated colours so that every
/// class and the value floor are reached.
static uint8_t *image(int width, int height) {
  uint8_t *pixels = malloc((size_t)width * height * 3 + 1);
  for (int i = 0; i < width * height; i++) {
    uint32_t r = next();
    uint8_t *p = pixels + 3 * i;
    switch (r % 4) {
    case 0: p[0] = p[1] = p[2] = (uint8_t)(r >> 8); break;
    case 1: p[0] = 255; p[1] = (uint8_t)(r >> 8); p[2] = (uint8_t)(r >> 16) / 4; break;
    default: p[0] = (uint8_t)(r >> 8); p[1] = (uint8_t)(r >> 16); p[2] = (uint8_t)(r >> 24); break;
    }
  }
  return pixels;
}

/// Integer weights for `radius` (falling off as the square of the distance), in units of
/// 2^-16, summing to 65536 with the centre counted once and the others twice.
static void weights(int radius, uint16_t *out) {
  uint64_t raw[TL_BLUR_MAX_RADIUS + 1];
  uint64_t total = 0;
  for (int i = 0; i <= radius; i++) {
    raw[i] = (uint64_t)(radius + 1 - i) * (radius + 1 - i);
    total += i == 0 ? raw[i] : 2 * raw[i];
  }
  uint64_t sum = 0;
  for (int i = radius; i >= 0; i--) {
    out[i] = (uint16_t)(raw[i] * 65536 / total);
    sum += i == 0 ? out[i] : 2 * (uint64_t)out[i];
  }
  out[0] = (uint16_t)(out[0] + (65536 - sum));
}

int main(int argc, char **argv) {
  static const int sizes[][2] = {{1, 1}, {7, 5}, {33, 17}, {64, 48}, {255, 3}, {130, 97}};
  const int level = argc > 1 ? atoi(argv[1]) : TL_LEVEL_GENERIC;
  if (!tl_level_supported(level)) {
    fprintf(stderr, "level %d: not on this CPU\n", level);
    return 2;
  }
  uint64_t blur = 0xCBF29CE484222325ULL, rows = blur, channel = blur, value = blur, classes = blur;
  // The first two rules' floors fit bytes (tl_classify_floors_fit_bytes), the third's do not;
  // the last rules' bounds do not fit the 16-bit form (tl_classify_fits_16_bits).
  const tl_hsv_rules rules[4] = {
    {0, {140000, 220000, 800, 0}, {5000, 60000, 800, 0}, {340000, 5000, 800, 1}},
    {100, {95000, 200000, 250, 0}, {20000, 70000, 300, 0}, {330000, 20000, 350, 1}},
    {100, {95000, 200000, 250, 0}, {20000, 70000, 417, 0}, {330000, 20000, 350, 1}},
    {76, {95001, 199999, 417, 0}, {20003, 70000, 300, 0}, {330000, 19997, 351, 1}},
  };
  for (int r = 0; r < 4; r++) {
    if (tl_classify_floors_fit_bytes(&rules[r]) != (r < 2) ||
        tl_classify_fits_16_bits(&rules[r]) != (r < 3)) {
      fprintf(stderr, "rules %d: not the form the comment above says\n", r);
      return 1;
    }
  }
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int width = sizes[s][0], height = sizes[s][1];
    size_t count = (size_t)width * height;
    uint8_t *source = image(width, height);
    uint8_t *out = malloc(count * 3 + 1);
    for (int radius = 1; radius <= TL_BLUR_MAX_RADIUS; radius++) {
      uint16_t w[TL_BLUR_MAX_RADIUS + 1];
      weights(radius, w);
      uint16_t *scratch = malloc(tl_blur_scratch_count(width, radius) * sizeof(uint16_t) + 2);
      tl_blur_rgb8(level, source, (size_t)width * 3, out, width, height, radius, w, scratch);
      blur = fnv(blur, out, count * 3);
      int picked[3] = {0, height / 2, height - 1};
      uint8_t *some = malloc((size_t)width * 3 * 3 + 1);
      tl_blur_rgb8_rows(level, source, (size_t)width * 3, some, width, height, radius, w, scratch, picked, 3);
      rows = fnv(rows, some, (size_t)width * 3 * 3);
      for (int k = 0; k < 8; k++) {
        int x = (int)(next() % (uint32_t)width), y = (int)(next() % (uint32_t)height), c = (int)(next() % 3);
        uint8_t byte = tl_blur_rgb8_channel(source, (size_t)width * 3, width, height, radius, w, x, y, c);
        channel = fnv(channel, &byte, 1);
      }
      free(some);
      free(scratch);
    }
    uint8_t *values = malloc(count * 3 + 1), *chromas = malloc(count * 3 + 1);
    tl_value_chroma_rgb8(source, (int)count, values, chromas);
    for (size_t i = 0; i < count; i++) {
      value = fnv(value, values + 3 * i, 1);
      value = fnv(value, chromas + 3 * i, 1);
    }
    uint64_t sums[2];
    tl_sum_value_chroma_rgb8(source, (int)count, &sums[0], &sums[1]);
    value = fnv(value, sums, sizeof sums);
    for (int r = 0; r < 4; r++) {
      tl_classify_rgb8(level, source, out, count, &rules[r]);
      classes = fnv(classes, out, count);
    }
    free(values);
    free(chromas);
    free(out);
    free(source);
  }
  // The convolution: floats, added in one order and unfused on every level and machine.
  uint64_t convolution = 0xCBF29CE484222325ULL;
  for (int trial = 0; trial < 4; trial++) {
    int height = 5 + trial, width = 7 + 2 * trial, inputs = 1 + trial, outputs = 3 + trial;
    float *input = malloc(sizeof(float) * height * width * inputs);
    float *weight = malloc(sizeof(float) * 9 * inputs * outputs);
    float *bias = malloc(sizeof(float) * outputs);
    float *output = malloc(sizeof(float) * height * width * outputs);
    float *sums = malloc(sizeof(float) * outputs);
    for (int i = 0; i < height * width * inputs; i++) input[i] = (float)((int)(next() % 2001) - 1000) / 997.0f;
    for (int i = 0; i < 9 * inputs * outputs; i++) weight[i] = (float)((int)(next() % 2001) - 1000) / 1009.0f;
    for (int i = 0; i < outputs; i++) bias[i] = (float)((int)(next() % 201) - 100) / 101.0f;
    tl_convolve3x3_relu(level, input, height, width, inputs, weight, bias, outputs, output, sums);
    convolution = fnv(convolution, output, sizeof(float) * height * width * outputs);
    free(input);
    free(weight);
    free(bias);
    free(output);
    free(sums);
  }
  printf("blur %016llx\n", (unsigned long long)blur);
  printf("blur rows %016llx\n", (unsigned long long)rows);
  printf("blur channel %016llx\n", (unsigned long long)channel);
  printf("value and chroma %016llx\n", (unsigned long long)value);
  printf("classify %016llx\n", (unsigned long long)classes);
  printf("convolution %016llx\n", (unsigned long long)convolution);
  return 0;
}
