// The per-pixel classifier (see tl_classify_rgb8 in kernels.h). At AVX2 and AVX-512, rules
// whose tests fit 16 bits (tl_classify_fits_16_bits) take the fixed-point form of
// classify_fixed.h, 32 pixels a step; other rules there take one plain C loop, written without
// branches so that the compiler vectorises it. For `generic` and `sse2`, 8 lanes of the
// compiler's vector types. Every form writes blocks too grey or dark for any class as zeros
// without classifying them, and every form gives the same classes.

#include "kernels.h"
#include "targets.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// Whether the hue, as `60000 (n + k d)` (thousandths of a degree times d), lies in `rule`.
TL_INLINE int32_t holds(int32_t hue, int32_t d, tl_hue_rule rule) {
  int32_t above = hue > rule.lower * d;
  int32_t below = hue < rule.upper * d;
  return (above & below) | (rule.wraps & (above | below));
}

/// The class of one pixel, from 0-or-1 masks only. With `d = max - min`, `n` the difference
/// of the other two channels and `k d` the hexcone sector's offset (k = 0, 2, 4 or 6), the
/// hue `h = 60 (n + k d) / d` lies above `t` thousandths of a degree when
/// `60000 (n + k d) > t d`; saturation `d / max` lies above `f` thousandths when
/// `1000 d > f max`. Every product is below 2^27: no division, no rounding, the same answer
/// as the formulas in Double.
TL_INLINE uint8_t classify_one(int32_t r, int32_t g, int32_t b, const tl_hsv_rules *rules) {
  int32_t high = r > g ? r : g;
  high = high > b ? high : b;
  int32_t low = r < g ? r : g;
  low = low < b ? low : b;
  int32_t d = high - low;
  int32_t red_max = high == r;
  int32_t green_max = (high == g) & !red_max;
  int32_t n = red_max ? g - b : (green_max ? b - r : r - g);
  int32_t kd = red_max ? (g < b ? 6 * d : 0) : (green_max ? 2 * d : 4 * d);
  int32_t hue = 60000 * (n + kd);
  int32_t lit = (d > 0) & (high > rules->value_level);
  // The first range that holds the hue decides; its own saturation floor then applies.
  int32_t green = holds(hue, d, rules->green);
  int32_t yellow = holds(hue, d, rules->yellow) & !green;
  int32_t red = holds(hue, d, rules->red) & !green & !yellow;
  int32_t floor =
    green ? rules->green.saturation : (yellow ? rules->yellow.saturation : rules->red.saturation);
  int32_t saturated = 1000 * d > floor * high;
  int32_t code = green * 3 | yellow * 2 | red;
  return (uint8_t)(code & -(saturated & lit));
}

// MARK: - 8 lanes in the compiler's own vector types (GCC's and Clang's vector extensions),
// for the levels without wide lanes: `generic` (NEON on arm64) and `sse2`. Their 32-bit
// products are left to the compiler, which splits them into 16-bit halves where it must.

typedef uint8_t tl_bytes16 __attribute__((vector_size(16)));
typedef int16_t tl_lanes8 __attribute__((vector_size(16)));
typedef uint16_t tl_unsigned_lanes8 __attribute__((vector_size(16)));
typedef int32_t tl_wide_lanes8 __attribute__((vector_size(32)));

/// `holds` for 8 lanes: all ones where the hue lies in `rule`. (The 32-bit lanes are passed
/// by address: a 32-byte vector argument would have another ABI where AVX is on.)
TL_INLINE tl_lanes8 holds8(const tl_wide_lanes8 *hue, const tl_wide_lanes8 *d, tl_hue_rule rule) {
  tl_wide_lanes8 above = *hue > *d * rule.lower;
  tl_wide_lanes8 below = *hue < *d * rule.upper;
  tl_wide_lanes8 wraps = (tl_wide_lanes8){0} - rule.wraps;
  return __builtin_convertvector((above & below) | (wraps & (above | below)), tl_lanes8);
}

/// a where `mask` is all ones, b where it is zero.
TL_INLINE tl_lanes8 select8(tl_lanes8 mask, tl_lanes8 a, tl_lanes8 b) {
  return (mask & a) | (~mask & b);
}

/// `classify_one` for 8 pixels, a channel in each argument's lanes: the classes, one per
/// lane. `n + k d` lies from 0 to 1530, so its product with 60000 is a product of unsigned
/// 16-bit numbers.
TL_INLINE tl_lanes8 classify8(tl_lanes8 r, tl_lanes8 g, tl_lanes8 b, const tl_hsv_rules *rules) {
  tl_lanes8 high = __builtin_elementwise_max(r, __builtin_elementwise_max(g, b));
  tl_lanes8 d = high - __builtin_elementwise_min(r, __builtin_elementwise_min(g, b));
  tl_lanes8 red_max = high == r;
  tl_lanes8 green_max = ~red_max & (high == g);
  tl_lanes8 n = select8(
    red_max, g - b + ((g < b) & (6 * d)), select8(green_max, b - r + 2 * d, r - g + 4 * d));
  tl_wide_lanes8 hue = __builtin_convertvector((tl_unsigned_lanes8)n, tl_wide_lanes8) * 60000;
  tl_wide_lanes8 wide_d = __builtin_convertvector(d, tl_wide_lanes8);
  tl_lanes8 green = holds8(&hue, &wide_d, rules->green);
  tl_lanes8 yellow = ~green & holds8(&hue, &wide_d, rules->yellow);
  tl_lanes8 red = ~(green | yellow) & holds8(&hue, &wide_d, rules->red);
  tl_lanes8 floor = select8(
    green, (tl_lanes8){0} + (int16_t)rules->green.saturation,
    select8(
      yellow, (tl_lanes8){0} + (int16_t)rules->yellow.saturation,
      (tl_lanes8){0} + (int16_t)rules->red.saturation));
  tl_wide_lanes8 floor_high =
    __builtin_convertvector(floor, tl_wide_lanes8) * __builtin_convertvector(high, tl_wide_lanes8);
  tl_lanes8 saturated = __builtin_convertvector(wide_d * 1000 > floor_high, tl_lanes8);
  tl_lanes8 lit = (d > 0) & (high > (int16_t)rules->value_level);
  return ((green & 3) | (yellow & 2) | (red & 1)) & saturated & lit;
}

/// What a pixel needs for any class, as bytes: its largest channel above `value` and its
/// spread (largest less smallest) above `spread`, the least any saturation floor allows
/// there (`1000 d > floor * max` with `max > value_level` needs `d > floor * (value_level +
/// 1) / 1000`); and the bytes of a block's three 16-byte thirds where a pixel starts.
typedef struct {
  uint8_t value;
  uint8_t spread;
  tl_bytes16 starts[3];
} tl_blank_test;

TL_INLINE tl_blank_test blank_test(const tl_hsv_rules *rules) {
  int32_t lowest = rules->green.saturation;
  lowest = rules->yellow.saturation < lowest ? rules->yellow.saturation : lowest;
  lowest = rules->red.saturation < lowest ? rules->red.saturation : lowest;
  int32_t value = rules->value_level;
  value = value < 0 ? 0 : (value > 255 ? 255 : value);
  int32_t least = lowest < 0 ? 0 : lowest * (value + 1) / 1000;
  tl_blank_test test = {(uint8_t)value, (uint8_t)(least > 255 ? 255 : least), {{0}}};
  for (int third = 0; third < 3; third++) {
    for (int k = 0; k < 16; k++) test.starts[third][k] = (16 * third + k) % 3 == 0 ? 0xff : 0;
  }
  return test;
}

/// Whether none of the 16 pixels at `block` can take a class (most blocks of a photo are
/// too grey or too dark for any), by a test on the interleaved bytes: each pixel's channels
/// are lined up on its first byte by loads one and two bytes on, which read two bytes past
/// the block (there must be a pixel more).
TL_INLINE int blank16(const uint8_t *block, const tl_blank_test *test) {
  tl_bytes16 any = {0};
  for (int third = 0; third < 3; third++) {
    tl_bytes16 first, second, last;
    memcpy(&first, block + 16 * third, sizeof first);
    memcpy(&second, block + 16 * third + 1, sizeof second);
    memcpy(&last, block + 16 * third + 2, sizeof last);
    tl_bytes16 high = __builtin_elementwise_max(first, __builtin_elementwise_max(second, last));
    tl_bytes16 low = __builtin_elementwise_min(first, __builtin_elementwise_min(second, last));
    tl_bytes16 both = (tl_bytes16)(high - low > test->spread) & (tl_bytes16)(high > test->value);
    any |= both & test->starts[third];
  }
  uint64_t halves[2];
  memcpy(halves, &any, sizeof halves);
  return (halves[0] | halves[1]) == 0;
}

/// 16 pixels at a time, in 8 lanes: a blank block (`blank16`) is written as zeros, others
/// are split into channels and classified whole.
static void classify_lanes8(
  const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  const tl_hsv_rules local = *rules;
  const tl_blank_test test = blank_test(&local);
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const uint8_t *block = pixels + 3 * i;
    if (i + 17 <= count && blank16(block, &test)) {
      memset(classes + i, 0, 16);
      continue;
    }
    tl_lanes8 channels[3][2];
    for (int k = 0; k < 16; k++) {
      for (int c = 0; c < 3; c++) channels[c][k / 8][k % 8] = block[3 * k + c];
    }
    for (int half = 0; half < 2; half++) {
      tl_lanes8 codes = classify8(channels[0][half], channels[1][half], channels[2][half], &local);
      for (int k = 0; k < 8; k++) classes[i + 8 * half + k] = (uint8_t)codes[k];
    }
  }
  for (; i < count; i++) {
    classes[i] = classify_one(pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2], &local);
  }
}

/// The rules as the fixed-point classifier (classify_fixed.h) applies them: for each test,
/// two 16-bit coefficients whose `madd` with a pixel's pair of 16-bit numbers is above 0
/// exactly where the test passes (green's lower and upper bound, yellow's, red's, on `(m,
/// d)`; then green's, yellow's and red's saturation floor, on `(d, max)`); whether the floors'
/// coefficients fit in signed bytes (`byte_floors`: floors in tenths, and most in
/// hundredths, do), for a test on bytes; the value and spread of `blank_test`; and the byte
/// shuffles that gather each channel of 16 pixels from their three 16-byte chunks
/// (`shuffles[chunk][channel]`, both 128-bit halves alike).
typedef struct {
  int16_t coefficients[9][2];
  int32_t byte_floors;
  int32_t wraps[3];
  uint8_t value;
  uint8_t spread;
  uint8_t shuffles[3][3][32];
  tl_hsv_rules original;
} tl_fixed_rules;

static int32_t greatest_divisor(int32_t a, int32_t b) {
  while (b != 0) {
    int32_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// `numerator / denominator` (denominator above 0) in lowest terms into `pair` as `(q, -p)`
/// (`sign` 1) or `(-q, p)` (`sign` -1), for a test `q x > p y` or `p y > q x`; 0 where `p`
/// or `q` does not fit in 16 bits.
static int reduced_pair(int32_t numerator, int32_t denominator, int sign, int16_t pair[2]) {
  int32_t divisor = greatest_divisor(numerator < 0 ? -numerator : numerator, denominator);
  int32_t p = numerator / divisor, q = denominator / divisor;
  if (q > INT16_MAX || p > INT16_MAX || p < -INT16_MAX) return 0;
  pair[0] = (int16_t)(sign * q);
  pair[1] = (int16_t)(-sign * p);
  return 1;
}

/// `rules` for the fixed-point classifier, or 0 where a coefficient does not fit in 16 bits.
static int fixed_rules(const tl_hsv_rules *rules, tl_fixed_rules *out) {
  const tl_hue_rule *colours[3] = {&rules->green, &rules->yellow, &rules->red};
  for (int c = 0; c < 3; c++) {
    if (!reduced_pair(colours[c]->lower, 60000, 1, out->coefficients[2 * c])) return 0;
    if (!reduced_pair(colours[c]->upper, 60000, -1, out->coefficients[2 * c + 1])) return 0;
    if (!reduced_pair(colours[c]->saturation, 1000, 1, out->coefficients[6 + c])) return 0;
    out->wraps[c] = colours[c]->wraps;
  }
  out->byte_floors = 1;
  for (int t = 6; t < 9; t++) {
    const int16_t *pair = out->coefficients[t];
    for (int k = 0; k < 2; k++) {
      if (pair[k] > INT8_MAX || pair[k] < -INT8_MAX) out->byte_floors = 0;
    }
  }
  const tl_blank_test test = blank_test(rules);
  out->value = test.value;
  out->spread = test.spread;
  for (int chunk = 0; chunk < 3; chunk++) {
    for (int c = 0; c < 3; c++) {
      for (int i = 0; i < 32; i++) {
        int byte = 3 * (i % 16) + c - 16 * chunk;
        out->shuffles[chunk][c][i] = byte >= 0 && byte < 16 ? (uint8_t)byte : 0x80;
      }
    }
  }
  out->original = *rules;
  return 1;
}

int tl_classify_fits_16_bits(const tl_hsv_rules *rules) {
  tl_fixed_rules fixed;
  return fixed_rules(rules, &fixed);
}

int tl_classify_floors_fit_bytes(const tl_hsv_rules *rules) {
  tl_fixed_rules fixed;
  return fixed_rules(rules, &fixed) && fixed.byte_floors;
}

#if defined(__x86_64__)
/// The branch-free loop, for the compiler to vectorise in the caller's lanes, over blocks of
/// 32 pixels (a vector's worth or two): a blank block (`blank16` twice) is written as zeros.
TL_INLINE void classify(
  const uint8_t *restrict pixels, uint8_t *restrict classes, size_t count,
  const tl_hsv_rules *rules) {
  const tl_hsv_rules local = *rules;
  const tl_blank_test test = blank_test(&local);
  size_t i = 0;
  for (; i + 33 <= count; i += 32) {
    const uint8_t *block = pixels + 3 * i;
    if (blank16(block, &test) && blank16(block + 48, &test)) {
      memset(classes + i, 0, 32);
      continue;
    }
    for (int k = 0; k < 32; k++) {
      classes[i + k] = classify_one(block[3 * k], block[3 * k + 1], block[3 * k + 2], &local);
    }
  }
  for (; i < count; i++) {
    classes[i] = classify_one(pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2], &local);
  }
}

#define TL_TARGET TL_TARGET_AVX2
#define NAME(f) f##_avx2
#include "classify_fixed.h"

#define TL_TARGET TL_TARGET_AVX512
#define NAME(f) f##_avx512
#include "classify_fixed.h"

TL_TARGET_AVX2 static void classify_avx2(
  const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  tl_fixed_rules fixed;
  if (fixed_rules(rules, &fixed)) {
    classify_fixed_avx2(pixels, classes, count, &fixed);
  } else {
    classify(pixels, classes, count, rules);
  }
}

TL_TARGET_AVX512 static void classify_avx512(
  const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  tl_fixed_rules fixed;
  if (fixed_rules(rules, &fixed)) {
    classify_fixed_avx512(pixels, classes, count, &fixed);
  } else {
    classify(pixels, classes, count, rules);
  }
}
#endif

void tl_classify_rgb8(
  int level, const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  switch (level) {
#if defined(__x86_64__)
  case TL_LEVEL_AVX2:
    classify_avx2(pixels, classes, count, rules);
    return;
  case TL_LEVEL_AVX512:
    classify_avx512(pixels, classes, count, rules);
    return;
#endif
  default:
    // `generic` and `sse2` (x86-64's baseline, what the package is built for).
    classify_lanes8(pixels, classes, count, rules);
  }
}
