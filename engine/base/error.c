/* Thread-local error detail: the only mutable state outside a context. */
#include <stdio.h>
#include <string.h>
#include "error.h"

typedef struct tlc_error_slot {
	tlc_error pub;
	char code[64];
	char message[512];
	char remedy[512];
	char file[256];
} tlc_error_slot;

static _Thread_local tlc_error_slot slot = {
	{ 0, "ok", "", "", NULL, 0, 0 }, "ok", "", "", ""
};

static void copy_str(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

static void publish(int klass)
{
	slot.pub.klass = klass;
	slot.pub.code = slot.code;
	slot.pub.message = slot.message;
	slot.pub.remedy = slot.remedy;
	slot.pub.file = slot.file[0] ? slot.file : NULL;
}

static int set_va(int klass, const char *code, const char *file, uint64_t line,
                  uint64_t column, const char *remedy, const char *fmt, va_list ap)
{
	copy_str(slot.code, sizeof slot.code, code);
	vsnprintf(slot.message, sizeof slot.message, fmt, ap);
	copy_str(slot.remedy, sizeof slot.remedy,
	         remedy && *remedy ? remedy : "report this as a tlcost bug with the input that caused it");
	copy_str(slot.file, sizeof slot.file, file);
	slot.pub.line = line;
	slot.pub.column = column;
	publish(klass);
	return klass;
}

int tlc_error__set(int klass, const char *code, const char *remedy, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_va(klass, code, NULL, 0, 0, remedy, fmt, ap);
	va_end(ap);
	return klass;
}

int tlc_error__set_pos(int klass, const char *code, const char *file, uint64_t line,
                       uint64_t column, const char *remedy, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_va(klass, code, file, line, column, remedy, fmt, ap);
	va_end(ap);
	return klass;
}

int tlc_error__oom(void)
{
	return tlc_error__set(TLC_ENOMEM, "out_of_memory",
	                      "free memory or process a smaller input",
	                      "memory allocation failed");
}

void tlc_error__locate(const char *file, uint64_t line, uint64_t column)
{
	if (slot.pub.line != 0)
		return;
	copy_str(slot.file, sizeof slot.file, file);
	slot.pub.line = line;
	slot.pub.column = column;
	slot.pub.file = slot.file[0] ? slot.file : NULL;
}

const tlc_error *tlc_error_last(void)
{
	if (!slot.pub.code)
		publish(0);
	return &slot.pub;
}

void tlc_error_clear(void)
{
	memset(&slot, 0, sizeof slot);
	copy_str(slot.code, sizeof slot.code, "ok");
	publish(0);
}
