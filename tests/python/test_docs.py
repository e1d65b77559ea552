"""Every ```python block of the pages below runs, twice: in order, in one
namespace of this process (the asserts in the blocks are the checks:
published MACs, byte identity, rule counts), and as what a reader would
save and run, one standalone script per page (the page's blocks in order)
under a time limit, so an example that only works inside the test (such as
a Dask LocalCluster without the `if __name__ == "__main__":` guard, which
never ends as a script) fails here. Both run in a scratch directory holding
links to the source tree's tests/ and examples/ and the build tree's
plugins/."""

import os
import re
import subprocess
import sys

import tlctest

tlctest.need_torch()

#: page -> the fewest blocks it has (a page that lost its examples fails)
PAGES = {"python.md": 6, "distributed.md": 1}
SCRIPT_TIMEOUT = 300   # seconds per page run as a script


def blocks_of(page):
    with open(os.path.join(tlctest.SRC, "docs", page)) as f:
        text = f.read()
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


def scratch():
    work = tlctest.tmpdir()
    for name, root in (("tests", tlctest.SRC), ("examples", tlctest.SRC),
                       ("plugins", tlctest.BUILD)):
        os.symlink(os.path.join(os.path.abspath(root), name), os.path.join(work, name))
    return work


def needs_dask(blocks):
    return any("distributed" in b for b in blocks)


def have_dask():
    try:
        import distributed  # noqa: F401
        return True
    except ImportError:
        return False


class Docs(tlctest.unittest.TestCase):
    def pages(self):
        for page, least in PAGES.items():
            blocks = blocks_of(page)
            self.assertGreaterEqual(len(blocks), least, page)
            if needs_dask(blocks) and not have_dask():
                print("note: %s skipped: Dask distributed is not importable" % page)
                continue
            yield page, blocks

    def test_examples_run_in_one_namespace(self):
        for page, blocks in self.pages():
            work = scratch()
            old = os.getcwd()
            os.chdir(work)
            ns = {"__name__": "__main__"}
            try:
                for i, code in enumerate(blocks):
                    with self.subTest(page=page, block=i):
                        try:
                            exec(compile(code, "docs/%s block %d" % (page, i), "exec"), ns)
                        except SystemExit as e:   # a script's sys.exit(main(...))
                            self.assertIn(e.code, (0, None))
            finally:
                os.chdir(old)
                sys.stdout.flush()

    def test_examples_run_as_scripts(self):
        for page, blocks in self.pages():
            with self.subTest(page=page):
                work = scratch()
                script = os.path.join(work, page.replace(".md", "_example.py"))
                with open(script, "w") as f:
                    f.write("\n".join(blocks))
                try:
                    r = subprocess.run([sys.executable, script], cwd=work, capture_output=True,
                                       text=True, timeout=SCRIPT_TIMEOUT)
                except subprocess.TimeoutExpired:
                    self.fail("docs/%s as a script did not end in %d s" % (page, SCRIPT_TIMEOUT))
                self.assertEqual(r.returncode, 0, "docs/%s as a script:\n%s" % (page, r.stderr))


if __name__ == "__main__":
    tlctest.main()
