#!/bin/sh
# <tlcost/nvtx.h> compiles standalone (no CUDA or NVTX headers needed) with
# -Wall -Wextra -Werror -pedantic, as C and as C++.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_header_standalone nvtx.h
