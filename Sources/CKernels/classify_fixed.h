// The classifier in 16-bit fixed point, 32 pixels a step in 256-bit vectors, included by
// classify.c once per level that runs it (AVX2, AVX-512) with TL_TARGET (the function
// attribute) and NAME(f) (the level's name for f) defined; it undefines them at its end.
//
// Each test of `classify_one` is the sign of a sum of two 16-bit products, which `madd`
// computes exactly in 32 bits: the hue's bounds are `q m > p d` and `p d > q m` with
// `p / q = bound / 60000` in lowest terms and `m = n + k d` (0 to 1530), the saturation floor
// `q d > p max` with `p / q = floor / 1000`. `tl_fixed_rules` holds the coefficients, and
// `fixed_rules` says when every one fits in 16 bits (whole degrees and saturation floors in
// thousandths do); the classes are those of `classify_one`, pixel for pixel.

/// The signs of `madd(lo, coefficients)` and `madd(hi, coefficients)`, one signed 16-bit
/// lane per pixel (saturated, so a zero stays zero and a sign stays its sign).
TL_TARGET TL_INLINE __m256i NAME(test16)(__m256i lo, __m256i hi, const int16_t *coefficients) {
  const __m256i pair =
    _mm256_set1_epi32((int32_t)(uint16_t)coefficients[0] | ((int32_t)coefficients[1] << 16));
  return _mm256_packs_epi32(_mm256_madd_epi16(lo, pair), _mm256_madd_epi16(hi, pair));
}

/// 32 pixels from `p` (96 bytes) into `out` (32 classes). Where `byte_floors` (a constant
/// where inlined), the saturation floors' tests take `maddubs` of the pixels' `(d, max)` bytes
/// and the coefficients as signed bytes: `q d - p max` is at most 127 * 255 in size, exact in
/// 16 bits, and one multiply covers 16 pixels where `madd` covers 8.
TL_TARGET TL_INLINE void NAME(classify32)(
  const uint8_t *p, uint8_t *out, const tl_fixed_rules *rules, const __m256i shuffles[3][3],
  const int byte_floors) {
  const __m256i zero = _mm256_setzero_si256();
  // Each 128-bit half holds 16 pixels (48 bytes as three chunks): the first half pixels
  // 0-15, the second 16-31. Byte shuffles gather each channel's bytes from the chunks.
  __m256i chunks[3];
  for (int k = 0; k < 3; k++) {
    chunks[k] = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k))),
      _mm_loadu_si128((const __m128i *)(const void *)(p + 48 + 16 * k)), 1);
  }
  __m256i channel[3];
  for (int c = 0; c < 3; c++) {
    channel[c] = _mm256_or_si256(
      _mm256_or_si256(
        _mm256_shuffle_epi8(chunks[0], shuffles[0][c]), _mm256_shuffle_epi8(chunks[1], shuffles[1][c])),
      _mm256_shuffle_epi8(chunks[2], shuffles[2][c]));
  }
  const __m256i r = channel[0], g = channel[1], b = channel[2];
  const __m256i high = _mm256_max_epu8(r, _mm256_max_epu8(g, b));
  const __m256i d = _mm256_sub_epi8(high, _mm256_min_epu8(r, _mm256_min_epu8(g, b)));
  // No pixel spread and bright enough for any class: all zeros (most blocks of a photo).
  const __m256i bright = _mm256_subs_epu8(high, _mm256_set1_epi8((char)rules->value));
  const __m256i any =
    _mm256_min_epu8(_mm256_subs_epu8(d, _mm256_set1_epi8((char)rules->spread)), bright);
  if (_mm256_testz_si256(any, any)) {
    _mm256_storeu_si256((__m256i *)(void *)out, zero);
    return;
  }
  // All ones where a pixel is not lit (d = 0, or max at or below the value level).
  const __m256i unlit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, bright), zero);
  const __m256i red_max = _mm256_cmpeq_epi8(high, r);
  const __m256i green_max = _mm256_andnot_si256(red_max, _mm256_cmpeq_epi8(high, g));

  // The tests' signs, 16 pixels a half (unpacking within each 128-bit half: half 0 is each
  // half's first 8 pixels, half 1 its last 8), packed back to one signed byte a pixel.
  __m256i signs[2][9];
  for (int half = 0; half < 2; half++) {
    __m256i r16, g16, b16, d16, high16, red16, green16;
    if (half == 0) {
      r16 = _mm256_unpacklo_epi8(r, zero), g16 = _mm256_unpacklo_epi8(g, zero);
      b16 = _mm256_unpacklo_epi8(b, zero), d16 = _mm256_unpacklo_epi8(d, zero);
      high16 = _mm256_unpacklo_epi8(high, zero);
      red16 = _mm256_unpacklo_epi8(red_max, red_max);
      green16 = _mm256_unpacklo_epi8(green_max, green_max);
    } else {
      r16 = _mm256_unpackhi_epi8(r, zero), g16 = _mm256_unpackhi_epi8(g, zero);
      b16 = _mm256_unpackhi_epi8(b, zero), d16 = _mm256_unpackhi_epi8(d, zero);
      high16 = _mm256_unpackhi_epi8(high, zero);
      red16 = _mm256_unpackhi_epi8(red_max, red_max);
      green16 = _mm256_unpackhi_epi8(green_max, green_max);
    }
    // m = n + k d: red largest, g - b (+ 6 d when g < b); green, b - r + 2 d; blue, r - g + 4 d.
    const __m256i d2 = _mm256_add_epi16(d16, d16);
    const __m256i d4 = _mm256_add_epi16(d2, d2);
    const __m256i d6 = _mm256_add_epi16(d4, d2);
    const __m256i from_red = _mm256_add_epi16(
      _mm256_sub_epi16(g16, b16), _mm256_and_si256(_mm256_cmpgt_epi16(b16, g16), d6));
    const __m256i from_green = _mm256_add_epi16(_mm256_sub_epi16(b16, r16), d2);
    const __m256i from_blue = _mm256_add_epi16(_mm256_sub_epi16(r16, g16), d4);
    const __m256i m = _mm256_blendv_epi8(
      _mm256_blendv_epi8(from_blue, from_green, green16), from_red, red16);
    const __m256i md_lo = _mm256_unpacklo_epi16(m, d16), md_hi = _mm256_unpackhi_epi16(m, d16);
    for (int t = 0; t < 6; t++) signs[half][t] = NAME(test16)(md_lo, md_hi, rules->coefficients[t]);
    // The byte floors take (d, max) as bytes, below; these floors take them as words.
    if (byte_floors) continue;
    const __m256i dh_lo = _mm256_unpacklo_epi16(d16, high16);
    const __m256i dh_hi = _mm256_unpackhi_epi16(d16, high16);
    for (int t = 6; t < 9; t++) signs[half][t] = NAME(test16)(dh_lo, dh_hi, rules->coefficients[t]);
  }
  __m256i passes[9];
  for (int t = 0; t < (byte_floors ? 6 : 9); t++) {
    passes[t] = _mm256_cmpgt_epi8(_mm256_packs_epi16(signs[0][t], signs[1][t]), zero);
  }
  if (byte_floors) {
    // Each pixel's d and max side by side, in the halves' order above.
    const __m256i dh_bytes_lo = _mm256_unpacklo_epi8(d, high);
    const __m256i dh_bytes_hi = _mm256_unpackhi_epi8(d, high);
    for (int t = 6; t < 9; t++) {
      const int16_t *c = rules->coefficients[t];
      const __m256i pair = _mm256_set1_epi16((int16_t)((uint8_t)c[0] | ((uint8_t)c[1] << 8)));
      passes[t] = _mm256_cmpgt_epi8(
        _mm256_packs_epi16(
          _mm256_maddubs_epi16(dh_bytes_lo, pair), _mm256_maddubs_epi16(dh_bytes_hi, pair)),
        zero);
    }
  }
  // A rule holds where both bounds do, or either where it wraps through 0.
  __m256i in_range[3];
  for (int c = 0; c < 3; c++) {
    in_range[c] = rules->wraps[c] ? _mm256_or_si256(passes[2 * c], passes[2 * c + 1])
                                  : _mm256_and_si256(passes[2 * c], passes[2 * c + 1]);
  }
  const __m256i green = in_range[0];
  const __m256i yellow = _mm256_andnot_si256(green, in_range[1]);
  const __m256i red = _mm256_andnot_si256(_mm256_or_si256(green, yellow), in_range[2]);
  // Each colour's code where its range holds and its own saturation floor passes.
  const __m256i code = _mm256_or_si256(
    _mm256_and_si256(_mm256_and_si256(green, passes[6]), _mm256_set1_epi8(3)),
    _mm256_or_si256(
      _mm256_and_si256(_mm256_and_si256(yellow, passes[7]), _mm256_set1_epi8(2)),
      _mm256_and_si256(_mm256_and_si256(red, passes[8]), _mm256_set1_epi8(1))));
  _mm256_storeu_si256((__m256i *)(void *)out, _mm256_andnot_si256(unlit, code));
}

/// Every pixel, 32 a step; the last step ends at the last pixel, over pixels already done
/// (the same classes again). Fewer than 32 pixels take `classify_one`.
TL_TARGET static void NAME(classify_fixed)(
  const uint8_t *restrict pixels, uint8_t *restrict classes, size_t count,
  const tl_fixed_rules *rules) {
  if (count < 32) {
    for (size_t i = 0; i < count; i++) {
      classes[i] =
        classify_one(pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2], &rules->original);
    }
    return;
  }
  __m256i shuffles[3][3];
  for (int k = 0; k < 3; k++) {
    for (int c = 0; c < 3; c++) {
      shuffles[k][c] = _mm256_loadu_si256((const __m256i *)(const void *)rules->shuffles[k][c]);
    }
  }
  // Two copies of the loop, one for each form of the floors' tests.
  size_t i = 0;
  if (rules->byte_floors) {
    for (; i + 32 <= count; i += 32) {
      NAME(classify32)(pixels + 3 * i, classes + i, rules, shuffles, 1);
    }
  } else {
    for (; i + 32 <= count; i += 32) {
      NAME(classify32)(pixels + 3 * i, classes + i, rules, shuffles, 0);
    }
  }
  if (i < count) {
    // The last step, over pixels done already: either form gives the same classes.
    NAME(classify32)(pixels + 3 * (count - 32), classes + count - 32, rules, shuffles, 0);
  }
}

#undef TL_TARGET
#undef NAME
