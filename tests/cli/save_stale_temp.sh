#!/bin/sh
# A killed `join --save` (or `roofline --svg`) leaves its temporary,
# .NAME.tmp-PID-N, beside the destination (engine/output/outfile.c); the
# next write of that destination removes it when process PID no longer
# exists, and only then (issue 23, finding 9). Kept, by the rule written in
# docs/join.md ("Saved joins"): the temporary of a live process, names that
# only resemble ours (another NAME, no N, anything after N), a link or a
# directory of our naming, and (when the test runs as root and can chown)
# a file of our naming owned by another user.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
TR="$top_srcdir/tests/fixtures/trace/small.json"
LOG="$top_srcdir/examples/custom_gelu.oplog.jsonl"
tlc_tmpdir stale
live_pid=
trap '[ -n "$live_pid" ] && kill "$live_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# a pid that existed and is gone: a child that has exited and been reaped
dead_pid() {
	sh -c 'exit 0' &
	p=$!
	wait "$p"
	kill -0 "$p" 2>/dev/null && return 1
	echo "$p"
}
dead=$(dead_pid) || { echo "SKIP: the exited child's pid is in use again"; exit 77; }
dead2=$(dead_pid) || { echo "SKIP: the exited child's pid is in use again"; exit 77; }
sleep 300 &
live_pid=$!

d="$tmp/out"
mkdir "$d"
for f in ".saved.jsonl.tmp-$dead-0" ".saved.jsonl.tmp-$dead2-17" \
	".saved.jsonl.tmp-$live_pid-0" ".saved.jsonl.tmp-$$-2" \
	".other.jsonl.tmp-$dead-0" ".saved.jsonl.tmp-$dead-" ".saved.jsonl.tmp-$dead-0x" \
	".saved.jsonl.tmp-$dead" "saved.jsonl.tmp-$dead-0" ".saved.jsonl.tmp-$dead-0.bak"; do
	echo "temporary $f" > "$d/$f"
done
echo target > "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$d/.saved.jsonl.tmp-$dead-5"
mkdir "$d/.saved.jsonl.tmp-$dead-6"
foreign=
if [ "$(id -u)" = 0 ] && echo x > "$d/.saved.jsonl.tmp-$dead-7" &&
	chown 65534 "$d/.saved.jsonl.tmp-$dead-7" 2>/dev/null; then
	foreign=".saved.jsonl.tmp-$dead-7"
else
	rm -f "$d/.saved.jsonl.tmp-$dead-7"
fi

${TLCOST_RUN:-} "$T" join --save "$d/saved.jsonl" "$TR" > /dev/null 2> "$tmp/err" ||
	{ fail "join --save: exit $?"; cat "$tmp/err"; }
[ -s "$d/saved.jsonl" ] || fail "join --save wrote no file"
for f in ".saved.jsonl.tmp-$dead-0" ".saved.jsonl.tmp-$dead2-17"; do
	[ -e "$d/$f" ] && fail "the stale temporary $f of a dead process is still there"
done
for f in ".saved.jsonl.tmp-$live_pid-0" ".saved.jsonl.tmp-$$-2" \
	".other.jsonl.tmp-$dead-0" ".saved.jsonl.tmp-$dead-" ".saved.jsonl.tmp-$dead-0x" \
	".saved.jsonl.tmp-$dead" "saved.jsonl.tmp-$dead-0" ".saved.jsonl.tmp-$dead-0.bak" \
	".saved.jsonl.tmp-$dead-5" ".saved.jsonl.tmp-$dead-6" $foreign; do
	[ -e "$d/$f" ] || [ -L "$d/$f" ] || fail "$f was removed; it is not a stale temporary of ours"
done
[ -f "$tmp/elsewhere" ] || fail "the target of a link of our naming was removed"
[ -n "$foreign" ] || echo "note: not root: the check of another user's file is skipped"
# the write's own temporary is gone too: only the names above remain
n=$(ls -A "$d" | wc -l)
want=$((11 + ${foreign:+1}))
[ "$n" -eq "$want" ] || { fail "$n entries in the directory, want $want"; ls -A "$d"; }

# the other writer of the same file layer: roofline --svg
echo stale > "$d/.chart.svg.tmp-$dead-3"
${TLCOST_RUN:-} "$T" roofline --device h100-sxm --svg "$d/chart.svg" "$LOG" > /dev/null 2> "$tmp/err" ||
	{ fail "roofline --svg: exit $?"; cat "$tmp/err"; }
[ -e "$d/.chart.svg.tmp-$dead-3" ] && fail "roofline --svg left the stale temporary of a dead process"
[ -s "$d/chart.svg" ] || fail "roofline --svg wrote no chart"

[ "$fails" -eq 0 ] && echo "save_stale_temp: all checks passed"
exit $((fails > 0))
