#!/bin/sh
# The bad-input catalogue (docs/errors.md) is generated from the C sources by
# tools/error_catalogue.py. Fails when the committed page is stale (a code,
# message or remedy changed without regenerating it) or when an error code
# has no test naming it. Skips without python3.
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_tmpdir catalogue
python3 "$top_srcdir/tools/error_catalogue.py" --srcdir "$top_srcdir" --output "$out" --check
rc=$?
if ! cmp -s "$out" "$top_srcdir/docs/errors.md"; then
	echo "FAIL: docs/errors.md is stale; regenerate it with"
	echo "  python3 tools/error_catalogue.py --output docs/errors.md"
	diff -u "$top_srcdir/docs/errors.md" "$out" | head -40
	exit 1
fi
if [ $rc -ne 0 ]; then
	echo "FAIL: error codes without a test (listed above): add a test that provokes each"
	exit 1
fi
echo "docs/errors.md is current; every code has a test"
