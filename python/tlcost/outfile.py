"""Every file the package writes goes through libtlcost's whole-or-nothing
output file (tlc_outfile_*, bound as _tlcost.OutFile), so Python follows
the C command's rules: regular files only (a device node, FIFO or
directory is refused with output_open_failed before anything is written),
a temporary beside the destination with the mode 0666 less the umask,
fsync and rename when the whole output was written, and on any failure
(output_write_failed) the old file as it was."""

import contextlib
import os

import _tlcost


@contextlib.contextmanager
def atomic(path):
    """``with atomic(path) as f: f.write(bytes)``: the file appears whole
    when the block ends, or not at all when it raises (tlcost.FileError:
    output_open_failed, output_write_failed)."""
    out = _tlcost.OutFile(os.fspath(path))
    try:
        yield out
    except BaseException:
        out.abort()
        raise
    out.commit()


def write_text(path, text: str) -> None:
    """Writes text (UTF-8) to path, whole or not at all."""
    with atomic(path) as f:
        f.write(text.encode("utf-8"))
