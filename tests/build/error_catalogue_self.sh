#!/bin/sh
# tools/error_catalogue.py on a made-up source tree whose right answer is
# known by reading it: a remedy_for(code) test chained with `||` gives its
# remedy to every code of the chain (it once gave it to the last only), and
# a message buffer written twice gives each raise the text written last
# before it (it once gave every raise the function's last text), and a code
# chosen by a ternary (`c ? "eps_bad" : "zeta_bad"`) lists both codes, each
# with its own remedy (it once listed neither: trace_truncated was missing
# from docs/errors.md). Skips without python3.
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_tmpdir error-catalogue-self
mkdir -p "$tmp/engine" "$tmp/tests"
cat > "$tmp/engine/r.c" <<'C'
static const char *remedy_for(const char *code)
{
	if (strcmp(code, "alpha_bad") == 0 || strcmp(code, "beta_bad") == 0)
		return "remedy of alpha and beta";
	if (!strcmp(code, "gamma_bad"))
		return "remedy of gamma";
	if (!strcmp(code, "eps_bad"))
		return "remedy of eps";
	return "the default remedy";
}

static int limits(reader *r)
{
	char msg[100];
	if (r->a) {
		snprintf(msg, sizeof msg, "first text %d", r->a);
		return fail(r, TLC_EINPUT, "alpha_bad", msg);
	}
	if (r->b) {
		snprintf(msg, sizeof msg, "second text %d", r->b);
		return fail(r, TLC_EINPUT, "beta_bad", msg);
	}
	if (r->c)
		return fail(r, TLC_EINPUT, "gamma_bad", "third text");
	if (r->e)
		return fail(r, TLC_EPARSE, r->d > 0 || r->n == 0 ? "eps_bad" : "zeta_bad",
		            "fifth text");
	return fail(r, TLC_EINPUT, "delta_bad", "fourth text");
}

static int fail(reader *r, int klass, const char *code, const char *msg)
{
	return tlc_error__set(klass, code, remedy_for(code), "%s", msg);
}
C
echo 'alpha_bad beta_bad gamma_bad delta_bad eps_bad zeta_bad' > "$tmp/tests/names.sh"
python3 "$top_srcdir/tools/error_catalogue.py" --srcdir "$tmp" --output "$tmp/out.md" --check || {
	echo "FAIL: the catalogue tool failed on the made-up tree"; exit 1; }
status=0
# row CODE MESSAGE REMEDY: the code's table row must hold both texts
row() {
	line=$(grep "^| \`$1\` |" "$tmp/out.md")
	case "$line" in *"$2"*"$3"*) ;; *)
		echo "FAIL: $1 should list message '$2' and remedy '$3'; its row: $line"; status=1 ;;
	esac
	for other in "first text" "second text" "third text" "fourth text" "fifth text"; do
		case "$2" in "$other"*) continue ;; esac
		case "$line" in *"$other"*)
			echo "FAIL: $1 lists another raise's message '$other': $line"; status=1 ;;
		esac
	done
}
row alpha_bad "first text %d" "remedy of alpha and beta"
row beta_bad "second text %d" "remedy of alpha and beta"
row gamma_bad "third text" "remedy of gamma"
row delta_bad "fourth text" "the default remedy"
row eps_bad "fifth text" "remedy of eps"
row zeta_bad "fifth text" "the default remedy"
[ $status = 0 ] && echo "error catalogue: chained remedies and rewritten buffers attributed to each code"
exit $status
