"""docs/python.md: every ```python block runs, in order, in one namespace
(the asserts in the blocks are the checks: published MACs, byte identity,
rule counts); run in a scratch directory holding links to the source
tree's tests/ and examples/ and the build tree's plugins/."""

import os
import re
import sys

import tlctest

tlctest.need_torch()


class Docs(tlctest.unittest.TestCase):
    def test_examples_run(self):
        with open(os.path.join(tlctest.SRC, "docs", "python.md")) as f:
            text = f.read()
        blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
        self.assertGreaterEqual(len(blocks), 6)
        work = tlctest.tmpdir()
        for name, root in (("tests", tlctest.SRC), ("examples", tlctest.SRC),
                           ("plugins", tlctest.BUILD)):
            os.symlink(os.path.join(os.path.abspath(root), name), os.path.join(work, name))
        old = os.getcwd()
        os.chdir(work)
        ns = {"__name__": "__docs__"}
        try:
            for i, code in enumerate(blocks):
                with self.subTest(block=i):
                    exec(compile(code, "docs/python.md block %d" % i, "exec"), ns)
        finally:
            os.chdir(old)
            sys.stdout.flush()


if __name__ == "__main__":
    tlctest.main()
