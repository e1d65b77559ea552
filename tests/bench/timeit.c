/* timeit [-r RESULT] [-i FILE] CMD ARGS...: runs CMD (stdin from FILE,
 * stdout to /dev/null) and writes "WALL_SECONDS CPU_SECONDS MAXRSS_KIB EXIT"
 * to RESULT (default: stderr). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *in = NULL, *res = NULL;
	int a = 1;
	for (;;) {
		if (a + 1 < argc && strcmp(argv[a], "-i") == 0)
			in = argv[a + 1];
		else if (a + 1 < argc && strcmp(argv[a], "-r") == 0)
			res = argv[a + 1];
		else
			break;
		a += 2;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: timeit [-r RESULT] [-i FILE] CMD ARGS...\n");
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0)
		return perror("fork"), 2;
	if (pid == 0) {
		int fd = in ? open(in, O_RDONLY) : -1;
		if (in && (fd < 0 || dup2(fd, 0) < 0))
			_exit(126);
		int nul = open("/dev/null", O_WRONLY);
		if (nul < 0 || dup2(nul, 1) < 0)
			_exit(126);
		execvp(argv[a], argv + a);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		return perror("wait4"), 2;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	FILE *out = res ? fopen(res, "w") : stderr;
	if (!out)
		return perror(res), 2;
	fprintf(out, "%.3f %.3f %ld %d\n", s, cpu, ru.ru_maxrss,
	        WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return out == stderr || fclose(out) == 0 ? 0 : 2;
}
