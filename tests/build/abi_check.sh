#!/bin/sh
# tools/abi-check.sh decides as docs/ABI.md says, on two-version toy
# libraries built here (so the verdicts do not depend on tlcost's own ABI):
# an added function passes, a reordered struct, a grown struct and a
# removed function fail, a -version-info that moved without the baseline
# fails. (The built libraries are compared with abi/ by `make abi-check`,
# a step of .ci/run after the plain build.)
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need abidw  # abigail-tools
tlc_tmpdir abi-check
cd "$tmp" || exit 1
printf 'struct s { int a; int b; };\nint f(struct s *p);\n' > h1.h
printf 'struct s { int b; int a; };\nint f(struct s *p);\n' > h3.h
printf 'struct s { int a; int b; long c; };\nint f(struct s *p);\n' > h5.h
body='int f(struct s *p) { return p->a + p->b; }'
printf '#include "h1.h"\n%s\n' "$body" > v1.c
printf '#include "h1.h"\n%s\nint g(void) { return 1; }\n' "$body" > v2.c
printf '#include "h3.h"\n%s\n' "$body" > v3.c
printf 'int g(void) { return 1; }\n' > v4.c
printf '#include "h5.h"\n%s\n' "$body" > v5.c
for v in 1 2 3 4 5; do
	${CC:-cc} -g -O0 -shared -fPIC -o v$v.so v$v.c && abidw --out-file v$v.abi v$v.so || exit 1
done
expect() { # WANT NEW OLDVER NEWVER WHAT
	sh "$top_srcdir/tools/abi-check.sh" compare v1.abi "$2" "$3" "$4" >out.txt 2>&1
	rc=$?
	if [ "$rc" -eq "$1" ]; then
		echo "ok: $5 (exit $rc)"
	else
		echo "FAIL: $5: exit $rc, want $1"; cat out.txt; fails=$((fails + 1))
	fi
}
expect 0 v1.abi 1:0:0 1:0:0 "unchanged"
expect 0 v2.abi 1:0:0 1:0:0 "an added function is compatible"
expect 1 v3.abi 1:0:0 1:0:0 "reordered struct members"
expect 1 v4.abi 1:0:0 1:0:0 "a removed function"
expect 1 v5.abi 1:0:0 1:0:0 "a grown struct needs a new baseline"
expect 1 v1.abi 1:0:0 2:0:0 "-version-info moved without the baseline"
grep -q "make abi-baseline" out.txt || { echo "FAIL: no remedy"; fails=$((fails + 1)); }
exit $fails
