/* Per-session error detail (libtlcost's thread-local state is private to it). */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

int tlc_cupti__fail(tlc_cupti_session *s, int klass, const char *code,
                    const char *remedy, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err_message, sizeof s->err_message, fmt, ap);
	va_end(ap);
	s->err.klass = klass;
	s->err.code = code;
	s->err.message = s->err_message;
	s->err.remedy = remedy;
	return klass;
}

void tlc_cupti__clear_error(tlc_cupti_session *s)
{
	s->err_message[0] = '\0';
	s->err.klass = 0;
	s->err.code = "ok";
	s->err.message = s->err_message;
	s->err.remedy = "";
}

const tlc_cupti_error *tlc_cupti_session_error(const tlc_cupti_session *s)
{
	return &s->err;
}
