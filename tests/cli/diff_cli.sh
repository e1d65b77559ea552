#!/bin/sh
# `tlcost diff A B` (docs/diff.md). Expected values, derived by hand from the
# fixtures tests/fixtures/diff/{a,b}.oplog.jsonl (an MLP at batch 1 and 8,
# docs/rules.md's formulas, float32 = 4 bytes):
#   linear fc1 [1,16]x[32,16]+[32] -> [8,16]: MACs 512 -> 4096, other 32 -> 256,
#     FLOPs 1,056 -> 8,448 (+7,392); bytes 2,368 -> 3,712 (+1,344); kernel
#     1000 -> 4000 ns: B's work is 8x A's, so work = 8*1000 - 1000 = +7000 ns,
#     rate = 3000 - 7000 = -4000 ns;
#   relu act [1,32] -> [8,32]: other 32 -> 256 (+224), bytes 256 -> 2,048
#     (+1,792); 200 -> 500 ns: work +1400, rate -1100;
#   mm x -> y (same op type, moved module), same shapes: all 0, 300 -> 300 ns;
#   mylib::mystery (no rule) [1,32] -> [8,32]: unknown on both sides;
#   bmm only in A: -120 MACs, -240 FLOPs, -376 bytes, -100 ns (work);
#   mm head only in B: +1,024 MACs, +2,048 FLOPs, +1,664 bytes, +600 ns (work).
#   Totals: FLOPs 1,456 -> 10,880 (+9,424), bytes 3,224 -> 7,648 (+4,424),
#   kernel 1,600 -> 5,400 ns (+3,800 = work +8,900 + rate -5,100), both
#   sides lower bounds (mystery).
# tests/cli/diff_check.py checks conservation on every output and recomputes
# each group from the raw files with its own alignment; `diff A A` is all
# zeros. Real pair: HTA's tests/data/trace_diff control/test, read from its
# mirror (skipped when absent): conservation, and each side's totals equal
# `tlcost flops` of that side.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
T="$TLCOST_RUN $T"
F="$top_srcdir/tests/fixtures/diff"
CHECK="/usr/bin/python3 $top_srcdir/tests/cli/diff_check.py"
tlc_tmpdir diff
A="$F/a.oplog.jsonl"
B="$F/b.oplog.jsonl"

# text: the hand-derived figures
run 0 diff "$A" "$B"
check "aligned" "aligned: 0 same call, 3 shape/dtype change, 1 same op type; 1 rows only in A, 1 only in B"
check "FLOPs total" ">=1,456                 >=10,880                   +9,424"
check "bytes total" ">=3,224                  >=7,648                   +4,424"
check "MACs total" ">=696                  >=5,184                   +4,488"
check "kernel total" "1.600                    5.400                   +3.800"
check "split total" "= work +8.900 us (B's work at A's rate) + rate -5.100 us"
check "linear row" "    +3.000     +7.000     -4.000             +7,392          +1,344       0     shape_change forward    aten::linear @fc1"
check "relu row" "    +0.300     +1.400     -1.100               +224          +1,792       0     shape_change forward    aten::relu @act"
check "bmm row" "    -0.100     -0.100          0               -240            -376      -1     only_a"
check "head row" "    +0.600     +0.600          0             +2,048          +1,664      +1     only_b"
check "moved mm" "same_type    forward    aten::mm @x -> y"
check "unknown row" "unknown         unknown       0 unk shape_change forward    mylib::mystery"
check "lower bound A" "A: totals are a LOWER BOUND: 1 unknown-cost call"

# JSON: conservation and every group against the raw files
for by in group type module; do
	$T diff --by $by --top 0 --format json "$A" "$B" > "$tmp/d.json" || { echo "FAIL: json --by $by"; fails=$((fails + 1)); }
	if [ $by = group ]; then
		$CHECK "$tmp/d.json" "$A" "$B" --formulas || fails=$((fails + 1))
	else
		$CHECK "$tmp/d.json" "$A" "$B" || fails=$((fails + 1))
	fi
done
$T diff --by module --top 0 --format json "$A" "$B" > "$out"
check "module view moved" '"key": "x -> y"'
$T diff --top 0 --format json "$A" "$A" > "$tmp/same.json"
$CHECK "$tmp/same.json" "$A" "$A" --formulas --same || fails=$((fails + 1))
run 0 diff --format csv "$A" "$B"
check "csv header" "key,match,phase,module_a,module_b,shapes_a,shapes_b,count_a,count_b,d_count,"
check "csv linear" ",1,1,0,0,0,0,512,4096,3584,32,256,224,1056,8448,7392,2368,3712,1344,0,1000,4000,3000,7000,-4000,0"

# --fail-if: exit 4 when a condition holds, exact comparisons
run 4 diff --fail-if 'forward.flops>+1%' "$A" "$B"
check "condition on stderr" "forward.flops>+1%: A 1456, B 10880, change +9424"
check "exit 4 said" "a --fail-if condition holds: exit status 4"
run 0 diff --fail-if 'kernel_time>+237.5%' "$A" "$B"       # exactly +237.5%
check "not holding said" "does not hold"
run 4 diff --fail-if 'kernel_time>=+237.5%' "$A" "$B"
run 0 diff --fail-if 'coverage.unknown>0' --fail-if 'flops<0' "$A" "$B"
run 4 diff --fail-if 'coverage.unknown>0' --fail-if 'work_time>=8900' "$A" "$B"
run 0 diff --fail-if 'work_time>8900' --fail-if 'rate_time>-5100' "$A" "$B"
run 4 diff --fail-if 'macs==4488' "$A" "$B"
run 0 diff --fail-if 'backward.flops>0' "$A" "$B"           # no backward rows: 0 -> 0
run 0 diff --fail-if 'flops!=0' "$A" "$A"
run 2 diff --fail-if 'flops>>1' "$A" "$B"
check "bad expression" "diff_condition_invalid"
run 2 diff --fail-if 'speed>1' "$A" "$B"
check "unknown figure" "unknown figure"
run 2 diff --fail-if 'flops>1.0000000001' "$A" "$B"
# a figure the inputs cannot give: no device records on either side
run 1 diff --fail-if 'kernel_time>0' "$top_srcdir/tests/fixtures/reports/tiny.oplog.jsonl" "$A"
check "figure unavailable" "diff_figure_unavailable"
check "says which side" "A: no device records"

# captured pairs (tlcost.capture of Linear(16,32) -> ReLU -> Linear(32,4),
# forward, torch 1.13 CPU; op logs of 2 KB): batch 1 against 8, and fp32
# against bf16 at batch 8. By hand: per sample 2 x (16*32 + 32*4) MACs + 32 +
# 4 bias adds + 32 relu = 1,348 FLOPs; bytes at batch N (fp32): addmm 1
# (32 + 16N + 512 read, 32N written) + addmm 2 (4 + 32N + 128, 4N) + relu
# (32N, 32N) elements x 4 = 4 x (676 + 148N): 3,296 at N=1, 7,440 at N=8;
# bf16 halves every byte (2 instead of 4) and leaves FLOPs as they are.
run 0 diff "$F/mlp_b1.oplog.jsonl" "$F/mlp_b8.oplog.jsonl"
check "batch FLOPs" "1,348                   10,784                   +9,436"
check "batch bytes" "3,296                    7,440                   +4,144"
check "batch aligned" "aligned: 2 same call, 3 shape/dtype change, 0 same op type; 0 rows only in A, 0 only in B" # the two weight transposes (aten::t) do not change with the batch
run 0 diff "$F/mlp_b8.oplog.jsonl" "$F/mlp_b8_bf16.oplog.jsonl"
check "dtype FLOPs" "10,784                   10,784                        0"
check "dtype bytes" "7,440                    3,720                   -3,720"
check "dtype change shown" "[8,32]float32 -> [8,32]bfloat16"
absent "no gate line without joins" "device time left out"
# eager against torch.jit.trace of the same MLP (batch 8): the traced graph
# runs the same ATen ops (addmm, relu, t) without module hooks, so every
# call aligns as the same op type at another module (@0 -> (root)), with
# the same FLOPs and bytes: all changes 0
run 0 diff "$F/mlp_b8.oplog.jsonl" "$F/mlp_b8_jit.oplog.jsonl"
check "jit aligned" "aligned: 0 same call, 0 shape/dtype change, 5 same op type; 0 rows only in A, 0 only in B"
check "jit FLOPs" "10,784                   10,784                        0"
check "jit moved" "aten::addmm.default @0 -> (root)"
for p in "mlp_b1 mlp_b8" "mlp_b8 mlp_b8_bf16" "mlp_b8 mlp_b8_jit"; do
	set -- $p
	$T diff --top 0 --format json "$F/$1.oplog.jsonl" "$F/$2.oplog.jsonl" > "$tmp/c.json"
	$CHECK "$tmp/c.json" "$F/$1.oplog.jsonl" "$F/$2.oplog.jsonl" || fails=$((fails + 1))
done

# exact past 64 bits: aten::mm [2^21,2^21] x [2^21,2^21] is 2^63 MACs (2^64
# FLOPs) a call; A has one call, B two: B's FLOPs are 2^65 =
# 36,893,488,147,419,103,232 and the change 2^64 = 18,446,744,073,709,551,616
big='{"id":%d,"op":"aten::mm","phase":"forward","module":"m","args":[{"shape":[2097152,2097152],"dtype":"float32"},{"shape":[2097152,2097152],"dtype":"float32"}],"outputs":[{"shape":[2097152,2097152],"dtype":"float32"}]}'
{ echo '{"format":"tlcost-oplog","version":1}'; printf "$big\n" 0; } > "$tmp/big_a.jsonl"
{ echo '{"format":"tlcost-oplog","version":1}'; printf "$big\n$big\n" 0 1; } > "$tmp/big_b.jsonl"
run 0 diff "$tmp/big_a.jsonl" "$tmp/big_b.jsonl"
check "huge FLOPs" "36,893,488,147,419,103,232"
check "huge change" "+18,446,744,073,709,551,616"
$T diff --top 0 --format json "$tmp/big_a.jsonl" "$tmp/big_b.jsonl" > "$tmp/big.json"
$CHECK "$tmp/big.json" "$tmp/big_a.jsonl" "$tmp/big_b.jsonl" --formulas || fails=$((fails + 1))
run 4 diff --fail-if 'flops>=+100%' "$tmp/big_a.jsonl" "$tmp/big_b.jsonl"
run 0 diff --fail-if 'flops>+100%' "$tmp/big_a.jsonl" "$tmp/big_b.jsonl"

# the one rounding: relu [2] in 3 ns (A) against relu [1] in 5 ns (B): B's
# work at A's rate is 3 x 1/2 = 1.5 ns, rounded half up to 2: work 2 - 3 =
# -1 ns, rate 2 - (-1) = +3 ns, time +2 ns
relu='{"id":0,"op":"aten::relu","phase":"forward","module":"r","args":[{"shape":[%d],"dtype":"float32"}],"outputs":[{"shape":[%d],"dtype":"float32"}],"thread":1,"start_ns":100,"host_ns":50}'
launch='{"kind":"runtime","name":"cudaLaunchKernel","thread":1,"start_ns":110,"end_ns":120,"correlation":9,"external_id":0}'
kern='{"kind":"kernel","name":"k","device":0,"stream":7,"start_ns":1000,"end_ns":%d,"correlation":9}'
{ echo '{"format":"tlcost-oplog","version":1}'; printf "$relu\n$launch\n$kern\n" 2 2 1003; } > "$tmp/r_a.jsonl"
{ echo '{"format":"tlcost-oplog","version":1}'; printf "$relu\n$launch\n$kern\n" 1 1 1005; } > "$tmp/r_b.jsonl"
$T diff --format json "$tmp/r_a.jsonl" "$tmp/r_b.jsonl" > "$tmp/r.json"
/usr/bin/python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))['totals'][0]['change']
assert (t['kernel_ns'], t['work_ns'], t['rate_ns'], t['unsplit_ns']) == (2, -1, 3, 0), t
" "$tmp/r.json" || { echo "FAIL: rounding"; cat "$tmp/r.json"; fails=$((fails + 1)); }

# flops partials (tlcost flops --format json): totals only, the same totals
# as the op logs' diff (+9,424 FLOPs, +4,424 bytes, 5 -> 5 calls, 1 -> 1
# unknown); an op log against a partial diffs as two partials; per-phase
# calls, class changes and device time are refused, named
$T flops --format json "$A" > "$tmp/pa.json"
$T flops --format json "$B" > "$tmp/pb.json"
run 0 diff "$tmp/pa.json" "$tmp/pb.json"
check "partials say what they are" "partials: totals only"
check "partial FLOPs" ">=1,456                 >=10,880                   +9,424"
check "partial bytes" ">=3,224                  >=7,648                   +4,424"
check "partial per-phase calls" "n/a"
$T diff --format json "$tmp/pa.json" "$tmp/pb.json" > "$tmp/p.json"
$CHECK "$tmp/p.json" "$A" "$B" || fails=$((fails + 1))
/usr/bin/python3 -c "
import json, sys
p = json.load(open(sys.argv[1])); o = json.load(open(sys.argv[2]))
for ph in ('all', 'forward'):
    tp = [t for t in p['totals'] if t['phase'] == ph][0]
    to = [t for t in o['totals'] if t['phase'] == ph][0]
    for f in ('macs', 'other_flops', 'flops', 'bytes'):
        assert tp['change'][f] == to['change'][f] and tp['a'][f] == to['a'][f], (ph, f)
    if ph == 'forward':
        assert tp['a']['count'] is None and tp['change']['count'] is None
" "$tmp/p.json" "$tmp/d.json" || { echo "FAIL: partial totals differ from the op logs' diff"; fails=$((fails + 1)); }
run 0 diff "$tmp/pa.json" "$B"
check "mixed partial" "+9,424"
run 4 diff --fail-if 'flops>=+9424' "$tmp/pa.json" "$tmp/pb.json"
run 1 diff --fail-if 'kernel_time>0' "$tmp/pa.json" "$tmp/pb.json"
check "partial time" "a flops partial has no device time"
run 1 diff --fail-if 'forward.count>0' "$tmp/pa.json" "$tmp/pb.json"
check "partial phase calls" "diff_figure_unavailable"
$T join --format json "$A" > "$tmp/ja.json"
run 1 diff "$tmp/ja.json" "$tmp/pb.json"
check "join partial refused" "diff_input_partial"
check "join partial says why" "a join partial holds the join's kernel times"

# saved joins (tlcost join --save) diff as their sources do
$T join --save "$tmp/sa.jsonl" "$A" > /dev/null && $T join --save "$tmp/sb.jsonl" "$B" > /dev/null
run 0 diff "$tmp/sa.jsonl" "$tmp/sb.jsonl"
check "saved joins" "= work +8.900 us (B's work at A's rate) + rate -5.100 us"

# usage
run 2 diff "$A"
run 2 diff "$A" "$B" "$A"
run 2 diff "$A" "$F"

# two directories of ranks: each rank and the total (2 ranks: twice the pair)
mkdir "$tmp/ra" "$tmp/rb" "$tmp/rc"
cp "$A" "$tmp/ra/rank0.json"; cp "$A" "$tmp/ra/rank1.json"
cp "$B" "$tmp/rb/rank0.json"; cp "$B" "$tmp/rb/rank1.json"
cp "$B" "$tmp/rc/rank0.json"
run 0 diff "$tmp/ra" "$tmp/rb"
check "rank 1" "== rank 1:"
check "all ranks" "== all 2 ranks:"
check "summed FLOPs" ">=2,912                 >=21,760                  +18,848"
check "summed time" "= work +17.800 us (B's work at A's rate) + rate -10.200 us"
run 4 diff --fail-if 'flops>=+18848' "$tmp/ra" "$tmp/rb"
check "sum condition" "all ranks: flops>=+18848: A 2912, B 21760"
$T diff --format json "$tmp/ra" "$tmp/rb" > "$out" 2> "$tmp/err"
/usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['schema'] == 'tlcost.diff-ranks/1' and len(d['ranks']) == 2, d.keys()
t = [x for x in d['total']['totals'] if x['phase'] == 'all'][0]
r = [[x for x in k['totals'] if x['phase'] == 'all'][0] for k in d['ranks']]
for f in ('flops', 'macs', 'bytes', 'kernel_ns', 'work_ns', 'rate_ns'):
    assert t['change'][f] == sum(x['change'][f] for x in r), f
assert t['change']['flops'] == 18848 and t['change']['kernel_ns'] == 7600
" "$out" || { echo "FAIL: ranks JSON"; cat "$out"; fails=$((fails + 1)); }
run 1 diff "$tmp/ra" "$tmp/rc"
check "rank count" "diff_rank_count_mismatch"
run 2 diff --format csv "$tmp/ra" "$tmp/rb"

# a real trace against itself slowed on purpose: the shared B200 trace (its
# join passes the gate) and a copy whose cuBLAS GEMM kernels (names starting
# nvjet, counted from the raw file) each last 1.000 us longer: the work is the
# same, so the whole change is rate, 1,000 ns per such kernel, and it lands
# on the costed row of those kernels, aten::linear
b200="$shared/traces/b200-eager-inference.json.gz"
if [ -f "$b200" ]; then
	n=$(/usr/bin/python3 -c "
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
n = 0
for e in d['traceEvents']:
    if e.get('cat') == 'kernel' and e.get('name', '').startswith('nvjet'):
        e['dur'] = round(e['dur'] + 1.0, 3)
        n += 1
json.dump(d, open(sys.argv[2], 'w'))
print(n)" "$b200" "$tmp/b200_slow.json")
	$T diff --top 0 --format json "$b200" "$b200" > "$tmp/ss.json"
	$CHECK "$tmp/ss.json" "$b200" "$b200" --same --cpu-op-rows || fails=$((fails + 1))
	$T diff --top 0 --format json "$b200" "$tmp/b200_slow.json" > "$tmp/s.json"
	$CHECK "$tmp/s.json" "$b200" "$tmp/b200_slow.json" || fails=$((fails + 1))
	$T diff --by type --top 0 --format json "$b200" "$tmp/b200_slow.json" > "$tmp/st.json"
	# each side's compared kernel time is what the join's gate counts as
	# attributed: kernel_attributed_ns - kernel_on_wrapper_ns of tlcost join
	$T join --format json "$b200" > "$tmp/jb.json"
	/usr/bin/python3 -c "
import json, sys
j = json.load(open(sys.argv[2]))
t = [x for x in json.load(open(sys.argv[1]))['totals'] if x['phase'] == 'all'][0]
want = j['kernel_attributed_ns'] - j['kernel_on_wrapper_ns']
assert t['a']['kernel_ns'] == want, (t['a']['kernel_ns'], want)
print('ok: A kernel time %d ns = the join attributed total' % want)
" "$tmp/s.json" "$tmp/jb.json" || { echo "FAIL: time against the join"; fails=$((fails + 1)); }
	/usr/bin/python3 -c "
import json, sys
n = int(sys.argv[3])
t = [x for x in json.load(open(sys.argv[1]))['totals'] if x['phase'] == 'all'][0]['change']
assert n > 0 and (t['kernel_ns'], t['work_ns'], t['rate_ns'], t['unsplit_ns']) == (1000 * n, 0, 1000 * n, 0), (n, t)
assert t['flops'] == 0 and t['count'] == 0
rows = {r['key']: r['change'] for r in json.load(open(sys.argv[2]))['rows']}
assert rows['aten::linear']['rate_ns'] == 1000 * n, rows['aten::linear']
print('ok: %d GEMM kernels slowed by 1 us: +%d ns, all rate, on aten::linear' % (n, 1000 * n))
" "$tmp/s.json" "$tmp/st.json" "$n" || { echo "FAIL: slowed B200 trace"; fails=$((fails + 1)); }
	run 4 diff --fail-if 'rate_time>0' --fail-if 'flops!=0' "$b200" "$tmp/b200_slow.json"
	check "rate condition" "rate_time>0: A 10857"
	run 0 diff --fail-if 'work_time!=0' "$b200" "$tmp/b200_slow.json"
else
	echo "SKIP (part): $b200 absent"
fi

# a real pair: HTA's trace_diff control and test (skipped when absent)
hta="${TLCOST_HTA_REPO:-/work/.mirror/facebookresearch+HolisticTraceAnalysis/repo}"
if git -C "$hta" show HEAD:tests/data/trace_diff/control/control.json.gz > "$tmp/control.json.gz" 2>/dev/null &&
   git -C "$hta" show HEAD:tests/data/trace_diff/test/test.json.gz > "$tmp/test.json.gz" 2>/dev/null; then
	$T diff --top 0 --format json "$tmp/control.json.gz" "$tmp/test.json.gz" > "$tmp/h.json" ||
		{ echo "FAIL: HTA pair"; fails=$((fails + 1)); }
	# op rows = the raw cpu_op events: 40,506 and 31,236 (SOURCES.md lists 31,236 for test)
	$CHECK "$tmp/h.json" "$tmp/control.json.gz" "$tmp/test.json.gz" --cpu-op-rows || fails=$((fails + 1))
	$T flops --format json "$tmp/control.json.gz" > "$tmp/fa.json"
	$T flops --format json "$tmp/test.json.gz" > "$tmp/fb.json"
	/usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
tot = {t['phase']: t for t in d['totals']}
for side, path in (('a', sys.argv[2]), ('b', sys.argv[3])):
    f = json.load(open(path))
    for ph, v in f['phases'].items():
        for k in ('flops', 'macs', 'other_flops'):
            assert int(tot[ph][side][k]) == int(v[k]), (side, ph, k, tot[ph][side][k], v[k])
print('ok: HTA pair totals equal tlcost flops on each side')
" "$tmp/h.json" "$tmp/fa.json" "$tmp/fb.json" || fails=$((fails + 1))
else
	echo "SKIP (part): HTA trace_diff pair absent ($hta)"
fi

[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "ok: tlcost diff"
