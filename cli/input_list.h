/* The inputs of a many-input command (cli/input_list.c): files as given,
 * directories expanded to their *.json and *.json.gz regular files. */
#ifndef TLC_CLI_INPUT_LIST_H
#define TLC_CLI_INPUT_LIST_H

#include <stddef.h>
#include <sys/types.h>
#include "cli.h"

typedef struct cli_input {
	char *path;
	int from_dir;   /* found by expanding a directory: read only if regular */
	int have_id, regular;
	dev_t dev;
	ino_t ino;
	off_t size;
	mode_t mode;
	int fd;         /* while open (cli_input_open), else -1 */
} cli_input;

/** Called for each notice (an entry skipped, an identical copy): 0 or -1. */
typedef int (*cli_notice_fn)(const char *code, const char *input, const char *message,
                             void *payload);

typedef struct cli_inputs {
	cli_input *v;
	size_t n, cap;
	cli_notice_fn on_notice;
	void *payload;
} cli_inputs;

/** Lists the inputs of args (l zeroed but for on_notice and payload).
 *  Refuses the same file (device and inode) given twice
 *  (ranks_duplicate_input) and a directory without a regular trace file;
 *  notes entries of a directory that are not regular files
 *  (ranks_entry_skipped, not listed) and byte-identical regular files
 *  (ranks_identical_input). 0 or an exit status (error printed). */
int cli_inputs_list(cli_inputs *l, cli_ctx *ctx, const char *const *args, size_t nargs);

/** The path to read in into buf: the name given, or for a directory's
 *  entry the file opened (without blocking) and checked to be the regular
 *  file listed, as /proc/self/fd/N. 0, 1 when the entry was skipped (a
 *  notice given), -1 when the notice could not be kept. */
int cli_input_open(cli_input *in, char *buf, size_t cap, cli_inputs *l);
void cli_input_close(cli_input *in);
void cli_inputs_free(cli_inputs *l);

const char *cli_file_kind(mode_t m);

#endif
