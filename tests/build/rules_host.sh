#!/bin/sh
# The built-in rule families reach the rule helpers as an outside plugin
# does, through the host table (docs/architecture.md): no rules/ file
# includes anything but system headers, <tlcost/plugin.h> and the rules'
# own headers (the implementations behind the table live in the engine,
# engine/registry/host_help.h, since issue 24 item 4); and no rules/ file,
# util.c included, calls one of those implementations by name. First a
# made-up family that breaks each rule must be refused, so the check is
# known to see them.

# check DIR HOST_HELP_H: prints one line per violation under DIR/rules
. "${top_srcdir:-.}/tests/cli_lib.sh"
check() {
	for f in "$1"/rules/*.c "$1"/rules/*.h; do
		[ -f "$f" ] || continue
		b=${f##*/}
		grep -n '^[[:space:]]*#[[:space:]]*include' "$f" | while IFS= read -r line; do
			case $line in
			*'<'*'>'*) ;;
			*'"tlcost/plugin.h"'* | *'"tlcost/sys/rulehelp.h"'* | *'"rules.h"'* | *'"util.h"'*) ;;
			*'"host_help.h"'*)
				echo "rules/$b:${line%%:*}: includes host_help.h (use the host table)" ;;
			*) echo "rules/$b:${line%%:*}: includes $(echo "${line#*include}" | tr -d " \t")" ;;
			esac
		done
	done
	names=$(sed -n 's/^[a-z].*[ *]\(tlc_host__[a-z_]*\)(.*/\1/p' "$2")
	for f in "$1"/rules/*.c "$1"/rules/*.h; do
		[ -f "$f" ] || continue
		for n in $names; do
			grep -n "\\<$n\\>" "$f" | sed "s|^\([0-9]*\):.*|rules/${f##*/}:\1: calls $n (use the host table)|"
		done
	done
}

tlc_tmpdir rules-host
mkdir -p "$tmp/rules"
printf '#include "host_help.h"\n#include "cost.h"\nint f(void) { return tlc_host__dim(0, 0); }\n' \
	> "$tmp/rules/bad.c"
out=$(check "$tmp" "$top_srcdir/engine/registry/host_help.h")
for want in 'rules/bad.c:1: includes host_help.h' 'rules/bad.c:2: includes "cost.h"' \
	'rules/bad.c:3: calls tlc_host__dim'; do
	echo "$out" | grep -q "$want" || { echo "rules_host: not reported: $want"; echo "$out"; exit 1; }
done

out=$(check "$top_srcdir" "$top_srcdir/engine/registry/host_help.h")
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
exit 0
