#!/usr/bin/env python3
"""Helper of tests/cli/output_cli.sh: the checks that need a closed pipe or a
file-size limit. argv: TLCOST TRACE OPLOG TMPDIR; stdin: the command table
of output_cli.sh ("ARGS|fmt,fmt" lines). Exit 1 on any failure."""
import os
import resource
import signal
import subprocess
import sys

tlcost, trace, oplog, tmp = sys.argv[1:5]
fails = []


def ignore_sigpipe():
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)


def closed_pipe(args):
    """Runs tlcost with stdout a pipe whose read end is already closed, and
    SIGPIPE ignored: every write fails with EPIPE."""
    r, w = os.pipe()
    os.close(r)
    p = subprocess.run([tlcost] + args, stdout=w, stderr=subprocess.PIPE,
                       preexec_fn=ignore_sigpipe)
    os.close(w)
    return p.returncode, p.stderr.decode(errors="replace")


for line in sys.stdin.read().splitlines():
    args, fmts = line.split("|")
    for f in fmts.split(","):
        rc, err = closed_pipe(["--format", f] + args.split())
        if rc != 3 or "output_write_failed" not in err:
            fails.append("%s (%s) into a closed pipe, SIGPIPE ignored: exit %d: %s"
                         % (args, f, rc, err.strip()[:200]))


def limited(nbytes, ignore_xfsz):
    def pre():
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))
        if ignore_xfsz:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return pre


def interrupted_save(cmd, path, what):
    """An old file of 200 bytes (below the limit), then a save of more than
    the limit: killed by SIGXFSZ, then failing with EFBIG."""
    old = b"old good content\n" * 12
    for ignore in (False, True):
        with open(path, "wb") as f:
            f.write(old)
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           preexec_fn=limited(1000, ignore))
        kind = "failed (EFBIG)" if ignore else "killed (SIGXFSZ)"
        if ignore and p.returncode != 3:
            fails.append("%s %s: exit %d, expected 3" % (what, kind, p.returncode))
        if not ignore and p.returncode != -signal.SIGXFSZ:
            fails.append("%s %s: not killed (exit %d): the save is not above the limit?"
                         % (what, kind, p.returncode))
        with open(path, "rb") as f:
            if f.read() != old:
                fails.append("%s %s: the old file was not kept whole" % (what, kind))
        left = [n for n in os.listdir(os.path.dirname(path)) if ".tmp-" in n]
        if ignore and left:
            fails.append("%s %s: temporary file left: %s" % (what, kind, left))
        for n in left:
            os.unlink(os.path.join(os.path.dirname(path), n))
    # and an unlimited save replaces it
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with open(path, "rb") as f:
        if p.returncode != 0 or f.read() == old:
            fails.append("%s: an unlimited save did not replace the file" % what)


d = os.path.join(tmp, "saves")
os.mkdir(d)
interrupted_save([tlcost, "join", "--save", os.path.join(d, "saved.jsonl"), trace],
                 os.path.join(d, "saved.jsonl"), "join --save")
interrupted_save([tlcost, "roofline", "--device", "h100-sxm", "--svg",
                  os.path.join(d, "chart.svg"), oplog], os.path.join(d, "chart.svg"),
                 "roofline --svg")

for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
