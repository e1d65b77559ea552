/* Input byte streams: plain or gzip (by magic bytes) over a file, stdin or
 * memory. See instream.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "alloc.h"
#include "error.h"
#include "instream.h"

#define RAW_CHUNK (64u * 1024u)  /* bytes per read(2): the trace reader parses a chunk while it is in cache */
#define OUT_CHUNK (64u * 1024u)   /* decompressed bytes per chunk (as RAW_CHUNK) */
#define MEM_SLICE (1u << 30)      /* zlib's avail_in is 32 bits */

struct tlc_instream {
	const tlc_allocator *a;
	char *name;
	int fd, own_fd;
	/* memory source */
	const unsigned char *mem;
	size_t memlen, mempos;
	int is_mem;
	/* raw (compressed or plain) bytes not yet consumed */
	unsigned char *inbuf;
	const unsigned char *raw;
	size_t rawlen;
	int raw_eof;
	/* compression */
	int detected, gzip;
	z_stream z;
	int z_init, member_open;
	unsigned char *outbuf;
	/* peek and state */
	const unsigned char *peek_data;
	size_t peek_len;
	int peeked;
	int err;
	uint64_t offset;
	/* what the format sniffer looked at (tlc_instream__peek_more,
	 * tlc_instream__skip_space) */
	unsigned char *more;
	size_t more_len, more_cap;
	uint64_t origin_line, origin_col;
	/* limits and JSON token gathering (tlc_instream__set_limits) */
	tlc_input_limits lim;
	int limited;
	uint64_t produced;        /* decompressed bytes taken from the source */
	int tok_state;            /* TS_* at the end of what was scanned */
	uint64_t tok_len;         /* bytes of the current token so far */
	unsigned char *hold;      /* a token (and what follows it) spanning chunks */
	size_t hold_len, hold_cap;
	int hold_out;             /* hold was handed out: empty it before reuse */
	const unsigned char *tail; /* scanned bytes to move into hold next time */
	size_t tail_len;
	const unsigned char *direct; /* scanned whole tokens to hand out next time, */
	size_t direct_len;           /* where they lie (the chunk of tail) */
};

enum { TS_OUT = 0, TS_STR, TS_ESC, TS_BARE };

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
	const tlc_allocator *a = opaque;
	if (size && items > SIZE_MAX / size)
		return Z_NULL;
	return tlc_alloc__malloc(a, (size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p)
{
	tlc_alloc__free(opaque, p);
}

static int set_io_error(tlc_instream *s, const char *what, int e)
{
	s->err = tlc_error__set_pos(TLC_EIO, "io_error", s->name, 0, 0,
	                            "check that the file exists, is readable and is not a directory",
	                            "cannot %s %s: %s", what, s->name, strerror(e));
	return s->err;
}

static int set_gzip_error(tlc_instream *s, const char *code, const char *why)
{
	s->err = tlc_error__set_pos(TLC_EPARSE, code, s->name, 0, 0,
	                            "the compressed file is damaged or incomplete: copy or write it again",
	                            "%s: %s", s->name, why);
	return s->err;
}

static int stream_new(tlc_instream **out, const tlc_allocator *a, const char *name)
{
	tlc_instream *s = tlc_alloc__calloc(a, 1, sizeof *s);
	if (!s)
		return tlc_error__oom();
	s->a = a;
	s->fd = -1;
	s->name = tlc_alloc__strdup(a, name);
	if (!s->name) {
		tlc_alloc__free(a, s);
		return tlc_error__oom();
	}
	*out = s;
	return 0;
}

int tlc_instream__open_file(tlc_instream **out, const tlc_allocator *a, const char *path)
{
	int is_stdin = strcmp(path, "-") == 0;
	tlc_instream *s;
	int rc = stream_new(&s, a, is_stdin ? "<stdin>" : path);
	if (rc < 0)
		return rc;
	s->inbuf = tlc_alloc__malloc(a, RAW_CHUNK);
	if (!s->inbuf) {
		tlc_instream__close(s);
		return tlc_error__oom();
	}
	if (is_stdin) {
		s->fd = STDIN_FILENO;
	} else {
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0) {
			rc = set_io_error(s, "open", errno);
			tlc_instream__close(s);
			return rc;
		}
		s->own_fd = 1;
	}
	*out = s;
	return 0;
}

int tlc_instream__open_mem(tlc_instream **out, const tlc_allocator *a, const void *data,
                           size_t len, const char *name)
{
	tlc_instream *s;
	int rc = stream_new(&s, a, name ? name : "<memory>");
	if (rc < 0)
		return rc;
	s->is_mem = 1;
	s->mem = data;
	s->memlen = data ? len : 0;
	*out = s;
	return 0;
}

/* Reads more raw bytes after the rawlen already held at the start of
 * inbuf (file sources). 0, or io_error. */
static int read_more(tlc_instream *s)
{
	if (s->raw != s->inbuf && s->rawlen)
		memmove(s->inbuf, s->raw, s->rawlen);
	s->raw = s->inbuf;
	for (;;) {
		ssize_t n = read(s->fd, s->inbuf + s->rawlen, RAW_CHUNK - s->rawlen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return set_io_error(s, "read", errno);
		if (n == 0)
			s->raw_eof = 1;
		s->rawlen += (size_t)n;
		return 0;
	}
}

/* Makes raw bytes available when none are held (sets raw_eof at the end). */
static int fill_raw(tlc_instream *s)
{
	if (s->rawlen || s->raw_eof)
		return 0;
	if (!s->is_mem)
		return read_more(s);
	size_t left = s->memlen - s->mempos;
	if (left == 0) {
		s->raw_eof = 1;
		return 0;
	}
	s->raw = s->mem + s->mempos;
	s->rawlen = left;
	s->mempos = s->memlen;
	return 0;
}

static int start_gzip(tlc_instream *s)
{
	s->outbuf = tlc_alloc__malloc(s->a, OUT_CHUNK);
	if (!s->outbuf)
		return s->err = tlc_error__oom();
	s->z.zalloc = z_alloc;
	s->z.zfree = z_free;
	s->z.opaque = (voidpf)s->a;
	int zr = inflateInit2(&s->z, 15 + 16);
	if (zr != Z_OK)
		return s->err = (zr == Z_MEM_ERROR ? tlc_error__oom()
		                                  : set_gzip_error(s, "gzip_corrupt", "zlib refused to start"));
	s->z_init = 1;
	s->member_open = 1;
	return 0;
}

/* Looks at the first two bytes to choose plain or gzip. A pipe may deliver
 * its first bytes in small pieces: up to SNIFF_MIN bytes are gathered so
 * that the first chunk is enough to tell formats apart (input.c). */
#define SNIFF_MIN 4096u
static int detect(tlc_instream *s)
{
	int rc = fill_raw(s);
	while (rc == 0 && !s->is_mem && s->rawlen < SNIFF_MIN && !s->raw_eof)
		rc = read_more(s);
	if (rc < 0)
		return rc;
	s->detected = 1;
	s->gzip = s->rawlen >= 2 && s->raw[0] == 0x1f && s->raw[1] == 0x8b;
	return s->gzip ? start_gzip(s) : 0;
}

static int next_plain(tlc_instream *s, const unsigned char **data, size_t *len)
{
	int rc = fill_raw(s);
	if (rc < 0)
		return rc;
	*data = s->raw;
	*len = s->rawlen;
	s->rawlen = 0;
	return 0;
}

/* Feeds zlib from the raw source; at the end of a member, starts the next
 * one when more input follows (concatenated gzip). */
static int inflate_some(tlc_instream *s, size_t *produced)
{
	if (s->z.avail_in == 0) {
		int rc = fill_raw(s);
		if (rc < 0)
			return rc;
		size_t take = s->rawlen < MEM_SLICE ? s->rawlen : MEM_SLICE;
		s->z.next_in = (Bytef *)(uintptr_t)s->raw;
		s->z.avail_in = (uInt)take;
		s->raw += take;
		s->rawlen -= take;
	}
	if (s->z.avail_in == 0)
		return s->member_open ? set_gzip_error(s, "gzip_truncated",
		                                       "the compressed data ends early (file truncated?)")
		                      : 0;
	if (!s->member_open) {
		if (inflateReset(&s->z) != Z_OK)
			return set_gzip_error(s, "gzip_corrupt", "cannot restart the decompressor");
		s->member_open = 1;
	}
	s->z.next_out = s->outbuf;
	s->z.avail_out = OUT_CHUNK;
	int zr = inflate(&s->z, Z_NO_FLUSH);
	*produced = OUT_CHUNK - s->z.avail_out;
	if (zr == Z_STREAM_END)
		s->member_open = 0;
	else if (zr == Z_MEM_ERROR)
		return s->err = tlc_error__oom();
	else if (zr != Z_OK && zr != Z_BUF_ERROR)
		return set_gzip_error(s, "gzip_corrupt", s->z.msg ? s->z.msg : "invalid compressed data");
	return 0;
}

static int next_gzip(tlc_instream *s, const unsigned char **data, size_t *len)
{
	for (;;) {
		size_t produced = 0;
		int rc = inflate_some(s, &produced);
		if (rc < 0)
			return rc;
		if (produced) {
			*data = s->outbuf;
			*len = produced;
			return 0;
		}
		if (s->raw_eof && s->rawlen == 0 && s->z.avail_in == 0 && !s->member_open) {
			*data = s->outbuf;
			*len = 0;
			return 0;
		}
	}
}

static int raw_chunk(tlc_instream *s, const unsigned char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	if (s->err)
		return s->err;
	if (!s->detected) {
		int rc = detect(s);
		if (rc < 0)
			return rc;
	}
	return s->gzip ? next_gzip(s, data, len) : next_plain(s, data, len);
}

static int limit_error(tlc_instream *s, const char *code, const char *what,
                       const char *option, uint64_t limit)
{
	s->err = tlc_error__set_pos(TLC_EINPUT, code, s->name, 0, 0,
	                            "if the input is genuine, raise the limit with %s N (or "
	                            "tlc_input_limits); otherwise the input is hostile or damaged",
	                            "%s: %s %llu bytes (the %s limit, %s)", s->name, what,
	                            (unsigned long long)limit, option + 2, option);
	return s->err;
}

/* A decompressed chunk, counted against max_input_bytes (a decompression
 * bomb ends here, however small the compressed file). */
static int counted_chunk(tlc_instream *s, const unsigned char **data, size_t *len)
{
	int rc = raw_chunk(s, data, len);
	if (rc < 0 || !s->limited)
		return rc;
	s->produced += *len;
	if (s->produced > s->lim.max_input_bytes)
		return limit_error(s, "input_too_large", "the decompressed input is longer than",
		                   "--max-input-bytes", s->lim.max_input_bytes);
	return 0;
}

static int is_bare(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '-' || c == '+' || c == '.';
}

static int token_error(tlc_instream *s)
{
	return limit_error(s, "token_too_long", "a JSON string or number is longer than",
	                   "--max-token-bytes", s->lim.max_token_bytes);
}

/* How many bytes of p[0..n) are '"'. With SSE2 (every x86-64), sixteen
 * at a time: a byte compare gives -1 per quote, subtracted into byte
 * lanes that are summed (psadbw) before they can reach 256. Elsewhere,
 * eight at a time: a byte of x = w ^ '"'*ones is zero exactly where w has
 * a quote, and ((x & 0x7f..) + 0x7f..) | x has its high bit clear exactly
 * there. */
static size_t count_quotes(const unsigned char *p, size_t n)
{
	size_t total = 0, i = 0;
#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), zero = _mm_setzero_si128();
	while (i + 16 <= n) {
		__m128i lanes = zero;
		for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v, quote));
		}
		__m128i sums = _mm_sad_epu8(lanes, zero);
		total += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
	}
#endif
	const uint64_t ones = 0x0101010101010101ULL, low7 = 0x7f7f7f7f7f7f7f7fULL;
	const uint64_t pairs = 0x00ff00ff00ff00ffULL;
	while (i + 8 <= n) {
		uint64_t lanes = 0;
		for (int k = 0; k < 255 && i + 8 <= n; k++, i += 8) {
			uint64_t w, x;
			memcpy(&w, p + i, 8);
			x = w ^ (ones * '"');
			lanes += (~(((x & low7) + low7) | x) >> 7) & ones;
		}
		lanes = (lanes & pairs) + ((lanes >> 8) & pairs);
		total += (size_t)((lanes * 0x0001000100010001ULL) >> 48);
	}
	for (; i < n; i++)
		total += p[i] == '"';
	return total;
}

/* The whole chunk at once, where that gives exactly what the byte scan
 * below gives: with no backslash in it every '"' opens or closes a string,
 * so the parity of their count says whether a string is open at the end
 * (then it opened at the last '"'), and the bare bytes after the last '"'
 * are the open number or literal; and when the chunk with the token open
 * at its start is no longer than the limit, no token in it can pass the
 * limit. Generated and captured logs rarely escape anything: this is the
 * common case, at about a byte per instruction. 1 when it applied. */
static int scan_whole(tlc_instream *s, const unsigned char *p, size_t n, size_t *safe)
{
	uint64_t open = s->tok_state == TS_OUT ? 0 : s->tok_len;
	if (n == 0 || s->tok_state == TS_ESC || (uint64_t)n > s->lim.max_token_bytes - open ||
	    open > s->lim.max_token_bytes || memchr(p, '\\', n))
		return 0;
	size_t quotes = count_quotes(p, n), from = 0;
	if (quotes) {
		size_t last = n;
		while (p[--last] != '"')
			;
		if ((s->tok_state == TS_STR) ^ (quotes & 1)) { /* the last '"' opens a string */
			s->tok_state = TS_STR;
			s->tok_len = n - last;
			*safe = last;
			return 1;
		}
		s->tok_state = TS_OUT; /* it closes one */
		from = last + 1;
	} else if (s->tok_state == TS_STR) {
		s->tok_len += n;
		return 1;
	}
	size_t b = n;
	while (b > from && is_bare(p[b - 1]))
		b--;
	if (b == n) {
		s->tok_state = TS_OUT;
		*safe = n;
	} else if (b == from && s->tok_state == TS_BARE) {
		s->tok_len += n - b; /* the token open at the start goes on to the end */
	} else {
		s->tok_state = TS_BARE;
		s->tok_len = n - b;
		*safe = b;
	}
	return 1;
}

/* Scans p[0..n) on from the carried token state; *safe is the last
 * position at which no token is open (between tokens), or n + 1 when there
 * is none. Strings are skipped with memchr, so the scan costs little next
 * to the parse. 0 or token_too_long. */
static int scan(tlc_instream *s, const unsigned char *p, size_t n, size_t *safe)
{
	size_t i = 0;
	*safe = s->tok_state == TS_OUT ? 0 : n + 1;
	if (scan_whole(s, p, n, safe))
		return 0;
	while (i < n) {
		if (s->tok_state == TS_STR || s->tok_state == TS_ESC) {
			if (s->tok_state == TS_ESC) { /* the escaped byte */
				s->tok_state = TS_STR;
				i++;
				s->tok_len++;
				continue;
			}
			const unsigned char *q = memchr(p + i, '"', n - i);
			size_t end = q ? (size_t)(q - p) : n;
			const unsigned char *bs = memchr(p + i, '\\', end - i);
			size_t stop = bs ? (size_t)(bs - p) : end;
			s->tok_len += stop - i + (stop < n);
			if (s->tok_len > s->lim.max_token_bytes)
				return token_error(s);
			if (stop == n)
				return 0;
			i = stop + 1;
			if (bs) {
				s->tok_state = TS_ESC;
			} else {
				s->tok_state = TS_OUT;
				*safe = i;
			}
			continue;
		}
		unsigned char c = p[i];
		if (s->tok_state == TS_BARE) {
			if (is_bare(c)) {
				if (++s->tok_len > s->lim.max_token_bytes)
					return token_error(s);
				i++;
				continue;
			}
			s->tok_state = TS_OUT;
			*safe = i;
		}
		if (c == '"') {
			s->tok_state = TS_STR;
			s->tok_len = 1;
		} else if (is_bare(c)) {
			s->tok_state = TS_BARE;
			s->tok_len = 1;
		}
		i++;
		if (s->tok_state == TS_OUT)
			*safe = i;
	}
	return 0;
}

/* Where the token open at p[0] in scanning state st ends in p[0..n): the
 * first token boundary of the chunk (n + 1 when there is none). */
static size_t first_boundary(int st, const unsigned char *p, size_t n)
{
	size_t i = 0;
	if (st == TS_BARE) {
		while (i < n && is_bare(p[i]))
			i++;
		return i < n ? i : n + 1;
	}
	if (st == TS_ESC)
		i = 1;
	else if (st != TS_STR)
		return 0;
	while (i < n) {
		unsigned char c = p[i];
		if (c == '"')
			return i + 1;
		i += c == '\\' ? 2 : 1;
	}
	return n + 1;
}

static int hold_append(tlc_instream *s, const unsigned char *p, size_t n)
{
	if (!n)
		return 0;
	if (s->hold_len + n > s->hold_cap) {
		size_t cap = s->hold_cap ? s->hold_cap : 64 * 1024;
		while (cap < s->hold_len + n)
			cap *= 2;
		unsigned char *h = tlc_alloc__realloc(s->a, s->hold, cap);
		if (!h)
			return s->err = tlc_error__oom();
		s->hold = h;
		s->hold_cap = cap;
	}
	memcpy(s->hold + s->hold_len, p, n);
	s->hold_len += n;
	return 0;
}

/* The next chunk that ends between JSON tokens (the last one may end in a
 * token: the parser reports what is left open). Bytes after the last token
 * boundary of a chunk wait in hold, so each byte is copied at most once
 * more and the parser never sees a token cut in two. */
static int token_chunk(tlc_instream *s, const unsigned char **data, size_t *len)
{
	if (s->hold_out) {
		s->hold_len = 0;
		s->hold_out = 0;
	}
	int rc = hold_append(s, s->tail, s->tail_len);
	s->tail_len = 0;
	if (rc < 0)
		return rc;
	if (s->direct_len) { /* the rest of the chunk behind the held token */
		*data = s->direct;
		*len = s->direct_len;
		s->direct_len = 0;
		return 0;
	}
	for (;;) {
		const unsigned char *p;
		size_t n, safe;
		if ((rc = counted_chunk(s, &p, &n)) < 0)
			return rc;
		if (n == 0) { /* the end: whatever is held goes out as it is */
			*data = s->hold_len ? s->hold : p;
			*len = s->hold_len;
			s->hold_out = 1;
			return 0;
		}
		int st = s->tok_state;
		if ((rc = scan(s, p, n, &safe)) < 0)
			return rc;
		if (safe > n) { /* one token spans the whole chunk */
			if ((rc = hold_append(s, p, n)) < 0)
				return rc;
			continue;
		}
		if (s->hold_len == 0) {
			if ((rc = hold_append(s, p + safe, n - safe)) < 0)
				return rc;
			if (safe == 0)
				continue;
			*data = p;
			*len = safe;
			return 0;
		}
		/* the held token goes out completed, with the chunk's bytes up to
		 * the token's end only: the whole tokens after it go out next time
		 * where they lie, not copied */
		size_t first = first_boundary(st, p, n);
		if (first > safe)
			first = safe;
		if ((rc = hold_append(s, p, first)) < 0)
			return rc;
		s->direct = p + first;
		s->direct_len = safe - first;
		s->tail = p + safe; /* valid until the next chunk is taken */
		s->tail_len = n - safe;
		*data = s->hold;
		*len = s->hold_len;
		s->hold_out = 1;
		return 0;
	}
}

static int next_chunk(tlc_instream *s, const unsigned char **data, size_t *len)
{
	if (s->err)
		return s->err;
	return s->limited ? token_chunk(s, data, len) : raw_chunk(s, data, len);
}

void tlc_instream__set_limits(tlc_instream *s, const tlc_input_limits *lim)
{
	tlc_input_limits l = { sizeof l, 0, 0, 0, 0 };
	if (lim)
		memcpy(&l, lim, lim->size && lim->size < sizeof l ? lim->size : sizeof l);
	l.size = sizeof l;
	if (!l.max_input_bytes)
		l.max_input_bytes = TLC_INPUT_DEFAULT_MAX_INPUT_BYTES;
	if (!l.max_token_bytes)
		l.max_token_bytes = TLC_INPUT_DEFAULT_MAX_TOKEN_BYTES;
	if (!l.max_held_records)
		l.max_held_records = TLC_INPUT_DEFAULT_MAX_HELD_RECORDS;
	if (!l.max_held_bytes)
		l.max_held_bytes = TLC_INPUT_DEFAULT_MAX_HELD_BYTES;
	s->lim = l;
	s->limited = 1;
}

const tlc_input_limits *tlc_instream__limits(const tlc_instream *s)
{
	return &s->lim;
}

int tlc_instream__peek(tlc_instream *s, const unsigned char **data, size_t *len)
{
	if (!s->peeked) {
		int rc = next_chunk(s, &s->peek_data, &s->peek_len);
		if (rc < 0)
			return rc;
		s->peeked = 1;
	}
	*data = s->peek_data;
	*len = s->peek_len;
	return 0;
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int tlc_instream__skip_space(tlc_instream *s)
{
	const unsigned char *p;
	size_t n;
	int start = s->offset == 0 && !s->origin_line;
	if (!s->origin_line)
		s->origin_line = s->origin_col = 1;
	for (;;) {
		int rc = tlc_instream__peek(s, &p, &n);
		if (rc < 0 || n == 0)
			return rc;
		size_t i = 0;
		if (start && n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
			i = 3; /* a UTF-8 byte order mark (no column: the readers skip it so) */
		start = 0;
		for (; i < n && is_space(p[i]); i++) {
			if (p[i] == '\n')
				s->origin_line++, s->origin_col = 1;
			else
				s->origin_col++;
		}
		/* the skipped bytes count as read; the rest of the chunk stays peeked */
		s->offset += i;
		s->peek_data = p + i;
		s->peek_len = n - i;
		if (i < n)
			return 0;
		s->peeked = 0;
	}
}

void tlc_instream__origin(const tlc_instream *s, uint64_t *line, uint64_t *col)
{
	*line = s->origin_line ? s->origin_line : 1;
	*col = s->origin_line ? s->origin_col : 1;
}

/* Appends p[0..n) to the sniffer's buffer. */
static int more_append(tlc_instream *s, const unsigned char *p, size_t n)
{
	if (s->more_len + n > s->more_cap) {
		size_t cap = s->more_cap ? s->more_cap : 128 * 1024;
		while (cap < s->more_len + n)
			cap *= 2;
		unsigned char *b = tlc_alloc__realloc(s->a, s->more, cap);
		if (!b)
			return s->err = tlc_error__oom();
		s->more = b;
		s->more_cap = cap;
	}
	if (n)
		memcpy(s->more + s->more_len, p, n);
	s->more_len += n;
	return 0;
}

int tlc_instream__peek_more(tlc_instream *s, size_t want, const unsigned char **data,
                            size_t *len)
{
	const unsigned char *p;
	size_t n;
	int rc = tlc_instream__peek(s, &p, &n);
	if (rc < 0)
		return rc;
	if (p != s->more) { /* copied before the next chunk may overwrite it */
		s->more_len = 0;
		if ((rc = more_append(s, p, n)) < 0)
			return rc;
	}
	int end = n == 0;
	while (!end && s->more_len < want) {
		if ((rc = next_chunk(s, &p, &n)) < 0 || (rc = more_append(s, p, n)) < 0)
			return rc;
		end = n == 0;
	}
	s->peek_data = *data = s->more;
	s->peek_len = *len = s->more_len;
	return end;
}

int tlc_instream__read(tlc_instream *s, const unsigned char **data, size_t *len)
{
	int rc = tlc_instream__peek(s, data, len);
	if (rc < 0)
		return rc;
	s->peeked = 0;
	s->offset += *len;
	return 0;
}

const char *tlc_instream__name(const tlc_instream *s) { return s->name; }

int tlc_instream__is_gzip(const tlc_instream *s) { return s->gzip; }

uint64_t tlc_instream__offset(const tlc_instream *s) { return s->offset; }

void tlc_instream__close(tlc_instream *s)
{
	if (!s)
		return;
	if (s->z_init)
		inflateEnd(&s->z);
	if (s->own_fd && s->fd >= 0)
		close(s->fd);
	tlc_alloc__free(s->a, s->outbuf);
	tlc_alloc__free(s->a, s->inbuf);
	tlc_alloc__free(s->a, s->hold);
	tlc_alloc__free(s->a, s->more);
	tlc_alloc__free(s->a, s->name);
	tlc_alloc__free(s->a, s);
}
