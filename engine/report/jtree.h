/* A small JSON document tree read with yajl (semi-private), for documents
 * tlcost wrote itself (partials to merge). Numbers keep their text (yajl's
 * raw number callback), so integers of any size stay exact. */
#ifndef TLC_ENGINE_JTREE_H
#define TLC_ENGINE_JTREE_H

#include <stddef.h>
#include "alloc.h"

typedef enum tlc_jkind {
	TLC_J_NULL = 0, TLC_J_BOOL, TLC_J_NUMBER, TLC_J_STRING, TLC_J_ARRAY, TLC_J_OBJECT
} tlc_jkind;

typedef struct tlc_jnode tlc_jnode;
struct tlc_jnode {
	tlc_jkind kind;
	const char *key;     /* member name inside an object, else NULL */
	const char *text;    /* number or string text (NUL-terminated) */
	int boolean;
	size_t n;            /* children of an array or object */
	tlc_jnode *first, *last, *next, *up;
};

typedef struct tlc_jdoc {
	tlc_arena arena;
	tlc_jnode *root;
} tlc_jdoc;

/** Parses len bytes. Returns 0, TLC_ENOMEM, or TLC_EPARSE with the error
 *  set (code merge_input_invalid, file name and line). */
int tlc_jtree__parse(tlc_jdoc *doc, const tlc_allocator *a, const void *buf, size_t len,
                     const char *name);
void tlc_jtree__free(tlc_jdoc *doc);

/** Member of an object by name, or NULL. */
const tlc_jnode *tlc_jtree__get(const tlc_jnode *obj, const char *key);

/** 1 if n is a JSON number written as decimal digits only (an exact
 *  non-negative integer of any size), else 0. */
int tlc_jtree__is_uint(const tlc_jnode *n);

/** The text of member key of obj when it is a string, else NULL. */
const char *tlc_jtree__str(const tlc_jnode *obj, const char *key);

#endif
