/* A test NVTX injection library: NVTX_INJECTION64_PATH names it, NVTX3's
 * loader (nvtxDetail/nvtxInit.h) dlopens it on the process's first NVTX
 * call and calls InitializeInjectionNvtx2 with the instance's
 * nvtxGetExportTable. From the callbacks export table we take the CORE and
 * CORE2 module function tables and fill the slots of every push/pop, mark
 * and start/end call with recorders, so whatever a process emits through
 * NVTX is seen, in order, with its thread and name.
 *
 * To test the refusals of libtlcost-nvtx:
 *   TLC_TEST_NVTX_INIT_FAILS=1  InitializeInjectionNvtx2 returns 0 (NVTX
 *                               unloads the library: no tool)
 *   TLC_TEST_NVTX_NO_RANGES=1   only the mark slots are filled (a tool that
 *                               does not take range push/pop)
 * For programs that cannot reach the recorder with dlsym (shell tests):
 *   TLC_TEST_NVTX_DUMP=FILE     at exit, every event as one line of FILE:
 *                               "push LEVEL NAME", "pop LEVEL", "underflow"
 *                               or "other CALL NAME" */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include "inject.h"

#define MAX_EVENTS 65536

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static tlc_test_nvtx_event *events;
static size_t nevents;
static _Thread_local int depth; /* open push ranges of this thread */

size_t tlc_test_nvtx_count(void);
const tlc_test_nvtx_event *tlc_test_nvtx_at(size_t i);
void tlc_test_nvtx_reset(void);
int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table);

static void record(tlc_test_nvtx_kind kind, int level, const char *name, const char *call)
{
	tlc_test_nvtx_event *e;

	pthread_mutex_lock(&mu);
	if (!events)
		events = calloc(MAX_EVENTS, sizeof *events);
	if (events && nevents < MAX_EVENTS) {
		e = &events[nevents++];
		e->kind = kind;
		e->thread = pthread_self();
		e->level = level;
		e->call = call;
		strncpy(e->name, name ? name : "", sizeof e->name - 1);
		e->name[sizeof e->name - 1] = '\0';
	}
	pthread_mutex_unlock(&mu);
}

static const char *ascii_of(const nvtxEventAttributes_t *a)
{
	return a && a->messageType == NVTX_MESSAGE_TYPE_ASCII ? a->message.ascii : "";
}

static int push(const char *name, const char *call)
{
	int level = depth++;

	record(TLC_TEST_NVTX_PUSH, level, name, call);
	return level;
}

static int pop(const char *call)
{
	if (depth == 0) {
		record(TLC_TEST_NVTX_UNDERFLOW, -1, "", call);
		return -1;
	}
	depth--;
	record(TLC_TEST_NVTX_POP, depth, "", call);
	return depth;
}

static int NVTX_API push_a(const char *message) { return push(message, "nvtxRangePushA"); }
static int NVTX_API push_ex(const nvtxEventAttributes_t *a) { return push(ascii_of(a), "nvtxRangePushEx"); }
static int NVTX_API pop_core(void) { return pop("nvtxRangePop"); }
static void NVTX_API mark_a(const char *message) { record(TLC_TEST_NVTX_OTHER, -1, message, "nvtxMarkA"); }
static void NVTX_API mark_ex(const nvtxEventAttributes_t *a) { record(TLC_TEST_NVTX_OTHER, -1, ascii_of(a), "nvtxMarkEx"); }
static nvtxRangeId_t NVTX_API start_a(const char *message)
{
	record(TLC_TEST_NVTX_OTHER, -1, message, "nvtxRangeStartA");
	return 1;
}
static nvtxRangeId_t NVTX_API start_ex(const nvtxEventAttributes_t *a)
{
	record(TLC_TEST_NVTX_OTHER, -1, ascii_of(a), "nvtxRangeStartEx");
	return 1;
}
static void NVTX_API range_end(nvtxRangeId_t id) { (void)id; record(TLC_TEST_NVTX_OTHER, -1, "", "nvtxRangeEnd"); }
static int NVTX_API domain_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	(void)d;
	record(TLC_TEST_NVTX_OTHER, -1, ascii_of(a), "nvtxDomainRangePushEx");
	return 0;
}
static int NVTX_API domain_pop(nvtxDomainHandle_t d)
{
	(void)d;
	record(TLC_TEST_NVTX_OTHER, -1, "", "nvtxDomainRangePop");
	return 0;
}
static void NVTX_API domain_mark(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	(void)d;
	record(TLC_TEST_NVTX_OTHER, -1, ascii_of(a), "nvtxDomainMarkEx");
}

size_t tlc_test_nvtx_count(void)
{
	size_t n;

	pthread_mutex_lock(&mu);
	n = nevents;
	pthread_mutex_unlock(&mu);
	return n;
}

const tlc_test_nvtx_event *tlc_test_nvtx_at(size_t i)
{
	const tlc_test_nvtx_event *e;

	pthread_mutex_lock(&mu);
	e = i < nevents ? &events[i] : NULL;
	pthread_mutex_unlock(&mu);
	return e;
}

void tlc_test_nvtx_reset(void)
{
	pthread_mutex_lock(&mu);
	nevents = 0;
	pthread_mutex_unlock(&mu);
}

static void dump(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	for (size_t i = 0; i < nevents; i++) {
		const tlc_test_nvtx_event *e = &events[i];

		if (e->kind == TLC_TEST_NVTX_PUSH)
			fprintf(f, "push %d %s\n", e->level, e->name);
		else if (e->kind == TLC_TEST_NVTX_POP)
			fprintf(f, "pop %d\n", e->level);
		else if (e->kind == TLC_TEST_NVTX_UNDERFLOW)
			fprintf(f, "underflow\n");
		else
			fprintf(f, "other %s %s\n", e->call, e->name);
	}
	fclose(f);
}

__attribute__((destructor)) static void free_events(void)
{
	const char *path = getenv("TLC_TEST_NVTX_DUMP");

	if (path && *path)
		dump(path);
	free(events);
	events = NULL;
}

/* Fills slot id of a module table of size entries, when it exists. */
static int set_slot(NvtxFunctionTable table, unsigned size, unsigned id, NvtxFunctionPointer fn)
{
	if (!table || id == 0 || id > size || !table[id])
		return 0;
	*table[id] = fn;
	return 1;
}

#define FN(f) ((NvtxFunctionPointer)(f))

static int attach(const NvtxExportTableCallbacks *cb, int ranges)
{
	NvtxFunctionTable core = NULL, core2 = NULL;
	unsigned ncore = 0, ncore2 = 0;

	if (!cb || cb->struct_size < sizeof *cb ||
	    !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &ncore) ||
	    !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &ncore2))
		return 0;
	set_slot(core, ncore, NVTX_CBID_CORE_MarkA, FN(mark_a));
	set_slot(core, ncore, NVTX_CBID_CORE_MarkEx, FN(mark_ex));
	if (!ranges)
		return 1;
	return set_slot(core, ncore, NVTX_CBID_CORE_RangePushA, FN(push_a)) &&
	       set_slot(core, ncore, NVTX_CBID_CORE_RangePushEx, FN(push_ex)) &&
	       set_slot(core, ncore, NVTX_CBID_CORE_RangePop, FN(pop_core)) &&
	       set_slot(core, ncore, NVTX_CBID_CORE_RangeStartA, FN(start_a)) &&
	       set_slot(core, ncore, NVTX_CBID_CORE_RangeStartEx, FN(start_ex)) &&
	       set_slot(core, ncore, NVTX_CBID_CORE_RangeEnd, FN(range_end)) &&
	       set_slot(core2, ncore2, NVTX_CBID_CORE2_DomainRangePushEx, FN(domain_push)) &&
	       set_slot(core2, ncore2, NVTX_CBID_CORE2_DomainRangePop, FN(domain_pop)) &&
	       set_slot(core2, ncore2, NVTX_CBID_CORE2_DomainMarkEx, FN(domain_mark));
}

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
	const char *fails = getenv("TLC_TEST_NVTX_INIT_FAILS");
	const char *no_ranges = getenv("TLC_TEST_NVTX_NO_RANGES");

	if (fails && *fails == '1')
		return 0;
	return attach(get_export_table(NVTX_ETID_CALLBACKS), !(no_ranges && *no_ranges == '1'));
}
