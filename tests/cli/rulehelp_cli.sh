#!/bin/sh
# <tlcost/sys/rulehelp.h> (issue 24 item 4): the example plugin
# plugins/examples/matmul_help.c, written only with that header over the
# host table, is loaded and costs a hand-written op log
# (tests/fixtures/oplog/scaled_mm.oplog.jsonl). Expected values by hand:
#   mylib::scaled_mm a [8,16] f32, b [16,4] f32, output [8,4] f32:
#     MACs 8*16*4 = 512, other FLOPs (scale) 8*4 = 32, FLOPs 2*512+32 = 1,056,
#     fma=1 view 512+32 = 544; read (128+64)*4 = 768 B, written 32*4 = 128 B
#     (the scale kwarg is a scalar: no bytes);
#   mylib::as_strided_view: zero_by_rule.
# Without the plugin both ops are unknown. Inner dims that differ are
# explained through tlc_rulehelp_bad. The plugin includes nothing of tlcost
# but the helper header and exports only tlc_plugin_describe.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
SO="$top_builddir/plugins/examples/.libs/matmul_help.so"
LOG="$top_srcdir/tests/fixtures/oplog/scaled_mm.oplog.jsonl"
unset TLCOST_PLUGIN_PATH
tlc_tmpdir rulehelp-cli
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }

"$T" --plugin "$SO" flops "$LOG" >"$tmp/with.out" 2>&1 || fail "flops with the plugin: rc $?"
has "$tmp/with.out" "forward compute (actual-path analytic, fma=2: one MAC = 2 FLOPs): 1,056"
has "$tmp/with.out" "true MACs 512, other FLOPs 32"
has "$tmp/with.out" "fma=1 view (one MAC = 1 FLOP): 544"
has "$tmp/with.out" "read 768 B, written 128 B"
has "$tmp/with.out" "2 op rows = 1 known + 1 zero_by_rule + 0 not_applicable + 0 unknown"
"$T" flops "$LOG" >"$tmp/without.out" 2>&1
has "$tmp/without.out" "0 known + 0 zero_by_rule + 0 not_applicable + 2 unknown"

sed 's/"shape":\[16,4\]/"shape":[15,4]/' "$LOG" >"$tmp/bad.jsonl"
"$T" --plugin "$SO" ledger "$tmp/bad.jsonl" >"$tmp/bad.out" 2>&1
has "$tmp/bad.out" "mylib::scaled_mm: inner dims 16 and 15 differ"

"$T" --plugin "$SO" rules >"$tmp/rules.out" 2>&1
has "$tmp/rules.out" "mylib::as_strided_view"

incs=$(grep -h '^#include' "$top_srcdir/plugins/examples/matmul_help.c")
[ "$incs" = "#include <tlcost/sys/rulehelp.h>" ] || fail "matmul_help.c includes: $incs"
if command -v nm >/dev/null 2>&1; then
	syms=$(nm -D --defined-only "$SO" | awk '$2 == "T" { print $3 }')
	[ "$syms" = "tlc_plugin_describe" ] || fail "matmul_help.so exports: $syms"
	nm -D --undefined-only "$SO" | grep -q ' tlc_' && fail "matmul_help.so needs libtlcost symbols"
fi
[ $fails = 0 ] && echo "rulehelp_cli: ok"
exit $((fails > 0))
