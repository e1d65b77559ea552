/* Declarative rule files (docs/rule-files.md): a line-oriented parser that
 * compiles each `rule ... end` block into expression trees, and the loader
 * that registers them through the plugin ABI as provider "rules:FILE". */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "rulefile.h"

/** Largest rule file read (a bigger one is refused, not truncated). */
#define RF_MAX_FILE_BYTES ((size_t)16 << 20)

typedef enum tok_kind { T_EOL = 0, T_INT, T_IDENT, T_STRING, T_PUNCT } tok_kind;

typedef struct token {
	tok_kind kind;
	size_t start, len;  /* byte offsets in the line; IDENT/STRING text */
	int64_t ival;       /* T_INT */
	char ch;            /* T_PUNCT */
} token;

typedef struct parser {
	tlc_rf_file *f;
	const char *name;       /* file name for positions */
	uint32_t line;
	const char *s;          /* current line (not NUL-terminated) */
	size_t len, pos;
	token cur;
	int depth;              /* parser recursion */
	tlc_rf_rule *open;      /* rule whose block is open, or NULL */
	int have[TLC_RF_NFIELDS];
	int have_note;
} parser;

/* ---- errors ------------------------------------------------------------ */

static int fail_at(const parser *p, size_t pos, const char *code, const char *remedy,
                   const char *fmt, ...) TLC_PRINTF(5, 6);

static int fail_at(const parser *p, size_t pos, const char *code, const char *remedy,
                   const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tlc_error__set_pos(TLC_EPARSE, code, p->name, p->line, (uint64_t)pos + 1, remedy,
	                          "%s", msg);
}

static int syntax(const parser *p, size_t pos, const char *remedy, const char *fmt, ...)
	TLC_PRINTF(4, 5);

static int syntax(const parser *p, size_t pos, const char *remedy, const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return fail_at(p, pos, "rules_parse_error", remedy, "%s", msg);
}

static int oom(void) { return tlc_error__oom(); }

/* ---- lexer ------------------------------------------------------------- */

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alnum(char c) { return is_alpha(c) || is_digit(c); }

static void skip_space(parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t'))
		p->pos++;
	if (p->pos < p->len && p->s[p->pos] == '#')
		p->pos = p->len; /* a comment runs to the end of the line */
}

static size_t ident_end(const parser *p, size_t i)
{
	while (i < p->len && is_alnum(p->s[i]))
		i++;
	return i;
}

static int lex_int(parser *p, token *t)
{
	int64_t v = 0;
	size_t i = p->pos;
	while (i < p->len && is_digit(p->s[i])) {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, p->s[i] - '0', &v))
			return syntax(p, p->pos, "write literals below 2^63, or build them from "
			              "smaller ones (e.g. 4096 * 4096 * 4096)",
			              "integer literal does not fit in 64 bits");
		i++;
	}
	if (i < p->len && is_alpha(p->s[i]))
		return syntax(p, i, "separate numbers and names with an operator",
		              "unexpected '%c' after a number", p->s[i]);
	t->kind = T_INT;
	t->ival = v;
	p->pos = i;
	return 0;
}

/* identifier, optionally qualified once: kw.alpha */
static void lex_ident(parser *p, token *t)
{
	size_t i = ident_end(p, p->pos);
	if (i + 1 < p->len && p->s[i] == '.' && is_alpha(p->s[i + 1]))
		i = ident_end(p, i + 1);
	t->kind = T_IDENT;
	t->len = i - p->pos;
	p->pos = i;
}

/* Length of the UTF-8 sequence at s[0..n), or 0 when it is not valid
 * (overlong forms, surrogates and values past U+10FFFF included). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (k == 0 || s[0] > 0xf4 || k > n)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return k;
}

static int lex_string(parser *p, token *t)
{
	size_t i = p->pos + 1;
	for (; i < p->len && p->s[i] != '"'; i++) {
		unsigned char c = (unsigned char)p->s[i];
		if (c < 0x20 && c != '\t')
			return syntax(p, i, "keep notes on one line of printable text",
			              "control character in a string");
		if (c >= 0x80) {
			size_t k = utf8_seq((const unsigned char *)p->s + i, p->len - i);
			if (!k)
				return syntax(p, i, "save the file as UTF-8", "invalid UTF-8 in a string");
			i += k - 1;
			continue;
		}
		if (c == '\\') {
			if (i + 1 >= p->len || (p->s[i + 1] != '"' && p->s[i + 1] != '\\'))
				return syntax(p, i, "the only escapes are \\\" and \\\\",
				              "unknown escape in a string");
			i++;
		}
	}
	if (i >= p->len)
		return syntax(p, p->pos, "close the string with '\"' on the same line",
		              "unterminated string");
	t->kind = T_STRING;
	t->start = p->pos + 1;
	t->len = i - t->start;
	p->pos = i + 1;
	return 0;
}

/* Reads the next token into p->cur. */
static int next(parser *p)
{
	skip_space(p);
	token *t = &p->cur;
	memset(t, 0, sizeof *t);
	t->start = p->pos;
	if (p->pos >= p->len) {
		t->kind = T_EOL;
		return 0;
	}
	char c = p->s[p->pos];
	if (is_digit(c))
		return lex_int(p, t);
	if (is_alpha(c)) {
		lex_ident(p, t);
		return 0;
	}
	if (c == '"')
		return lex_string(p, t);
	if (c && strchr("+-*/(),=", c)) {
		t->kind = T_PUNCT;
		t->ch = c;
		p->pos++;
		return 0;
	}
	if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
		return syntax(p, p->pos, "see docs/rule-files.md for the grammar",
		              "unexpected character '%c'", c);
	return syntax(p, p->pos, "use ASCII outside strings", "unexpected byte 0x%02x",
	              (unsigned)(unsigned char)c);
}

static int tok_is(const parser *p, const char *word)
{
	size_t n = strlen(word);
	return p->cur.kind == T_IDENT && p->cur.len == n && memcmp(p->s + p->cur.start, word, n) == 0;
}

static int tok_punct(const parser *p, char c)
{
	return p->cur.kind == T_PUNCT && p->cur.ch == c;
}

/* Text of the current token, for messages (bounded). */
static const char *tok_text(const parser *p, char *buf, size_t cap)
{
	if (p->cur.kind == T_EOL)
		return "end of line";
	size_t n = p->cur.kind == T_PUNCT ? 1
	         : p->cur.kind == T_STRING ? p->cur.len : p->pos - p->cur.start;
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, p->s + p->cur.start, n);
	buf[n] = '\0';
	return buf;
}

static int unexpected(const parser *p, const char *wanted)
{
	char buf[48];
	return syntax(p, p->cur.start, "see docs/rule-files.md for the grammar",
	              "expected %s, found '%s'", wanted, tok_text(p, buf, sizeof buf));
}

static int expect_eol(parser *p)
{
	return p->cur.kind == T_EOL ? 0 : unexpected(p, "end of line");
}

/* ---- expressions ------------------------------------------------------- */

typedef struct fn_desc {
	const char *name;
	tlc_rf_fn fn;
	int operand_first; /* first argument is an operand (in0, kw.x, ...) */
	int nexpr;         /* expression arguments after it */
} fn_desc;

static const fn_desc FUNCTIONS[] = {
	{ "numel", TLC_RF_FN_NUMEL, 1, 0 },   { "dim", TLC_RF_FN_DIM, 1, 1 },
	{ "ndim", TLC_RF_FN_NDIM, 1, 0 },     { "bytes", TLC_RF_FN_BYTES, 1, 0 },
	{ "int", TLC_RF_FN_INT, 1, 0 },       { "prod", TLC_RF_FN_PROD, 1, 0 },
	{ "sum", TLC_RF_FN_SUM, 1, 0 },       { "len", TLC_RF_FN_LEN, 1, 0 },
	{ "max", TLC_RF_FN_MAX, 0, 2 },       { "min", TLC_RF_FN_MIN, 0, 2 },
	{ "floordiv", TLC_RF_FN_FLOORDIV, 0, 2 }, { "ceildiv", TLC_RF_FN_CEILDIV, 0, 2 },
	{ "has", TLC_RF_FN_HAS, 1, 0 },
};

static const fn_desc *find_fn(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; i++)
		if (strlen(FUNCTIONS[i].name) == n && memcmp(FUNCTIONS[i].name, s, n) == 0)
			return &FUNCTIONS[i];
	return NULL;
}

static tlc_rf_node *node_new(parser *p, tlc_rf_node_kind kind)
{
	tlc_rf_node *n = tlc_arena__alloc(&p->f->arena, sizeof *n);
	if (n) {
		memset(n, 0, sizeof *n);
		n->kind = kind;
		n->depth = 1;
	}
	return n;
}

/* The depth of every tree is bounded, so evaluation never recurses deeply;
 * returns nonzero when n is too deep. */
static int set_depth(tlc_rf_node *n)
{
	int da = n->a ? n->a->depth : 0, db = n->b ? n->b->depth : 0;
	n->depth = 1 + (da > db ? da : db);
	return n->depth > TLC_RF_MAX_DEPTH;
}

static int make_node(tlc_rf_node **out, parser *p, tlc_rf_node_kind kind, size_t pos,
                     const tlc_rf_node *a, const tlc_rf_node *b)
{
	tlc_rf_node *n = node_new(p, kind);
	if (!n)
		return oom();
	n->a = a;
	n->b = b;
	if (set_depth(n))
		return syntax(p, pos, "split the formula, or use sum()/prod() over a list",
		              "expression deeper than %d operators", TLC_RF_MAX_DEPTH);
	*out = n;
	return 0;
}

/* Parses "in3", "arg0", "out1" or "kw.NAME" at the current IDENT. */
static int parse_index(uint32_t *out, const char *s, size_t n)
{
	if (n == 0 || n > 4 || (n > 1 && s[0] == '0'))
		return -1;
	uint32_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

static int classify_operand(tlc_rf_operand *o, const char *s, size_t n)
{
	memset(o, 0, sizeof *o);
	if (n > 3 && memcmp(s, "kw.", 3) == 0) {
		o->kind = TLC_RF_KW;
		return 0;
	}
	static const struct { const char *prefix; tlc_rf_operand_kind kind; } pre[] = {
		{ "arg", TLC_RF_ARG }, { "out", TLC_RF_OUT }, { "in", TLC_RF_ARG },
	};
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		size_t k = strlen(pre[i].prefix);
		if (n > k && memcmp(s, pre[i].prefix, k) == 0 &&
		    parse_index(&o->index, s + k, n - k) == 0) {
			o->kind = pre[i].kind;
			return 0;
		}
	}
	return -1;
}

static int unknown_operand(const parser *p)
{
	char buf[64];
	return fail_at(p, p->cur.start, "rules_unknown_operand",
	               "operands are in0..in9999 or arg0..arg9999 (positional arguments), "
	               "out0..out9999 (outputs) and kw.NAME (keyword arguments)",
	               "unknown operand '%s'", tok_text(p, buf, sizeof buf));
}

/* An operand at the current token (the argument of numel(), bytes(), ...). */
static int parse_operand(parser *p, tlc_rf_operand *o, const char *fname)
{
	if (p->cur.kind != T_IDENT) {
		char buf[48];
		return syntax(p, p->cur.start, "pass an operand such as in0, out0 or kw.NAME",
		              "%s() takes an operand (in0, out0, kw.NAME), found '%s'", fname,
		              tok_text(p, buf, sizeof buf));
	}
	const char *s = p->s + p->cur.start;
	size_t n = p->cur.len;
	if (classify_operand(o, s, n) < 0)
		return unknown_operand(p);
	o->text = tlc_arena__strndup(&p->f->arena, s, n);
	if (o->kind == TLC_RF_KW)
		o->kw = o->text ? o->text + 3 : NULL;
	return o->text ? next(p) : oom();
}

static int parse_expr(parser *p, const tlc_rf_node **out);

static int arity_error(const parser *p, const fn_desc *d, size_t pos)
{
	int n = d->operand_first + d->nexpr;
	return syntax(p, pos, "see the function table in docs/rule-files.md",
	              "%s() takes %d argument%s", d->name, n, n == 1 ? "" : "s");
}

/* After "name(": the arguments and ")". */
static int parse_call_args(parser *p, tlc_rf_node *n, const fn_desc *d, size_t fpos)
{
	const tlc_rf_node *args[2] = { NULL, NULL };
	int rc = 0;
	if (d->operand_first)
		rc = parse_operand(p, &n->opd, d->name);
	for (int i = 0; rc == 0 && i < d->nexpr; i++) {
		if (i > 0 || d->operand_first) {
			if (!tok_punct(p, ','))
				return tok_punct(p, ')') ? arity_error(p, d, fpos) : unexpected(p, "','");
			rc = next(p);
		}
		if (rc == 0)
			rc = parse_expr(p, &args[i]);
	}
	if (rc < 0)
		return rc;
	if (!tok_punct(p, ')'))
		return tok_punct(p, ',') ? arity_error(p, d, fpos) : unexpected(p, "')'");
	n->a = args[0];
	n->b = args[1];
	if (set_depth(n))
		return syntax(p, fpos, "split the formula",
		              "expression deeper than %d operators", TLC_RF_MAX_DEPTH);
	return next(p);
}

static int parse_call(parser *p, const tlc_rf_node **out)
{
	size_t fpos = p->cur.start;
	const fn_desc *d = find_fn(p->s + fpos, p->cur.len);
	if (!d) {
		char buf[64];
		return fail_at(p, fpos, "rules_unknown_function",
		               "the functions are numel, dim, ndim, bytes, int, prod, sum, len, "
		               "has, max, min, floordiv, ceildiv (docs/rule-files.md)",
		               "unknown function '%s'", tok_text(p, buf, sizeof buf));
	}
	tlc_rf_node *n = node_new(p, TLC_RF_CALL);
	if (!n)
		return oom();
	n->fn = d->fn;
	int rc = next(p); /* '(' */
	if (rc == 0)
		rc = next(p);
	if (rc == 0)
		rc = parse_call_args(p, n, d, fpos);
	*out = n;
	return rc;
}

/* An identifier in number position: a call, or an operand used as a number. */
static int parse_name(parser *p, const tlc_rf_node **out)
{
	size_t after = p->pos;
	while (after < p->len && (p->s[after] == ' ' || p->s[after] == '\t'))
		after++;
	if (after < p->len && p->s[after] == '(')
		return parse_call(p, out);
	tlc_rf_operand o;
	if (classify_operand(&o, p->s + p->cur.start, p->cur.len) < 0) {
		if (find_fn(p->s + p->cur.start, p->cur.len))
			return syntax(p, p->cur.start, "call it with parentheses, e.g. numel(in0)",
			              "function used without arguments");
		return unknown_operand(p);
	}
	char buf[64];
	return syntax(p, p->cur.start,
	              "use int(x) for an int argument, numel(x), dim(x, i) or bytes(x) "
	              "for a tensor",
	              "'%s' is an argument, not a number", tok_text(p, buf, sizeof buf));
}

static int parse_unary(parser *p, const tlc_rf_node **out);

static int parse_primary(parser *p, const tlc_rf_node **out)
{
	if (p->cur.kind == T_INT) {
		tlc_rf_node *n = node_new(p, TLC_RF_INT);
		if (!n)
			return oom();
		n->lit = p->cur.ival;
		*out = n;
		return next(p);
	}
	if (p->cur.kind == T_IDENT)
		return parse_name(p, out);
	if (!tok_punct(p, '('))
		return unexpected(p, "a number, a function call or '('");
	size_t open = p->cur.start;
	int rc = next(p);
	if (rc == 0)
		rc = parse_expr(p, out);
	if (rc < 0)
		return rc;
	if (!tok_punct(p, ')'))
		return p->cur.kind == T_EOL
			       ? syntax(p, open, "close every '(' on the same line", "unclosed '('")
			       : unexpected(p, "')'");
	return next(p);
}

static int too_nested(const parser *p)
{
	return syntax(p, p->cur.start, "split the formula into simpler terms",
	              "more than %d parentheses, calls or unary minuses nested in one another",
	              TLC_RF_MAX_NEST);
}

static int parse_unary(parser *p, const tlc_rf_node **out)
{
	int rc;
	if (tok_punct(p, '-')) {
		if (++p->depth > TLC_RF_MAX_NEST + 1)
			return too_nested(p);
		size_t pos = p->cur.start;
		const tlc_rf_node *a = NULL;
		rc = next(p);
		if (rc == 0)
			rc = parse_unary(p, &a);
		tlc_rf_node *n = NULL;
		if (rc == 0)
			rc = make_node(&n, p, TLC_RF_NEG, pos, a, NULL);
		*out = n;
		p->depth--;
	} else {
		rc = parse_primary(p, out);
	}
	return rc;
}

/* left-associative chain of one precedence level */
static int parse_chain(parser *p, const tlc_rf_node **out, const char *ops,
                       int (*sub)(parser *, const tlc_rf_node **))
{
	int rc = sub(p, out);
	while (rc == 0 && p->cur.kind == T_PUNCT && strchr(ops, p->cur.ch)) {
		char op = p->cur.ch;
		size_t pos = p->cur.start;
		const tlc_rf_node *b = NULL;
		rc = next(p);
		if (rc == 0)
			rc = sub(p, &b);
		if (rc < 0)
			break;
		tlc_rf_node_kind k = op == '+' ? TLC_RF_ADD : op == '-' ? TLC_RF_SUB
		                   : op == '*' ? TLC_RF_MUL : TLC_RF_DIV;
		tlc_rf_node *n = NULL;
		rc = make_node(&n, p, k, pos, *out, b);
		if (rc == 0)
			*out = n;
	}
	return rc;
}

static int parse_term(parser *p, const tlc_rf_node **out)
{
	return parse_chain(p, out, "*/", parse_unary);
}

static int parse_expr(parser *p, const tlc_rf_node **out)
{
	/* the top-level formula is depth 1: 64 nested levels below it are fine */
	if (++p->depth > TLC_RF_MAX_NEST + 1)
		return too_nested(p);
	int rc = parse_chain(p, out, "+-", parse_term);
	p->depth--;
	return rc;
}

/* ---- rule header ------------------------------------------------------- */

static int valid_rule_name(const char *s, size_t n)
{
	const char *sep = NULL;
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == ':' && s[i + 1] == ':') {
			sep = s + i;
			break;
		}
	if (!sep || sep == s || !is_alpha(s[0]) || n > 256)
		return 0;
	for (const char *q = s; q < sep; q++)
		if (!is_alnum(*q))
			return 0;
	const char *op = sep + 2, *end = s + n;
	if (op >= end || !is_alpha(*op))
		return 0;
	int dots = 0;
	for (const char *q = op; q < end; q++) {
		if (*q == '.')
			dots++;
		else if (!is_alnum(*q))
			return 0;
	}
	return dots == 0 || (dots == 1 && end[-1] != '.');
}

/* the namespace of a "ns::*" family: a letter, then letters, digits, '_' */
static int valid_rule_name_space(const char *s, size_t n)
{
	if (n == 0 || n > 250 || !is_alpha(s[0]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum(s[i]))
			return 0;
	return 1;
}

static int name_char(char c) { return is_alnum(c) || c == ':' || c == '.'; }

static int parse_rule_name(parser *p, tlc_rf_rule *r)
{
	skip_space(p);
	size_t start = p->pos, i = start;
	while (i < p->len && name_char(p->s[i]))
		i++;
	if (i == start)
		return syntax(p, start, "write `rule namespace::op` (or namespace::op.overload)",
		              "rule needs an operator name");
	/* a family: "ns::stem_*" (every ns::stem_<digits>) or "ns::*" (the
	 * namespace's ops without a rule of their own), as eval.c looks them up */
	int family = 0;
	if (i < p->len && p->s[i] == '*' && i > start &&
	    (p->s[i - 1] == '_' || (p->s[i - 1] == ':' && i - start >= 3 && p->s[i - 2] == ':'))) {
		family = p->s[i - 1] == '_' ? 1 : 2;
		i++;
	}
	if (i < p->len && p->s[i] != ' ' && p->s[i] != '\t' && p->s[i] != '#')
		return syntax(p, i, "operator names use letters, digits, '_', '::' and one '.'; "
		              "a family of names ends in '_*' or '::*'",
		              "unexpected character in rule name");
	if (family == 2 ? !valid_rule_name_space(p->s + start, i - start - 3)
	                : !valid_rule_name(p->s + start, i - start - (size_t)family) ||
	                      (family && memchr(p->s + start, '.', i - start)))
		return syntax(p, start, "name the operator namespace::op or namespace::op.overload, "
		              "e.g. mylib::fused_gelu",
		              "'%.*s' is not an operator name", (int)(i - start), p->s + start);
	r->name = tlc_arena__strndup(&p->f->arena, p->s + start, i - start);
	r->line = p->line;
	r->column = (uint32_t)start + 1;
	p->pos = i;
	return r->name ? next(p) : oom();
}

typedef struct word_val {
	const char *word;
	int value;
} word_val;

static const word_val EVIDENCE_WORDS[] = {
	{ "formula_exact", TLC_EVIDENCE_FORMULA_EXACT }, { "estimated", TLC_EVIDENCE_ESTIMATED },
	{ NULL, 0 },
};
static const word_val KIND_WORDS[] = {
	{ "cost", TLC_RULE_COST }, { "zero", TLC_RULE_ZERO },
	{ "decomposed", TLC_RULE_DECOMPOSED }, { "structural", TLC_RULE_STRUCTURAL },
	{ NULL, 0 },
};

/* "evidence=WORD" / "kind=WORD": the current token is the option name. */
static int parse_option_value(parser *p, const word_val *words, int *out, const char *what,
                              const char *remedy)
{
	int rc = next(p);
	if (rc == 0 && !tok_punct(p, '='))
		return unexpected(p, "'='");
	if (rc == 0)
		rc = next(p);
	if (rc < 0)
		return rc;
	for (const word_val *w = words; w->word && p->cur.kind == T_IDENT; w++) {
		if (tok_is(p, w->word)) {
			*out = w->value;
			return next(p);
		}
	}
	char buf[48];
	return syntax(p, p->cur.start, remedy, "unknown %s '%s'", what,
	              tok_text(p, buf, sizeof buf));
}

static int parse_options(parser *p, tlc_rf_rule *r)
{
	unsigned seen = 0;
	int rc = 0;
	while (rc == 0 && p->cur.kind != T_EOL) {
		unsigned bit = tok_is(p, "override") ? 1u : tok_is(p, "evidence") ? 2u
		             : tok_is(p, "kind") ? 4u : 0u;
		if (!bit)
			return unexpected(p, "override, evidence=... or kind=...");
		if (seen & bit)
			return syntax(p, p->cur.start, "give each option once", "option repeated");
		seen |= bit;
		int v = 0;
		if (bit == 1u) {
			r->flags |= TLC_RULE_OVERRIDE;
			rc = next(p);
		} else if (bit == 2u) {
			rc = parse_option_value(p, EVIDENCE_WORDS, &v, "evidence",
			                        "evidence is formula_exact or estimated");
			r->evidence = (tlc_evidence)v;
		} else {
			rc = parse_option_value(p, KIND_WORDS, &v, "kind",
			                        "kind is cost, zero, decomposed or structural");
			r->kind = (tlc_rule_kind)v;
		}
	}
	return rc;
}

static int parse_rule_line(parser *p)
{
	if (p->open)
		return syntax(p, p->cur.start, "close the previous rule with `end` first",
		              "rule %s (line %u) is not closed before this rule", p->open->name,
		              (unsigned)p->open->line);
	tlc_rf_rule *r = tlc_arena__alloc(&p->f->arena, sizeof *r);
	if (!r)
		return oom();
	memset(r, 0, sizeof *r);
	r->file = p->name;
	r->kind = TLC_RULE_COST;
	r->evidence = TLC_EVIDENCE_ESTIMATED; /* exact only when the author says so */
	r->note = "";
	int rc = parse_rule_name(p, r);
	if (rc == 0)
		rc = parse_options(p, r);
	if (rc < 0)
		return rc;
	p->open = r;
	memset(p->have, 0, sizeof p->have);
	p->have_note = 0;
	return 0;
}

/* ---- block body -------------------------------------------------------- */

static int field_of(const parser *p)
{
	static const struct { const char *word; int field; } names[] = {
		{ "macs", TLC_FIELD_MACS }, { "other", TLC_FIELD_OTHER_FLOPS },
		{ "other_flops", TLC_FIELD_OTHER_FLOPS }, { "read", TLC_FIELD_BYTES_READ },
		{ "write", TLC_FIELD_BYTES_WRITTEN }, { "note", -2 },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (tok_is(p, names[i].word))
			return names[i].field;
	return -1;
}

static int parse_note(parser *p)
{
	if (p->cur.kind != T_STRING)
		return unexpected(p, "a \"quoted\" note");
	size_t n = p->cur.len;
	char *s = tlc_arena__alloc(&p->f->arena, n + 1);
	if (!s)
		return oom();
	size_t w = 0;
	for (size_t i = p->cur.start; i < p->cur.start + n; i++) {
		if (p->s[i] == '\\')
			i++;
		s[w++] = p->s[i];
	}
	s[w] = '\0';
	p->open->note = s;
	p->have_note = 1;
	int rc = next(p);
	return rc ? rc : expect_eol(p);
}

static int parse_field(parser *p, int field)
{
	size_t pos = p->cur.start;
	char buf[32];
	const char *fname = tok_text(p, buf, sizeof buf);
	if (field >= 0 && p->open->kind != TLC_RULE_COST)
		return syntax(p, pos, "only kind=cost rules have formulas; a zero, decomposed or "
		              "structural rule takes just a note",
		              "field '%s' in a rule that is not kind=cost", fname);
	if ((field >= 0 && p->have[field]) || (field == -2 && p->have_note))
		return syntax(p, pos, "give each field once", "field '%s' repeated", fname);
	int rc = next(p);
	if (rc == 0 && !tok_punct(p, '='))
		return unexpected(p, "'='");
	if (rc == 0)
		rc = next(p);
	if (rc < 0)
		return rc;
	if (field == -2)
		return parse_note(p);
	if (p->cur.kind == T_EOL)
		return unexpected(p, "a formula");
	const tlc_rf_node *e = NULL;
	rc = parse_expr(p, &e);
	if (rc == 0)
		rc = expect_eol(p);
	if (rc == 0) {
		p->open->field[field] = e;
		p->have[field] = 1;
	}
	return rc;
}

static int close_rule(parser *p)
{
	tlc_rf_rule *r = p->open;
	const parser at = { .name = p->name, .line = r->line };
	if (r->kind == TLC_RULE_COST && !r->field[TLC_FIELD_MACS] &&
	    !r->field[TLC_FIELD_OTHER_FLOPS])
		return syntax(&at, r->column - 1, "give the rule `macs = ...` and/or `other = ...` "
		              "(write `macs = 0` for an op without arithmetic)",
		              "rule %s has no macs or other formula", r->name);
	if (r->kind == TLC_RULE_ZERO && !p->have_note)
		return syntax(&at, r->column - 1, "add `note = \"why it is free\"`",
		              "kind=zero rule %s has no note saying why it costs nothing", r->name);
	tlc_rf_file *f = p->f;
	size_t cap = f->nrules; /* grown one by one: rule files are small */
	tlc_rf_rule **rules = tlc_alloc__realloc(f->a, f->rules, (cap + 1) * sizeof *rules);
	if (!rules)
		return oom();
	rules[f->nrules++] = r;
	f->rules = rules;
	p->open = NULL;
	return 0;
}

static int parse_line(parser *p)
{
	int rc = next(p);
	if (rc < 0 || p->cur.kind == T_EOL)
		return rc;
	if (tok_is(p, "rule"))
		return parse_rule_line(p);
	if (!p->open) {
		if (tok_is(p, "end"))
			return syntax(p, p->cur.start, "remove it, or open a block with `rule NAME`",
			              "`end` without a rule");
		return unexpected(p, "`rule NAME`");
	}
	if (tok_is(p, "end")) {
		rc = next(p);
		if (rc == 0)
			rc = expect_eol(p);
		return rc ? rc : close_rule(p);
	}
	int field = field_of(p);
	if (field == -1) {
		char buf[48];
		return syntax(p, p->cur.start, "fields are macs, other (or other_flops), read, "
		              "write, note; close the block with `end`",
		              "unknown field '%s'", tok_text(p, buf, sizeof buf));
	}
	return parse_field(p, field);
}

static int parse_text(parser *p, const char *text, size_t len)
{
	size_t at = 0;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		p->line++;
		p->s = text + at;
		p->len = end - at;
		if (p->len && p->s[p->len - 1] == '\r')
			p->len--;
		const char *nul = memchr(p->s, '\0', p->len);
		if (nul)
			return syntax(p, (size_t)(nul - p->s), "save the file as text", "NUL byte");
		p->pos = 0;
		int rc = parse_line(p);
		if (rc < 0)
			return rc;
		at = end + 1;
	}
	if (p->open) {
		const parser at_rule = { .name = p->name, .line = p->open->line };
		return syntax(&at_rule, p->open->column - 1, "close the block with a line `end`",
		              "rule %s is not closed: the file ends inside it", p->open->name);
	}
	return 0;
}

void tlc_rf__free(void *file, const tlc_allocator *a)
{
	tlc_rf_file *f = file;
	if (!f)
		return;
	tlc_arena__free(&f->arena);
	tlc_alloc__free(a, f->rules);
	tlc_alloc__free(a, f);
}

int tlc_rf__parse(tlc_rf_file **out, const tlc_allocator *a, const char *name,
                  const char *text, size_t len)
{
	*out = NULL;
	tlc_rf_file *f = tlc_alloc__calloc(a, 1, sizeof *f);
	if (!f)
		return oom();
	f->a = a;
	tlc_arena__init(&f->arena, a, 4096);
	parser p;
	memset(&p, 0, sizeof p);
	p.f = f;
	p.name = tlc_arena__strdup(&f->arena, name);
	int rc = p.name ? parse_text(&p, text, len) : oom();
	if (rc < 0) {
		tlc_rf__free(f, a);
		return rc;
	}
	*out = f;
	return 0;
}

/* ---- loading: the rules go through the plugin ABI ---------------------- */

/* A refused rule: positioned at its name; a name the file already defined
 * (with or without `override`) is refused naming both lines. */
static int rule_refused(const tlc_rf_file *f, size_t i, int rc)
{
	const tlc_rf_rule *r = f->rules[i];
	for (size_t k = 0; rc == TLC_EEXISTS && k < i; k++) {
		const tlc_rf_rule *first = f->rules[k];
		if (strcmp(first->name, r->name) == 0)
			return tlc_error__set_pos(TLC_EEXISTS, "rule_duplicate", r->file, r->line,
			                          r->column, "keep one rule per name in the rule "
			                          "file: delete or rename one of the two (`override` "
			                          "replaces a rule of a built-in, a plugin or another "
			                          "file, never one of the same file)",
			                          "rule %s is defined twice in %s: at line %u and "
			                          "again at line %u", r->name, r->file,
			                          (unsigned)first->line, (unsigned)r->line);
	}
	tlc_error__locate(r->file, r->line, r->column);
	return rc;
}

static int rf_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	const tlc_rf_file *f = ctx->init_payload;
	for (size_t i = 0; f && i < f->nrules; i++) {
		const tlc_rf_rule *r = f->rules[i];
		tlc_rule_def def = {
			.size = sizeof def,
			.name = r->name,
			.kind = r->kind,
			.evidence = r->evidence,
			.fn = tlc_rf__eval,
			.payload = (void *)r,
			.note = r->note,
			.flags = r->flags,
		};
		int rc = host->register_rule(ctx, &def);
		if (rc < 0)
			return rule_refused(f, i, rc);
	}
	return 0;
}

int tlc_rf__load_mem(tlc_engine *eng, const char *name, const char *text, size_t len)
{
	return tlc_rf__load_mem_as(eng, name, NULL, text, len);
}

int tlc_rf__load_mem_as(tlc_engine *eng, const char *name, const char *provider,
                        const char *text, size_t len)
{
	tlc_rf_file *f;
	int rc = tlc_rf__parse(&f, eng->a, name, text, len);
	if (rc < 0)
		return rc;
	rc = tlc_engine__own(eng, f, tlc_rf__free);
	if (rc < 0) {
		tlc_rf__free(f, eng->a);
		return rc;
	}
	tlc_sb label;
	tlc_sb__init(&label, eng->a);
	if (provider)
		tlc_sb__puts(&label, provider);
	else
		tlc_sb__printf(&label, "rules:%s", name);
	const char *lab = tlc_sb__str(&label);
	rc = lab ? tlc_engine__run_init_payload(eng, lab, rf_init, f, NULL) : oom();
	tlc_sb__free(&label);
	if (rc < 0)
		tlc_engine__disown_free(eng, f);
	return rc;
}

static int read_all(char **out, size_t *len, const tlc_allocator *a, const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return tlc_error__set_pos(TLC_EIO, "rules_io_error", path, 0, 0,
		                          "check the path given to --rules and its permissions",
		                          "cannot open rule file: %s", strerror(errno));
	tlc_sb sb;
	tlc_sb__init(&sb, a);
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0 && sb.len <= RF_MAX_FILE_BYTES)
		tlc_sb__append(&sb, buf, n);
	int bad = ferror(fp);
	fclose(fp);
	int rc = 0;
	if (bad)
		rc = tlc_error__set_pos(TLC_EIO, "rules_io_error", path, 0, 0,
		                        "check that the rule file is a readable regular file",
		                        "error reading rule file");
	else if (sb.len > RF_MAX_FILE_BYTES)
		rc = tlc_error__set_pos(TLC_EIO, "rules_io_error", path, 0, 0,
		                        "split the rules into several files of at most 16 MiB",
		                        "rule file is larger than 16 MiB");
	else if (!tlc_sb__str(&sb))
		rc = oom();
	if (rc < 0) {
		tlc_sb__free(&sb);
		return rc;
	}
	*len = sb.len;
	*out = sb.ptr; /* the builder's buffer; freed by the caller with a */
	return 0;
}

int tlc_engine_load_rules_file(tlc_engine *eng, const char *path)
{
	if (!eng || !path)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an engine and a path",
		                      "tlc_engine_load_rules_file: engine or path is NULL");
	char *text = NULL;
	size_t len = 0;
	int rc = read_all(&text, &len, eng->a, path);
	if (rc < 0)
		return rc;
	rc = tlc_rf__load_mem(eng, path, text ? text : "", len);
	tlc_alloc__free(eng->a, text);
	return rc;
}

/* ---- memory the engine owns (declared in engine.h) ---------------------- */

int tlc_engine__own(tlc_engine *eng, void *p, void (*free_fn)(void *, const tlc_allocator *))
{
	tlc_owned *o = tlc_alloc__calloc(eng->a, 1, sizeof *o);
	if (!o)
		return oom();
	o->p = p;
	o->free_fn = free_fn;
	o->next = eng->owned;
	eng->owned = o;
	return 0;
}

void tlc_engine__disown_free(tlc_engine *eng, void *p)
{
	for (tlc_owned **link = &eng->owned; *link; link = &(*link)->next) {
		tlc_owned *o = *link;
		if (o->p == p) {
			*link = o->next;
			o->free_fn(o->p, eng->a);
			tlc_alloc__free(eng->a, o);
			return;
		}
	}
}

void tlc_engine__free_owned(tlc_engine *eng)
{
	while (eng->owned) {
		tlc_owned *o = eng->owned;
		eng->owned = o->next;
		o->free_fn(o->p, eng->a);
		tlc_alloc__free(eng->a, o);
	}
}
