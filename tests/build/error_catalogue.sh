#!/bin/sh
# The bad-input catalogue (docs/errors.md) is generated from the C sources by
# tools/error_catalogue.py. Fails when the committed page is stale (a code,
# message or remedy changed without regenerating it) or when an error code
# has no test naming it. Skips without python3.
srcdir=${top_srcdir:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
python3 "$srcdir/tools/error_catalogue.py" --srcdir "$srcdir" --output "$tmp" --check
rc=$?
if ! cmp -s "$tmp" "$srcdir/docs/errors.md"; then
	echo "FAIL: docs/errors.md is stale; regenerate it with"
	echo "  python3 tools/error_catalogue.py --output docs/errors.md"
	diff -u "$srcdir/docs/errors.md" "$tmp" | head -40
	exit 1
fi
if [ $rc -ne 0 ]; then
	echo "FAIL: error codes without a test (listed above): add a test that provokes each"
	exit 1
fi
echo "docs/errors.md is current; every code has a test"
