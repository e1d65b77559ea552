"""Every ```python block of the pages below runs (but a block that opens
with `# NAME.py`, a module file the page tells the reader to save: it is
written beside the examples), twice: in order, in one
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
PAGES = {"python.md": 6, "distributed.md": 1, "capture.md": 1}
SCRIPT_TIMEOUT = 300   # seconds per page run as a script


MODULE = re.compile(r"\A# (\w+\.py)\n")


def blocks_of(page):
    """The page's python blocks to run, and its module files: a block whose
    first line is `# NAME.py` is a file the reader saves (docs/capture.md's
    mymodel.py), written into the scratch directory, not run."""
    with open(os.path.join(tlctest.SRC, "docs", page)) as f:
        text = f.read()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    files = {MODULE.match(b).group(1): b for b in blocks if MODULE.match(b)}
    return [b for b in blocks if not MODULE.match(b)], files


def scratch(files):
    work = tlctest.tmpdir()
    for name, root in (("tests", tlctest.SRC), ("examples", tlctest.SRC),
                       ("plugins", tlctest.BUILD)):
        os.symlink(os.path.join(os.path.abspath(root), name), os.path.join(work, name))
    for name, text in files.items():
        with open(os.path.join(work, name), "w") as f:
            f.write(text)
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
            blocks, files = blocks_of(page)
            self.assertGreaterEqual(len(blocks), least, page)
            if needs_dask(blocks) and not have_dask():
                print("note: %s skipped: Dask distributed is not importable" % page)
                continue
            yield page, blocks, files

    def test_examples_run_in_one_namespace(self):
        for page, blocks, files in self.pages():
            work = scratch(files)
            old = os.getcwd()
            os.chdir(work)
            sys.path.insert(0, work)   # the page's module files, as a script finds them
            ns = {"__name__": "__main__"}
            try:
                for i, code in enumerate(blocks):
                    with self.subTest(page=page, block=i):
                        try:
                            exec(compile(code, "docs/%s block %d" % (page, i), "exec"), ns)
                        except SystemExit as e:   # a script's sys.exit(main(...))
                            self.assertIn(e.code, (0, None))
            finally:
                sys.path.remove(work)
                os.chdir(old)
                sys.stdout.flush()

    def test_examples_run_as_scripts(self):
        for page, blocks, files in self.pages():
            with self.subTest(page=page):
                work = scratch(files)
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
