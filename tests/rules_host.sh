#!/bin/sh
# The built-in rule families reach the rule helpers as an outside plugin
# does, through the host table (docs/architecture.md): no rules/ file
# includes anything but system headers, <tlcost/plugin.h> and the rules'
# own headers; rules/helpers.h (the implementations behind the table) is
# included only by rules/util.c, which defines them; and no family calls
# one of those implementations by name. First a made-up family that breaks
# each rule must be refused, so the check is known to see them.
src=${top_srcdir:-.}

# check DIR: prints one line per violation under DIR/rules
check() {
	for f in "$1"/rules/*.c "$1"/rules/*.h; do
		b=${f##*/}
		grep -n '^[[:space:]]*#[[:space:]]*include' "$f" | while IFS= read -r line; do
			case $line in
			*'<'*'>'*) ;;
			*'"tlcost/plugin.h"'* | *'"rules.h"'* | *'"util.h"'*) ;;
			*'"helpers.h"'*)
				[ "$b" = util.c ] || echo "rules/$b:${line%%:*}: includes helpers.h (use the host table)" ;;
			*) echo "rules/$b:${line%%:*}: includes $(echo "${line#*include}" | tr -d " \t")" ;;
			esac
		done
	done
	names=$(sed -n 's/^[a-z].*[ *]\(tlc_rules__[a-z_]*\)(.*/\1/p' "$1/rules/helpers.h")
	for f in "$1"/rules/*.c; do
		case ${f##*/} in util.c) continue ;; esac
		for n in $names; do
			grep -n "\\<$n\\>" "$f" | sed "s|^\([0-9]*\):.*|rules/${f##*/}:\1: calls $n (use the host table)|"
		done
	done
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/rules"
cp "$src/rules/helpers.h" "$tmp/rules/"
printf '#include "helpers.h"\n#include "cost.h"\nint f(void) { return tlc_rules__dim(0, 0); }\n' \
	> "$tmp/rules/bad.c"
out=$(check "$tmp")
for want in 'rules/bad.c:1: includes helpers.h' 'rules/bad.c:2: includes "cost.h"' \
	'rules/bad.c:3: calls tlc_rules__dim'; do
	echo "$out" | grep -q "$want" || { echo "rules_host: not reported: $want"; echo "$out"; exit 1; }
done

out=$(check "$src")
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
exit 0
