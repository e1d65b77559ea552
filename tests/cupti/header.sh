#!/bin/sh
# <tlcost/cupti.h> compiles standalone (no CUDA headers needed) with
# -Wall -Wextra -Werror -pedantic, as C and as C++.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_header_standalone cupti.h
