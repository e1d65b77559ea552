#!/bin/sh
# Output snapshot for structural changes (issue 24): runs every read-only
# command on every example, fixture and shared trace and writes one file per
# (command, input) holding the exit status, stdout and stderr, so two
# snapshots (before and after a change) compare with `diff -r`.
#
#   tools/snapshot_outputs.sh TLCOST OUTDIR [SHARED_TRACES_DIR]
#
# TLCOST is the tlcost binary (or libtool wrapper) to run; it is run from the
# source tree (inputs are named relative to it, so the outputs match between
# checkouts; the merged partials are named p1.json, p2.json). Inputs larger than SNAPSHOT_MAX_BYTES (default 3 MB, gzip
# size) are skipped. Nothing here writes outside OUTDIR.
set -u
tl=$1; out=$2; shared=${3:-../shared/traces}; cwd=
max=${SNAPSHOT_MAX_BYTES:-3000000}
mkdir -p "$out"
case $tl in /*) ;; */*) tl=$(pwd)/$tl ;; esac
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

inputs() {
    find examples tests/fixtures -type f \( -name '*.jsonl' -o -name '*.jsonl.gz' \
        -o -name '*.json' -o -name '*.json.gz' \) | LC_ALL=C sort
    [ -d "$shared" ] && find "$shared" -type f -name '*.json*' | LC_ALL=C sort
}

# one (command, input) -> one file: a name made from both
snap() {   # snap TAG INPUT ARGS...
    tag=$1; in=$2; shift 2
    name=$(printf '%s__%s' "$tag" "$in" | sed 's#^\.\./##; s#[/ ]#_#g')
    # partials are merged from inside $tmp, so their names are the same in
    # every run (p1.json, not /tmp/tmp.XXXX/p1.json)
    (cd "${cwd:-.}" && "$tl" "$@") >"$tmp/o" 2>"$tmp/e"; rc=$?
    { echo "rc=$rc"; echo "--- stdout"; cat "$tmp/o"; echo "--- stderr"; cat "$tmp/e"; } \
        >"$out/$name"
}

inputs | while read -r f; do
    sz=$(wc -c <"$f")
    [ "$sz" -gt "$max" ] && { echo "skip $f ($sz bytes)" >>"$out/_skipped"; continue; }
    for fmt in text json; do
        snap "flops.$fmt" "$f" --format $fmt flops "$f"
        snap "ledger.$fmt" "$f" --format $fmt ledger "$f"
    done
    for fmt in text json csv; do
        snap "tree.$fmt" "$f" --format $fmt tree "$f"
        for by in op type module; do
            snap "profile.$by.$fmt" "$f" --format $fmt profile --by $by --top 0 "$f"
        done
        snap "roofline.$fmt" "$f" --format $fmt roofline --device h100-sxm "$f"
        snap "mfu.$fmt" "$f" --format $fmt mfu --device h100-sxm --step-seconds 1 "$f"
        snap "report.$fmt" "$f" --format $fmt report --device h100-sxm "$f"
        snap "join.$fmt" "$f" --format $fmt join "$f"
        # what `tlcost html` shares passes with (issue 28): the steps, a
        # profile cut by --top, and the unique-args table with utilization
        snap "steps.$fmt" "$f" --format $fmt steps "$f"
        snap "profile.op.top25.$fmt" "$f" --format $fmt profile --by op "$f"
        snap "profile.args.util.$fmt" "$f" --format $fmt profile --by args --utilization \
            --device h100-sxm --top 100 "$f"
    done
    snap "roofline.hdr" "$f" roofline "$f"
    # a flops partial and a join partial, merged with themselves under two names
    "$tl" --format json flops "$f" >"$tmp/p1.json" 2>/dev/null && cp "$tmp/p1.json" "$tmp/p2.json" &&
        { cwd=$tmp; snap "merge.flops" "$f" --format json merge p1.json p2.json; cwd=; }
    "$tl" --format json join "$f" >"$tmp/j1.json" 2>/dev/null && cp "$tmp/j1.json" "$tmp/j2.json" &&
        { cwd=$tmp; snap "merge.join" "$f" merge j1.json j2.json; cwd=; }
done
# ranks over the shared traces (each a rank) and over the trace fixtures
for fmt in text json csv; do
    ls "$shared"/*.json.gz >/dev/null 2>&1 &&
        snap "ranks.$fmt" shared --format $fmt ranks "$shared"
    snap "ranks.$fmt" fixtures_trace --format $fmt ranks tests/fixtures/trace
done
snap "rules.text" none rules
snap "rules.json" none --format json rules
snap "devices.text" none devices
snap "devices.json" none --format json devices
