#!/bin/sh
# Stands in for tests/unit/capture/test_cupti when configure did not build the CUPTI
# module (cupti.h not found): reported as SKIP, never as a pass.
echo "CUPTI join module not built (configure found no cupti.h; use --with-cupti=DIR)"
exit 77
