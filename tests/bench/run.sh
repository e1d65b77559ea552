#!/bin/sh
# `make bench`: every speed and memory figure side by side, in one run.
#   op log, 1M ops     tlcost flops  vs  json_verify -s (yajl, parse only) on the same file
#   trace, 5M events   tlcost join   vs  json_verify -s on the same file
#   diff, 5M events    tlcost diff T T  vs  tlcost join T (CPU and peak RSS ratios)
#   html, 5M events    tlcost html (and html --device h100-sxm) vs tlcost join on
#                      the same trace (<= 1.2x), page sizes
#   real, 5M events    the shared B200 trace replicated to 5M events beside the
#                      synthetic trace: join, flops, profile, annotate vs json_verify -s
#   trace, 5M events   tlcost profile with device time (the costed-row roll-up)
#                      vs tlcost join of the same build (issue 25: <= 1.15x)
#   steps vs join      tlcost steps vs tlcost join, CPU time, on a 5M-event trace
#                      with a ProfilerStep#N every 1000 blocks (target <= 1.15x)
#   engine alone       tests/bench/bench_engine through the C API (ops/s)
#   engine from Python a script of the Python binding where one is built (BENCH_PYTHON)
#   instructions       valgrind --tool=callgrind on tlcost flops and on
#                      json_verify -s over a smaller op log (a figure that does
#                      not move with the load of a shared machine)
# tlcost and json_verify runs alternate, so both see the same machine; each
# figure is the median of BENCH_RUNS runs, CPU time (user + system), not wall
# time, which mostly measures the other processes on a shared machine.
# Environment (set by tests/bench/local.mk): TLCOST GEN GEN_TRACE ENGINE
# TIMEIT JSON_VERIFY LTEXEC BENCH_DIR REPLICATE SHARED; optional BENCH_OPS (1000000),
# BENCH_EVENTS (5000000), BENCH_RUNS (3), BENCH_CALLGRIND_OPS (100000),
# BENCH_PARTS (any of: oplog trace real diff html steps engine python callgrind;
# default all), SHARED (the shared folder holding traces/, for real),
# BENCH_PYTHON (a Python script taking N that prints "ops seconds ops_per_s").
# `make bench-clean` removes the generated inputs.
set -eu
N=${BENCH_OPS:-1000000}
NE=${BENCH_EVENTS:-5000000}
NC=${BENCH_CALLGRIND_OPS:-100000}
RUNS=${BENCH_RUNS:-3}
PARTS=${BENCH_PARTS:-oplog trace real diff html steps engine python callgrind}
dir=${BENCH_DIR:-tests/bench}
res=$dir/timeit.out
rows=$dir/bench-rows.out
: > "$rows"

want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

have_jv() { [ -n "${JSON_VERIFY:-}" ] && command -v "$JSON_VERIFY" > /dev/null 2>&1; }

# make FILE GENERATOR N: writes the input once (kept until make bench-clean)
make_input() {
	if [ ! -s "$1" ]; then
		echo "bench: writing $1 ($3 records)"
		"$2" "$3" > "$1.tmp"
		mv "$1.tmp" "$1"
	fi
}

# once TAG CMD...: one timed run, appended to $dir/TAG.runs as "wall cpu rss_kib"
once() {
	tag=$1
	shift
	"$TIMEIT" -r "$res" "$@"
	read -r w c m st < "$res"
	if [ "$st" != 0 ]; then
		echo "bench: '$*' failed (exit $st)" >&2
		exit 1
	fi
	echo "$w $c $m" >> "$dir/$tag.runs"
}

# median TAG: "wall cpu rss_kib", each the median of its column
median() {
	for col in 1 2 3; do
		sort -n -k"$col","$col" "$dir/$1.runs" |
			awk -v c="$col" '{ v[NR] = $c } END { printf "%s ", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
	done
	echo
}

# pair TAG_T TAG_J FILE CMD...: RUNS alternating runs of CMD and of json_verify -s < FILE
pair() {
	tt=$1 tj=$2 f=$3
	shift 3
	rm -f "$dir/$tt.runs" "$dir/$tj.runs"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		once "$tt" "$@"
		have_jv && once "$tj" -i "$f" "$JSON_VERIFY" -s
		i=$((i + 1))
	done
	have_jv || echo "0 0 0" > "$dir/$tj.runs"
	echo "$(median "$tt") $(median "$tj") $(wc -c < "$f")"
}

echo "bench: medians of $RUNS alternating runs, CPU seconds (user+system); $(nproc) CPUs"
if want oplog; then
	log=$dir/oplog-$N.jsonl
	make_input "$log" "$GEN" "$N"
	echo "oplog $N ops $(pair t_log j_log "$log" "$TLCOST" flops "$log")" >> "$rows"
fi
if want trace; then
	tr=$dir/trace-$NE.json
	make_input "$tr" "$GEN_TRACE" "$NE"
	echo "trace $NE events $(pair t_tr j_tr "$tr" "$TLCOST" join "$tr")" >> "$rows"
fi
[ -s "$rows" ] && awk '
function mib(k) { return k / 1024 }
BEGIN {
	printf "%-34s %9s %9s %7s %10s %9s   %s\n", "input", "tlcost", "json_verify", "ratio", "peak RSS", "RSS/file", "targets"
}
{
	# $1 kind, $2 n, $3 unit; tlcost $4 wall $5 cpu $6 rss_kib;
	# json_verify $7 wall $8 cpu $9 rss_kib; $10 file bytes
	what = ($1 == "oplog") ? sprintf("%s-op log, %.0f MB (flops)", $2, $10 / 1e6) \
	                       : sprintf("%s-event trace, %.0f MB (join)", $2, $10 / 1e6)
	r = ($8 > 0) ? $5 / $8 : 0
	lim_r = $1 == "oplog" ? 0.5 : 0.6
	lim_m = $1 == "oplog" ? 16 : 150
	ok = (r > 0 && r <= lim_r) && mib($6) <= lim_m
	jv = ($8 > 0) ? sprintf("%.2fs", $8) : "n/a"
	rs = ($8 > 0) ? sprintf("%.2fx", r) : "n/a"
	rw = ($7 > 0) ? sprintf("%.2fx", $4 / $7) : "n/a"
	printf "%-34s %8.2fs %10s %6s %6.1f MiB %9.3f   <= %.1fx, <= %d MiB: %s\n", what, $5,
	       jv, rs, mib($6), $6 * 1024 / $10, lim_r, lim_m, (ok ? "ok" : "MISSED")
	printf "%-34s %8.2fs %9.2fs %6s   (wall time)\n", "", $4, $7, rw
	if ($1 == "oplog")
		printf "%-34s %8.2fM ops/s end to end (CPU time)\n", "", $2 / $5 / 1e6
}' "$rows"
have_jv || echo "bench: json_verify not found (Debian package yajl-tools): ratios not measured"
# profile with device time vs join, alternating, on the same trace (issue 25)
if want trace; then
	rm -f "$dir/t_pj.runs" "$dir/t_pp.runs"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		once t_pj "$TLCOST" join "$tr"
		once t_pp "$TLCOST" profile --device-time --by type "$tr"
		i=$((i + 1))
	done
	echo "$(median t_pp) $(median t_pj)" | awk -v n="$NE" '{
		r = ($5 > 0) ? $2 / $5 : 0
		printf "%-34s %8.2fs %8.2fs %6.2fx %6.1f MiB            <= 1.15x of join: %s\n",
		       sprintf("%s-event trace (profile/join)", n), $2, $5, r, $3 / 1024,
		       (r > 0 && r <= 1.15) ? "ok" : "MISSED" }'
fi

# real: the shared B200 trace (real Python frames, cpu_ops with long argument
# lists, kernels, runtime calls) replicated to NE events by
# tests/bench/replicate_trace.py (each copy a distinct step: times and ids
# shifted), beside the synthetic trace: join, flops, profile and annotate
# against json_verify -s on each file, CPU and peak RSS, all runs alternating
# (issue 24: join <= 0.6x json_verify -s and <= 150 MiB on both)
if want real; then
	syn=$dir/trace-$NE.json
	make_input "$syn" "$GEN_TRACE" "$NE"
	src=${SHARED:-}/traces/b200-eager-inference.json.gz
	real=$dir/trace-real-$NE.json
	if [ ! -s "$real" ] && [ -f "$src" ]; then
		echo "bench: writing $real ($src replicated to $NE events, tests/bench/replicate_trace.py)"
		python3 "$REPLICATE" "$src" "$NE" "$real.tmp" 2> "$real.info" && mv "$real.tmp" "$real" ||
			{ cat "$real.info" >&2; rm -f "$real.tmp"; exit 1; }
	fi
	if [ ! -s "$real" ]; then
		echo "real trace: not measured: $src not found (the shared traces; TLCOST_SHARED_DIR names their parent folder)"
	else
		ann=$dir/annotated-bench.json
		for k in syn real; do
			for c in join flops profile annotate jv; do rm -f "$dir/r_${k}_$c.runs"; done
		done
		i=0
		while [ "$i" -lt "$RUNS" ]; do
			for k in syn real; do
				eval "f=\$$k"
				once "r_${k}_join" "$TLCOST" join "$f"
				have_jv && once "r_${k}_jv" -i "$f" "$JSON_VERIFY" -s
				once "r_${k}_flops" "$TLCOST" flops "$f"
				once "r_${k}_profile" "$TLCOST" profile --device-time --by type "$f"
				once "r_${k}_annotate" "$TLCOST" annotate "$f" -o "$ann"
			done
			i=$((i + 1))
		done
		rm -f "$ann"
		have_jv || { echo "0 0 0" > "$dir/r_syn_jv.runs"; echo "0 0 0" > "$dir/r_real_jv.runs"; }
		for k in syn real; do
			eval "f=\$$k"
			echo "$k file $(wc -c < "$f") $(sed -n 's/.* = \([0-9]*\) events.*/\1/p' "$real.info" 2>/dev/null)"
			for c in jv join flops profile annotate; do echo "$k $c $(median "r_${k}_$c")"; done
		done | awk -v ne="$NE" '
		$2 == "file" { size[$1] = $3; if ($4 != "") nev[$1] = $4; next }
		{ cpu[$1, $2] = $4; rss[$1, $2] = $5 / 1024 }
		function cell(k, c) {
			r = cpu[k, "jv"] > 0 ? sprintf("%5.2fx", cpu[k, c] / cpu[k, "jv"]) : "  n/a"
			return sprintf("%7.2fs %s %6.1f MiB", cpu[k, c], r, rss[k, c])
		}
		END {
			printf "%-34s %-26s   %-26s\n", "both traces, vs json_verify -s",
			       sprintf("synthetic, %.0f MB", size["syn"] / 1e6),
			       sprintf("real B200 replica, %.0f MB", size["real"] / 1e6)
			printf "%-34s %-26s   %-26s\n", "(CPU, x json_verify -s, peak RSS)",
			       ne " events", (nev["real"] != "" ? nev["real"] : "?") " events"
			split("jv join flops profile annotate", cs, " ")
			name["jv"] = "json_verify -s"; name["join"] = "tlcost join"; name["flops"] = "tlcost flops"
			name["profile"] = "tlcost profile --device-time"; name["annotate"] = "tlcost annotate"
			for (i = 1; i <= 5; i++) {
				c = cs[i]
				line = sprintf("%-34s %s   %s", name[c], cell("syn", c), cell("real", c))
				if (c == "join") {
					ok = 1
					for (k in size)
						if (!(cpu[k, "jv"] > 0 && cpu[k, c] <= 0.6 * cpu[k, "jv"] && rss[k, c] <= 150))
							ok = 0
					line = line sprintf("   <= 0.6x, <= 150 MiB: %s", ok ? "ok" : "MISSED")
				}
				print line
			}
		}'
	fi
fi

# diff: `tlcost diff T T` (the trace read twice, as A and as B: two evaluations
# and two joins in memory, every row aligned) against one `tlcost join T`,
# alternating, side by side (issue 27: <= 2.2x CPU and <= 2.2x peak RSS)
if want diff; then
	tr=$dir/trace-$NE.json
	make_input "$tr" "$GEN_TRACE" "$NE"
	rm -f "$dir/t_diff.runs" "$dir/t_join1.runs"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		once t_diff "$TLCOST" diff --top 5 "$tr" "$tr"
		once t_join1 "$TLCOST" join "$tr"
		i=$((i + 1))
	done
	echo "$NE $(median t_diff) $(median t_join1)" | awk '{
		rc = $6 > 0 ? $3 / $6 : 0; rm = $7 > 0 ? $4 / $7 : 0
		printf "%-34s %8.2fs %8.2fs %6.2fx %6.1f MiB %6.1f MiB %5.2fx   <= 2.2x CPU, <= 2.2x RSS: %s\n",
		       sprintf("diff of two %s-event traces", $1), $3, $6, rc, $4 / 1024, $7 / 1024, rm,
		       (rc > 0 && rc <= 2.2 && rm <= 2.2) ? "ok" : "MISSED"
		printf "%-34s %9s %9s %7s %10s %10s %6s\n", "", "diff", "join", "CPU", "diff RSS", "join RSS", "RSS" }'
fi

# tlcost html against tlcost join on the same trace, alternating (issue 28:
# the page in at most 1.2x the CPU time of the join), without and with
# --device (ceilings: the roofline and the unique-args table with
# utilization are built too), and the pages' sizes
if want html; then
	tr=$dir/trace-$NE.json
	page=$dir/trace-$NE.html
	make_input "$tr" "$GEN_TRACE" "$NE"
	rm -f "$dir/t_html.runs" "$dir/t_htmld.runs" "$dir/t_hjoin.runs"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		once t_html "$TLCOST" html -o "$page" "$tr"
		once t_hjoin "$TLCOST" join "$tr"
		once t_htmld "$TLCOST" html --device h100-sxm -o "$page.d" "$tr"
		i=$((i + 1))
	done
	echo "$(median t_html) $(median t_hjoin) $(wc -c < "$page") $(median t_htmld) $(wc -c < "$page.d")" | awk '{
		r = $5 > 0 ? $2 / $5 : 0
		rd = $5 > 0 ? $9 / $5 : 0
		printf "%-34s %8.2fs %9.2fs %6.2fx %6.1f MiB   page %.2f MB   <= 1.2x of join: %s\n",
		       "html vs join, " n "-event trace", $2, $5, r, $3 / 1024, $7 / 1e6,
		       (r > 0 && r <= 1.2 ? "ok" : "MISSED")
		printf "%-34s %8.2fs %9.2fs %6.2fx %6.1f MiB   page %.2f MB   <= 1.2x of join: %s\n",
		       "html --device h100-sxm vs join", $9, $5, rd, $10 / 1024, $11 / 1e6,
		       (rd > 0 && rd <= 1.2 ? "ok" : "MISSED") }' n="$NE"
	rm -f "$page" "$page.d"
fi

if want steps; then
	# the same build's join on the same file, alternating (issue 25: steps
	# costs at most 1.15x the CPU time of join)
	trs=$dir/trace-steps-$NE.json
	if [ ! -s "$trs" ]; then
		echo "bench: writing $trs ($NE records, a ProfilerStep#N every 1000 blocks)"
		"$GEN_TRACE" "$NE" 1000 > "$trs.tmp"
		mv "$trs.tmp" "$trs"
	fi
	rm -f "$dir/t_steps.runs" "$dir/t_sjoin.runs"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		once t_steps "$TLCOST" steps "$trs"
		once t_sjoin "$TLCOST" join "$trs"
		i=$((i + 1))
	done
	echo "$(median t_steps) $(median t_sjoin)" | awk -v n="$NE" '{
		r = ($5 > 0) ? $2 / $5 : 0
		printf "%-34s %8.2fs %9.2fs %6.2fx   <= 1.15x of join (CPU): %s\n",
		       sprintf("%s-event trace, steps | join", n), $2, $5, r,
		       (r > 0 && r <= 1.15) ? "ok" : "MISSED"
		printf "%-34s %6.1f MiB %6.1f MiB (peak RSS, steps | join)\n", "", $3 / 1024, $6 / 1024 }'
fi
if want engine; then
	rm -f "$dir/engine.runs"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		"$ENGINE" "$N" | awk '{ print $3 }' >> "$dir/engine.runs"
		i=$((i + 1))
	done
	sort -n "$dir/engine.runs" | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)];
		printf "%-34s %8.2fM ops/s                               >= 15M ops/s: %s\n",
		       "engine alone, C API", m / 1e6, ((m >= 15e6) ? "ok" : "MISSED") }'
fi
if want python; then
	if [ -n "${BENCH_PYTHON:-}" ] && [ -f "$BENCH_PYTHON" ]; then
		python3 "$BENCH_PYTHON" "$N" | awk '{ printf "%-34s %8.2fM ops/s\n", "engine through Python", $3 / 1e6 }'
	else
		printf "%-34s %s\n" "engine through Python" "in the bench-python table below (tests/bench/python_capture.py: engine via binding)"
	fi
fi
if want callgrind; then
	if command -v valgrind > /dev/null 2>&1; then
		small=$dir/oplog-$NC.jsonl
		make_input "$small" "$GEN" "$NC"
		# (LTEXEC runs valgrind on the program behind libtool's wrapper script)
		t_ir=$($LTEXEC valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.tlcost.out" \
			"$TLCOST" flops "$small" 2>&1 > /dev/null | awk '/Collected :/ { print $NF }')
		j_ir=
		have_jv && j_ir=$(valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.jv.out" "$JSON_VERIFY" -s < "$small" 2>&1 > /dev/null |
			awk '/Collected :/ { print $NF }')
		echo "$NC $t_ir ${j_ir:-0}" | awk '{
			printf "%-34s %8.0fM instr  %8.0f per op", sprintf("callgrind, %d-op log", $1), $2 / 1e6, $2 / $1
			if ($3 > 0) printf "   json_verify -s: %.0fM instr, ratio %.2fx", $3 / 1e6, $2 / $3
			printf "\n" }'
		echo "  (profiles: $dir/callgrind.tlcost.out; callgrind_annotate shows where the instructions go)"
	else
		echo "callgrind: not measured: valgrind not found"
	fi
fi
rm -f "$rows" "$dir"/*.runs
