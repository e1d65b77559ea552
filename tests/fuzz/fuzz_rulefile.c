/* libFuzzer target: the rule-file parser (engine/registry/rulefile.c) and, for files
 * that load, the interpreter (engine/registry/rulefile_eval.c) over a fixed op log
 * whose ops (mylib::f, mylib::f.x, mylib::g) hold huge shapes, unknown
 * dtypes, None, lists, strings and kwargs. Build: make tests/fuzz/fuzz_rulefile
 * (the pattern rule of tests/fuzz/local.mk); run it with
 * -dict=tests/fuzz/rulefile.dict and examples/ + tests/fixtures/rules as seeds. */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_common.h"
#include "rulefile.h"
#include "engine.h"

static const char LOG[] =
	"{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	"{\"id\":0,\"op\":\"mylib::f\",\"args\":[{\"shape\":[4294967296,3],\"dtype\":\"float32\"},"
	"[2,3,-4],5,null,\"s\",true,[{\"shape\":[2],\"dtype\":\"weird\"},null]],"
	"\"kwargs\":{\"a\":-7,\"t\":{\"shape\":[],\"dtype\":\"float16\"}},"
	"\"outputs\":[{\"shape\":[0,5],\"dtype\":\"int8\"}]}\n"
	"{\"id\":1,\"op\":\"mylib::f\",\"overload\":\"x\",\"args\":[]}\n"
	"{\"id\":2,\"op\":\"mylib::g\",\"args\":[{\"shape\":[9223372036854775807,"
	"9223372036854775807],\"dtype\":\"complex128\"}],\"outputs\":[]}\n";

static int read_log(tlc_eval *ev, const void *data, size_t size, const char *name)
{
	(void)data;
	(void)size;
	return tlc_oplog_read_mem(ev, LOG, sizeof LOG - 1, name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tlc_engine_options o = { sizeof o, TLC_ENGINE_NO_BUILTINS, NULL };
	tlc_engine *eng;
	if (tlc_engine_new(&eng, &o) < 0)
		abort();
	int rc = tlc_rf__load_mem(eng, "fuzz-input", (const char *)data, size);
	fuzz_check_error(rc);
	if (rc == 0)
		fuzz_run_with(eng, read_log, data, size);
	tlc_engine_free(eng);
	return 0;
}
