/* yajl_floor FILE: the floor of any yajl-callback reader. Parses FILE with
 * yajl as engine/input/oplog.c does (one handle, multiple values, the stream cut
 * at newlines, 256 KiB reads) but with callbacks that do nothing, so `make
 * bench` can show how much of the time budget the callbacks alone take. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

static int on_plain(void *ctx) { (void)ctx; return 1; }
static int on_bool(void *ctx, int b) { (void)ctx; (void)b; return 1; }
static int on_number(void *ctx, const char *s, size_t n) { (void)ctx; (void)s; (void)n; return 1; }
static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	(void)ctx;
	(void)s;
	(void)n;
	return 1;
}

static const yajl_callbacks cbs = { on_plain, on_bool, NULL, NULL, on_number, on_string,
	                            on_plain, on_string, on_plain, on_plain, on_plain };

int main(int argc, char **argv)
{
	static unsigned char buf[256 * 1024];
	int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
	if (fd < 0) {
		fprintf(stderr, "usage: yajl_floor FILE\n");
		return 2;
	}
	yajl_handle y = yajl_alloc(&cbs, NULL, NULL);
	if (!y)
		return 1;
	yajl_config(y, yajl_allow_multiple_values, 1);
	ssize_t n;
	int bad = 0;
	while (!bad && (n = read(fd, buf, sizeof buf)) > 0) {
		const unsigned char *p = buf;
		size_t left = (size_t)n;
		while (left && !bad) {
			const unsigned char *nl = memchr(p, '\n', left);
			size_t take = nl ? (size_t)(nl - p) + 1 : left;
			bad = yajl_parse(y, p, take) != yajl_status_ok;
			p += take;
			left -= take;
		}
	}
	bad = bad || yajl_complete_parse(y) != yajl_status_ok;
	yajl_free(y);
	close(fd);
	return bad;
}
