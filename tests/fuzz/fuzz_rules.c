/* libFuzzer target: the rule-file parser (engine/registry/rulefile.c) through its
 * public entry tlc_engine_load_rules_file, and, when a file loads, the
 * formula interpreter (engine/registry/rulefile_eval.c) over a fixed op log whose ops
 * are named fz::a .. fz::e and fz::base (tests/fuzz/rules.dict holds the
 * names, so the fuzzer finds rules that match them) with hostile arguments:
 * zero-size, rank-0 and 2^62-sized tensors, ints, int lists, None, tensor
 * lists, an unknown dtype, keyword arguments.
 *
 * Each input is written to one temporary file per process (the entry point
 * takes a path). Each input gets a fresh engine without the built-in rules
 * (fast) holding one rule, fz::base, so `override` and rule_duplicate are
 * reachable. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz_common.h"
#include "rulefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base_rules[] =
	"rule fz::base evidence=formula_exact\n"
	"  macs = numel(in0)\n"
	"end\n";

static const char ops[] =
	"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	"{\"id\":0,\"op\":\"fz::a\",\"args\":[{\"shape\":[2,3],\"dtype\":\"float32\"},[2,2],3],"
	"\"kwargs\":{\"group\":4,\"flag\":true},\"outputs\":[{\"shape\":[3,2],\"dtype\":\"float16\"}]}\n"
	"{\"id\":1,\"op\":\"fz::a\",\"overload\":\"ov\",\"parent\":0,\"args\":[{\"shape\":[0,5],\"dtype\":\"int8\"},"
	"[],-7],\"outputs\":[]}\n"
	"{\"id\":2,\"op\":\"fz::b\",\"args\":[{\"shape\":[],\"dtype\":\"float64\"},null,"
	"[{\"shape\":[4611686018427387904,4],\"dtype\":\"bfloat16\"},null]],"
	"\"outputs\":[{\"shape\":[4611686018427387904,4611686018427387904],\"dtype\":\"float32\"}]}\n"
	"{\"id\":3,\"op\":\"fz::c\",\"overload\":\"ov\",\"args\":[{\"shape\":[1,2,3,4,5,6,7,8],"
	"\"dtype\":\"weird_dtype\"},[9223372036854775807,2],false],\"kwargs\":{\"out\":"
	"{\"shape\":[3],\"dtype\":\"float32\"}}}\n"
	"{\"id\":4,\"op\":\"fz::d\",\"args\":[],\"outputs\":[{\"shape\":[1],\"dtype\":\"bool\"}]}\n"
	"{\"id\":5,\"op\":\"fz::e\",\"args\":[[{\"shape\":[2],\"dtype\":\"float32\"}],"
	"[-9223372036854775807,0,1]],\"kwargs\":{\"group\":0}}\n"
	"{\"id\":6,\"op\":\"fz::base\",\"args\":[{\"shape\":[5,5],\"dtype\":\"float32\"}]}\n";

static char tmp_path[64];

static void remove_tmp(void)
{
	if (tmp_path[0])
		unlink(tmp_path);
}

static FILE *tmp_file(void)
{
	static FILE *f;
	if (f)
		return f;
	snprintf(tmp_path, sizeof tmp_path, "/tmp/tlc-fuzz-rules-XXXXXX");
	int fd = mkstemp(tmp_path);
	if (fd < 0 || !(f = fdopen(fd, "w+")))
		abort();
	atexit(remove_tmp);
	return f;
}

static void write_input(const uint8_t *data, size_t size)
{
	FILE *f = tmp_file();
	if (fflush(f) != 0 || ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fflush(f) != 0)
		abort();
}

static int read_ops(tlc_eval *ev, const void *data, size_t len, const char *name)
{
	(void)data;
	(void)len;
	return tlc_oplog_read_mem(ev, ops, sizeof ops - 1, name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	write_input(data, size);
	tlc_engine_options eo = { sizeof eo, TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng;
	if (tlc_engine_new(&eng, &eo) < 0 ||
	    tlc_rf__load_mem(eng, "base.tlrules", base_rules, sizeof base_rules - 1) < 0)
		abort();
	int rc = tlc_engine_load_rules_file(eng, tmp_path);
	fuzz_check_error(rc);
	if (rc < 0) {
		const tlc_error *e = tlc_error_last();
		/* a parse error names the file and a position inside it */
		if (rc == TLC_EPARSE && (!e->file || e->line == 0 || e->column == 0))
			abort();
	} else {
		unsigned char keep = size ? data[0] : 0;
		fuzz_run_with(eng, read_ops, &keep, 1);
	}
	tlc_engine_free(eng);
	return 0;
}
