/* The inputs of a many-input command (ranks): files as given, directories
 * expanded; the same file twice refused; entries of a directory that are
 * not regular files skipped with a notice; byte-identical copies noted. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "input_list.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(((const cli_input *)a)->path, ((const cli_input *)b)->path);
}

static int is_trace_name(const char *s)
{
	size_t n = strlen(s);
	return (n > 5 && strcmp(s + n - 5, ".json") == 0) ||
	       (n > 8 && strcmp(s + n - 8, ".json.gz") == 0);
}

const char *cli_file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO (named pipe)" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket"
	       : S_ISDIR(m) ? "a directory" : S_ISLNK(m) ? "a symbolic link"
	       : "not a regular file";
}

static int push(cli_inputs *l, const char *path, int from_dir)
{
	if (l->n == l->cap) {
		size_t c = l->cap ? l->cap * 2 : 16;
		cli_input *q = realloc(l->v, c * sizeof *q);
		if (!q)
			return -1;
		l->v = q;
		l->cap = c;
	}
	cli_input *in = &l->v[l->n];
	memset(in, 0, sizeof *in);
	if (!(in->path = strdup(path)))
		return -1;
	in->from_dir = from_dir;
	struct stat st;
	if (stat(path, &st) == 0) {
		in->have_id = 1;
		in->dev = st.st_dev;
		in->ino = st.st_ino;
		in->size = st.st_size;
		in->regular = S_ISREG(st.st_mode);
		in->mode = st.st_mode;
	}
	l->n++;
	return 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int note(cli_inputs *l, const char *code, const char *input, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return l->on_notice(code, input, msg, l->payload);
}

/* A directory's *.json and *.json.gz regular files, in name order; other
 * entries with those names are skipped with a notice. */
static int expand_dir(cli_ctx *ctx, cli_inputs *l, const char *dir, DIR *d)
{
	size_t from = l->n;
	int rc = 0;
	for (struct dirent *e = readdir(d); e && rc == 0; e = readdir(d)) {
		if (!is_trace_name(e->d_name))
			continue;
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		char *p = malloc(len);
		if (!p) {
			rc = -1;
			break;
		}
		snprintf(p, len, "%s/%s", dir, e->d_name);
		rc = push(l, p, 1);
		free(p);
	}
	closedir(d);
	if (rc)
		return cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory", "free memory",
		                 "cannot hold the list of inputs");
	qsort(l->v + from, l->n - from, sizeof *l->v, by_name);
	size_t keep = from;
	for (size_t i = from; i < l->n; i++) {
		cli_input *in = &l->v[i];
		if (in->regular) {
			l->v[keep++] = *in;
			continue;
		}
		if (note(l, "ranks_entry_skipped", in->path,
		         "%s, not a regular file: skipped (only a directory's regular files are "
		         "read; name it on the command line to read it as a stream)",
		         in->have_id ? cli_file_kind(in->mode) : "cannot be examined") < 0)
			rc = -1;
		free(in->path);
	}
	l->n = keep;
	if (rc)
		return cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory", "free memory",
		                 "cannot hold the notices");
	if (l->n == from)
		return cli_usage_error(ctx, "no *.json or *.json.gz regular file in %s", dir);
	return 0;
}

/* The same file (device and inode) given twice would be counted twice. */
static int refuse_same_file(cli_ctx *ctx, const cli_inputs *l)
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t j = 0; l->v[i].have_id && j < i; j++)
			if (l->v[j].have_id && l->v[j].dev == l->v[i].dev &&
			    l->v[j].ino == l->v[i].ino)
				return cli_error(ctx, CLI_EXIT_INPUT, "ranks_duplicate_input",
				                 "give each rank's trace once (a symbolic link to a file, "
				                 "or a file inside a directory also given, is that file)",
				                 "%s is the same file as %s (same device and inode): it "
				                 "would be counted twice", l->v[i].path, l->v[j].path);
	return 0;
}

/* 1 when the two regular files have the same bytes, 0 when not or when
 * either cannot be read (then the reading itself reports it). */
static int same_bytes(const char *a, const char *b)
{
	int fa = open(a, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int fb = fa < 0 ? -1 : open(b, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sa, sb;
	int same = fb >= 0 && fstat(fa, &sa) == 0 && fstat(fb, &sb) == 0 && S_ISREG(sa.st_mode) &&
	           S_ISREG(sb.st_mode) && sa.st_size == sb.st_size;
	static char x[65536], y[65536];
	while (same) {
		ssize_t n = read(fa, x, sizeof x);
		ssize_t m = n > 0 ? read(fb, y, (size_t)n) : n;
		if (n <= 0 || m != n)
			same = n == 0 && m == 0;
		if (n <= 0 || m != n || memcmp(x, y, (size_t)n) != 0)
			break;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* Regular files of equal size are compared; an identical copy is noted. */
static int note_copies(cli_inputs *l)
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t j = 0; l->v[i].regular && j < i; j++) {
			if (!l->v[j].regular || l->v[j].size != l->v[i].size ||
			    !same_bytes(l->v[j].path, l->v[i].path))
				continue;
			if (note(l, "ranks_identical_input", l->v[i].path,
			         "has the same bytes as %s: read and counted again, as given (right for "
			         "copies of one trace standing for several ranks; otherwise give each "
			         "rank's trace once)", l->v[j].path) < 0)
				return -1;
			break;
		}
	return 0;
}

int cli_inputs_list(cli_inputs *l, cli_ctx *ctx, const char *const *args, size_t nargs)
{
	for (size_t i = 0; i < nargs; i++) {
		struct stat st;
		DIR *d = stat(args[i], &st) == 0 && S_ISDIR(st.st_mode) ? opendir(args[i]) : NULL;
		int rc = d ? expand_dir(ctx, l, args[i], d) : push(l, args[i], 0) < 0
		             ? cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory", "free memory",
		                         "cannot hold the list of inputs") : 0;
		if (rc)
			return rc;
	}
	int rc = refuse_same_file(ctx, l);
	if (rc == 0 && note_copies(l) < 0)
		rc = cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory", "free memory",
		               "cannot hold the notices");
	return rc;
}

int cli_input_open(cli_input *in, char *buf, size_t cap, cli_inputs *l)
{
	in->fd = -1;
	if (!in->from_dir) {
		snprintf(buf, cap, "%s", in->path);
		return 0;
	}
	/* an entry may have been swapped for a FIFO since it was listed: open
	 * without blocking and look at what was opened */
	int fd = open(in->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	const char *why = fd < 0 ? strerror(errno) : fstat(fd, &st) < 0 ? strerror(errno)
	                  : !S_ISREG(st.st_mode) ? cli_file_kind(st.st_mode)
	                  : st.st_dev != in->dev || st.st_ino != in->ino ? "another file"
	                  : NULL;
	if (why) {
		if (fd >= 0)
			close(fd);
		return note(l, "ranks_entry_skipped", in->path,
		            "%s (changed since the directory was listed), not the regular file "
		            "listed: skipped", why) < 0 ? -1 : 1;
	}
	/* read what was checked, not the name again: /proc/self/fd/N opens that
	 * very file; without /proc the name is read (after the check) */
	in->fd = fd;
	snprintf(buf, cap, "/proc/self/fd/%d", fd);
	if (access(buf, R_OK) != 0)
		snprintf(buf, cap, "%s", in->path);
	return 0;
}

void cli_input_close(cli_input *in)
{
	if (in->fd >= 0)
		close(in->fd);
	in->fd = -1;
}

void cli_inputs_free(cli_inputs *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].path);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
