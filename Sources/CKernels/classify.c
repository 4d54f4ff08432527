// The per-pixel classifier (see tl_classify_rgb8 in kernels.h): one plain C loop, written
// without branches so that the compiler vectorises it, compiled once per level (the same
// source under each level's target attribute).

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
  case TL_LEVEL_AVX2:
    classify_avx2(pixels, classes, count, rules);
    return;
  case TL_LEVEL_AVX512:
    classify_avx512(pixels, classes, count, rules);
    return;
#endif
  default:
    // The generic loop is the SSE2 level's too: x86-64's baseline is SSE2. It branches: its
    // vectorised form would be slower there.
    classify_generic(pixels, classes, count, rules);
  }
}
