#!/bin/sh
# Golden checks of `tlcost --rules FILE` (docs/rule-files.md).
# Expected numbers, derived by hand from examples/custom_gelu.oplog.jsonl:
#  three addmm: 2*16*64 + 2*64*64 + 2*64*4 = 2048 + 8192 + 512 = 10,752 MACs,
#   bias adds 2*64 + 2*64 + 2*4 = 264 other FLOPs; fma=2: 21,504 + 264 = 21,768.
#  two mylib::fused_gelu on [2,64]: examples/fused_gelu.tlrules gives
#   5 * 128 = 640 other FLOPs each, 1,280 together.
#  with the rule file: 21,768 + 1,280 = 23,048 FLOPs; other 264 + 1,280 = 1,544.
# Rule families (docs/rules.md, "SGLang's wrapped launchers"): a rule named
#  mylib::scale_* costs numel(in0) other FLOPs for every mylib::scale_<digits>
#  (scale_7 [4,8]: 32; scale_1234 [2,3]: 6; scale_3.out [5]: 5; 43 in all,
#  3 known) and for nothing else: scale_with_add_8 (its stem is
#  scale_with_add), scale_ (no counter) and scale_12a (not all digits) stay
#  unknown; `rule other::*` (zero cost) takes other::anything_9, so 4 known.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
T="$TLCOST_RUN $T"
LOG="$top_srcdir/examples/custom_gelu.oplog.jsonl"
RULES="$top_srcdir/examples/fused_gelu.tlrules"
BAD="$top_srcdir/tests/fixtures/rules/bad"
tlc_tmpdir rulefile-cli


# without the rule file: a lower bound, fused_gelu unknown
run 0 flops "$LOG"
check "lower bound" "totals are a LOWER BOUND"
check "lower bound total" ">= 21,768"
absent "not complete" "coverage is COMPLETE"

# with it: complete, and the custom op counted
run 0 --rules "$RULES" flops "$LOG"
check "complete" "coverage is COMPLETE, not a lower bound (0 unknown-cost calls)"
check "total" "one MAC = 2 FLOPs): 23,048"
check "other" "other FLOPs 1,544"
check "fused_gelu row" "1,280"
absent "no lower bound" "LOWER BOUND"

# the rule is listed with its evidence and provider
run 0 --rules "$RULES" rules
check "listed" "mylib::fused_gelu"
check "provider" "rules:$RULES"

# override of a built-in: a notice naming both providers
printf 'rule aten::addmm override evidence=formula_exact\n  macs = 1\nend\n' > "$out.rules"
run 0 --rules "$out.rules" flops "$LOG"
check "override notice" "notice: rule_override: rules:$out.rules overrides the builtin:matmul rule for aten::addmm"
rm -f "$out.rules"

# bad files: typed error, file:line:column, remedy, exit status 2
run 1 --rules "$BAD/syntax.tlrules" flops "$LOG"
check "parse code" "error: rules_parse_error: unclosed '('"
check "parse position" "at $BAD/syntax.tlrules:7:15"
check "parse remedy" "remedy: "
run 1 --rules "$BAD/unknown_function.tlrules" flops "$LOG"
check "function code" "rules_unknown_function: unknown function 'sqrt'"
check "function position" "unknown_function.tlrules:4:11"
run 1 --rules "$BAD/unknown_operand.tlrules" flops "$LOG"
check "operand" "rules_unknown_operand"
check "operand position" "unknown_operand.tlrules:3:17"
run 1 --rules "$BAD/duplicate_builtin.tlrules" flops "$LOG"
check "duplicate" "rule_duplicate"
check "duplicate position" "duplicate_builtin.tlrules:8:6"
run 1 --rules "$BAD/does-not-exist.tlrules" flops "$LOG"
check "io" "rules_io_error"

# rule families: "ns::stem_*" and "ns::*"
cat > "$out.rules" <<'EOF2'
rule mylib::scale_* evidence=formula_exact
  macs  = 0
  other = numel(in0)
  read  = bytes(in0)
  write = bytes(in0)
end
rule other::* evidence=formula_exact
  macs  = 0
  read  = 0
  write = 0
end
EOF2
cat > "$out.log" <<'EOF2'
{"format":"tlcost-oplog","version":1}
{"id":0,"op":"mylib::scale_7","args":[{"shape":[4,8],"dtype":"float32"}],"outputs":[]}
{"id":1,"op":"mylib::scale_1234","args":[{"shape":[2,3],"dtype":"float32"}],"outputs":[]}
{"id":2,"op":"mylib::scale_with_add_8","args":[{"shape":[2,3],"dtype":"float32"}],"outputs":[]}
{"id":3,"op":"mylib::scale_","args":[{"shape":[2,3],"dtype":"float32"}],"outputs":[]}
{"id":4,"op":"mylib::scale_12a","args":[{"shape":[2,3],"dtype":"float32"}],"outputs":[]}
{"id":5,"op":"mylib::scale_3","overload":"out","args":[{"shape":[5],"dtype":"float32"}],"outputs":[]}
{"id":6,"op":"other::anything_9","args":[],"outputs":[]}
EOF2
run 0 --rules "$out.rules" flops "$out.log"
check "family total" "other FLOPs >= 43"
check "family coverage" "7 op rows = 4 known"
check "family misses" "3 unknown-cost calls of 3 op types (mylib::scale_ x1, mylib::scale_12a x1, mylib::scale_with_add_8 x1)"
printf 'rule mylib::sc*\nend\n' > "$out.rules"
run 1 --rules "$out.rules" flops "$out.log"
check "family needs _*" "unexpected character in rule name"
printf 'rule mylib::scale_*.out\nend\n' > "$out.rules"
run 1 --rules "$out.rules" flops "$out.log"
check "family has no overload" "rules_parse_error"
rm -f "$out.log"

# `tlcost rules` lists one rule a line in columns name, kind, evidence,
# provider, note; each column before the note is as wide as its longest
# entry or header, then one space, so every row's fields start where the
# header's words do, however long a family's name is (the built-in
# sglang_profiler::forward_batch_info_compute_position_triton_* is 61
# characters). aligned FILE checks that every row's first four fields
# (single words) start at the header's columns and that each column is
# exactly its longest entry + 1 wide; it prints where "kind" starts.
aligned() {
	awk 'NR == 2 { k = index($0, "kind"); e = index($0, "evidence")
		p = index($0, "provider"); n = index($0, "note")
		w1 = 4; w2 = 4; w3 = 8; w4 = 8; next }
	NR > 2 { if (substr($0, 1, k - 1) !~ /^[^ ]+ +$/ || substr($0, k, e - k) !~ /^[^ ]+ +$/ ||
		    substr($0, e, p - e) !~ /^[^ ]+ +$/ || substr($0, p, n - p) !~ /^[^ ]+ +$/ ||
		    substr($0, n, 1) == " ") { print "misaligned: " $0; bad = 1 }
		if (length($1) > w1) w1 = length($1); if (length($2) > w2) w2 = length($2)
		if (length($3) > w3) w3 = length($3); if (length($4) > w4) w4 = length($4) }
	END { if (k != w1 + 2 || e != k + w2 + 1 || p != e + w3 + 1 || n != p + w4 + 1) {
		print "columns not fitted: starts " k "," e "," p "," n " for widths " w1 "," w2 "," w3 "," w4
		bad = 1 }
		print k; exit bad }' "$1"
}
run 0 rules
kind_at=$(aligned "$out") || fail "rules: $kind_at"
check "long family listed" "sglang_profiler::forward_batch_info_compute_position_triton_* "
# a family name of 7 ("mylib::") + 10 x 10 ("long_name_") + 1 ("*") = 108
# characters, longer than any built-in: the kind column starts at 110, and
# the rows of the other rules move with it
long=mylib::long_name_long_name_long_name_long_name_long_name_long_name_long_name_long_name_long_name_long_name_*
printf 'rule %s evidence=formula_exact\n  macs = 0\n  read = 0\n  write = 0\nend\n' "$long" > "$out.rules"
run 0 --rules "$out.rules" rules
kind_at=$(aligned "$out") || fail "rules with a 108-character family: $kind_at"
[ "$kind_at" = 110 ] || fail "rules: kind starts at $kind_at, not 110 after a 108-character name"
check "long name listed whole" "$long cost "
rm -f "$out.rules"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "rulefile_cli: all checks passed"
