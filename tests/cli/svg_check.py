#!/usr/bin/env python3
"""Checks a roofline SVG written by `tlcost roofline --svg`.

usage: svg_check.py CHART.svg ROOFLINE.csv

Well-formed XML; exactly one point (circle class="op") per covered op of the
CSV written by `tlcost --format csv roofline` for the same input, with the
same op ids; a memory ceiling and at least one compute ceiling; labelled
ticks on both axes; a legend; a title that says these are hypotheses from
ideal traffic."""
import csv
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("svg_check: FAIL: " + msg)
    sys.exit(1)


def main():
    svg, table = sys.argv[1], sys.argv[2]
    root = ET.parse(svg).getroot()  # raises on malformed XML
    if root.tag != NS + "svg":
        fail("root element is %s, not svg" % root.tag)
    covered = set()
    with open(table, newline="") as f:
        for row in csv.DictReader(f):
            if row["reason"] == "covered":
                covered.add(row["id"])
    points = [e for e in root.iter(NS + "circle") if e.get("class") == "op"]
    ids = [p.get("data-id") for p in points]
    if len(ids) != len(covered) or set(ids) != covered:
        fail("%d points for %d covered ops" % (len(ids), len(covered)))
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    if "ceiling-memory" not in by_id:
        fail("no memory ceiling")
    if not any(i.startswith("ceiling-compute-") for i in by_id):
        fail("no compute ceiling")
    for axis in ("tick-x", "tick-y"):
        ticks = [e for e in root.iter(NS + "text") if e.get("class") == axis]
        if len(ticks) < 2 or any(not (t.text or "").strip() for t in ticks):
            fail("axis %s lacks labelled ticks" % axis)
    if "legend" not in by_id:
        fail("no legend")
    title = by_id.get("title")
    if title is None or "HYPOTHESES from ideal traffic" not in (title.text or ""):
        fail("the title does not say these are hypotheses from ideal traffic")
    print("svg_check: ok: %d points, ceilings present" % len(ids))


if __name__ == "__main__":
    main()
