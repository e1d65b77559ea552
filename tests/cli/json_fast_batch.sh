#!/bin/sh
# The op-log fast path parses the whole lines of each input chunk as one
# batch (tlc_json_fast__batch): simdjson's stage 1 over all of them, then
# one document per line. A line is read from the batch only when its
# document is exactly the line's object; anything else is parsed alone or
# by yajl. This test puts inputs that the batch must not read whole at
# every place a batch boundary can fall (inside the batch, in the last 64
# bytes of a chunk, which are never batched, across the chunk's end, first
# in the next chunk), and compares `tlcost flops --format json` (stdout,
# stderr with every error's code, line and column, exit status) with the
# fast path on against yajl alone (TLCOST_JSON_FAST=0, the reference).
# No expected figure is written here: yajl's run is the expectation.
#
# Good lines are 300 bytes each (the first 64 KiB chunk ends in line
# 65536 / 300 ~ 218.5 after the header), so a trap after K = 214..222 good
# lines meets each of those places. One long file also holds, every few
# lines, inputs yajl reads but the batch refuses (\f as whitespace, an
# integer beyond 64 bits, a lone surrogate escape), so batches end early and
# the following lines must still be read the same; and lines longer than a
# chunk and than the batch window (128 KiB).
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_tmpdir json-fast-batch
n=0
fail=0

run() { # OUTPREFIX FAST FILE [stdin]
	if [ "${4:-}" = stdin ]; then
		TLCOST_JSON_FAST=$2 "$T" flops --format json - < "$3" > "$1.out" 2> "$1.err"
	else
		TLCOST_JSON_FAST=$2 "$T" flops --format json "$3" > "$1.out" 2> "$1.err"
	fi
	echo $? > "$1.rc"
}

compare() { # FILE [stdin]
	n=$((n + 1))
	run "$tmp/a" 0 "$1" "${2:-}"
	run "$tmp/b" 1 "$1" "${2:-}"
	for k in rc out err; do
		if ! cmp -s "$tmp/a.$k" "$tmp/b.$k"; then
			echo "FAIL: $1 ${2:-}: $k differs"
			diff "$tmp/a.$k" "$tmp/b.$k" | head -6
			fail=$((fail + 1))
			return
		fi
	done
}

# gen FILE K TRAP: a header, K good lines, the trap line(s), 40 good lines
gen() {
	awk -v k="$2" -v trap="$3" '
	function good(i,   s, pad) {
		s = sprintf("{\"id\":%d,\"op\":\"aten::relu\",\"phase\":\"forward\",\"args\":[{\"shape\":[32,64,56,56],\"dtype\":\"float32\"}],\"outputs\":[{\"shape\":[32,64,56,56],\"dtype\":\"float32\"}],\"note\":\"", i)
		pad = 300 - length(s) - 3
		while (pad-- > 0) s = s "x"
		return s "\"}"
	}
	BEGIN {
		printf "{\"format\":\"tlcost-oplog\",\"version\":1}\n"
		for (i = 0; i < k; i++) print good(i)
		t = "{\"id\":" k ",\"op\":\"aten::relu\",\"args\":[]"
		if (trap == "two")        print t "}{\"id\":99999,\"op\":\"x\",\"args\":[]}"
		else if (trap == "split") { print t ","; print "\"phase\":\"forward\"}" }
		else if (trap == "garbage") print t "} x"
		else if (trap == "scalar") print "5"
		else if (trap == "utf8")  printf "%s,\"s\":\"\377\"}\n", t
		else if (trap == "ctrl")  printf "%s,\"s\":\"a\tb\"}\n", t
		else if (trap == "open")  print t ",\"s\":\"abc}"
		else if (trap == "array") print "[" t "}]"
		for (i = k + 1; i < k + 41; i++) print good(i)
	}' > "$1"
}

if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ]; then
	ks="214 218 222" # (each call costs about a second under valgrind)
else
	ks="214 215 216 217 218 219 220 221 222"
fi
for trap in two split garbage scalar utf8 ctrl open array; do
	for k in $ks; do
		gen "$tmp/t_${trap}_$k.jsonl" "$k" "$trap"
		compare "$tmp/t_${trap}_$k.jsonl"
	done
done
compare "$tmp/t_two_218.jsonl" stdin

# Lines yajl reads but the batch refuses, at shifting places, and long lines.
awk '
function good(i, len,   s) {
	s = sprintf("{\"id\":%d,\"op\":\"aten::add\",\"phase\":\"forward\",\"args\":[{\"shape\":[8,%d],\"dtype\":\"float32\"},{\"shape\":[8,%d],\"dtype\":\"float32\"}],\"note\":\"", i, i + 1, i + 1)
	while (len-- > 0) s = s "y"
	return s "\""
}
BEGIN {
	printf "{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	for (i = 0; i < 2500; i++) {
		s = good(i, (i * 37) % 311)
		if (i % 37 == 5) s = s ",\f\"f\":1"
		else if (i % 41 == 7) s = s ",\"big\":123456789012345678901234567890"
		else if (i % 43 == 11) s = s ",\"u\":\"\\ud800\""
		else if (i % 53 == 19) s = s ",\"e\":\"a\\\"b\\n\""
		else if (i % 59 == 23) s = s ",\"deep\":[[[[{\"a\":[1,{\"b\":null}]}]]]]"
		if (i == 700) { big = ""; for (j = 0; j < 70000; j++) big = big "z"; s = s ",\"long\":\"" big "\"" }
		if (i == 1400) { big = ""; for (j = 0; j < 200000; j++) big = big "w"; s = s ",\"longer\":\"" big "\"" }
		s = s "}"
		if (i % 29 == 3) s = "  \t" s " \t"
		if (i % 31 == 13) s = s "\r"
		print s
		if (i % 47 == 17) print "   "
	}
}' > "$tmp/accepted.jsonl"
compare "$tmp/accepted.jsonl"
compare "$tmp/accepted.jsonl" stdin
echo "$((n - fail)) of $n inputs identical"
[ $fail -eq 0 ]
