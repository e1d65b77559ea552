/* Writes a synthetic op log v1 of N ops (default 1,000,000) for `make bench`:
 * a CNN-then-MLP step mixing convolution, relu, add, addmm (under linear)
 * and view, with shapes, modules, kwargs, outputs and a backward third.
 *
 *     gen_oplog [N] > FILE
 */
#include <stdio.h>
#include <stdlib.h>

typedef struct gen {
	FILE *out;
	long id;
	unsigned long long t; /* fake clock, ns */
} gen;

static void head(gen *g, const char *op, const char *ov, const char *phase, const char *mod,
                 const char *mtype, long parent)
{
	fprintf(g->out, "{\"id\":%ld,\"op\":\"%s\",\"overload\":\"%s\",\"phase\":\"%s\","
	                "\"module\":\"%s\",\"module_type\":\"%s\",", g->id, op, ov, phase, mod, mtype);
	if (parent >= 0)
		fprintf(g->out, "\"parent\":%ld,", parent);
}

static void tail(gen *g, unsigned host_ns)
{
	fprintf(g->out, "\"host_ns\":%u,\"start_ns\":%llu,\"thread\":1}\n", host_ns, g->t);
	g->t += host_ns + 300;
	g->id++;
}

static void conv(gen *g, const char *phase, const char *mod, int b, int c, int k, int hw)
{
	head(g, "aten::convolution", "default", phase, mod, "Conv2d", -1);
	fprintf(g->out,
	        "\"args\":[{\"shape\":[%d,%d,%d,%d],\"dtype\":\"float32\"},"
	        "{\"shape\":[%d,%d,3,3],\"dtype\":\"float32\"},null,[1,1],[1,1],[1,1],false,[0,0],1],"
	        "\"outputs\":[{\"shape\":[%d,%d,%d,%d],\"dtype\":\"float32\"}],",
	        b, c, hw, hw, k, c, b, k, hw, hw);
	tail(g, 18000);
}

static void unary(gen *g, const char *op, const char *phase, const char *mod, const char *mt,
                  int b, int c, int hw)
{
	head(g, op, "default", phase, mod, mt, -1);
	fprintf(g->out, "\"args\":[{\"shape\":[%d,%d,%d,%d],\"dtype\":\"float32\"}],"
	                "\"outputs\":[{\"shape\":[%d,%d,%d,%d],\"dtype\":\"float32\"}],",
	        b, c, hw, hw, b, c, hw, hw);
	tail(g, 4000);
}

static void add(gen *g, const char *phase, const char *mod, int b, int c, int hw)
{
	head(g, "aten::add", "Tensor", phase, mod, "BasicBlock", -1);
	fprintf(g->out, "\"args\":[{\"shape\":[%d,%d,%d,%d],\"dtype\":\"float32\"},"
	                "{\"shape\":[%d,%d,%d,%d],\"dtype\":\"float32\"}],\"kwargs\":{\"alpha\":1},"
	                "\"outputs\":[{\"shape\":[%d,%d,%d,%d],\"dtype\":\"float32\"}],",
	        b, c, hw, hw, b, c, hw, hw, b, c, hw, hw);
	tail(g, 5000);
}

/* linear -> addmm nested under it, as the dispatcher records them. */
static void linear(gen *g, const char *phase, const char *mod, int b, int in, int outf)
{
	long parent = g->id;
	head(g, "aten::linear", "default", phase, mod, "Linear", -1);
	fprintf(g->out, "\"args\":[{\"shape\":[%d,%d],\"dtype\":\"bfloat16\"},"
	                "{\"shape\":[%d,%d],\"dtype\":\"bfloat16\"},{\"shape\":[%d],\"dtype\":\"bfloat16\"}],"
	                "\"outputs\":[{\"shape\":[%d,%d],\"dtype\":\"bfloat16\"}],",
	        b, in, outf, in, outf, b, outf);
	tail(g, 9000);
	head(g, "aten::addmm", "default", phase, mod, "Linear", parent);
	fprintf(g->out, "\"args\":[{\"shape\":[%d],\"dtype\":\"bfloat16\"},"
	                "{\"shape\":[%d,%d],\"dtype\":\"bfloat16\"},"
	                "{\"shape\":[%d,%d],\"dtype\":\"bfloat16\",\"stride\":[1,%d]}],"
	                "\"kwargs\":{\"beta\":1,\"alpha\":1},"
	                "\"outputs\":[{\"shape\":[%d,%d],\"dtype\":\"bfloat16\"}],",
	        outf, b, in, in, outf, in, b, outf);
	tail(g, 7000);
}

static void view(gen *g, const char *phase, const char *mod, int b, int c, int hw)
{
	head(g, "aten::view", "default", phase, mod, "Flatten", -1);
	fprintf(g->out, "\"args\":[{\"shape\":[%d,%d,%d,%d],\"dtype\":\"float32\"},[%d,-1]],"
	                "\"outputs\":[{\"shape\":[%d,%d],\"dtype\":\"float32\"}],",
	        b, c, hw, hw, b, b, c * hw * hw);
	tail(g, 800);
}

/* One block of 10 ops. */
static void block(gen *g, long n)
{
	static const int chans[] = { 64, 128, 256, 512 };
	char mod[64];
	long blk = g->id / 10;
	int stage = (int)(blk % 4), c = chans[stage], hw = 56 >> stage;
	const char *phase = blk % 3 == 2 ? "backward" : "forward";
	snprintf(mod, sizeof mod, "layer%d.%ld.conv1", stage + 1, blk % 6);
	conv(g, phase, mod, 32, c, c, hw);
	unary(g, "aten::relu", phase, mod, "ReLU", 32, c, hw);
	snprintf(mod, sizeof mod, "layer%d.%ld.conv2", stage + 1, blk % 6);
	conv(g, phase, mod, 32, c, c, hw);
	add(g, phase, mod, 32, c, hw);
	unary(g, "aten::relu", phase, mod, "ReLU", 32, c, hw);
	view(g, phase, "flatten", 32, c, hw);
	snprintf(mod, sizeof mod, "head.fc%ld", blk % 3);
	linear(g, phase, mod, 32, c * 16, 1000);
	linear(g, phase, mod, 32, 1000, 1000);
	(void)n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
	static char buf[1 << 20];
	gen g = { stdout, 0, 1000 };
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	fprintf(g.out, "{\"format\":\"tlcost-oplog\",\"version\":1,\"producer\":\"gen_oplog\","
	               "\"model\":\"synthetic-cnn-mlp\",\"params\":25557032,\"tokens\":32}\n");
	while (g.id + 10 <= n)
		block(&g, n);
	while (g.id < n) /* remainder: plain relus */
		unary(&g, "aten::relu", "forward", "tail", "ReLU", 1, 8, 4);
	return fflush(stdout) == 0 ? 0 : 1;
}
