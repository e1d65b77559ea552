#!/bin/sh
# The layering of libtlcost (engine/local.mk, tests/build/layers.py): no header
# included upward, no include cycle between files or folders. First a
# made-up tree with one upward include and one cycle must be refused, so the
# checker is known to see them; then the real sources must pass.
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_tmpdir layers
mkdir -p "$tmp/engine/base" "$tmp/engine/eval" "$tmp/include"
printf '#include "eval.h"\n' > "$tmp/engine/base/alloc.c"
printf '#include "b.h"\n' > "$tmp/engine/eval/eval.h"
printf '#include "eval.h"\n' > "$tmp/engine/eval/b.h"
out=$(top_srcdir="$tmp" python3 "$top_srcdir/tests/build/layers.py")
echo "$out" | grep -q 'engine/base/alloc.c:1: includes "eval.h": it lives in engine/eval/' ||
	{ echo "layers: the upward include was not reported: $out"; exit 1; }
echo "$out" | grep -q 'file cycle: engine/eval/b.h -> engine/eval/eval.h -> engine/eval/b.h' ||
	{ echo "layers: the cycle was not reported: $out"; exit 1; }
exec python3 "$top_srcdir/tests/build/layers.py"
