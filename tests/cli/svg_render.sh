#!/bin/sh
# Renders the roofline SVG of committed fixtures to PNG with librsvg's
# rsvg-convert (Debian librsvg2-bin, installed by scripts/install-deps) or
# headless Chromium, and checks the picture: the PNG has the SVG's size and
# is not blank. Skips (77) where neither renderer or python3 is absent. Keep the PNGs with
# TLC_KEEP_PNG=DIR to look at them.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
BROWSER=
RSVG=$(command -v rsvg-convert 2>/dev/null || true)
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then BROWSER=$b; break; fi
done
if { [ -z "$RSVG" ] && [ -z "$BROWSER" ]; } || ! command -v python3 >/dev/null 2>&1; then
	echo "svg_render: SKIP (no rsvg-convert, no chromium, or no python3)"; exit 77
fi
tlc_tmpdir svg-render
fail=0
render() { # name input args...
	name=$1; input=$2; shift 2
	"$T" roofline "$@" --svg "$tmp/$name.svg" "$input" >/dev/null || { echo "FAIL: $name: roofline"; fail=1; return; }
	"$T" --format csv roofline "$@" "$input" > "$tmp/$name.csv" || { fail=1; return; }
	python3 "$top_srcdir/tests/cli/svg_check.py" "$tmp/$name.svg" "$tmp/$name.csv" || { fail=1; return; }
	if [ -n "$RSVG" ]; then
		# librsvg renders at the SVG's own width and height (1100x600)
		timeout 120 "$RSVG" -o "$tmp/$name.png" "$tmp/$name.svg" ||
			{ echo "FAIL: $name: rsvg-convert"; fail=1; return; }
	else
	HOME=$tmp timeout 120 "$BROWSER" --headless --disable-gpu --no-sandbox --hide-scrollbars \
		--screenshot="$tmp/$name.png" --window-size=1100,600 "file://$tmp/$name.svg" \
		>/dev/null 2>&1
	fi
	python3 - "$tmp/$name.png" <<'PY' || fail=1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (1100, 600), "PNG is %dx%d" % (w, h)
# decompress IDAT and count distinct byte values: a blank page has ~1
idat = b"".join(data[i + 8:i + 8 + struct.unpack(">I", data[i:i + 4])[0]]
                for i in range(8, len(data))
                if data[i + 4:i + 8] == b"IDAT")
raw = zlib.decompress(idat)
assert len(set(raw)) > 20, "the rendered chart looks blank"
print("svg_render: ok: %s %dx%d" % (sys.argv[1].rsplit("/", 1)[-1], w, h))
PY
	if [ -n "${TLC_KEEP_PNG:-}" ]; then cp "$tmp/$name.png" "$TLC_KEEP_PNG/"; fi
}
render tiny "$top_srcdir/tests/fixtures/reports/tiny.oplog.jsonl"
render resnet50 "$top_srcdir/tests/fixtures/models/resnet50.fwd_nograd_eval.oplog.jsonl.gz" --device a100-sxm-80gb
render vit "$top_srcdir/tests/fixtures/models/vit_b_16.train.oplog.jsonl.gz" --device h100-sxm --dtype bf16
exit $fail
