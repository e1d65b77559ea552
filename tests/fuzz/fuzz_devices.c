/* libFuzzer target: the device file reader (engine/report/devices_file.c, through
 * tlc_devices_load, which takes a path: each input is written to one
 * temporary file per process), then the device lookup and the devices
 * writer over whatever loaded. A failure must be typed, and a
 * devices_file_invalid error must carry the file and a line. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char tmp_path[64];

static void remove_tmp(void)
{
	if (tmp_path[0])
		unlink(tmp_path);
}

static void write_input(const uint8_t *data, size_t size)
{
	static FILE *f;
	if (!f) {
		snprintf(tmp_path, sizeof tmp_path, "/tmp/tlc-fuzz-devices-XXXXXX");
		int fd = mkstemp(tmp_path);
		if (fd < 0 || !(f = fdopen(fd, "w+")))
			abort();
		atexit(remove_tmp);
	}
	if (fflush(f) != 0 || ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0)
		abort();
	if ((size && fwrite(data, 1, size, f) != size) || fflush(f) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	write_input(data, size);
	tlc_devices *devs = NULL;
	if (tlc_devices_new(&devs) < 0)
		abort();
	int rc = tlc_devices_load(devs, tmp_path);
	fuzz_check_error(rc);
	if (rc < 0) {
		const tlc_error *e = tlc_error_last();
		if (strcmp(e->code, "devices_file_invalid") == 0 && (!e->file || e->line == 0))
			abort();
	} else {
		const tlc_device_preset *p = NULL;
		fuzz_check_error(tlc_devices_find(&p, devs, "a.b-c_1"));
		fuzz_check_error(tlc_devices_find(&p, devs, "NVIDIA H100 80GB HBM3"));
		fuzz_check_error(tlc_write_devices(fuzz_sink(), devs, TLC_FORMAT_TEXT));
		fuzz_check_error(tlc_write_devices(fuzz_sink(), devs, TLC_FORMAT_JSON));
	}
	tlc_devices_free(devs);
	return 0;
}
