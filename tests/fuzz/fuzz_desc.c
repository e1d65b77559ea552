/* libFuzzer target: plugin descriptor validation (engine/registry/loader.c, through
 * tlc_loader__check_desc). The fuzz bytes build a descriptor the way a
 * hostile or stale plugin could hand one back from tlc_plugin_describe():
 * any ABI number and size, a NULL, empty, long or odd-byte name (always
 * NUL-terminated inside a buffer this target owns, as a real plugin's string
 * literal is), and a NULL or dummy init. An independent oracle decides what
 * the loader must accept; any disagreement, or an untyped error, aborts.
 *
 * Layout of the input: byte 0 selects the ABI number, byte 1 the size,
 * byte 2 flags (bit 0: name NULL, bit 1: init NULL, bit 2: version NULL,
 * bit 3: NULL descriptor), bytes 3..10 raw ABI and size values used by the
 * "raw" selectors, the rest is the name (at most NAME_CAP bytes). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_common.h"
#include "engine.h"

#define NAME_CAP 300
#define ABI_MIN (TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int dummy_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	(void)ctx;
	(void)host;
	abort(); /* validation must never run init */
}

static uint32_t u32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t pick_abi(uint8_t sel, uint32_t raw)
{
	switch (sel % 6) {
	case 0: return TLC_PLUGIN_ABI_VERSION;
	case 1: return TLC_PLUGIN_ABI_VERSION + 1;
	case 2: return (uint32_t)(ABI_MIN - 1); /* wraps to UINT32_MAX when ABI_MIN is 0 */
	case 3: return (uint32_t)ABI_MIN;
	case 4: return 0;
	default: return raw;
	}
}

static uint32_t pick_size(uint8_t sel, uint32_t raw)
{
	switch (sel % 5) {
	case 0: return sizeof(tlc_plugin_desc);
	case 1: return (uint32_t)(offsetof(tlc_plugin_desc, init) + sizeof(void (*)(void)));
	case 2: return (uint32_t)offsetof(tlc_plugin_desc, init);
	case 3: return 0;
	default: return raw;
	}
}

/* The rules of docs/plugin-guide.md, written independently of loader.c. */
static int oracle_name_ok(const char *name)
{
	if (!name)
		return 0;
	size_t n = strlen(name);
	if (n < 1 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-",
		            name[i]))
			return 0;
	return 1;
}

static int oracle_accepts(const tlc_plugin_desc *d)
{
	if (!d)
		return 0;
	if ((int64_t)d->abi_version < (int64_t)ABI_MIN ||
	    (int64_t)d->abi_version > (int64_t)TLC_PLUGIN_ABI_VERSION)
		return 0;
	if (d->size < offsetof(tlc_plugin_desc, init) + sizeof d->init)
		return 0;
	return oracle_name_ok(d->name) && d->init != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 11)
		return 0;
	/* the name lives in a heap buffer of exactly its length + NUL, so ASan
	 * sees any read past the terminator */
	size_t nlen = size - 11 < NAME_CAP ? size - 11 : NAME_CAP;
	char *name = malloc(nlen + 1);
	if (!name)
		abort();
	memcpy(name, data + 11, nlen);
	name[nlen] = '\0';

	tlc_plugin_desc d;
	memset(&d, 0, sizeof d);
	d.abi_version = pick_abi(data[0], u32_at(data + 3));
	d.size = pick_size(data[1], u32_at(data + 7));
	d.name = (data[2] & 1) ? NULL : name;
	d.version = (data[2] & 4) ? NULL : "fuzz";
	d.init = (data[2] & 2) ? NULL : dummy_init;
	const tlc_plugin_desc *dp = (data[2] & 8) ? NULL : &d;

	tlc_error_clear();
	int rc = tlc_loader__check_desc(dp, "fuzz.so");
	fuzz_check_error(rc);
	if ((rc == 0) != oracle_accepts(dp))
		abort();
	if (rc < 0 && rc != TLC_EVERSION && rc != TLC_EPLUGIN)
		abort();
	free(name);
	return 0;
}
