// libjpeg-turbo behind functions that never print and never exit.
//
// libjpeg's default error manager prints to stderr and calls exit(). Ours formats the message
// into the report and longjmps back to the setjmp in the calling function; warnings (corrupt
// data that libjpeg patches over) are counted and the first one is kept.
#include "image_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct tl_jpeg_error {
  struct jpeg_error_mgr manager;
  jmp_buf recovery;
  tl_codec_report *report;
} tl_jpeg_error;

static void tl_jpeg_error_exit(j_common_ptr cinfo) {
  tl_jpeg_error *error = (tl_jpeg_error *)cinfo->err;
  char buffer[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buffer);
  snprintf(error->report->message, TL_MESSAGE_LENGTH, "%s", buffer);
  longjmp(error->recovery, 1);
}

static void tl_jpeg_emit_message(j_common_ptr cinfo, int level) {
  if (level >= 0) {
    return;  // trace messages
  }
  tl_jpeg_error *error = (tl_jpeg_error *)cinfo->err;
  if (error->report->warning_count == 0) {
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    snprintf(error->report->warning, TL_MESSAGE_LENGTH, "%s", buffer);
  }
  error->report->warning_count += 1;
  cinfo->err->num_warnings += 1;
}

static void tl_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// The decoding work a JPEG may ask for, and what it has asked so far. Each scan costs, per
/// block of each component it covers, the coefficients of its band plus 16 (a scan's pass over
/// a block costs something however narrow its band): a baseline JPEG costs 80 a block, the
/// progressions libjpeg writes 192 to 208 (YCbCr) and 287 (gray, CMYK). A file may cost 384 a
/// block of the whole image, and have at most TL_JPEG_MAX_SCANS scans: repeated scans (each a
/// pass over the image) stop there, wherever they are. Measured (BENCHMARKS.md), such a file
/// then costs no more than about 1.1 times an ordinary progressive JPEG of its size.
typedef struct tl_jpeg_progress {
  struct jpeg_progress_mgr manager;  // first: libjpeg sees only this
  int counted_scan;
  double work;
  double budget;
} tl_jpeg_progress;

static void tl_jpeg_refuse(j_common_ptr cinfo, const char *why) {
  tl_jpeg_error *error = (tl_jpeg_error *)cinfo->err;
  snprintf(error->report->message, TL_MESSAGE_LENGTH, "%s", why);
  longjmp(error->recovery, 1);
}

/// Called by libjpeg as it works: adds each new scan's work, and stops the file when it passes
/// its budget or its scans pass the limit.
static void tl_jpeg_progress_monitor(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor) {
    return;
  }
  j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
  tl_jpeg_progress *progress = (tl_jpeg_progress *)cinfo->progress;
  if (decompress->input_scan_number > TL_JPEG_MAX_SCANS) {
    char why[TL_MESSAGE_LENGTH];
    snprintf(why, sizeof why,
             "more than %d scans (a progressive JPEG repeats its scans; cameras write about 10)",
             TL_JPEG_MAX_SCANS);
    tl_jpeg_refuse(cinfo, why);
  }
  if (decompress->input_scan_number == progress->counted_scan || decompress->comps_in_scan <= 0) {
    return;
  }
  progress->counted_scan = decompress->input_scan_number;
  int band = decompress->Se - decompress->Ss + 1;
  for (int i = 0; i < decompress->comps_in_scan && i < MAX_COMPS_IN_SCAN; i++) {
    jpeg_component_info *component = decompress->cur_comp_info[i];
    if (component != NULL) {
      progress->work +=
        (double)component->width_in_blocks * component->height_in_blocks * (band + 16);
    }
  }
  if (progress->work > progress->budget) {
    tl_jpeg_refuse(cinfo,
                   "its scans ask for more decoding than the image's size warrants (a progressive "
                   "JPEG that repeats its scans)");
  }
}

/// Sets the budget of `progress` from the header just read, and hands it to libjpeg.
static void tl_jpeg_watch(j_decompress_ptr cinfo, tl_jpeg_progress *progress) {
  progress->manager.progress_monitor = tl_jpeg_progress_monitor;
  progress->counted_scan = cinfo->input_scan_number;
  progress->work = 0;
  double blocks = 0;
  for (int i = 0; i < cinfo->num_components; i++) {
    blocks += (double)cinfo->comp_info[i].width_in_blocks * cinfo->comp_info[i].height_in_blocks;
  }
  progress->budget = 384 * blocks;
  cinfo->progress = &progress->manager;
}

static void tl_jpeg_install_errors(tl_jpeg_error *error, tl_codec_report *report) {
  jpeg_std_error(&error->manager);
  error->manager.error_exit = tl_jpeg_error_exit;
  error->manager.emit_message = tl_jpeg_emit_message;
  error->manager.output_message = tl_jpeg_output_message;
  error->report = report;
}

/// Whether the JPEG whose header `cinfo` read stores CMYK (or YCCK) pixels.
static int tl_jpeg_is_cmyk(const struct jpeg_decompress_struct *cinfo) {
  return cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
}

static void tl_report_header(struct jpeg_decompress_struct *cinfo, tl_codec_report *report) {
  report->width = cinfo->image_width;
  report->height = cinfo->image_height;
  report->channels = cinfo->num_components;
  report->progressive = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
  report->cmyk = tl_jpeg_is_cmyk(cinfo);
}

/// A JPEG whose header has been read: its decompressor, and what its error handler and
/// progress monitor keep, in one allocation that lives until the decode (or tl_jpeg_close).
struct tl_jpeg_reader {
  struct jpeg_decompress_struct cinfo;
  tl_jpeg_error error;
  tl_jpeg_progress progress;
  /// A row of the whole decoded width, where the rows are not decoded straight into the
  /// caller's buffer; freed with the reader.
  JSAMPLE *row;
};

/// Frees `reader` and its decompressor.
static void tl_jpeg_free(tl_jpeg_reader *reader) {
  free(reader->row);
  jpeg_destroy_decompress(&reader->cinfo);
  free(reader);
}

tl_jpeg_reader *tl_jpeg_open(const uint8_t *data, size_t size, tl_codec_report *report) {
  memset(report, 0, sizeof *report);
  tl_jpeg_reader *reader = calloc(1, sizeof *reader);
  if (reader == NULL) {
    snprintf(report->message, TL_MESSAGE_LENGTH, "out of memory");
    return NULL;
  }
  tl_jpeg_install_errors(&reader->error, report);
  reader->cinfo.err = &reader->error.manager;
  if (setjmp(reader->error.recovery)) {
    tl_jpeg_free(reader);
    return NULL;
  }
  jpeg_create_decompress(&reader->cinfo);
  jpeg_mem_src(&reader->cinfo, data, (unsigned long)size);
  jpeg_read_header(&reader->cinfo, TRUE);
  tl_report_header(&reader->cinfo, report);
  return reader;
}

void tl_jpeg_close(tl_jpeg_reader *reader) {
  if (reader != NULL) {
    tl_jpeg_free(reader);
  }
}

tl_status tl_jpeg_read_info(const uint8_t *data, size_t size, tl_codec_report *report) {
  tl_jpeg_reader *reader = tl_jpeg_open(data, size, report);
  if (reader == NULL) {
    return TL_STATUS_ERROR;
  }
  tl_jpeg_close(reader);
  return TL_STATUS_OK;
}

/// Inverted CMYK (the Adobe convention) to RGB: each colour channel times black.
static void tl_cmyk_row_to_rgb(const JSAMPLE *cmyk, uint8_t *rgb, JDIMENSION width,
                               boolean inverted) {
  for (JDIMENSION x = 0; x < width; x++) {
    unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    rgb[3 * x] = (uint8_t)((c * k + 127) / 255);
    rgb[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
    rgb[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
  }
}

/// Decodes the `width` x `height` rectangle at (`x`, `y`) of the opened JPEG, or the whole
/// image when `whole` (scaled down by `denominator`: 1, 2, 4 or 8, libjpeg's DCT scaling;
/// regions are never scaled), and frees the reader. Rows above the rectangle are skipped,
/// columns beside it are not converted, and decoding stops below it; a whole-width RGB read
/// goes straight into `rgb`.
static tl_status tl_jpeg_decode(tl_jpeg_reader *reader, int whole, unsigned denominator, uint32_t x,
                                uint32_t y, uint32_t width, uint32_t height, uint8_t *rgb, size_t capacity,
                                tl_codec_report *report) {
  // After the jump back only `reader` is read, which nothing changes after setjmp; the row
  // lives in the reader, in memory.
  reader->error.report = report;
  if (setjmp(reader->error.recovery)) {
    tl_jpeg_free(reader);
    return TL_STATUS_ERROR;
  }
  struct jpeg_decompress_struct *cinfo = &reader->cinfo;
  tl_jpeg_watch(cinfo, &reader->progress);
  if (whole) {
    cinfo->scale_num = 1;
    cinfo->scale_denom = denominator;
    jpeg_calc_output_dimensions(cinfo);
    x = 0;
    y = 0;
    width = cinfo->output_width;
    height = cinfo->output_height;
  } else if (width == 0 || height == 0 || x > cinfo->image_width || width > cinfo->image_width - x ||
             y > cinfo->image_height || height > cinfo->image_height - y) {
    snprintf(report->message, TL_MESSAGE_LENGTH, "region outside the image");
    tl_jpeg_free(reader);
    return TL_STATUS_ERROR;
  }
  size_t row_bytes = (size_t)width * 3;
  if (height > 0 && capacity / height < row_bytes) {
    tl_jpeg_free(reader);
    return TL_STATUS_BUFFER_TOO_SMALL;
  }
  // The header's facts come from the decompressor, not from `report`, which may be another
  // than the one tl_jpeg_open filled.
  const int cmyk = tl_jpeg_is_cmyk(cinfo);
  int channels = cmyk ? 4 : 3;
  cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
  jpeg_start_decompress(cinfo);
  // Widen the span by an iMCU (16 pixels) each side where the image allows: smooth chroma
  // upsampling treats the span's own edges as image edges, so the wanted pixels must lie
  // inside it to come out as in a full decode.
  JDIMENSION left = x > 16 ? x - 16 : 0;
  JDIMENSION right = width + x + 16 < cinfo->output_width ? x + width + 16 : cinfo->output_width;
  JDIMENSION span = right - left;
  if (left > 0 || span < cinfo->output_width) {
    jpeg_crop_scanline(cinfo, &left, &span);
  }
  int direct = !cmyk && cinfo->output_width == width;
  if (!direct) {
    reader->row = malloc((size_t)cinfo->output_width * channels);
    if (reader->row == NULL) {
      snprintf(report->message, TL_MESSAGE_LENGTH, "out of memory");
      tl_jpeg_free(reader);
      return TL_STATUS_ERROR;
    }
  }
  if (y > 0) {
    jpeg_skip_scanlines(cinfo, y);
  }
  size_t from = (size_t)(x - left);
  for (uint32_t r = 0; r < height; r++) {
    uint8_t *out = rgb + (size_t)r * row_bytes;
    JSAMPROW rows[1] = {direct ? out : reader->row};
    jpeg_read_scanlines(cinfo, rows, 1);
    if (cmyk) {
      tl_cmyk_row_to_rgb(reader->row + from * 4, out, width, cinfo->saw_Adobe_marker);
    } else if (!direct) {
      memcpy(out, reader->row + from * 3, row_bytes);
    }
  }
  if (whole) {
    jpeg_finish_decompress(cinfo);
  } else {
    // The rows below the region are not needed: stop without decoding them.
    jpeg_abort_decompress(cinfo);
  }
  tl_jpeg_free(reader);
  return TL_STATUS_OK;
}

tl_status tl_jpeg_read_rgb(tl_jpeg_reader *reader, uint32_t denominator, uint8_t *rgb, size_t capacity,
                           tl_codec_report *report) {
  if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) {
    snprintf(report->message, TL_MESSAGE_LENGTH, "scale 1/%u is not 1/1, 1/2, 1/4 or 1/8", denominator);
    tl_jpeg_free(reader);
    return TL_STATUS_ERROR;
  }
  return tl_jpeg_decode(reader, 1, denominator, 0, 0, 0, 0, rgb, capacity, report);
}

tl_status tl_jpeg_read_region_rgb(tl_jpeg_reader *reader, uint32_t x, uint32_t y, uint32_t width,
                                  uint32_t height, uint8_t *rgb, size_t capacity, tl_codec_report *report) {
  return tl_jpeg_decode(reader, 0, 1, x, y, width, height, rgb, capacity, report);
}

tl_status tl_jpeg_decode_rgb(const uint8_t *data, size_t size, uint8_t *rgb, size_t capacity,
                             tl_codec_report *report) {
  return tl_jpeg_decode_scaled_rgb(data, size, 1, rgb, capacity, report);
}

tl_status tl_jpeg_decode_scaled_rgb(const uint8_t *data, size_t size, uint32_t denominator, uint8_t *rgb,
                                    size_t capacity, tl_codec_report *report) {
  tl_jpeg_reader *reader = tl_jpeg_open(data, size, report);
  return reader == NULL ? TL_STATUS_ERROR : tl_jpeg_read_rgb(reader, denominator, rgb, capacity, report);
}

tl_status tl_jpeg_decode_region_rgb(const uint8_t *data, size_t size, uint32_t x, uint32_t y, uint32_t width,
                                    uint32_t height, uint8_t *rgb, size_t capacity, tl_codec_report *report) {
  tl_jpeg_reader *reader = tl_jpeg_open(data, size, report);
  return reader == NULL ? TL_STATUS_ERROR
                        : tl_jpeg_read_region_rgb(reader, x, y, width, height, rgb, capacity, report);
}

tl_status tl_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                         tl_jpeg_layout layout, int progressive, uint8_t **out, size_t *out_size,
                         tl_codec_report *report) {
  memset(report, 0, sizeof *report);
  *out = NULL;
  *out_size = 0;
  struct jpeg_compress_struct cinfo;
  tl_jpeg_error error;
  tl_jpeg_install_errors(&error, report);
  cinfo.err = &error.manager;
  unsigned char *volatile buffer = NULL;
  unsigned long buffer_size = 0;
  JSAMPLE *volatile row = NULL;
  if (setjmp(error.recovery)) {
    free(row);
    jpeg_destroy_compress(&cinfo);
    free(buffer);
    return TL_STATUS_ERROR;
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, (unsigned char **)&buffer, &buffer_size);
  cinfo.image_width = width;
  cinfo.image_height = height;
  int channels = layout == TL_JPEG_GRAY ? 1 : layout == TL_JPEG_CMYK ? 4 : 3;
  cinfo.input_components = channels;
  cinfo.in_color_space = layout == TL_JPEG_GRAY ? JCS_GRAYSCALE
                         : layout == TL_JPEG_CMYK ? JCS_CMYK
                                                  : JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  if (progressive) {
    jpeg_simple_progression(&cinfo);
  }
  row = malloc((size_t)width * (size_t)channels + 1);
  if (row == NULL) {
    snprintf(report->message, TL_MESSAGE_LENGTH, "out of memory");
    jpeg_destroy_compress(&cinfo);
    free(buffer);
    return TL_STATUS_ERROR;
  }
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    const uint8_t *source = rgb + (size_t)cinfo.next_scanline * width * 3;
    for (uint32_t x = 0; x < width; x++) {
      if (layout == TL_JPEG_GRAY) {
        row[x] = source[3 * x];
      } else if (layout == TL_JPEG_CMYK) {
        // Inverted CMYK with no black: C' = 255 - C = R, and K' = 255.
        row[4 * x] = source[3 * x];
        row[4 * x + 1] = source[3 * x + 1];
        row[4 * x + 2] = source[3 * x + 2];
        row[4 * x + 3] = 255;
      } else {
        row[3 * x] = source[3 * x];
        row[3 * x + 1] = source[3 * x + 1];
        row[3 * x + 2] = source[3 * x + 2];
      }
    }
    JSAMPROW rows[1] = {row};
    jpeg_write_scanlines(&cinfo, rows, 1);
  }
  jpeg_finish_compress(&cinfo);
  free(row);
  jpeg_destroy_compress(&cinfo);
  *out = buffer;
  *out_size = buffer_size;
  return TL_STATUS_OK;
}

void tl_free(void *pointer) { free(pointer); }
