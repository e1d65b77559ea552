# Core tests (tests/): engine unit tests and the standalone-header check.
check_PROGRAMS += tests/test_engine
TESTS += tests/test_engine
tests_test_engine_SOURCES = tests/test_engine.c
tests_test_engine_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_engine_LDADD = libtlcore.la $(CMOCKA_LIBS)

# Public headers compile on their own, pedantic, as C and as C++-free C11.
TESTS += tests/headers.sh tests/models.sh tests/devtime_cli.sh tests/json_schema.sh
EXTRA_DIST += tests/headers.sh tests/models.sh tests/devtime_cli.sh tests/fixtures/devtime tests/json_schema.sh docs/json-schema.md docs/cost-contract.md docs/oplog-v1.md
