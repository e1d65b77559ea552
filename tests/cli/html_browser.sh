#!/bin/sh
# tlcost html in a real browser (issue 28 items 1, 2): headless Chromium
# loads each page from disk with ?selftest; tests/cli/html_browser.py checks
# that the headline and totals in the DOM equal `tlcost flops --format
# json` / `report --format json` / `join --format json` of the same input
# (the expected figures come from those documents, read by Python's json,
# never from the page), that the page's own sort, filter and collapse code
# worked when clicked, that no console message or script error occurred,
# that names which try to end the inline blocks stay text, and that the page
# fetches nothing. Inputs: the examples, a hostile op log written here, and
# the shared traces when present (not under valgrind). Skips (77) without
# chromium or python3.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
CHROMIUM=${CHROMIUM:-}
if [ -z "$CHROMIUM" ]; then
	for c in chromium chromium-browser google-chrome; do
		if command -v "$c" > /dev/null 2>&1; then CHROMIUM=$c; break; fi
	done
fi
[ -n "$CHROMIUM" ] || { echo "SKIP: no chromium (scripts/install-deps --ci installs it)"; exit 77; }
tlc_need python3
exec python3 "$top_srcdir/tests/cli/html_browser.py" "$T" "$CHROMIUM" \
	"$top_srcdir" "$shared"
