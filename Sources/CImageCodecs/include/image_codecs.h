// The C side of image decoding and encoding.
//
// libjpeg reports errors by calling a handler that must not return, and recovers with
// setjmp/longjmp, which Swift cannot call. Every libjpeg and libpng call lives here, behind
// functions that never print, never exit, and report through a `tl_codec_report`.
//
// Decoding is two calls: `*_read_info` parses the header only (so the caller can check the
// pixel budget before allocating), then `*_decode_rgb` decodes into a caller-owned buffer of
// width * height * 3 bytes, interleaved 8-bit RGB, rows top to bottom, no padding.
#ifndef TL_IMAGE_CODECS_H
#define TL_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TL_MESSAGE_LENGTH = 200 };

typedef enum tl_status {
  TL_STATUS_OK = 0,
  /// The data could not be decoded; `message` says why.
  TL_STATUS_ERROR = 1,
  /// The output buffer is smaller than width * height * 3.
  TL_STATUS_BUFFER_TOO_SMALL = 2,
} tl_status;

typedef struct tl_codec_report {
  /// Image size from the header.
  uint32_t width;
  uint32_t height;
  /// Channels stored in the file (JPEG: 1, 3 or 4; PNG: 1 to 4).
  int32_t channels;
  /// 1 when the JPEG is progressive.
  int32_t progressive;
  /// 1 when the JPEG holds CMYK or YCCK data (converted to RGB on decode).
  int32_t cmyk;
  /// Warnings the decoder raised (corrupt data that it patched over, such as a truncated
  /// JPEG filled with grey).
  int32_t warning_count;
  /// The error, when the status is TL_STATUS_ERROR.
  char message[TL_MESSAGE_LENGTH];
  /// The first warning, when warning_count > 0.
  char warning[TL_MESSAGE_LENGTH];
} tl_codec_report;

/// The most scans a JPEG may have. A progressive JPEG can repeat scans without end, and each
/// costs a pass over the whole image: a 673 KB file of one repeated scan took 34 s. Cameras
/// and encoders write about 10; djpeg's own limit (-maxscans) is also taken as 100 here.
/// Besides the count, the scans' work is bounded by the image's size (jpeg_codec.c).
enum { TL_JPEG_MAX_SCANS = 100 };

tl_status tl_jpeg_read_info(const uint8_t *data, size_t size, tl_codec_report *report);

/// A JPEG whose header has been read, kept open for one decode: the header is parsed once
/// for both the size the caller checks and allocates by and the decode.
typedef struct tl_jpeg_reader tl_jpeg_reader;

/// Reads the header of the JPEG in `data` (which must outlive the reader) into `report` (as
/// tl_jpeg_read_info does) and returns a reader for one decode of it, by tl_jpeg_read_rgb or
/// tl_jpeg_read_region_rgb, which free it; tl_jpeg_close frees it unused. NULL when the
/// header cannot be read (the report's message says why) or memory runs out.
tl_jpeg_reader *tl_jpeg_open(const uint8_t *data, size_t size, tl_codec_report *report);

/// Frees a reader that will not decode (nothing when NULL).
void tl_jpeg_close(tl_jpeg_reader *reader);

/// Decodes the opened JPEG whole, scaled down by `denominator` (1, 2, 4 or 8), as
/// tl_jpeg_decode_scaled_rgb does, adding its error or warnings to `report` (pass the one
/// tl_jpeg_open filled to keep the header's warnings with them); frees the reader, whatever
/// the status.
tl_status tl_jpeg_read_rgb(tl_jpeg_reader *reader, uint32_t denominator, uint8_t *rgb, size_t capacity,
                           tl_codec_report *report);

/// Decodes the rectangle of the opened JPEG as tl_jpeg_decode_region_rgb does; frees the
/// reader, whatever the status.
tl_status tl_jpeg_read_region_rgb(tl_jpeg_reader *reader, uint32_t x, uint32_t y, uint32_t width,
                                  uint32_t height, uint8_t *rgb, size_t capacity, tl_codec_report *report);
tl_status tl_jpeg_decode_rgb(const uint8_t *data, size_t size, uint8_t *rgb, size_t capacity,
                             tl_codec_report *report);

/// Decodes the whole image scaled down by `denominator` (1, 2, 4 or 8) with libjpeg's DCT
/// scaling, into `rgb` of ceil(width / denominator) * ceil(height / denominator) * 3 bytes:
/// cheaper than a full decode, for searching a frame before reading parts of it.
tl_status tl_jpeg_decode_scaled_rgb(const uint8_t *data, size_t size, uint32_t denominator, uint8_t *rgb,
                                    size_t capacity, tl_codec_report *report);

/// Decodes only the `width` x `height` rectangle at (`x`, `y`), which must lie inside the
/// image, into `rgb` (width * height * 3 bytes): rows above it are skipped, columns beside
/// it are not converted (libjpeg-turbo's jpeg_skip_scanlines and jpeg_crop_scanline), and
/// decoding stops below it. The pixels equal those of a full decode.
tl_status tl_jpeg_decode_region_rgb(const uint8_t *data, size_t size, uint32_t x, uint32_t y, uint32_t width,
                                    uint32_t height, uint8_t *rgb, size_t capacity, tl_codec_report *report);

/// The PNG at `data` without its text chunks (tEXt, zTXt, iTXt), which nothing here reads and
/// libpng would inflate one by one (up to 8 MB each) before the pixels: a 6 MB file of
/// compressed text took 99 s. Returns a buffer of `*out_size` bytes the caller frees, or NULL
/// when there is nothing to change (or no PNG signature: libpng then says what is wrong).
/// Every other chunk is kept byte for byte, up to a chunk that claims more bytes than are
/// left, where the copy ends: libpng would allocate the claimed length (1.9 GB for a 205-byte
/// file, found by fuzzing) before it found the data short.
uint8_t *tl_png_without_text(const uint8_t *data, size_t size, size_t *out_size);

tl_status tl_png_read_info(const uint8_t *data, size_t size, tl_codec_report *report);
tl_status tl_png_decode_rgb(const uint8_t *data, size_t size, uint8_t *rgb, size_t capacity,
                            tl_codec_report *report);

/// What `tl_jpeg_encode` writes.
typedef enum tl_jpeg_layout {
  TL_JPEG_RGB = 0,
  /// One channel: the input's first channel of each pixel.
  TL_JPEG_GRAY = 1,
  /// Adobe-style inverted CMYK (as Photoshop writes it), from RGB with no black.
  TL_JPEG_CMYK = 2,
} tl_jpeg_layout;

/// Encodes interleaved 8-bit RGB as a JPEG in memory. On success `*out` holds `*out_size`
/// bytes that the caller releases with `tl_free`.
tl_status tl_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                         tl_jpeg_layout layout, int progressive, uint8_t **out, size_t *out_size,
                         tl_codec_report *report);

/// Encodes pixels as a PNG in memory with libpng's simplified API. `format` is a
/// PNG_FORMAT_* value (for example PNG_FORMAT_RGB, PNG_FORMAT_GA, PNG_FORMAT_LINEAR_Y for
/// 16-bit gray, PNG_FORMAT_RGB_COLORMAP with `colormap` for a palette image); `pixels` holds
/// rows of width * channels samples, of 1 byte (or 2 for linear formats) each.
tl_status tl_png_encode(const void *pixels, uint32_t width, uint32_t height, uint32_t format,
                        const void *colormap, uint32_t colormap_entries, uint8_t **out,
                        size_t *out_size, tl_codec_report *report);

void tl_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
