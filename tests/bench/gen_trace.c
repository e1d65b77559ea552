/* gen_trace N: writes a synthetic PyTorch profiler (Kineto) trace of about N
 * events to stdout for `make bench-trace`. Each block of six events is what
 * an eager linear layer leaves: three Python frames, one aten::addmm with
 * recorded shapes, its cudaLaunchKernel and the kernel, with fractional
 * microsecond timestamps. Deterministic. gen_trace N K: also a
 * ProfilerStep#i annotation every K blocks (for `tlcost steps`). */
#include <stdio.h>
#include <stdlib.h>

static void block(unsigned long b)
{
	unsigned long t = 1000000000UL + b * 20, ext = b + 1;
	printf("%s{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"torch/nn/modules/module.py(1501): _call_impl\", "
	       "\"pid\": 1, \"tid\": 1, \"ts\": %lu.000, \"dur\": 15.5, \"args\": {\"Python parent id\": %lu, \"Python id\": %lu}},\n",
	       b ? ",\n" : "", t, b, b + 1);
	printf("{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"torch/nn/modules/linear.py(114): forward\", "
	       "\"pid\": 1, \"tid\": 1, \"ts\": %lu.500, \"dur\": 14.5, \"args\": {\"Python parent id\": %lu, \"Python id\": %lu}},\n",
	       t, b, b + 1);
	printf("{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"<built-in function linear>\", "
	       "\"pid\": 1, \"tid\": 1, \"ts\": %lu.750, \"dur\": 13.5, \"args\": {\"Python parent id\": %lu, \"Python id\": %lu}},\n",
	       t, b, b + 1);
	printf("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"pid\": 1, \"tid\": 1, \"ts\": %lu.000, "
	       "\"dur\": 10.25, \"args\": {\"External id\": %lu, \"Record function id\": 0, "
	       "\"Concrete Inputs\": [\"\", \"\", \"\", \"1\", \"1\"], "
	       "\"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], "
	       "\"Input Strides\": [[1], [4096, 1], [1, 4096], [], []], "
	       "\"Input Dims\": [[4096], [512, 4096], [4096, 4096], [], []]}},\n", t + 2, ext);
	printf("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, "
	       "\"ts\": %lu.125, \"dur\": 4.125, \"args\": {\"External id\": %lu, \"cbid\": 211, \"correlation\": %lu}},\n",
	       t + 3, ext, ext);
	printf("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_cublas\", "
	       "\"pid\": 0, \"tid\": 7, \"ts\": %lu.864, \"dur\": 12.864, \"args\": {\"External id\": %lu, \"queued\": 0, "
	       "\"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": %lu, \"registers per thread\": 168, "
	       "\"grid\": [32, 4, 1], \"block\": [384, 1, 1]}}", t + 5, ext, ext);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 5000000UL;
	unsigned long k = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
	printf("{\"schemaVersion\": 1, \"traceEvents\": [\n");
	for (unsigned long b = 0; b < n / 6; b++) {
		if (k && b % k == 0)
			printf("%s{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%lu\", "
			       "\"pid\": 1, \"tid\": 1, \"ts\": %lu.000, \"dur\": %lu.000, \"args\": {}}",
			       b ? ",\n" : "", b / k, 1000000000UL + b * 20, k * 20);
		if (k && b % k == 0 && !b)
			printf(",\n");
		block(b);
	}
	printf("\n]}\n");
	return ferror(stdout) ? 1 : 0;
}
