// The per-pixel classifier (see tl_classify_rgb8 in kernels.h): one plain C loop, written
// without branches so that the compiler vectorises it, compiled for AVX2 and AVX-512 (the
// same source under each level's target attribute); a loop with a branch per decision for
// `generic`; SSE2 intrinsics in 16-bit lanes for `sse2`. Every form gives the same classes.

#include "kernels.h"
#include "targets.h"

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

/// The same class with a branch per decision: faster where the branch-free form's 32-bit
/// multiplies and blends are emulated (SSE2 has no 32-bit lane multiply), as on the baseline.
TL_INLINE uint8_t classify_one_branching(
  int32_t r, int32_t g, int32_t b, const tl_hsv_rules *rules, int32_t lowest_saturation) {
  int32_t high = r > g ? r : g;
  high = high > b ? high : b;
  int32_t low = r < g ? r : g;
  low = low < b ? low : b;
  int32_t d = high - low;
  int32_t saturation = 1000 * d;
  if (d <= 0 || saturation <= lowest_saturation * high || high <= rules->value_level) return 0;
  int32_t hue;
  if (high == r) {
    int32_t n = g - b;
    hue = 60000 * n + (n < 0 ? 360000 * d : 0);
  } else if (high == g) {
    hue = 60000 * (b - r) + 120000 * d;
  } else {
    hue = 60000 * (r - g) + 240000 * d;
  }
  if (holds(hue, d, rules->green)) return saturation > rules->green.saturation * high ? 3 : 0;
  if (holds(hue, d, rules->yellow)) return saturation > rules->yellow.saturation * high ? 2 : 0;
  if (holds(hue, d, rules->red)) return saturation > rules->red.saturation * high ? 1 : 0;
  return 0;
}

TL_INLINE void classify(
  const uint8_t *restrict pixels, uint8_t *restrict classes, size_t count,
  const tl_hsv_rules *rules) {
  const tl_hsv_rules local = *rules;
  for (size_t i = 0; i < count; i++) {
    classes[i] = classify_one(pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2], &local);
  }
}

static void classify_generic(
  const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  const tl_hsv_rules local = *rules;
  int32_t lowest = local.green.saturation;
  lowest = local.yellow.saturation < lowest ? local.yellow.saturation : lowest;
  lowest = local.red.saturation < lowest ? local.red.saturation : lowest;
  for (size_t i = 0; i < count; i++) {
    classes[i] = classify_one_branching(
      pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2], &local, lowest);
  }
}

#if defined(__x86_64__)
#include <emmintrin.h>

/// A 32-bit product held as its high and low 16-bit halves, in 8 lanes: SSE2 multiplies 16
/// bits by 16 and gives either half of the product; it has no 32-bit lane multiply.
typedef struct {
  __m128i high;
  __m128i low;
} tl_wide8;

/// a * b, for a and b from 0 to 65535.
TL_INLINE tl_wide8 times_unsigned8(__m128i a, __m128i b) {
  return (tl_wide8){_mm_mulhi_epu16(a, b), _mm_mullo_epi16(a, b)};
}

/// a * b, for a and b from -32768 to 32767.
TL_INLINE tl_wide8 times_signed8(__m128i a, __m128i b) {
  return (tl_wide8){_mm_mulhi_epi16(a, b), _mm_mullo_epi16(a, b)};
}

/// All ones in the lanes where a > b, for products whose high halves fit 16 signed bits.
TL_INLINE __m128i above8(tl_wide8 a, tl_wide8 b) {
  const __m128i flip = _mm_set1_epi16((short)0x8000);  // unsigned order of the low halves
  __m128i low = _mm_cmpgt_epi16(_mm_xor_si128(a.low, flip), _mm_xor_si128(b.low, flip));
  return _mm_or_si128(
    _mm_cmpgt_epi16(a.high, b.high), _mm_and_si128(_mm_cmpeq_epi16(a.high, b.high), low));
}

/// bound * d, for a hue bound from -1000 to 361000 (its low 16 bits times d, plus its high
/// bits times d shifted up: both products of 16 bits).
TL_INLINE tl_wide8 bound8(int32_t bound, __m128i d) {
  tl_wide8 product = times_unsigned8(_mm_set1_epi16((short)(bound & 0xffff)), d);
  __m128i above_16_bits = _mm_mullo_epi16(_mm_set1_epi16((short)(bound >> 16)), d);
  product.high = _mm_add_epi16(product.high, above_16_bits);
  return product;
}

/// a where `mask` is all ones, b where it is zero.
TL_INLINE __m128i select8(__m128i mask, __m128i a, __m128i b) {
  return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
}

/// `holds` for 8 lanes, as masks.
TL_INLINE __m128i holds8(tl_wide8 hue, __m128i d, tl_hue_rule rule) {
  __m128i above = above8(hue, bound8(rule.lower, d));
  __m128i below = above8(bound8(rule.upper, d), hue);
  __m128i wraps = _mm_set1_epi16((short)-rule.wraps);
  return _mm_or_si128(
    _mm_and_si128(above, below), _mm_and_si128(wraps, _mm_or_si128(above, below)));
}

/// `classify_one` for 8 pixels, each channel in 16-bit lanes: the classes as 16-bit codes.
/// The hexcone's `n + k d` lies from 0 to 1530, so the hue's product fits the unsigned
/// multiply; the rest as in `classify_one`.
TL_INLINE __m128i classify8(__m128i r, __m128i g, __m128i b, const tl_hsv_rules *rules) {
  __m128i high = _mm_max_epi16(r, _mm_max_epi16(g, b));
  __m128i d = _mm_sub_epi16(high, _mm_min_epi16(r, _mm_min_epi16(g, b)));
  __m128i red_max = _mm_cmpeq_epi16(high, r);
  __m128i green_max = _mm_andnot_si128(red_max, _mm_cmpeq_epi16(high, g));
  __m128i d2 = _mm_add_epi16(d, d);
  __m128i d4 = _mm_add_epi16(d2, d2);
  __m128i red_n = _mm_add_epi16(
    _mm_sub_epi16(g, b), _mm_and_si128(_mm_cmplt_epi16(g, b), _mm_add_epi16(d4, d2)));
  __m128i green_n = _mm_add_epi16(_mm_sub_epi16(b, r), d2);
  __m128i blue_n = _mm_add_epi16(_mm_sub_epi16(r, g), d4);
  __m128i n = select8(red_max, red_n, select8(green_max, green_n, blue_n));
  tl_wide8 hue = times_unsigned8(n, _mm_set1_epi16((short)60000));
  __m128i green = holds8(hue, d, rules->green);
  __m128i yellow = _mm_andnot_si128(green, holds8(hue, d, rules->yellow));
  __m128i red = _mm_andnot_si128(_mm_or_si128(green, yellow), holds8(hue, d, rules->red));
  __m128i floor = select8(
    green, _mm_set1_epi16((short)rules->green.saturation),
    select8(
      yellow, _mm_set1_epi16((short)rules->yellow.saturation),
      _mm_set1_epi16((short)rules->red.saturation)));
  __m128i saturated =
    above8(times_signed8(d, _mm_set1_epi16(1000)), times_signed8(floor, high));
  __m128i lit = _mm_and_si128(
    _mm_cmpgt_epi16(d, _mm_setzero_si128()),
    _mm_cmpgt_epi16(high, _mm_set1_epi16((short)rules->value_level)));
  __m128i code = _mm_or_si128(
    _mm_and_si128(green, _mm_set1_epi16(3)),
    _mm_or_si128(_mm_and_si128(yellow, _mm_set1_epi16(2)), _mm_and_si128(red, _mm_set1_epi16(1))));
  return _mm_and_si128(code, _mm_and_si128(saturated, lit));
}

/// The SSE2 level: 16 pixels at a time, in 16-bit lanes. Most pixels of a photo are too
/// grey or too dark for any class: a block of 16 where no pixel has its largest channel
/// above the value level and its spread above the least any saturation floor allows there
/// (`1000 d > floor * max` with `max > value_level` needs `d > floor * (value_level + 1) /
/// 1000`) is written as zeros from a test on the interleaved bytes (each pixel's channels
/// lined up on its first byte by loads one and two bytes on). Other blocks are split into
/// channels and classified whole.
static void classify_sse2(
  const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  const tl_hsv_rules local = *rules;
  int32_t lowest = local.green.saturation;
  lowest = local.yellow.saturation < lowest ? local.yellow.saturation : lowest;
  lowest = local.red.saturation < lowest ? local.red.saturation : lowest;
  int32_t value = local.value_level < 0 ? 0 : (local.value_level > 255 ? 255 : local.value_level);
  int32_t least = lowest < 0 ? 0 : lowest * (value + 1) / 1000;
  const __m128i spread = _mm_set1_epi8((char)(least > 255 ? 255 : least));
  const __m128i level = _mm_set1_epi8((char)value);
  const __m128i zero = _mm_setzero_si128();
  // The bytes of a block's three 16-byte thirds where a pixel starts.
  __m128i starts[3];
  for (int third = 0; third < 3; third++) {
    uint8_t mask[16];
    for (int k = 0; k < 16; k++) mask[k] = (16 * third + k) % 3 == 0 ? 0xff : 0;
    starts[third] = _mm_loadu_si128((const __m128i *)mask);
  }
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const uint8_t *block = pixels + 3 * i;
    // The loads two bytes on read two bytes past the block: there must be a pixel more.
    if (i + 17 <= count) {
      __m128i any = zero;
      for (int third = 0; third < 3; third++) {
        __m128i first = _mm_loadu_si128((const __m128i *)(block + 16 * third));
        __m128i second = _mm_loadu_si128((const __m128i *)(block + 16 * third + 1));
        __m128i last = _mm_loadu_si128((const __m128i *)(block + 16 * third + 2));
        __m128i high = _mm_max_epu8(first, _mm_max_epu8(second, last));
        __m128i d = _mm_subs_epu8(high, _mm_min_epu8(first, _mm_min_epu8(second, last)));
        __m128i both = _mm_min_epu8(_mm_subs_epu8(d, spread), _mm_subs_epu8(high, level));
        any = _mm_or_si128(any, _mm_and_si128(both, starts[third]));
      }
      if (_mm_movemask_epi8(_mm_cmpeq_epi8(any, zero)) == 0xffff) {
        _mm_storeu_si128((__m128i *)(classes + i), zero);
        continue;
      }
    }
    uint8_t channels[3][16];
    for (int k = 0; k < 16; k++) {
      channels[0][k] = block[3 * k];
      channels[1][k] = block[3 * k + 1];
      channels[2][k] = block[3 * k + 2];
    }
    __m128i r = _mm_loadu_si128((const __m128i *)channels[0]);
    __m128i g = _mm_loadu_si128((const __m128i *)channels[1]);
    __m128i b = _mm_loadu_si128((const __m128i *)channels[2]);
    __m128i front = classify8(
      _mm_unpacklo_epi8(r, zero), _mm_unpacklo_epi8(g, zero), _mm_unpacklo_epi8(b, zero), &local);
    __m128i back = classify8(
      _mm_unpackhi_epi8(r, zero), _mm_unpackhi_epi8(g, zero), _mm_unpackhi_epi8(b, zero), &local);
    _mm_storeu_si128((__m128i *)(classes + i), _mm_packus_epi16(front, back));
  }
  for (; i < count; i++) {
    classes[i] = classify_one(pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2], &local);
  }
}

TL_TARGET_AVX2 static void classify_avx2(
  const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  classify(pixels, classes, count, rules);
}

TL_TARGET_AVX512 static void classify_avx512(
  const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  classify(pixels, classes, count, rules);
}
#endif

void tl_classify_rgb8(
  int level, const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules) {
  switch (level) {
#if defined(__x86_64__)
  case TL_LEVEL_SSE2:
    classify_sse2(pixels, classes, count, rules);
    return;
  case TL_LEVEL_AVX2:
    classify_avx2(pixels, classes, count, rules);
    return;
  case TL_LEVEL_AVX512:
    classify_avx512(pixels, classes, count, rules);
    return;
#endif
  default:
    // The generic loop branches: on a baseline without 32-bit lane multiplies (x86-64's
    // SSE2, where `generic` runs it too) its vectorised form would be slower.
    classify_generic(pixels, classes, count, rules);
  }
}
