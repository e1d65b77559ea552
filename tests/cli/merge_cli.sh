#!/bin/sh
# `tlcost merge` (docs/collectives.md, "Merging partials"):
#  1. an op log (resnet18 train, augmented with unknown ops and all-reduces by
#     tests/cli/comms/merge_check.py) split into 3 consecutive parts: the merge of
#     the parts' partials equals, field by field, the flops JSON of the whole
#     log (a single evaluation of all the ops);
#  2. associative and order-independent: every bracketing and order of the
#     three parts gives the same merged document, byte for byte;
#  3. the shared DDP traces (skipped when absent): two ranks of one job (the
#     real rank-0 trace and a copy as rank 1, ids and threads shifted apart)
#     merged equal a single evaluation of one trace holding both;
#  4. refusals: the same rank twice, a file that is not a partial.
#  5. join partials (`tlcost join --format json`): on the shared traces, the
#     merge of ranks 1 and 0 equals, field by field where a merge can carry it
#     (merge_check.py compare-join says what not and why), the join of one
#     trace holding both; three ranks merge the same in every order and
#     bracketing, byte for byte; a join partial does not mix with a flops
#     partial (merge_incompatible), another join schema version is refused
#     (merge_schema_mismatch), the same rank twice too (merge_duplicate_rank).
#  6. partly known ledger groups survive a merge: the partial of
#     tests/fixtures/partly_known/moe_gelu.trace.json (gelu: 2 partly known
#     calls, missing other_flops, 512 counted bytes; _grouped_mm: 1 call,
#     missing macs, 10,256 bytes: tests/cli/partly_known_cli.sh derives them)
#     merged with a copy whose gelu group says missing "other_flops,bytes_read":
#     gelu 4 calls, missing "other_flops,bytes_read" (the union, first
#     partial's order), 1,024 bytes; _grouped_mm 2 calls, "macs", 20,512; the
#     cause is the first partial's. Before, merge dropped all five fields.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
H="$top_srcdir/tests/cli/comms/merge_check.py"
tlc_tmpdir merge

cd "$tmp" || exit 1
"$T" flops --format json "$top_srcdir/tests/fixtures/partly_known/moe_gelu.trace.json" >pk1.json ||
	fail "flops partly known"
python3 - <<'PY' || fail "partly known merge"
import json, subprocess, sys
d = json.load(open("pk1.json"))
for g in d["ledger"]:
    if g["name"] == "aten::gelu":
        g["missing"] = "other_flops,bytes_read"
json.dump(d, open("pk2.json", "w"))
PY
"$T" merge --format json pk1.json pk2.json >pkm.json 2>pkm.err || { fail "merge partly known"; cat pkm.err; }
python3 - <<'PY' || fail "partly known fields after merge"
import json, sys
a = {g["name"]: g for g in json.load(open("pk1.json"))["ledger"]}
m = {g["name"]: g for g in json.load(open("pkm.json"))["ledger"]}
want = {"aten::gelu": (4, "other_flops,bytes_read", 0, 1024),
        "aten::_grouped_mm": (2, "macs", 0, 20512)}
bad = 0
for name, (n, miss, cf, cb) in want.items():
    g = m.get(name, {})
    got = (g.get("partly_known"), g.get("missing"), g.get("counted_flops"), g.get("counted_bytes"))
    if got != (n, miss, cf, cb) or g.get("cause") != a[name]["cause"]:
        print("FAIL: merged %s: %r, cause %r" % (name, got, g.get("cause")))
        bad = 1
sys.exit(bad)
PY
python3 "$H" oplog-parts "$top_srcdir/tests/fixtures/models/resnet18.train.oplog.jsonl.gz" . 3 ||
	fail "oplog-parts"
for x in whole part1 part2 part3; do
	"$T" flops --format json "$x.jsonl" >"$x.json" || fail "flops $x"
done
"$T" merge --format json part1.json part2.json part3.json >m123.json || fail "merge 123"
python3 "$H" compare whole.json m123.json || fail "merge of parts != whole op log"
grep -q '"name": "mylib::fused_gelu"' m123.json || fail "ledger entry lost"
grep -q '"allreduce"' m123.json || fail "communication lost"

"$T" merge --format json part3.json part1.json part2.json >m312.json || fail "merge 312"
cmp -s m123.json m312.json || fail "order changes the merge"
"$T" merge --format json part1.json part2.json >m12.json
"$T" merge --format json m12.json part3.json >m12_3.json
cmp -s m123.json m12_3.json || fail "(1+2)+3 != 1+2+3"
"$T" merge --format json part2.json part3.json >m23.json
"$T" merge --format json part1.json m23.json >m1_23.json
cmp -s m123.json m1_23.json || fail "1+(2+3) != 1+2+3"
"$T" merge --format json part1.json part3.json >m13.json
"$T" merge --format json m13.json part2.json >m13_2.json
cmp -s m123.json m13_2.json || fail "(1+3)+2 != 1+2+3"

"$T" merge part1.json part2.json part3.json >m.txt || fail "merge text"
grep -q "tlcost merge: 3 partials (0 with a rank)" m.txt || fail "text header"
grep -q "communication backward allreduce x4" m.txt || fail "text communication"

"$T" merge whole.jsonl >bad.out 2>bad.err && fail "an op log merged as a partial"
grep -q "merge_input_invalid" bad.err || fail "not a partial: $(cat bad.err)"
# a partial whose device_work lost a count is refused, never summed as 0
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["device_work"]["without_op_ns"]; print(json.dumps(d))' \
	part1.json > nodev.json
"$T" merge nodev.json part2.json >bad.out 2>bad.err && fail "a device_work without its counts merged"
grep -q "merge_input_invalid: not a flops partial: a device_work count" bad.err ||
	fail "device_work refusal: $(cat bad.err)"
"$T" merge --help | grep -q "usage: tlcost merge" || fail "--help"

for name in tl_mi300_resnet_actckpt_ddp hta_sampled_rank0_of128; do
	f="$shared/traces/real/$name.json.gz"
	[ -f "$f" ] || { echo "skip: $name absent"; continue; }
	python3 "$H" trace-rank "$f" r1.json 1 || { fail "$name: trace-rank"; continue; }
	python3 "$H" trace-concat both.json "$f" r1.json || { fail "$name: concat"; continue; }
	"$T" flops --format json "$f" >t0.json && "$T" flops --format json r1.json >t1.json &&
		"$T" flops --format json both.json >tboth.json || { fail "$name: flops"; continue; }
	"$T" merge --format json t1.json t0.json >tm.json || { fail "$name: merge"; continue; }
	python3 "$H" compare tboth.json tm.json || fail "$name: merge of ranks != one evaluation"
	grep -q '"rank": 1' tm.json || fail "$name: rank identity lost"
	"$T" merge t0.json t0.json >dup.out 2>dup.err && fail "$name: same rank merged twice"
	grep -q "merge_duplicate_rank" dup.err || fail "$name: duplicate rank: $(cat dup.err)"
	# text groups digits as `tlcost flops` does. The DDP rank all-reduces
	# 3 x (2,873,320 + 8,816,192) BFloat16 elements over 8 ranks (its
	# record_param_comms args): S = 70,137,072 B, bus = S x 14/8 = 122,739,876 B
	# 5. join partials
	python3 "$H" trace-rank "$f" r2.json 2 || { fail "$name: trace-rank 2"; continue; }
	"$T" join --format json "$f" >j0.json && "$T" join --format json r1.json >j1.json &&
		"$T" join --format json r2.json >j2.json &&
		"$T" join --format json both.json >jboth.json || { fail "$name: join"; continue; }
	"$T" merge --format json j1.json j0.json >jm.json || { fail "$name: join merge"; continue; }
	python3 "$H" compare-join jboth.json jm.json || fail "$name: join merge != one join"
	grep -q '"rank": 1' jm.json || fail "$name: join rank identity lost"
	"$T" merge --format json j0.json j1.json j2.json >jm012.json &&
		"$T" merge --format json j2.json j0.json j1.json >jm201.json &&
		"$T" merge --format json j0.json j1.json >jm01.json &&
		"$T" merge --format json jm01.json j2.json >jm01_2.json &&
		"$T" merge --format json j1.json j2.json >jm12.json &&
		"$T" merge --format json j0.json jm12.json >jm0_12.json || fail "$name: join merges"
	cmp -s jm012.json jm201.json || fail "$name: order changes the join merge"
	cmp -s jm012.json jm01_2.json || fail "$name: (0+1)+2 != 0+1+2 (join)"
	cmp -s jm012.json jm0_12.json || fail "$name: 0+(1+2) != 0+1+2 (join)"
	"$T" merge j0.json j1.json >jm.txt || fail "$name: join merge text"
	grep -q "tlcost merge: 2 join partials (2 with a rank)" jm.txt || fail "$name: join text: $(cat jm.txt)"
	"$T" merge j0.json t1.json >mix.out 2>mix.err && fail "$name: join and flops merged"
	grep -q "merge_incompatible: a flops partial cannot merge with join partials" mix.err ||
		fail "$name: mix: $(cat mix.err)"
	"$T" merge j0.json j0.json >dup.out 2>dup.err && fail "$name: same rank joined twice"
	grep -q "merge_duplicate_rank" dup.err || fail "$name: join duplicate rank: $(cat dup.err)"
	sed 's|"kernels": \([0-9]\)|"kernels": -\1|' j1.json >jneg.json
	"$T" merge j0.json jneg.json >neg.out 2>neg.err && fail "$name: a negative join count merged"
	grep -q "merge_input_invalid: not a join partial: a summary count" neg.err ||
		fail "$name: join negative count: $(cat neg.err)"
	sed 's|"tlcost.join/3"|"tlcost.join/2"|' j1.json >jold.json
	"$T" merge j0.json jold.json >old.out 2>old.err && fail "$name: join schema versions mixed"
	grep -q "merge_schema_mismatch" old.err || fail "$name: join schema: $(cat old.err)"
	if [ "$name" = tl_mi300_resnet_actckpt_ddp ]; then
		"$T" merge t0.json >tm.txt || fail "$name: merge text"
		grep -q "communication backward allreduce x6: message 70,137,072 B, bus 122,739,876 B" tm.txt ||
			{ fail "$name: merge text not grouped"; cat tm.txt; }
		grep -q "compute (actual-path analytic, fma=2: one MAC = 2 FLOPs): >= [0-9]\{1,3\}," tm.txt ||
			{ fail "$name: merge FLOPs not grouped"; cat tm.txt; }
	fi
done
[ "$fails" -eq 0 ]
