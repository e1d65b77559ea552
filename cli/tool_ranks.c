/* tlcost ranks TRACE... | DIR (placeholder until engine/report/ranks.c). */
#include <stdio.h>
#include "cli.h"

int tool_ranks(cli_ctx *ctx)
{
	return cli_usage_error(ctx, "not built yet");
}
