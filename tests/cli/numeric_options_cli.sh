#!/bin/sh
# Every numeric option of every subcommand refuses what is not a number it
# can use (issue 23, finding 12): nan, inf, hex, a sign or blank strtod or
# strtoull would take (" -1" wrapped to a huge count), values out of range;
# a typed usage_error naming the option, exit status 2, before any input is
# read (the FILE does not exist). Values in range are still accepted.
# Small: each call refuses at option parsing (valgrind-friendly).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
TINY=$top_srcdir/tests/fixtures/reports/tiny.oplog.jsonl
SMALL=$top_srcdir/tests/fixtures/trace/small.json
tlc_tmpdir numeric-options-cli
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# refuse OPTION VALUE ARGS...: tlcost ARGS with OPTION VALUE is a usage error
refuse() {
	opt=$1 val=$2; shift 2
	"$T" "$@" "$opt" "$val" "$tmp/absent.jsonl" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || { bad "$* $opt '$val': exit $rc, want 2: $(cat "$tmp/err")"; return; }
	grep -q "error: usage_error: .*$opt" "$tmp/err" ||
		bad "$* $opt '$val': no usage_error naming $opt: $(cat "$tmp/err")"
	grep -q "remedy: ." "$tmp/err" || bad "$* $opt '$val': no remedy"
}

# accept OPTION VALUE ARGS... INPUT: runs (exit 0)
accept() {
	opt=$1 val=$2; shift 2
	"$T" "$@" "$opt" "$val" > "$tmp/out" 2> "$tmp/err" ||
		bad "$* $opt '$val' refused: $(cat "$tmp/err")"
}

# Under valgrind (every call is checked, ~1 s each) a few values per
# option: nan, the wrapping " -1" and hex.
quick=0
[ "${TLCOST_TEST_WRAPPER:-}" = valgrind ] && quick=1

for v in nan NaN inf -inf infinity 0x10 " 5" "+5" -1 " -1" 1.5 5k "" 99999999999999999999999; do
	[ $quick = 1 ] && case "$v" in nan|" -1"|0x10) ;; *) continue ;; esac
	for cmd in tree report; do
		refuse --top "$v" $cmd
		refuse --depth "$v" $cmd
	done
	refuse --top "$v" profile
	refuse --top "$v" roofline
	refuse --cache-bytes "$v" roofline
	refuse --cache-bytes "$v" report
	refuse --params "$v" mfu --step-seconds 1
	refuse --tokens "$v" mfu --step-seconds 1
done
refuse --cache-bytes 9223372036854775808 roofline  # 2^63: no int64 byte count
refuse --params 0 mfu --step-seconds 1
refuse --tokens -3 mfu --step-seconds 1

for v in nan inf -inf 0x1p3 0 -1 1e400 1e-400 " 1" 1T5 1e308k ""; do
	[ $quick = 1 ] && case "$v" in nan|0) ;; *) continue ;; esac
	refuse --peak-flops "$v" roofline --peak-bw 1T
	refuse --peak-bw "$v" roofline --peak-flops 1T
	for o in --step-seconds --kernel-seconds --device-seconds --host-seconds \
	         --instrumented-seconds --kernel-union-seconds --device-busy-seconds; do
		refuse "$o" "$v" mfu
	done
done

# --threshold: a percentage from 0.1 (its resolution: below it rounded to 0,
# which silently meant the default 10) to 1000
for v in nan NaN inf -inf 0x10 0 0.04 -5 1000.5 1e400 " 5" 5k ""; do
	refuse --threshold "$v" ranks
done

# the common limits: a count > 0 with k/M/G/T, or none
for v in nan inf " 5" " -1" -1 +5 0 0x10 99999999999999999999 16T1; do
	[ $quick = 1 ] && case "$v" in nan|" -1") ;; *) continue ;; esac
	for o in --max-input-bytes --max-token-bytes --max-held-records --max-held-bytes; do
		refuse "$o" "$v" flops
	done
done

# values in range still work
accept --top 0 tree "$TINY"
accept --depth 2 report "$TINY"
accept --top 3 profile "$TINY"
accept --cache-bytes 0 roofline --peak-bw 2.5T --peak-flops 1e15 "$TINY"
accept --peak-flops .5P roofline --peak-bw 3000G "$TINY"
accept --step-seconds 1e-4 mfu "$TINY"
accept --params 7 mfu --step-seconds 2 --tokens 3 "$TINY"
accept --threshold 0.1 ranks "$SMALL"
accept --threshold 1000 ranks "$SMALL"
accept --max-input-bytes 1M flops "$TINY"
accept --max-held-records none flops "$TINY"
exit $fail
