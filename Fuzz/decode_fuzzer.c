// libFuzzer target for the decoders in Sources/CImageCodecs: the header, then (within a pixel
// budget, as ImageDecoder checks it) the whole image, and for JPEG two regions of it. Built
// with FUZZ_JPEG or FUZZ_PNG by Fuzz/run.sh.
#include <stdint.h>
#include <stdlib.h>

#include "image_codecs.h"

// The pixel cap, from the build (Fuzz/run.sh): 4 megapixels keeps each input quick; the
// slow-input target takes the tool's own 100 megapixels.
#ifndef FUZZ_MAX_PIXELS
#define FUZZ_MAX_PIXELS 4000000
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tl_codec_report report;
#if defined(FUZZ_JPEG)
  tl_status (*read_info)(const uint8_t *, size_t, tl_codec_report *) = tl_jpeg_read_info;
  tl_status (*decode)(const uint8_t *, size_t, uint8_t *, size_t, tl_codec_report *) = tl_jpeg_decode_rgb;
#elif defined(FUZZ_PNG)
  tl_status (*read_info)(const uint8_t *, size_t, tl_codec_report *) = tl_png_read_info;
  tl_status (*decode)(const uint8_t *, size_t, uint8_t *, size_t, tl_codec_report *) = tl_png_decode_rgb;
#else
#error "define FUZZ_JPEG or FUZZ_PNG"
#endif
  if (read_info(data, size, &report) != TL_STATUS_OK) {
    return 0;
  }
  uint64_t pixels = (uint64_t)report.width * report.height;
  if (pixels == 0 || pixels > FUZZ_MAX_PIXELS) {
    return 0;
  }
  size_t capacity = (size_t)pixels * 3;
  uint8_t *rgb = malloc(capacity);
  if (rgb == NULL) {
    return 0;
  }
  decode(data, size, rgb, capacity, &report);
  // A too-small buffer must be refused, never overrun.
  decode(data, size, rgb, capacity - 1, &report);
#if defined(FUZZ_JPEG)
  // A region: the middle half, and a one-pixel corner.
  uint32_t w = report.width, h = report.height;
  if (w > 0 && h > 0) {
    tl_jpeg_decode_region_rgb(data, size, w / 4, h / 4, w / 2 + 1, h / 2 + 1, rgb, capacity, &report);
    tl_jpeg_decode_region_rgb(data, size, w - 1, h - 1, 1, 1, rgb, capacity, &report);
    // Scaled for a frame's search: the exact buffer, and one byte short (refused).
    for (uint32_t d = 2; d <= 8; d *= 4) {
      size_t scaled = (size_t)((w + d - 1) / d) * ((h + d - 1) / d) * 3;
      tl_jpeg_decode_scaled_rgb(data, size, d, rgb, scaled, &report);
      tl_jpeg_decode_scaled_rgb(data, size, d, rgb, scaled - 1, &report);
    }
  }
#endif
  free(rgb);
  return 0;
}
