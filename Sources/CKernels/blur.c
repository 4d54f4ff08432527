// The fixed-point blur (see tl_blur_rgb8 in kernels.h), one copy per level: blur_level.h
// holds the passes, written once over a small vocabulary of 16-bit vector operations, and is
// included here once per level with that level's vocabulary and target attribute.

#include "kernels.h"
#include "targets.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// The high half of a 16-bit product: what one lane of `pmulhuw` computes.
TL_INLINE uint16_t high_product(uint16_t a, uint16_t b) {
  return (uint16_t)(((uint32_t)a * b) >> 16);
}

/// Half the number of products a pass adds, in units of 2^-7: each product's high half
/// drops less than one unit, so starting from this centres the pass's error on zero.
TL_INLINE uint16_t pass_bias(int radius) { return (uint16_t)((radius + 1) / 2); }

/// Row or column `i` clamped to 0 ..< `count`.
TL_INLINE int clamp(int i, int count) { return i < 0 ? 0 : (i >= count ? count - 1 : i); }

/// One channel of the vertical pass: channel `i` of `centre` and of the rows around it.
TL_INLINE uint16_t vertical_one(
  const uint8_t *centre, const uint8_t *const *above, const uint8_t *const *below, int i,
  int radius, const uint16_t *weights) {
  uint16_t sum = (uint16_t)(pass_bias(radius) + high_product((uint16_t)(*centre << 7), weights[0]));
  for (int k = 1; k <= radius; k++) {
    uint16_t pair = (uint16_t)((above[k][i] + below[k][i]) << 7);
    sum = (uint16_t)(sum + high_product(pair, weights[k]));
  }
  return sum;
}

/// One channel of the horizontal pass: `centre[0]` and the channels `step * k` on each side.
TL_INLINE uint8_t horizontal_one(
  const uint16_t *centre, int step, int radius, const uint16_t *weights) {
  uint16_t sum = (uint16_t)(pass_bias(radius) + 64 + high_product(centre[0], weights[0]));
  for (int k = 1; k <= radius; k++) {
    uint16_t pair = (uint16_t)(centre[-step * k] + centre[step * k]);
    sum = (uint16_t)(sum + high_product(pair, weights[k]));
  }
  uint16_t value = (uint16_t)(sum >> 7);
  return (uint8_t)(value > 255 ? 255 : value);
}

/// Repeats the row's first and last pixel into the `3 radius` channels on each side.
TL_INLINE void replicate_edges(uint16_t *row, int channels, int radius) {
  for (int k = 1; k <= radius; k++) {
    memcpy(row - 3 * k, row, 3 * sizeof(uint16_t));
    memcpy(row + channels + 3 * (k - 1), row + channels - 3, 3 * sizeof(uint16_t));
  }
}

// MARK: - Generic: 8 lanes in the compiler's own vector types (GCC's and Clang's vector
// extensions), which it lowers to whatever the target has: NEON on arm64, SSE2 on x86-64.

typedef uint8_t tl_bytes8 __attribute__((vector_size(8)));
typedef uint16_t tl_lanes8 __attribute__((vector_size(16)));
typedef uint32_t tl_wide_lanes8 __attribute__((vector_size(32)));

TL_INLINE tl_lanes8 load_bytes8(const uint8_t *p) {
  tl_bytes8 bytes;
  memcpy(&bytes, p, sizeof bytes);
  return __builtin_convertvector(bytes, tl_lanes8);
}

TL_INLINE tl_lanes8 load8(const uint16_t *p) {
  tl_lanes8 lanes;
  memcpy(&lanes, p, sizeof lanes);
  return lanes;
}

TL_INLINE void store8(uint16_t *p, tl_lanes8 v) { memcpy(p, &v, sizeof v); }

/// Each lane narrowed to a byte, 255 where it is above.
TL_INLINE void store_bytes8(uint8_t *p, tl_lanes8 v) {
  tl_lanes8 above = (tl_lanes8)(v > 255);  // all ones where above
  tl_bytes8 bytes = __builtin_convertvector((v & ~above) | (above & 255), tl_bytes8);
  memcpy(p, &bytes, sizeof bytes);
}

/// `high_product` lane by lane.
TL_INLINE tl_lanes8 high_product8(tl_lanes8 a, tl_lanes8 b) {
  tl_wide_lanes8 product =
    __builtin_convertvector(a, tl_wide_lanes8) * __builtin_convertvector(b, tl_wide_lanes8);
  return __builtin_convertvector(product >> 16, tl_lanes8);
}

#define TL_TARGET
#define VEC tl_lanes8
#define LANES 8
#define LOAD_BYTES(p) load_bytes8(p)
#define LOAD(p) load8(p)
#define STORE(p, v) store8((p), (v))
#define STORE_BYTES(p, v) store_bytes8((p), (v))
#define ADD(a, b) ((a) + (b))
#define HIGH_PRODUCT(a, b) high_product8((a), (b))
#define UP7(v) ((v) << 7)
#define DOWN7(v) ((v) >> 7)
#define SPLAT(x) ((tl_lanes8){0} + (uint16_t)(x))
#define NAME(f) f##_generic
#include "blur_level.h"

#if defined(__x86_64__)

// MARK: - SSE2 (every x86-64 CPU): 8 lanes.

#define TL_TARGET TL_TARGET_SSE2
#define VEC __m128i
#define LANES 8
#define LOAD_BYTES(p) \
  _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)(p)), _mm_setzero_si128())
#define LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define STORE_BYTES(p, v) _mm_storel_epi64((__m128i *)(void *)(p), _mm_packus_epi16((v), (v)))
#define ADD(a, b) _mm_add_epi16((a), (b))
#define HIGH_PRODUCT(a, b) _mm_mulhi_epu16((a), (b))
#define UP7(v) _mm_slli_epi16((v), 7)
#define DOWN7(v) _mm_srli_epi16((v), 7)
#define SPLAT(x) _mm_set1_epi16((short)(x))
#define NAME(f) f##_sse2
// No wide vertical step here: SSE2's unpacks overwrite their first operand, so each needs a
// copy of the zero vector, and the step measured no faster than the LANES one.
#include "blur_level.h"

// MARK: - AVX2: 16 lanes.

/// 32 channels from the wide vertical step's two vectors, whose halves interleave.
TL_TARGET_AVX2 TL_INLINE void store_wide_avx2(uint16_t *p, __m256i low, __m256i high) {
  _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(low));
  _mm_storeu_si128((__m128i *)(void *)(p + 8), _mm256_castsi256_si128(high));
  _mm_storeu_si128((__m128i *)(void *)(p + 16), _mm256_extracti128_si256(low, 1));
  _mm_storeu_si128((__m128i *)(void *)(p + 24), _mm256_extracti128_si256(high, 1));
}

#define TL_TARGET TL_TARGET_AVX2
#define VEC __m256i
#define LANES 16
#define LOAD_BYTES(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define STORE_BYTES(p, v)                      \
  _mm_storeu_si128((__m128i *)(void *)(p),     \
    _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256((v), 1)))
#define ADD(a, b) _mm256_add_epi16((a), (b))
#define HIGH_PRODUCT(a, b) _mm256_mulhi_epu16((a), (b))
#define UP7(v) _mm256_slli_epi16((v), 7)
#define DOWN7(v) _mm256_srli_epi16((v), 7)
#define SPLAT(x) _mm256_set1_epi16((short)(x))
#define NAME(f) f##_avx2
// The wide vertical step (10% off the blur's time on an AVX2 EPYC, BENCHMARKS.md). Unpacking
// works within each 128-bit half: "low" holds channels 0-7 and 16-23 of a step,
// "high" 8-15 and 24-31, and STORE_WIDE stores the four halves in channel order.
#define LOAD_WIDE(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define UNPACK_UP8_LOW(v) _mm256_unpacklo_epi8(_mm256_setzero_si256(), (v))
#define UNPACK_UP8_HIGH(v) _mm256_unpackhi_epi8(_mm256_setzero_si256(), (v))
#define AVERAGE(a, b) _mm256_avg_epu16((a), (b))
#define DOWN1(v) _mm256_srli_epi16((v), 1)
#define STORE_WIDE(p, low, high) store_wide_avx2((p), (low), (high))
#include "blur_level.h"

// MARK: - AVX-512 (F, BW, VL, DQ): 32 lanes.

#define TL_TARGET TL_TARGET_AVX512
#define VEC __m512i
#define LANES 32
#define LOAD_BYTES(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define LOAD(p) _mm512_loadu_si512((const void *)(p))
#define STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define STORE_BYTES(p, v) \
  _mm256_storeu_si256((__m256i *)(void *)(p), _mm512_cvtusepi16_epi8(v))
#define ADD(a, b) _mm512_add_epi16((a), (b))
#define HIGH_PRODUCT(a, b) _mm512_mulhi_epu16((a), (b))
#define UP7(v) _mm512_slli_epi16((v), 7)
#define DOWN7(v) _mm512_srli_epi16((v), 7)
#define SPLAT(x) _mm512_set1_epi16((short)(x))
#define NAME(f) f##_avx512
#include "blur_level.h"

#endif

size_t tl_blur_scratch_count(int width, int radius) {
  return (size_t)(width + 2 * radius) * 3 + 64;
}

// The rows of `rows` (all `height` when NULL), at `level`.
static void blur_at_level(
  int level, const uint8_t *source, size_t source_stride, uint8_t *destination, int width,
  int height, int radius, const uint16_t *weights, uint16_t *scratch, const int *rows,
  int row_count) {
  if (width <= 0 || height <= 0 || radius < 1 || radius > TL_BLUR_MAX_RADIUS) return;
  switch (level) {
#if defined(__x86_64__)
  case TL_LEVEL_SSE2:
    blur_sse2(
      source, source_stride, destination, width, height, radius, weights, scratch, rows, row_count);
    return;
  case TL_LEVEL_AVX2:
    blur_avx2(
      source, source_stride, destination, width, height, radius, weights, scratch, rows, row_count);
    return;
  case TL_LEVEL_AVX512:
    blur_avx512(
      source, source_stride, destination, width, height, radius, weights, scratch, rows, row_count);
    return;
#endif
  default:
    blur_generic(
      source, source_stride, destination, width, height, radius, weights, scratch, rows, row_count);
  }
}

void tl_blur_rgb8(
  int level, const uint8_t *source, size_t source_stride, uint8_t *destination, int width,
  int height, int radius, const uint16_t *weights, uint16_t *scratch) {
  blur_at_level(
    level, source, source_stride, destination, width, height, radius, weights, scratch, NULL,
    height);
}

void tl_blur_rgb8_rows(
  int level, const uint8_t *source, size_t source_stride, uint8_t *destination, int width,
  int height, int radius, const uint16_t *weights, uint16_t *scratch, const int *rows,
  int row_count) {
  for (int k = 0; k < row_count; k++) {
    if (rows[k] < 0 || rows[k] >= height) return;
  }
  blur_at_level(
    level, source, source_stride, destination, width, height, radius, weights, scratch, rows,
    row_count);
}

uint8_t tl_blur_rgb8_channel(
  const uint8_t *source, size_t source_stride, int width, int height, int radius,
  const uint16_t *weights, int x, int y, int channel) {
  if (width <= 0 || height <= 0 || radius < 1 || radius > TL_BLUR_MAX_RADIUS) return 0;
  // The vertical pass of the 2 radius + 1 columns around x, then the horizontal pass.
  const uint8_t *above[TL_BLUR_MAX_RADIUS + 1];
  const uint8_t *below[TL_BLUR_MAX_RADIUS + 1];
  for (int k = 1; k <= radius; k++) {
    above[k] = source + (size_t)clamp(y - k, height) * source_stride + channel;
    below[k] = source + (size_t)clamp(y + k, height) * source_stride + channel;
  }
  const uint8_t *centre = source + (size_t)y * source_stride + channel;
  uint16_t columns[2 * TL_BLUR_MAX_RADIUS + 1];
  for (int t = -radius; t <= radius; t++) {
    int column = clamp(x + t, width) * 3;
    columns[t + radius] = vertical_one(centre + column, above, below, column, radius, weights);
  }
  return horizontal_one(columns + radius, 1, radius, weights);
}
