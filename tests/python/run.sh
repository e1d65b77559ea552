#!/bin/sh
# Test driver of the Python package (PY_LOG_COMPILER): runs one
# tests/python/*.py with the build tree's binding (.libs/_tlcost.so) and the
# package sources (python/) on the path, under the interpreter configure
# chose. Exit 77 (SKIP) with the reason printed when the package was not
# built, under TLCOST_TEST_WRAPPER=valgrind (CPython with torch under
# memcheck takes hours; the plain `make check` of the same CI ran these) and
# in a sanitizer build (an ASan-instrumented extension cannot load into the
# uninstrumented python3 without preloading the runtime).
test=$1
shift
b=$(cd "${top_builddir:-.}" && pwd)
s=$(cd "${top_srcdir:-.}" && pwd)
ext="$b/.libs/_tlcost.so"
if [ ! -f "$ext" ]; then
	echo "SKIP: the Python package was not built (configure found no Python.h: install python3-dev)"
	exit 77
fi
if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ]; then
	echo "SKIP: Python tests do not run under valgrind (CPython+torch under memcheck is impractical); the plain make check runs them"
	exit 77
fi
if nm -D --undefined-only "$ext" 2>/dev/null | grep -q '__[a-z]*san_'; then
	echo "SKIP: sanitizer build: the instrumented _tlcost.so cannot load into the uninstrumented ${PYTHON:-python3}; the plain make check runs these tests"
	exit 77
fi
PYTHONPATH="$b/.libs:$s/python:$s/tests/python${PYTHONPATH:+:$PYTHONPATH}"
LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PYTHONDONTWRITEBYTECODE=1
TLCOST_PLUGIN_PATH=
export PYTHONPATH LD_LIBRARY_PATH PYTHONDONTWRITEBYTECODE TLCOST_PLUGIN_PATH
export top_srcdir="$s" top_builddir="$b"
exec "${PYTHON:-python3}" "$test" "$@"
