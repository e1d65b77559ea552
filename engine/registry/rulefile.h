/* Declarative rule files (semi-private): the compiled form of a parsed file
 * and the one interpreter function every rule of a file registers with.
 * The grammar is docs/rule-files.md. */
#ifndef TLC_ENGINE_RULEFILE_H
#define TLC_ENGINE_RULEFILE_H

#include <stdint.h>
#include "tlcost/plugin.h"
#include "tlcost/tlcost.h"
#include "alloc.h"

/** Most digits of an operand index (in0 .. in9999). */
#define TLC_RF_MAX_INDEX 9999
/** Deepest expression tree (operators below operators) the parser accepts. */
#define TLC_RF_MAX_DEPTH 256
/** Most parentheses, calls and unary minuses nested in one another. */
#define TLC_RF_MAX_NEST 64
/** Largest value a field may reach: 2^(62 * TLC_RF_MAX_LIMBS). */
#define TLC_RF_MAX_LIMBS 64

typedef enum tlc_rf_node_kind {
	TLC_RF_INT = 0,  /* literal */
	TLC_RF_NEG,      /* -a */
	TLC_RF_ADD,
	TLC_RF_SUB,
	TLC_RF_MUL,
	TLC_RF_DIV,      /* exact division */
	TLC_RF_CALL      /* fn(args) */
} tlc_rf_node_kind;

typedef enum tlc_rf_fn {
	TLC_RF_FN_NUMEL = 0, /* numel(x) */
	TLC_RF_FN_DIM,       /* dim(x, i) */
	TLC_RF_FN_NDIM,      /* ndim(x) */
	TLC_RF_FN_BYTES,     /* bytes(x) */
	TLC_RF_FN_INT,       /* int(x) */
	TLC_RF_FN_PROD,      /* prod(x) */
	TLC_RF_FN_SUM,       /* sum(x) */
	TLC_RF_FN_LEN,       /* len(x) */
	TLC_RF_FN_MAX,       /* max(a, b) */
	TLC_RF_FN_MIN,       /* min(a, b) */
	TLC_RF_FN_FLOORDIV,  /* floordiv(a, b) */
	TLC_RF_FN_CEILDIV,   /* ceildiv(a, b) */
	TLC_RF_FN_HAS        /* has(x): 1 when recorded and not None */
} tlc_rf_fn;

typedef enum tlc_rf_operand_kind {
	TLC_RF_ARG = 0, /* inN / argN: positional argument N */
	TLC_RF_OUT,     /* outN: output N */
	TLC_RF_KW       /* kw.NAME: keyword argument */
} tlc_rf_operand_kind;

typedef struct tlc_rf_operand {
	tlc_rf_operand_kind kind;
	uint32_t index;      /* ARG, OUT */
	const char *kw;      /* KW */
	const char *text;    /* as written, for explanations */
} tlc_rf_operand;

typedef struct tlc_rf_node tlc_rf_node;
struct tlc_rf_node {
	tlc_rf_node_kind kind;
	int64_t lit;             /* TLC_RF_INT */
	tlc_rf_fn fn;            /* TLC_RF_CALL */
	tlc_rf_operand opd;      /* CALL of a function whose first argument is an operand */
	const tlc_rf_node *a, *b; /* operands of arithmetic; expression arguments of calls */
	int depth;               /* of the tree below, at most TLC_RF_MAX_DEPTH */
};

/* The cost fields a rule may give, in tlc_cost_field order. */
#define TLC_RF_NFIELDS TLC_FIELD_COUNT

typedef struct tlc_rf_rule {
	const char *file;        /* as given to the loader */
	uint32_t line, column;   /* of the rule's name */
	const char *name;
	tlc_rule_kind kind;
	tlc_evidence evidence;
	unsigned flags;          /* TLC_RULE_OVERRIDE */
	const char *note;        /* "" when not given */
	const tlc_rf_node *field[TLC_RF_NFIELDS]; /* NULL: 0 (flops) or the default (bytes) */
} tlc_rf_rule;

/** A parsed file: everything lives in one arena. */
typedef struct tlc_rf_file {
	tlc_arena arena;
	const tlc_allocator *a;
	tlc_rf_rule **rules;
	size_t nrules;
} tlc_rf_file;

/** Parses the text of a rule file (len bytes, NUL bytes refused) into a new
 *  file object. Errors carry name, line and column: rules_parse_error,
 *  rules_unknown_function, rules_unknown_operand. Free with tlc_rf__free. */
int tlc_rf__parse(tlc_rf_file **out, const tlc_allocator *a, const char *name,
                  const char *text, size_t len);
void tlc_rf__free(void *file, const tlc_allocator *a);

/** Parses text and registers its rules as provider "rules:NAME" (what
 *  tlc_engine_load_rules_file does after reading the file). A failure
 *  registers nothing. */
int tlc_rf__load_mem(tlc_engine *eng, const char *name, const char *text, size_t len);
/** Same, registered as the given provider label ("pack:NAME", packs.c)
 *  instead of "rules:NAME"; name stays the file named in positions. */
int tlc_rf__load_mem_as(tlc_engine *eng, const char *name, const char *provider,
                        const char *text, size_t len);

/** The interpreter: the tlc_rule_fn of every rule-file rule; payload is the
 *  tlc_rf_rule. */
int tlc_rf__eval(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload);

#endif
