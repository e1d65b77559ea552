#!/bin/sh
# The inputs of the many-input commands (issue 23, findings 7 and 16):
#  - `ranks DIR` reads only the regular files of the directory: a FIFO (which
#    blocked the command forever) or a device node named *.json is skipped
#    with a notice in the text, JSON and (on stderr) CSV output naming the
#    entry and why; a FIFO named on the command line is still read as a
#    stream; an error in an entry names the entry, not the descriptor it
#    was read through;
#  - the same file given twice (the same path, a symbolic link to it, a file
#    inside a directory also given) is refused, compared by device and
#    inode: ranks_duplicate_input, merge_duplicate_input; a byte-identical
#    copy under another name is read, with a notice (ranks_identical_input,
#    merge_identical_input).
# Inputs are the 2-op fixture trace (small, valgrind-friendly).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
SMALL=$top_srcdir/tests/fixtures/trace/small.json
tlc_tmpdir inputs-cli
cd "$tmp" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# A hang is what finding 7 was: bound every call (valgrind is slower).
limit=30
[ "${TLCOST_TEST_WRAPPER:-}" = valgrind ] && limit=300
run() { timeout "$limit" "$T" "$@"; }

# --- a FIFO in a directory: skipped, said so ---
mkdir d && cp "$SMALL" d/r0.json && mkfifo d/r1.json
run ranks d > out.txt 2> err.txt
rc=$?
[ "$rc" -eq 0 ] || bad "ranks d with a FIFO entry: exit $rc (124: it hung): $(cat err.txt)"
grep -q "^tlcost ranks: 1 ranks" out.txt || bad "ranks d: not exactly the one regular file read"
grep -q "^notice: ranks_entry_skipped: d/r1.json: a FIFO (named pipe), not a regular file: skipped" out.txt ||
	bad "text: no notice naming the FIFO: $(tail -3 out.txt)"
run --format json ranks d > out.json 2> err.txt || bad "json: exit $?"
python3 - out.json <<'PY' || bad "json: notices"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["ranks"]) == 1, d["ranks"]
n = d["notices"]
assert len(n) == 1 and n[0]["code"] == "ranks_entry_skipped" and n[0]["input"] == "d/r1.json", n
assert "FIFO" in n[0]["message"], n
PY
run --format csv ranks d > out.csv 2> err.txt || bad "csv: exit $?"
grep -q "notice: ranks_entry_skipped: d/r1.json" err.txt || bad "csv: notice not on stderr"

# a device node named like a trace (a link to /dev/null: stat sees the device)
mkdir dv && cp "$SMALL" dv/r0.json && ln -s /dev/null dv/null.json
run ranks dv > out.txt 2> err.txt || bad "ranks dv: exit $?: $(cat err.txt)"
grep -q "^notice: ranks_entry_skipped: dv/null.json: a character device" out.txt ||
	bad "device node not skipped with a notice"

# a directory holding no regular trace at all
mkdir onlyfifo && mkfifo onlyfifo/r.json
run ranks onlyfifo > out.txt 2> err.txt
[ "$?" -eq 2 ] && grep -q "usage_error: no \*.json or \*.json.gz regular file in onlyfifo" err.txt ||
	bad "a directory of FIFOs only: $(cat err.txt)"

# a FIFO named on the command line is read, as a stream
mkfifo p.json
(cat "$SMALL" > p.json &)
run ranks p.json > out.txt 2> err.txt || bad "named FIFO not read: $(cat err.txt)"
grep -q "^tlcost ranks: 1 ranks" out.txt || bad "named FIFO: no rank"

# an error inside a directory entry names the entry
mkdir bd && printf '{"traceEvents": [ {' > bd/bad.json
run ranks bd > out.txt 2> err.txt && bad "a cut trace in a directory accepted"
grep -q "at bd/bad.json:1:" err.txt || bad "the error does not name bd/bad.json: $(cat err.txt)"
grep -q "/proc/self/fd" err.txt && bad "the error names the descriptor: $(cat err.txt)"

# --- the same file twice: refused; an identical copy: noted ---
for args in "d/r0.json d/r0.json" "d/r0.json d/../d/r0.json" "d d/r0.json"; do
	# shellcheck disable=SC2086
	run ranks $args > out.txt 2> err.txt
	rc=$?
	[ "$rc" -eq 1 ] && grep -q "error: ranks_duplicate_input: .* is the same file as" err.txt ||
		bad "ranks $args: exit $rc, want ranks_duplicate_input: $(cat err.txt)"
done
ln -s r0.json d/link.json
run ranks d > out.txt 2> err.txt
grep -q "ranks_duplicate_input: d/r0.json is the same file as d/link.json" err.txt ||
	bad "a symbolic link in the directory: $(cat err.txt)"
rm d/link.json
mkdir cp && cp "$SMALL" cp/a.json && cp "$SMALL" cp/b.json
run ranks cp > out.txt 2> err.txt || bad "identical copies refused: $(cat err.txt)"
grep -q "^tlcost ranks: 2 ranks" out.txt || bad "identical copies: not both read"
grep -q "^notice: ranks_identical_input: cp/b.json: has the same bytes as cp/a.json" out.txt ||
	bad "identical copies: no notice"

run --format json flops "$SMALL" > part.json || bad "flops json"
ln -s part.json plink.json
run merge part.json plink.json > out.txt 2> err.txt
rc=$?
[ "$rc" -eq 1 ] && grep -q "error: merge_duplicate_input: plink.json is the same file as part.json" err.txt ||
	bad "merge of a file and its link: exit $rc: $(cat err.txt)"
cp part.json copy.json
run merge part.json copy.json > out.txt 2> err.txt || bad "merge of a copy refused: $(cat err.txt)"
grep -q "^tlcost merge: 2 partials" out.txt || bad "merge of a copy: not 2 partials"
grep -q "^notice: merge_identical_input: part.json: has the same bytes as copy.json" out.txt ||
	bad "merge of a copy: no notice: $(tail -2 out.txt)"
run --format json merge copy.json part.json > m.json 2> err.txt || bad "merge json: exit $?"
# the merged JSON is a partial that merges again, the same whatever the
# order and bracketing of its inputs: the notice goes to stderr
grep -q "notice: merge_identical_input: part.json: has the same bytes as copy.json" err.txt ||
	bad "merge json: no notice on stderr: $(cat err.txt)"
python3 - m.json <<'PY' || bad "merge json"
import json, sys
d = json.load(open(sys.argv[1]))
assert "notices" not in d, d["notices"]
assert d["coverage"]["rows"] == 4, d["coverage"]  # both copies counted: 2 + 2
PY
exit $fail
