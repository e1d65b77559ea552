#!/bin/sh
# Test driver wrapper (LOG_COMPILER): runs a cmocka test binary directly, or
# under valgrind memcheck when TLCOST_TEST_WRAPPER=valgrind (any error or
# leak fails the test). Scripts (*.sh) run with sh; they use $TLCOST_RUN
# in front of ./tlcost so valgrind covers the CLI too.
test=$1
shift
case "$test" in
*.sh)
	exec ${SHELL:-/bin/sh} "$test" "$@" ;;
esac
if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ]; then
	exec "${top_builddir:-.}/libtool" --mode=execute valgrind -q --error-exitcode=99 \
		--leak-check=full --errors-for-leak-kinds=definite,indirect \
		--suppressions="${top_srcdir:-.}/tests/valgrind.supp" "$test" "$@"
fi
exec "$test" "$@"
