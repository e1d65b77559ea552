/* Device presets (dense peak FLOP/s per dtype, memory bandwidth, source),
 * user device files, device-name matching and ceiling resolution. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "reports.h"
#include "eval.h"

/* public arrays have a fixed capacity so the layout stays when the enum grows */
_Static_assert(TLC_PEAK_COUNT <= TLC_PEAK_SLOTS, "TLC_PEAK_SLOTS too small for TLC_PEAK_COUNT");

#define T 1e12
#define G 1e9

/* Dense peaks (vendor figures "with sparsity" halved). Order of peaks:
 * fp64, fp32, tf32, fp16, bf16, fp8; 0 = not offered by the datasheet.
 * fp64 is the FP64 Tensor Core / matrix peak where the part has one; fp32
 * is the non-tensor FP32 peak (tf32 is separate). */
static const tlc_device_preset builtin[] = {
	{ "v100-sxm2", "NVIDIA V100 SXM2", "v100",
	  { 7.8 * T, 15.7 * T, 0, 125 * T, 0, 0 }, 900 * G, TLC_BASIS_ADVERTISED,
	  "NVIDIA V100 Tensor Core GPU datasheet (V100 SXM2)", "2020-01", "builtin" },
	{ "a100-sxm-40gb", "NVIDIA A100 SXM 40GB", "a100|a100 40gb",
	  { 19.5 * T, 19.5 * T, 156 * T, 312 * T, 312 * T, 0 }, 1555 * G, TLC_BASIS_ADVERTISED,
	  "NVIDIA A100 Tensor Core GPU datasheet (A100 40GB SXM)", "2021-06", "builtin" },
	{ "a100-sxm-80gb", "NVIDIA A100 SXM 80GB", "a100 80gb",
	  { 19.5 * T, 19.5 * T, 156 * T, 312 * T, 312 * T, 0 }, 2039 * G, TLC_BASIS_ADVERTISED,
	  "NVIDIA A100 Tensor Core GPU datasheet (A100 80GB SXM)", "2021-06", "builtin" },
	{ "h100-sxm", "NVIDIA H100 SXM5 80GB", "h100|h100 sxm|h100 sxm5|h100 hbm3",
	  { 67 * T, 67 * T, 494.5 * T, 989.5 * T, 989.5 * T, 1979 * T }, 3350 * G,
	  TLC_BASIS_ADVERTISED, "NVIDIA H100 Tensor Core GPU datasheet (H100 SXM)", "2023",
	  "builtin" },
	{ "h100-pcie", "NVIDIA H100 PCIe 80GB", "h100 pcie",
	  { 51 * T, 51 * T, 378 * T, 756 * T, 756 * T, 1513 * T }, 2000 * G,
	  TLC_BASIS_ADVERTISED, "NVIDIA H100 Tensor Core GPU datasheet (H100 PCIe)", "2023",
	  "builtin" },
	{ "h200-sxm", "NVIDIA H200 SXM 141GB", "h200|h200 sxm",
	  { 67 * T, 67 * T, 494.5 * T, 989.5 * T, 989.5 * T, 1979 * T }, 4800 * G,
	  TLC_BASIS_ADVERTISED, "NVIDIA H200 Tensor Core GPU datasheet (H200 SXM)", "2024",
	  "builtin" },
	{ "b200", "NVIDIA B200 (HGX B200, per GPU)", "b200",
	  { 37 * T, 75 * T, 1100 * T, 2250 * T, 2250 * T, 4500 * T }, 8000 * G,
	  TLC_BASIS_ADVERTISED,
	  "NVIDIA HGX B200 datasheet (8-GPU figures divided by 8)", "2024", "builtin" },
	{ "l4", "NVIDIA L4", "l4",
	  { 0, 30.3 * T, 60 * T, 121 * T, 121 * T, 242.5 * T }, 300 * G, TLC_BASIS_ADVERTISED,
	  "NVIDIA L4 Tensor Core GPU datasheet", "2023", "builtin" },
	{ "mi300x", "AMD Instinct MI300X", "mi300x|mi300x oam",
	  { 163.4 * T, 163.4 * T, 653.7 * T, 1307.4 * T, 1307.4 * T, 2614.9 * T }, 5300 * G,
	  TLC_BASIS_ADVERTISED, "AMD Instinct MI300X accelerator data sheet", "2023-12",
	  "builtin" },
};

#undef T
#undef G

size_t tlc_devices__builtin_count(void) { return sizeof builtin / sizeof builtin[0]; }

const tlc_device_preset *tlc_devices__builtin_at(size_t i)
{
	return i < tlc_devices__builtin_count() ? &builtin[i] : NULL;
}

static const char *const peak_names[TLC_PEAK_COUNT] = {
	"fp64", "fp32", "tf32", "fp16", "bf16", "fp8"
};

const char *tlc_peak_dtype_name(tlc_peak_dtype d)
{
	return (unsigned)d < TLC_PEAK_COUNT ? peak_names[d] : "unknown";
}

int tlc_peak_dtype_parse(tlc_peak_dtype *out, const char *name)
{
	static const struct { const char *s; tlc_peak_dtype d; } alias[] = {
		{ "float64", TLC_PEAK_FP64 }, { "float32", TLC_PEAK_FP32 },
		{ "float16", TLC_PEAK_FP16 }, { "bfloat16", TLC_PEAK_BF16 },
		{ "float8", TLC_PEAK_FP8 }, { "float8_e4m3fn", TLC_PEAK_FP8 },
		{ "float8_e5m2", TLC_PEAK_FP8 }, { "half", TLC_PEAK_FP16 },
	};
	for (int d = 0; name && d < TLC_PEAK_COUNT; d++)
		if (strcmp(name, peak_names[d]) == 0) {
			*out = (tlc_peak_dtype)d;
			return 0;
		}
	for (size_t i = 0; name && i < sizeof alias / sizeof alias[0]; i++)
		if (strcmp(name, alias[i].s) == 0) {
			*out = alias[i].d;
			return 0;
		}
	return tlc_error__set(TLC_EINVAL, "dtype_unknown",
	                      "use one of fp64, fp32, tf32, fp16, bf16, fp8",
	                      "'%s' is not a peak dtype", name ? name : "(null)");
}

/* tlc_peak_dtype_of is in engine/base/names.c: the eval reads it for each
 * op row's dtype (tlc_op_row.dtype). */

const char *tlc_basis_name(tlc_basis b)
{
	return b == TLC_BASIS_MEASURED_ACHIEVABLE ? "measured_achievable" : "advertised";
}

int tlc_basis_parse(tlc_basis *out, const char *name)
{
	if (name && strcmp(name, "advertised") == 0) {
		*out = TLC_BASIS_ADVERTISED;
		return 0;
	}
	if (name && strcmp(name, "measured_achievable") == 0) {
		*out = TLC_BASIS_MEASURED_ACHIEVABLE;
		return 0;
	}
	return tlc_error__set(TLC_EINVAL, "basis_unknown",
	                      "use --basis advertised or --basis measured_achievable",
	                      "'%s' is not a ceiling basis", name ? name : "(null)");
}

int tlc_devices_new(tlc_devices **out)
{
	const tlc_allocator *a = tlc_alloc__default();
	tlc_devices *d = tlc_alloc__calloc(a, 1, sizeof *d);
	if (!d)
		return tlc_error__oom();
	d->a = a;
	tlc_arena__init(&d->ar, a, 4096);
	size_t n = tlc_devices__builtin_count();
	if (tlc_alloc__grow(a, (void **)&d->items, &d->cap, n, sizeof *d->items) != 0) {
		tlc_devices_free(d);
		return TLC_ENOMEM;
	}
	memcpy(d->items, builtin, sizeof builtin);
	d->n = n;
	*out = d;
	return 0;
}

void tlc_devices_free(tlc_devices *devs)
{
	if (!devs)
		return;
	tlc_arena__free(&devs->ar);
	tlc_alloc__free(devs->a, devs->items);
	tlc_alloc__free(devs->a, devs);
}

size_t tlc_devices_count(const tlc_devices *devs) { return devs ? devs->n : 0; }

const tlc_device_preset *tlc_devices_at(const tlc_devices *devs, size_t i)
{
	return devs && i < devs->n ? &devs->items[i] : NULL;
}

/* ---- matching ---- */

/* Lower-cased alphanumeric tokens of s, as "tok1 tok2 ..." with a leading
 * and trailing space so " tok " finds whole tokens. */
static void tokenize(char *dst, size_t cap, const char *s)
{
	size_t w = 0;
	dst[w++] = ' ';
	for (; *s && w + 2 < cap; s++) {
		if (isalnum((unsigned char)*s))
			dst[w++] = (char)tolower((unsigned char)*s);
		else if (dst[w - 1] != ' ')
			dst[w++] = ' ';
	}
	if (dst[w - 1] != ' ')
		dst[w++] = ' ';
	dst[w] = '\0';
}

/* Tokens of the best alternative of pattern matching hay, 0 when none. */
static int match_score(const char *hay, const char *pattern)
{
	int best = 0;
	const char *alt = pattern;
	while (alt && *alt) {
		const char *end = strchr(alt, '|');
		size_t len = end ? (size_t)(end - alt) : strlen(alt);
		char buf[256], tok[64];
		snprintf(buf, sizeof buf, "%.*s", (int)len, alt);
		int ntok = 0, all = 1;
		for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
			snprintf(tok, sizeof tok, " %s ", t);
			for (char *c = tok; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			all = all && strstr(hay, tok) != NULL;
			ntok++;
		}
		if (all && ntok > best)
			best = ntok;
		alt = end ? end + 1 : NULL;
	}
	return best;
}

static const tlc_device_preset *find_in(const tlc_device_preset *items, size_t n,
                                        const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(items[i].id, name) == 0 || strcasecmp(items[i].name, name) == 0)
			return &items[i];
	char hay[512];
	tokenize(hay, sizeof hay, name);
	const tlc_device_preset *best = NULL;
	int score = 0;
	for (size_t i = 0; i < n; i++) {
		int s = match_score(hay, items[i].match ? items[i].match : "");
		if (s > 0 && s >= score) { /* ties: the later entry (a user device) wins */
			score = s;
			best = &items[i];
		}
	}
	return best;
}

int tlc_devices_find(const tlc_device_preset **out, const tlc_devices *devs,
                     const char *name)
{
	const tlc_device_preset *p = NULL;
	if (name && *name)
		p = devs ? find_in(devs->items, devs->n, name)
		         : find_in(builtin, tlc_devices__builtin_count(), name);
	if (!p)
		return tlc_error__set(TLC_ENOTFOUND, "device_unknown",
		                      "run `tlcost devices` for the presets, add one with "
		                      "--devices FILE, or give --peak-flops and --peak-bw",
		                      "no device preset matches '%s'", name ? name : "");
	*out = p;
	return 0;
}

/* ---- ceilings ---- */

static int user_ceilings(tlc_rep_ceil *out, const tlc_ceilings *c)
{
	if (!(isfinite(c->peak_flops) && c->peak_flops > 0) ||
	    !(isfinite(c->peak_bw) && c->peak_bw > 0))
		return tlc_error__set(TLC_EINVAL, "ceilings_invalid",
		                      "give both --peak-flops and --peak-bw as positive numbers "
		                      "(FLOP/s and bytes/s), or use --device",
		                      "user ceilings need a finite peak FLOP/s > 0 and a finite "
		                      "bandwidth > 0 (got %g and %g)", c->peak_flops, c->peak_bw);
	memset(&out->dev, 0, sizeof out->dev);
	out->dev.id = "user";
	out->dev.name = "user-supplied ceilings";
	out->dev.match = "";
	for (int d = 0; d < TLC_PEAK_COUNT; d++)
		out->dev.peak_flops[d] = c->peak_flops;
	out->dev.mem_bw = c->peak_bw;
	out->dev.basis = c->basis;
	out->dev.source = "user-supplied (--peak-flops/--peak-bw)";
	out->dev.date = "";
	out->dev.origin = "user";
	out->from = "user_ceilings";
	return 0;
}

int tlc_rep__resolve(tlc_rep_ceil *out, const tlc_eval *ev, const tlc_ceilings *c)
{
	static const tlc_ceilings none = { NULL, NULL, 0, 0, TLC_BASIS_ADVERTISED, NULL, { NULL } };
	if (!c)
		c = &none;
	out->dtype_forced = -1;
	if (c->dtype) {
		tlc_peak_dtype d;
		int rc = tlc_peak_dtype_parse(&d, c->dtype);
		if (rc)
			return rc;
		out->dtype_forced = (int)d;
	}
	if (c->peak_flops != 0 || c->peak_bw != 0)
		return user_ceilings(out, c);
	const tlc_device_preset *p;
	if (c->device) {
		int rc = tlc_devices_find(&p, c->devices, c->device);
		if (rc)
			return rc;
		out->dev = *p;
		out->from = "option";
		return 0;
	}
	const tlc_input_info *info = ev ? tlc_eval_info(ev) : NULL;
	const char *name = info && info->device ? info->device : NULL;
	if (name && tlc_devices_find(&p, c->devices, name) == 0) {
		out->dev = *p;
		out->from = "input";
		return 0;
	}
	if (name)
		return tlc_error__set(TLC_ENOTFOUND, "roofline_device_missing",
		                      "pass --device NAME (see `tlcost devices`), --devices FILE "
		                      "with a matching entry, or --peak-flops and --peak-bw",
		                      "the input's device '%s' matches no device preset", name);
	return tlc_error__set(TLC_ENOTFOUND, "roofline_device_missing",
	                      "pass --device NAME (see `tlcost devices`) or --peak-flops and "
	                      "--peak-bw",
	                      "no ceilings: the input names no device and none was given");
}

/* ---- link ceilings (docs/collectives.md, "Achieved bandwidth") ----------
 * Per GPU and per direction: what nccl-tests' bus bandwidth is compared
 * with (its doc/PERFORMANCE.md: "the speed of the hardware bottleneck:
 * NVLink, PCI, QPI, or network"). Vendors quote NVLink and Infinity Fabric
 * as bidirectional totals: halved here. */
#define GB 1e9
static const tlc_link_preset links[] = {
	{ "nvlink2", "NVLink 2 (V100 SXM2, 6 links)", 150 * GB,
	  "NVIDIA V100 Tensor Core GPU datasheet: NVLink 300 GB/s (bidirectional)", "2020-01" },
	{ "nvlink3", "NVLink 3 (A100 SXM, 12 links)", 300 * GB,
	  "NVIDIA A100 Tensor Core GPU datasheet: NVLink 600 GB/s (bidirectional)", "2021-06" },
	{ "nvlink4", "NVLink 4 (H100/H200 SXM, 18 links)", 450 * GB,
	  "NVIDIA H100 Tensor Core GPU datasheet: NVLink 900 GB/s (bidirectional)", "2023" },
	{ "nvlink5", "NVLink 5 (B200, 18 links)", 900 * GB,
	  "NVIDIA HGX B200 datasheet: NVLink 1.8 TB/s per GPU (bidirectional)", "2024" },
	{ "infinity-fabric-mi300x", "AMD Infinity Fabric (MI300X, 7 links)", 448 * GB,
	  "AMD Instinct MI300X data sheet: 7 links x 128 GB/s = 896 GB/s peak aggregate "
	  "(bidirectional)", "2023-12" },
	{ "pcie4-x16", "PCIe 4.0 x16", 31.5 * GB,
	  "PCI-SIG PCI Express Base 4.0: 16 GT/s per lane, 128b/130b, 16 lanes, per direction",
	  "2017" },
	{ "pcie5-x16", "PCIe 5.0 x16", 63.0 * GB,
	  "PCI-SIG PCI Express Base 5.0: 32 GT/s per lane, 128b/130b, 16 lanes, per direction",
	  "2019" },
	{ "ib-hdr", "InfiniBand HDR 200 Gb/s (one port)", 25 * GB,
	  "NVIDIA ConnectX-6 / Quantum HDR: 200 Gb/s per port, per direction", "2019" },
	{ "ib-ndr", "InfiniBand NDR 400 Gb/s (one port)", 50 * GB,
	  "NVIDIA ConnectX-7 / Quantum-2 NDR: 400 Gb/s per port, per direction", "2022" },
	{ "roce-400g", "RoCE v2 over 400 Gb Ethernet (one port)", 50 * GB,
	  "IEEE 802.3bs 400GbE: 400 Gb/s per port, per direction", "2017" },
};
#undef GB

/* The intra-node link of a GPU preset. */
static const struct { const char *device, *link; } device_links[] = {
	{ "v100-sxm2", "nvlink2" }, { "a100-sxm-40gb", "nvlink3" }, { "a100-sxm-80gb", "nvlink3" },
	{ "h100-sxm", "nvlink4" }, { "h200-sxm", "nvlink4" }, { "b200", "nvlink5" },
	{ "h100-pcie", "pcie5-x16" }, { "l4", "pcie4-x16" }, { "mi300x", "infinity-fabric-mi300x" },
};

size_t tlc_link_count(void) { return sizeof links / sizeof links[0]; }

const tlc_link_preset *tlc_link_at(size_t i) { return i < tlc_link_count() ? &links[i] : NULL; }

int tlc_link_find(const tlc_link_preset **out, const char *id)
{
	for (size_t i = 0; id && i < tlc_link_count(); i++)
		if (strcmp(links[i].id, id) == 0) {
			*out = &links[i];
			return 0;
		}
	return tlc_error__set(TLC_ENOTFOUND, "link_unknown",
	                      "use one of nvlink2, nvlink3, nvlink4, nvlink5, "
	                      "infinity-fabric-mi300x, pcie4-x16, pcie5-x16, ib-hdr, ib-ndr, roce-400g",
	                      "no link preset '%s'", id ? id : "");
}

const tlc_link_preset *tlc_link_for_device(const char *device_id)
{
	for (size_t i = 0; device_id && i < sizeof device_links / sizeof device_links[0]; i++)
		if (strcmp(device_links[i].device, device_id) == 0) {
			const tlc_link_preset *l = NULL;
			return tlc_link_find(&l, device_links[i].link) == 0 ? l : NULL;
		}
	return NULL;
}
