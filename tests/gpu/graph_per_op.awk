# Kernels per op name, and how many op rows hold them, from a
# `tlcost join --format csv` of tests/gpu/e2e.cu's --graph case (capture
# pairing adds the captured ops once per replay, with ids of their own).
# Columns are counted from the end of the row (status, op_id, op_name,
# group), the op name unquoted. Prints one line:
#   aten::add:K/R aten::addmm:K/R aten::gelu:K/R ambiguous:N bad:N
# Used by tests/gpu/check-gpu.sh (on a GPU) and tests/cupti/graph_join.sh
# (on logs built from hand-made buffers): one count, two callers.
BEGIN { FS = "," }
NR > 1 && $2 == "kernel" {
	st = $(NF - 3); id = $(NF - 2); nm = $(NF - 1); gsub(/"/, "", nm)
	if (st == "attributed") { n[nm]++; if (!seen[nm "/" id]++) rows[nm]++ }
	else if (st == "ambiguous") amb++
	else bad++
}
END {
	split("aten::add aten::addmm aten::gelu", names, " ")
	for (i = 1; i <= 3; i++) printf "%s:%d/%d ", names[i], n[names[i]], rows[names[i]]
	printf "ambiguous:%d bad:%d\n", amb, bad
}
