// libpng's simplified API behind the same report as the JPEG side.
//
// The simplified API does its own setjmp recovery and stores errors in `png_image.message`
// instead of printing them. It also does every conversion the pipeline needs: palette
// expansion, gray to RGB, 16 to 8 bits, and alpha composited on a background (black here).
#include "image_codecs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

static uint32_t tl_png_be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static int tl_png_is_text(const uint8_t *type) {
  return memcmp(type, "tEXt", 4) == 0 || memcmp(type, "zTXt", 4) == 0 || memcmp(type, "iTXt", 4) == 0;
}

uint8_t *tl_png_without_text(const uint8_t *data, size_t size, size_t *out_size) {
  static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  *out_size = 0;
  if (size < 8 || memcmp(data, signature, 8) != 0) {
    return NULL;
  }
  // A first walk: is there anything to drop?
  int found = 0;
  for (size_t at = 8; at + 8 <= size;) {
    size_t length = tl_png_be32(data + at);
    if (size - at < 12 || length > size - at - 12 || tl_png_is_text(data + at + 4)) {
      found = 1;
      break;
    }
    at += length + 12;
  }
  if (!found) {
    return NULL;
  }
  uint8_t *out = malloc(size);
  if (out == NULL) {
    return NULL;
  }
  memcpy(out, data, 8);
  size_t kept = 8;
  size_t at = 8;
  while (at + 8 <= size) {
    size_t length = tl_png_be32(data + at);
    // A header whose chunk does not fit in what is left (a cut-off last chunk too).
    if (size - at < 12 || length > size - at - 12) {
      // A chunk longer than what is left: libpng would allocate its declared length (up to
      // 2 GB, from a 200-byte file) before finding the data short. The file ends here.
      *out_size = kept;
      return out;
    }
    if (!tl_png_is_text(data + at + 4)) {
      memcpy(out + kept, data + at, length + 12);
      kept += length + 12;
    }
    at += length + 12;
  }
  // Whatever follows (fewer bytes than a chunk header) goes to libpng as it was.
  memcpy(out + kept, data + at, size - at);
  kept += size - at;
  *out_size = kept;
  return out;
}

static void tl_png_fail(png_image *image, tl_codec_report *report) {
  snprintf(report->message, TL_MESSAGE_LENGTH, "%s",
           image->message[0] != '\0' ? image->message : "not a readable PNG");
  png_image_free(image);
}

static tl_status tl_png_begin(const uint8_t *data, size_t size, png_image *image,
                              tl_codec_report *report) {
  memset(report, 0, sizeof *report);
  memset(image, 0, sizeof *image);
  image->version = PNG_IMAGE_VERSION;
  if (size == 0) {
    snprintf(report->message, TL_MESSAGE_LENGTH, "empty input");
    return TL_STATUS_ERROR;
  }
  if (!png_image_begin_read_from_memory(image, data, size)) {
    tl_png_fail(image, report);
    return TL_STATUS_ERROR;
  }
  report->width = image->width;
  report->height = image->height;
  report->channels = (int32_t)PNG_IMAGE_SAMPLE_CHANNELS(image->format);
  return TL_STATUS_OK;
}

tl_status tl_png_read_info(const uint8_t *data, size_t size, tl_codec_report *report) {
  size_t stripped_size = 0;
  uint8_t *stripped = tl_png_without_text(data, size, &stripped_size);
  png_image image;
  tl_status status = stripped ? tl_png_begin(stripped, stripped_size, &image, report)
                              : tl_png_begin(data, size, &image, report);
  if (status == TL_STATUS_OK) {
    png_image_free(&image);
  }
  free(stripped);
  return status;
}

/// Decodes `data`, whose text chunks are already dropped (libpng reads from it until the end).
static tl_status tl_png_decode_stripped(const uint8_t *data, size_t size, uint8_t *rgb,
                                        size_t capacity, tl_codec_report *report);

tl_status tl_png_decode_rgb(const uint8_t *data, size_t size, uint8_t *rgb, size_t capacity,
                            tl_codec_report *report) {
  size_t stripped_size = 0;
  uint8_t *stripped = tl_png_without_text(data, size, &stripped_size);
  tl_status status = stripped
                       ? tl_png_decode_stripped(stripped, stripped_size, rgb, capacity, report)
                       : tl_png_decode_stripped(data, size, rgb, capacity, report);
  free(stripped);
  return status;
}

static tl_status tl_png_decode_stripped(const uint8_t *data, size_t size, uint8_t *rgb,
                                        size_t capacity, tl_codec_report *report) {
  png_image image;
  tl_status status = tl_png_begin(data, size, &image, report);
  if (status != TL_STATUS_OK) {
    return status;
  }
  size_t row_bytes = (size_t)image.width * 3;
  if (row_bytes > INT32_MAX ||
      (image.height > 0 && capacity / image.height < row_bytes)) {
    png_image_free(&image);
    return TL_STATUS_BUFFER_TOO_SMALL;
  }
  image.format = PNG_FORMAT_RGB;
  // A 16-bit file without gAMA or sRGB chunks is taken as sRGB-encoded, so reducing it to
  // 8 bits scales the values instead of applying a linear-to-sRGB curve.
  image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
  png_color black = {0, 0, 0};
  if (!png_image_finish_read(&image, &black, rgb, (png_int_32)row_bytes, NULL)) {
    tl_png_fail(&image, report);
    return TL_STATUS_ERROR;
  }
  png_image_free(&image);
  return TL_STATUS_OK;
}

tl_status tl_png_encode(const void *pixels, uint32_t width, uint32_t height, uint32_t format,
                        const void *colormap, uint32_t colormap_entries, uint8_t **out,
                        size_t *out_size, tl_codec_report *report) {
  memset(report, 0, sizeof *report);
  *out = NULL;
  *out_size = 0;
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = format;
  image.colormap_entries = colormap_entries;
  png_alloc_size_t size = 0;
  // The first call only measures.
  if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, 0, colormap)) {
    tl_png_fail(&image, report);
    return TL_STATUS_ERROR;
  }
  uint8_t *buffer = malloc(size);
  if (buffer == NULL) {
    snprintf(report->message, TL_MESSAGE_LENGTH, "out of memory");
    png_image_free(&image);
    return TL_STATUS_ERROR;
  }
  if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, 0, colormap)) {
    free(buffer);
    tl_png_fail(&image, report);
    return TL_STATUS_ERROR;
  }
  png_image_free(&image);
  *out = buffer;
  *out_size = size;
  return TL_STATUS_OK;
}
