# Fuzzing (tests/fuzz/): libFuzzer targets built with clang straight from the
# library sources (not through libtool), with ASan+UBSan. `make fuzz` builds
# them; `make fuzz-run` runs each for FUZZ_SECONDS over a corpus seeded from
# the fixtures. Inputs that once crashed live in tests/fuzz/regress/ and are
# replayed by `make check` (tests/fuzz/replay.sh).
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-I$(top_srcdir)/include -I$(top_srcdir)/engine -I$(top_srcdir)/rules \
	$(YAJL_CFLAGS) $(ZLIB_CFLAGS)
FUZZ_LIBS = $(GMP_LIBS) $(YAJL_LIBS) $(ZLIB_LIBS) $(LIBS) $(LIBM)
FUZZ_LIBSRC = $(addprefix $(top_srcdir)/,$(filter %.c,$(libtlcore_la_SOURCES)))
FUZZ_TARGETS = tests/fuzz/fuzz_oplog tests/fuzz/fuzz_trace

EXTRA_DIST += tests/fuzz/fuzz_common.h tests/fuzz/fuzz_oplog.c tests/fuzz/fuzz_trace.c \
	tests/fuzz/oplog.dict tests/fuzz/trace.dict tests/fuzz/replay.sh tests/fuzz/regress
CLEANFILES += $(FUZZ_TARGETS)

fuzz: $(FUZZ_TARGETS)

tests/fuzz/fuzz_%: $(top_srcdir)/tests/fuzz/fuzz_%.c $(top_srcdir)/tests/fuzz/fuzz_common.h $(FUZZ_LIBSRC)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIBSRC) $(FUZZ_LIBS)

# Seeds: every committed fixture of the reader's format.
FUZZ_SEEDS_oplog = $(top_srcdir)/tests/fixtures/oplog $(top_srcdir)/tests/fixtures/models $(top_srcdir)/examples
FUZZ_SEEDS_trace = $(top_srcdir)/tests/fixtures/trace

fuzz-run: fuzz
	@set -e; for t in oplog trace; do \
	  corpus=fuzz-corpus/$$t; rm -rf $$corpus; $(MKDIR_P) $$corpus fuzz-crashes/$$t; \
	  for d in $(FUZZ_SEEDS_$$t); do :; done; \
	  seeds=""; \
	  case $$t in oplog) seeds="$(FUZZ_SEEDS_oplog)";; trace) seeds="$(FUZZ_SEEDS_trace)";; esac; \
	  for d in $$seeds; do [ -d $$d ] && find $$d -type f -size -2M -exec cp {} $$corpus/ \; || true; done; \
	  echo "fuzz $$t: $(FUZZ_SECONDS)s over $$(ls $$corpus | wc -l) seeds"; \
	  ASAN_OPTIONS=detect_leaks=1 ./tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
	    -rss_limit_mb=2048 -timeout=10 -max_len=1048576 -print_final_stats=1 \
	    -dict=$(top_srcdir)/tests/fuzz/$$t.dict -artifact_prefix=fuzz-crashes/$$t/ $$corpus \
	    > fuzz-$$t.log 2>&1 || { tail -50 fuzz-$$t.log; echo "fuzz $$t: FAILED (crash input in fuzz-crashes/$$t)"; exit 1; }; \
	  grep -E 'stat::number_of_executed_units|Done' fuzz-$$t.log | tail -2; \
	done

TESTS += tests/fuzz/replay.sh

.PHONY: fuzz fuzz-run
