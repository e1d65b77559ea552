/* The test NVTX injection library (tests/nvtx/inject.c): what it recorded.
 * A test reaches these through dlopen(NVTX_INJECTION64_PATH, RTLD_NOLOAD)
 * and dlsym, since NVTX loads the library privately. */
#ifndef TLC_TEST_NVTX_INJECT_H
#define TLC_TEST_NVTX_INJECT_H

#include <pthread.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tlc_test_nvtx_kind {
	TLC_TEST_NVTX_PUSH = 1,   /* nvtxRangePushA / nvtxRangePushEx */
	TLC_TEST_NVTX_POP,        /* nvtxRangePop that ended a range */
	TLC_TEST_NVTX_UNDERFLOW,  /* nvtxRangePop with nothing open on the thread */
	TLC_TEST_NVTX_OTHER       /* marks, start/end ranges, domain calls: never ours */
} tlc_test_nvtx_kind;

typedef struct tlc_test_nvtx_event {
	tlc_test_nvtx_kind kind;
	pthread_t thread;
	int level;                /* push: 0-based depth on its thread; pop: depth ended */
	char name[512];           /* push/other: the message ("" when not ASCII) */
	const char *call;         /* which NVTX call it was ("nvtxRangePushA", ...) */
} tlc_test_nvtx_event;

/* Every event so far, in call order (the array stays valid until reset). */
typedef size_t (*tlc_test_nvtx_count_fn)(void);
typedef const tlc_test_nvtx_event *(*tlc_test_nvtx_at_fn)(size_t i);
typedef void (*tlc_test_nvtx_reset_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
