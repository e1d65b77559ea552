/* A small open-addressing string interner for kernel and API names. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ull;
	}
	return h;
}

static int same(const char *slot, const char *p, size_t n)
{
	return strncmp(slot, p, n) == 0 && slot[n] == '\0';
}

static int grow(tlc_cupti_intern *in)
{
	size_t cap = in->cap ? in->cap * 2 : 64;
	char **slots = calloc(cap, sizeof *slots);

	if (!slots)
		return -1;
	for (size_t i = 0; i < in->cap; i++) {
		char *str = in->slots[i];
		size_t j;

		if (!str)
			continue;
		j = hash_bytes(str, strlen(str)) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = str;
	}
	free(in->slots);
	in->slots = slots;
	in->cap = cap;
	return 0;
}

/* Returns the stored copy of str[0..len), or NULL when out of memory. */
const char *tlc_cupti__intern(tlc_cupti_intern *in, const char *str, size_t len)
{
	size_t j;
	char *copy;

	if ((in->count + 1) * 2 > in->cap && grow(in) != 0)
		return NULL;
	j = hash_bytes(str, len) & (in->cap - 1);
	while (in->slots[j]) {
		if (same(in->slots[j], str, len))
			return in->slots[j];
		j = (j + 1) & (in->cap - 1);
	}
	copy = malloc(len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, str, len);
	copy[len] = '\0';
	in->slots[j] = copy;
	in->count++;
	return copy;
}

void tlc_cupti__intern_free(tlc_cupti_intern *in)
{
	for (size_t i = 0; i < in->cap; i++)
		free(in->slots[i]);
	free(in->slots);
	in->slots = NULL;
	in->cap = in->count = 0;
}
