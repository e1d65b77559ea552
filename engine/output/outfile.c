/* Whole-or-nothing output files (tlc_outfile_*): everything is written to
 * a temporary file in the destination's directory, which is flushed,
 * fsync'ed and renamed over the destination only when the whole output
 * was written. A failed or killed write leaves the old file as it was and
 * a stray temporary named .NAME.tmp-PID-N beside it, which the next write
 * of the same destination removes once process PID no longer exists. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include "tlcost/tlcost.h"
#include "error.h"
#include "textw.h"

struct tlc_outfile {
	FILE *f;
	char *path, *tmp;
};

static int open_failed(const char *path, int e)
{
	return tlc_error__set_pos(TLC_EIO, "output_open_failed", path, 0, 0,
	                          "check that the directory exists and is writable",
	                          "cannot create an output file beside '%s': %s", path, strerror(e));
}

/* "dir/.name.tmp-PID-N" beside path, created exclusively with the mode a
 * new file gets (0666 less the umask). */
static int make_temp(struct tlc_outfile *o)
{
	const char *slash = strrchr(o->path, '/');
	size_t dirlen = slash ? (size_t)(slash - o->path) + 1 : 0;
	size_t cap = strlen(o->path) + 48;
	if (!(o->tmp = malloc(cap)))
		return tlc_error__oom();
	for (unsigned n = 0; n < 100; n++) {
		snprintf(o->tmp, cap, "%.*s.%s.tmp-%ld-%u", (int)dirlen, o->path, o->path + dirlen,
		         (long)getpid(), n);
		int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return open_failed(o->path, errno);
		if (!(o->f = fdopen(fd, "w"))) {
			int e = errno;
			close(fd);
			unlink(o->tmp);
			return open_failed(o->path, e);
		}
		return 0;
	}
	return open_failed(o->path, EEXIST);
}

/* The PID of a temporary name of ours for base (".BASE.tmp-PID-N", PID and
 * N decimal, nothing after), or 0 when the name is anything else. */
static long temp_pid(const char *name, const char *base)
{
	size_t n = strlen(base);
	if (name[0] != '.' || strncmp(name + 1, base, n) != 0 || strncmp(name + 1 + n, ".tmp-", 5))
		return 0;
	const char *p = name + n + 6;
	long pid = 0;
	for (; *p >= '0' && *p <= '9' && pid < 1L << 40; p++)
		pid = pid * 10 + (*p - '0');
	if (*p++ != '-' || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '\0' && pid < 1L << 40 ? pid : 0;
}

/* Whether dir/name is a stale temporary of a killed write of base: our
 * naming, a regular file (not a link) owned by this user, its writer gone
 * (kill(pid, 0) says no such process; a live or foreign process keeps it). */
static int is_stale(int dfd, const char *name, const char *base)
{
	long pid = temp_pid(name, base);
	struct stat st;
	if (pid <= 0 || pid == (long)getpid() || (long)(pid_t)pid != pid)
		return 0;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid())
		return 0;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the stale temporaries of earlier, killed writes of path (best
 * effort: a directory that cannot be read is left as it is). */
static void sweep_stale(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
	DIR *d = dir ? opendir(dir) : NULL;
	free(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (is_stale(dirfd(d), e->d_name, base))
			(void)unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

static void dispose(struct tlc_outfile *o)
{
	free(o->path);
	free(o->tmp);
	free(o);
}

int tlc_outfile_open(tlc_outfile **out, FILE **stream, const char *path)
{
	if (!out || !stream || !path || !*path)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an output path",
		                      "tlc_outfile_open: NULL argument");
	*out = NULL;
	*stream = NULL;
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return tlc_error__set_pos(TLC_EIO, "output_open_failed", path, 0, 0,
		                          "give the path of a regular file (or a new one)",
		                          "'%s' exists and is not a regular file", path);
	struct tlc_outfile *o = calloc(1, sizeof *o);
	if (!o || !(o->path = strdup(path))) {
		free(o);
		return tlc_error__oom();
	}
	sweep_stale(o->path);
	int rc = make_temp(o);
	if (rc < 0) {
		dispose(o);
		return rc;
	}
	*out = o;
	*stream = o->f;
	return 0;
}

void tlc_outfile_abort(tlc_outfile *o)
{
	if (!o)
		return;
	if (o->f)
		fclose(o->f);
	unlink(o->tmp);
	dispose(o);
}

/* fsyncs the directory holding path so the rename itself is durable (best
 * effort: some file systems refuse to open a directory for this). */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int tlc_outfile_commit(tlc_outfile *o)
{
	if (!o)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an open output file",
		                      "tlc_outfile_commit: NULL");
	int rc = tlc_textw__finish(o->f, 0);
	errno = 0;
	if (rc == 0 && fsync(fileno(o->f)) != 0)
		rc = tlc_error__set_pos(TLC_EIO, "output_write_failed", o->path, 0, 0,
		                        "check the disk (free space, quota, errors)",
		                        "cannot sync '%s' to disk: %s", o->tmp, strerror(errno));
	if (fclose(o->f) != 0 && rc == 0)
		rc = tlc_error__set_pos(TLC_EIO, "output_write_failed", o->path, 0, 0,
		                        "check the disk (free space, quota, errors)",
		                        "closing '%s' failed: %s", o->tmp, strerror(errno));
	o->f = NULL;
	if (rc == 0 && rename(o->tmp, o->path) != 0)
		rc = tlc_error__set_pos(TLC_EIO, "output_write_failed", o->path, 0, 0,
		                        "check that the directory is writable",
		                        "cannot rename the finished output over '%s': %s", o->path,
		                        strerror(errno));
	if (rc == 0)
		sync_dir(o->path);
	else
		unlink(o->tmp);
	if (rc < 0)
		tlc_error__locate(o->path, 0, 0);
	dispose(o);
	return rc;
}
