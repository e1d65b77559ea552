/* Input byte streams (semi-private): a file, standard input or a memory
 * buffer, plain or gzip-compressed. Compression is detected from the first
 * two bytes (the gzip magic 1f 8b), never from the file name; concatenated
 * gzip members are read as one stream. Readers (op log, Kineto trace) pull
 * the decompressed bytes chunk by chunk, so memory does not grow with the
 * input size.
 *
 *     tlc_instream *in;
 *     if (tlc_instream__open_file(&in, alloc, path) < 0) return error;
 *     const unsigned char *p; size_t n;
 *     while ((rc = tlc_instream__read(in, &p, &n)) == 0 && n > 0)
 *             ... consume p[0..n) ...
 *     tlc_instream__close(in);
 *
 * Errors (all set the thread's error detail, with the stream's name as the
 * file of the error):
 *   io_error        TLC_EIO     cannot open or read the file
 *   gzip_corrupt    TLC_EPARSE  the compressed data is damaged
 *   gzip_truncated  TLC_EPARSE  the compressed stream ends before its end
 *   input_too_large TLC_EINPUT  more than max_input_bytes decompressed bytes
 *   token_too_long  TLC_EINPUT  a JSON token longer than max_token_bytes
 *   out_of_memory   TLC_ENOMEM
 */
#ifndef TLC_ENGINE_INSTREAM_H
#define TLC_ENGINE_INSTREAM_H

#include <stddef.h>
#include "tlcost/tlcost.h"

typedef struct tlc_instream tlc_instream;

/** Opens path for reading; "-" is standard input (not closed at the end).
 *  a is the allocator for every buffer (also zlib's). Errors: io_error,
 *  out_of_memory. */
int tlc_instream__open_file(tlc_instream **out, const tlc_allocator *a, const char *path);

/** Reads len bytes at data (borrowed: must outlive the stream). name is
 *  used as the file of errors (copied; NULL means "<memory>"). A plain buffer
 *  is returned in place, without copying. */
int tlc_instream__open_mem(tlc_instream **out, const tlc_allocator *a, const void *data,
                           size_t len, const char *name);

/** Next chunk of decompressed bytes: *data and *len are valid until the next
 *  call on the stream. *len == 0 means the end of the input. Returns 0 or a
 *  negative TLC_E* code (io_error, gzip_corrupt, gzip_truncated); after an
 *  error every later call fails the same way. */
int tlc_instream__read(tlc_instream *s, const unsigned char **data, size_t *len);

/** Like read, without consuming: the next read returns the same chunk.
 *  Lets a caller sniff the format before handing the stream to a reader. */
int tlc_instream__peek(tlc_instream *s, const unsigned char **data, size_t *len);

/** Format sniffing only, before the first read: peeks on until at least
 *  want bytes (or the end) are peeked, all in one buffer that the next
 *  read returns as one chunk. Returns 1 when the end of the input was
 *  reached, 0 when not, or a negative code. Memory: the bytes peeked. */
int tlc_instream__peek_more(tlc_instream *s, size_t want, const unsigned char **data,
                            size_t *len);

/** Format sniffing only, before the first read: consumes the JSON
 *  whitespace (and a UTF-8 byte order mark) at the start of the input,
 *  chunk by chunk (linear time, no buffering), and records the line and
 *  column of the first byte after it (tlc_instream__origin). 0 or a
 *  negative code. */
int tlc_instream__skip_space(tlc_instream *s);

/** Where the first byte a reader reads lies: 1, 1 unless
 *  tlc_instream__skip_space skipped bytes. */
void tlc_instream__origin(const tlc_instream *s, uint64_t *line, uint64_t *col);

/** The name given at open ("-" shows as "<stdin>"). Valid until close. */
const char *tlc_instream__name(const tlc_instream *s);

/** Nonzero when the input is gzip-compressed (known after the first
 *  read or peek). */
int tlc_instream__is_gzip(const tlc_instream *s);

/** Decompressed bytes handed out so far (by read, not peek). */
uint64_t tlc_instream__offset(const tlc_instream *s);

/** Bounds a reader applies to this stream (tlc_input_limits; 0 fields
 *  take the defaults, TLC_INPUT_DEFAULT_*). Set before the first read or
 *  peek. From then on the stream ends with input_too_large past
 *  max_input_bytes decompressed bytes, and hands out JSON text in chunks
 *  that end between tokens: a string or bare token (number, literal) that
 *  spans chunks is gathered here, once, so the parser sees each token
 *  whole (linear time), and one longer than max_token_bytes ends the
 *  stream with token_too_long before it is buffered further (memory near
 *  the limit). NULL lim: the defaults. */
void tlc_instream__set_limits(tlc_instream *s, const tlc_input_limits *lim);

/** The limits in force (defaults filled in), for the readers' own bounds
 *  (held records and bytes). */
const tlc_input_limits *tlc_instream__limits(const tlc_instream *s);

/** Closes the file (unless standard input) and frees everything. NULL is
 *  accepted. */
void tlc_instream__close(tlc_instream *s);

#endif
