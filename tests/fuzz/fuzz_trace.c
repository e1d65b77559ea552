/* libFuzzer target: the Kineto trace reader and everything behind it. */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_run(tlc_trace_read_mem, data, size);
	return 0;
}
