#ifndef TRAFFIC_LIGHT_KERNELS_H
#define TRAFFIC_LIGHT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// The instruction sets the C kernels are compiled for, one entry point each, chosen at run
/// time. Every level computes the same bits; they differ in speed only. `TL_LEVEL_GENERIC` is
/// plain C loops compiled for the architecture's baseline (vectorised by the compiler: SSE2 on
/// x86-64, NEON on arm64); the others are written with x86-64 vector intrinsics and exist on
/// x86-64 only.
enum {
  TL_LEVEL_GENERIC = 0,
  TL_LEVEL_SSE2 = 1,
  TL_LEVEL_AVX2 = 2,
  TL_LEVEL_AVX512 = 3,
};

/// Whether this CPU runs `level` (1) or not (0). AVX2 also needs FMA and BMI2 (every CPU
/// with AVX2 since 2013 has them); AVX-512 needs the F, BW, VL and DQ parts.
int tl_level_supported(int level);

/// The largest radius `tl_blur_rgb8` takes.
enum { TL_BLUR_MAX_RADIUS = 16 };

/// The fixed-point separable blur of interleaved 8-bit RGB, at `level`.
///
/// `weights` holds `radius + 1` weights in units of 2^-16, the centre first, with
/// `weights[0] + 2 * (weights[1] + ... + weights[radius])` equal to 65536; `radius` is 1 to
/// `TL_BLUR_MAX_RADIUS` (otherwise nothing is written). The vertical pass runs first: for
/// each tap distance it adds the two source channels at that distance, scales the sum to 7
/// fractional bits and adds the high half of its 16-bit product with the weight; it keeps
/// 7 fractional bits for the horizontal pass, which does the same along the row and rounds
/// to a byte. Each pass starts from half its count of products (in its last unit), which
/// centres the products' truncation on zero. Borders repeat the edge pixel. Rows of `source`
/// are `source_stride` bytes apart, rows of `destination` `width * 3`; `scratch` holds
/// `tl_blur_scratch_count(width, radius)` elements.
void tl_blur_rgb8(
  int level, const uint8_t *source, size_t source_stride, uint8_t *destination, int width,
  int height, int radius, const uint16_t *weights, uint16_t *scratch);

/// Rows `rows[0 ..< row_count]` of the image `tl_blur_rgb8` blurs, bit for bit, into
/// `row_count` rows of `destination` (`width * 3` bytes apart), the other rows' work not done:
/// the form for a decision that samples a few rows. Nothing is written when a row lies
/// outside the image.
void tl_blur_rgb8_rows(
  int level, const uint8_t *source, size_t source_stride, uint8_t *destination, int width,
  int height, int radius, const uint16_t *weights, uint16_t *scratch, const int *rows,
  int row_count);

/// The 16-bit elements of scratch `tl_blur_rgb8` needs for rows of `width` pixels.
size_t tl_blur_scratch_count(int width, int radius);

/// Channel `channel` of the blurred pixel (`x`, `y`), computed as `tl_blur_rgb8` computes it,
/// bit for bit, on the same image: the sparse form, for a few points.
uint8_t tl_blur_rgb8_channel(
  const uint8_t *source, size_t source_stride, int width, int height, int radius,
  const uint16_t *weights, int x, int y, int channel);

/// The value (largest channel) and chroma (largest less smallest) of each of the `count`
/// pixels of interleaved 8-bit RGB at `pixels`, written at every third byte of `values` and
/// `chromas` (a pixel's at the index of its first byte; the bytes between are overwritten
/// with no meaning): each needs `3 * count` bytes. The same at every level (one form).
void tl_value_chroma_rgb8(const uint8_t *pixels, int count, uint8_t *values, uint8_t *chromas);

/// The summed value (largest channel) and chroma (largest less smallest) of the `count`
/// pixels of interleaved 8-bit RGB at `pixels`, into `value_sum` and `chroma_sum`: the same
/// sums as `tl_value_chroma_rgb8`'s bytes added up. One form, as that one.
void tl_sum_value_chroma_rgb8(
  const uint8_t *pixels, int count, uint64_t *value_sum, uint64_t *chroma_sum);

/// One colour's hue rule: bounds in thousandths of a degree, the saturation floor in
/// thousandths, and `wraps` 1 when the range wraps through 0 (`lower > upper`).
typedef struct {
  int32_t lower;
  int32_t upper;
  int32_t saturation;
  int32_t wraps;
} tl_hue_rule;

/// The classifier's rules in its integer units: a pixel needs `max > value_level` (on
/// 0...255), then takes the first of green, yellow, red whose range holds its hue, if its
/// saturation passes that colour's floor.
typedef struct {
  int32_t value_level;
  tl_hue_rule green;
  tl_hue_rule yellow;
  tl_hue_rule red;
} tl_hsv_rules;

/// Classifies `count` interleaved RGB pixels into `classes` (0 none, 1 red, 2 yellow,
/// 3 green), at `level`.
void tl_classify_rgb8(
  int level, const uint8_t *pixels, uint8_t *classes, size_t count, const tl_hsv_rules *rules);

/// Whether every test of `rules` fits the 16-bit fixed-point form that `tl_classify_rgb8`
/// takes at the AVX2 and AVX-512 levels (hue bounds over 60000 and saturation floors over
/// 1000 in lowest terms with 16-bit terms: whole degrees and saturation floors in
/// thousandths do); other
/// rules take the 32-bit form there. The classes are the same either way.
int tl_classify_fits_16_bits(const tl_hsv_rules *rules);

/// Whether `rules` fit the 16-bit form and their saturation floors' terms fit signed bytes
/// too (floors in tenths do, 0.417 does not), so that the floors' tests take `maddubs` there.
int tl_classify_floors_fit_bytes(const tl_hsv_rules *rules);

/// A 3x3 convolution with zero padding, then ReLU, at `level`: `input` is `height` x `width`
/// pixels of `inputs` floats each (channels innermost), `weights` is
/// `[dy][dx][input][output]` (9 * inputs * outputs floats), `output` gets `height` x `width`
/// pixels of `outputs` floats, each `max(0, bias + sum of products)` with the products added
/// in the order of `weights`, unfused, so every level gives the same bits. `sums` is scratch
/// of `outputs` floats.
void tl_convolve3x3_relu(
  int level, const float *input, int height, int width, int inputs, const float *weights,
  const float *bias, int outputs, float *output, float *sums);

#endif
