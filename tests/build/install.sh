#!/bin/sh
# The README's Install section, run as printed (the lines between
# <!-- install-begin --> and <!-- install-end -->).
#
# Default (make check): a staged install of this build (make install
# DESTDIR=...), then every README line after `make install` against it, with
# pkg-config's sysroot pointing into the stage.
# TLCOST_INSTALL_TEST=full (CI): the whole sequence in a clean copy of the
# sources (make distdir): configure/build/install into one prefix, then
# ./configure --prefix=ANOTHER && make && make install (a changed prefix must
# relink, not fail), then the remaining lines against the second prefix.
#
# Expected output, worked by hand: examples/custom_gelu.oplog.jsonl has two
# mylib::fused_gelu calls on a [2,64] float32 tensor; the example plugin
# counts erf-GELU at 5 FLOPs per element (docs/plugin-guide.md):
# 2 * 128 * 5 = 1,280.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
# A sanitizer build (.ci/run's ASan+UBSan stage) cannot be linked by a plain
# cc as the README does: the plain build runs this test.
tlc_skip_sanitized
tlc_tmpdir install
fail() { echo "FAIL: $*" >&2; exit 1; }

sed -n '/<!-- install-begin -->/,/<!-- install-end -->/p' "$top_srcdir/README.md" |
	grep -v '^<!--\|^```' > "$tmp/readme.sh"
[ -s "$tmp/readme.sh" ] || fail "no install block in README.md"
grep -q '^PREFIX=' "$tmp/readme.sh" || fail "the install block does not start with PREFIX="
build_line=$(grep -n 'make install' "$tmp/readme.sh" | head -1 | cut -d: -f1)
[ -n "$build_line" ] || fail "no make install line in the install block"
# the lines after the build, with PREFIX taken from the environment
tail -n +"$((build_line + 1))" "$tmp/readme.sh" > "$tmp/use.sh"

check_output() { # LOG
	grep -q "^forward FLOPs: .* (library " "$1" || fail "api_flops printed no total"
	grep -q "coverage is COMPLETE" "$1" || fail "the plugin did not make the example COMPLETE"
	grep -q "mylib::fused_gelu" "$1" || fail "no fused_gelu row"
	grep -q "mylib::fused_gelu.default  *2  *1,280  *known" "$1" ||
		fail "fused_gelu is not 1,280 FLOPs (5 per element, two calls on [2,64])"
}

if [ "${TLCOST_INSTALL_TEST:-quick}" = full ]; then
	command -v autoreconf >/dev/null || { echo "autoreconf missing"; exit 77; }
	(cd "$top_builddir" && make distdir distdir="$tmp/src" >/dev/null) || fail "make distdir"
	cd "$tmp/src" || exit 1
	# the README's build line, into a first prefix, then the bug scenario:
	# configure again with a different prefix, rebuild, install
	head -n "$build_line" "$tmp/readme.sh" | sed "s|^PREFIX=.*|PREFIX=$tmp/first|" > "$tmp/build1.sh"
	sh -e "$tmp/build1.sh" >"$tmp/build1.log" 2>&1 || { tail -30 "$tmp/build1.log"; fail "README build into $tmp/first"; }
	(./configure --prefix="$tmp/second" -q && make -j2 && make install) >"$tmp/build2.log" 2>&1 ||
		{ tail -30 "$tmp/build2.log"; fail "reconfigure with another prefix, make, make install"; }
	PREFIX=$tmp/second
	export PREFIX
	(echo 'set -e'; cat "$tmp/use.sh") > "$tmp/use2.sh"
	sh "$tmp/use2.sh" >"$tmp/use.log" 2>&1 || { cat "$tmp/use.log"; fail "README lines after make install"; }
	cat "$tmp/use.log"
	check_output "$tmp/use.log"
	[ -x "$tmp/first/bin/tlcost" ] || fail "nothing installed into the first prefix"
	# the rule packs work from a tree made by make distdir (embedded in
	# libtlcost) and are installed for reading (docs/packs.md)
	[ -f "$tmp/second/share/tlcost/packs/aiter.tlrules" ] || fail "packs not installed"
	"$tmp/second/bin/tlcost" rules | grep -q "pack:aiter" || fail "installed tlcost has no pack:aiter rules"
	echo "ok: README install, reconfigure to another prefix, plugin and program (full)"
	exit 0
fi

[ -x "$top_builddir/tlcost" ] || { echo "not built"; exit 77; }
command -v pkg-config >/dev/null || { echo "pkg-config missing"; exit 77; }
prefix=$(sed -n 's/^prefix=//p' "$top_builddir/tlcost.pc")
libdir=$(sed -n 's/^libdir=//p' "$top_builddir/tlcost.pc")
[ "$libdir" = "\${exec_prefix}/lib" ] || [ "$libdir" = "$prefix/lib" ] ||
	{ echo "libdir is not PREFIX/lib: the README lines assume it"; exit 77; }
stage=$tmp/stage
(cd "$top_builddir" && make install DESTDIR="$stage" >"$tmp/install.log" 2>&1) ||
	{ tail -20 "$tmp/install.log"; fail "make install DESTDIR=..."; }
for f in bin/tlcost include/tlcost/tlcost.h include/tlcost/version.h include/tlcost/eval.h \
         lib/pkgconfig/tlcost.pc lib/libtlcost.so \
         share/tlcost/packs/sglang.tlrules share/tlcost/packs/aiter.tlrules \
         share/tlcost/packs/vllm.tlrules; do
	[ -e "$stage$prefix/$f" ] || fail "not installed: $f"
done
cd "$top_srcdir" || exit 1
work=$tmp/work
mkdir "$work"
# run where the README runs (the source root) but write into $work
sed -e "s|-o fused_gelu.so|-o $work/fused_gelu.so|" -e "s|--plugin ./fused_gelu.so|--plugin $work/fused_gelu.so|" \
	-e "s|-o api_flops |-o $work/api_flops |" -e "s|^\./api_flops |$work/api_flops |" "$tmp/use.sh" > "$tmp/use_q.sh"
PREFIX=$stage$prefix PKG_CONFIG_SYSROOT_DIR=$stage
export PREFIX PKG_CONFIG_SYSROOT_DIR
(echo 'set -e'; cat "$tmp/use_q.sh") > "$tmp/use_q2.sh"
sh "$tmp/use_q2.sh" >"$tmp/use.log" 2>&1 || { cat "$tmp/use.log"; fail "README lines after make install"; }
cat "$tmp/use.log"
check_output "$tmp/use.log"
echo "ok: README install lines against a staged install"
