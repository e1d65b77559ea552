#!/bin/sh
# docs/cost-contract.md ("Errors") states the CLI's exit statuses: each
# number it gives is checked against what tlcost does (an input error, a
# usage error, an output that cannot be written). The contract once said
# "exits 2 for usage and input errors, 1 otherwise" while an input error
# exits 1 (cli/cli.h, docs/errors.md "Exit status").
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
doc="$top_srcdir/docs/cost-contract.md"
tlc_tmpdir exit
# the Errors section, one line
text=$(sed -n '/^## Errors/,/^## /p' "$doc" | tr '\n' ' ' | tr -s ' ')
documented() { # the number the contract gives right before "for WHAT"/"when WHAT"
	printf '%s\n' "$text" | grep -o "[0-9] $1" | head -1 | cut -c1
}
status=0
check() { # what, documented number, actual status
	if [ -z "$2" ]; then
		echo "FAIL: $doc gives no exit status for $1"; status=1
	elif [ "$2" != "$3" ]; then
		echo "FAIL: $doc says $1 exit $2; tlcost exits $3"; status=1
	else
		echo "ok: $1 exit $2"
	fi
}
printf 'not json\n' > "$tmp/bad.jsonl"
$TLCOST_RUN "$T" flops "$tmp/bad.jsonl" > /dev/null 2>&1
rc=$?
check "input errors" "$(documented 'for input errors')" $rc
$TLCOST_RUN "$T" flops --no-such-option "$tmp/bad.jsonl" > /dev/null 2>&1
rc=$?
check "usage errors" "$(documented 'for usage errors')" $rc
printf '{"format":"tlcost-oplog","version":1}\n{"id":1,"op":"aten::relu","args":[]}\n' > "$tmp/ok.jsonl"
if [ -w /dev/full ]; then
	$TLCOST_RUN "$T" flops "$tmp/ok.jsonl" > /dev/full 2>/dev/null
	rc=$?
	check "an output not written whole" "$(documented 'when the output')" $rc
else
	echo "(no /dev/full: the output status is not checked here)"
fi
$TLCOST_RUN "$T" diff --fail-if 'flops>=0' "$tmp/ok.jsonl" "$tmp/ok.jsonl" > /dev/null 2>&1
rc=$?
check "a diff condition that holds" "$(documented 'when a `tlcost diff')" $rc
exit $status
