/* tlcost html: the page's script (embedded by tools/html_embed.awk).
 * It lays out the JSON documents embedded in the page (written by the same
 * writers as `tlcost ... --format json`) and computes no figure: numbers
 * are shown as the documents hold them (integers grouped by thousands,
 * exact at any size), or rounded for display where a document holds a
 * ratio. Names from traces are untrusted: everything is inserted as text.
 * Opened with ?selftest, it clicks its own sort, filter and collapse
 * controls and records what happened in <pre id="tlc-selftest">. */
'use strict';
(function () {
  var ERRORS = [];
  window.addEventListener('error', function (e) { ERRORS.push(String(e.message)); });

  /* ---- documents ---- */
  /* Integers of 16 digits or more are read as strings, so no total is
   * rounded to a double; digits after a '.' or in an exponent stay numbers. */
  var BIG = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![.eE\d])/g;
  function parseExact(text) {
    return JSON.parse(text.replace(BIG, function (m) { return m.charAt(0) === '"' ? m : '"' + m + '"'; }));
  }
  function docs(input) {
    var out = {}, absent = {};
    var list = document.querySelectorAll('#tlc-docs .tlc-doc[data-input="' + input + '"]');
    for (var i = 0; i < list.length; i++) {
      var d = list[i], id = d.getAttribute('data-doc');
      if (d.hasAttribute('data-absent')) { absent[id] = d.getAttribute('data-absent'); continue; }
      if (d.tagName === 'SCRIPT') out[id] = parseExact(d.textContent);
      else if (d.tagName === 'PRE') out[id] = d.textContent;
      else out[id] = d;
    }
    return { doc: out, absent: absent };
  }

  /* ---- elements ---- */
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
    return parent;
  }
  function isInt(v) { return (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v)); }
  function group(v) {
    var s = String(v), neg = s.charAt(0) === '-';
    if (neg) s = s.slice(1);
    return (neg ? '-' : '') + s.replace(/\B(?=(\d{3})+$)/g, ',');
  }
  function fmt(v, t) {
    if (v === null || v === undefined) return t === 'int' || t === 'num' || t === 'share' || t === 'tera' ? 'unknown' : '';
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    if (t === 'ns' && isInt(v)) return group(v) + ' ns';
    if (t === 'pct' && typeof v === 'number') return v.toPrecision(3) + '%';
    if (t === 'share' && typeof v === 'number') return (v * 100).toPrecision(3) + '%';
    if (t === 'tera' && typeof v === 'number') return (v / 1e12).toFixed(3); /* FLOP/s, B/s shown as T.../s */
    if (t === 'permille' && isInt(v)) return (Number(v) / 10).toFixed(1) + '%';
    if (isInt(v)) return group(v);
    if (typeof v === 'number') return Math.abs(v) >= 1e6 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : String(+v.toPrecision(6));
    if (Array.isArray(v)) return v.map(function (x) { return fmt(x); }).join(', ');
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
  }
  function section(page, id, title) {
    var s = add(el('section', 'tlc-sec'), el('h2', null, title));
    s.id = id;
    page.appendChild(s);
    return s;
  }
  function absentNote(sec, why) { add(sec, el('p', 'tlc-absent', 'Not shown: ' + why)); }
  function card(box, k, v, attrs) {
    var c = add(el('div', 'tlc-card'), el('div', 'k', k));
    var vv = add(c, el('div', 'v', v));
    vv = c.lastChild;
    for (var a in attrs || {}) vv.setAttribute(a, attrs[a]);
    box.appendChild(c);
    return vv;
  }

  /* ---- the one table: sortable by any column, optionally filtered ---- */
  function cmp(a, b, t) {
    var an = a === null || a === undefined, bn = b === null || b === undefined;
    if (an || bn) return an === bn ? 0 : an ? 1 : -1;
    if (isInt(a) && isInt(b)) { var x = BigInt(a), y = BigInt(b); return x < y ? -1 : x > y ? 1 : 0; }
    if (t !== 'str' && typeof a !== 'string' && typeof b !== 'string') return a < b ? -1 : a > b ? 1 : 0;
    return String(a).localeCompare(String(b));
  }
  /* cols: [{k: key, label, t: 'int'|'num'|'ns'|'pct'|'permille'|'str', cls}] */
  function table(cols, rows, opts) {
    opts = opts || {};
    var wrap = el('div', 'tlc-table');
    var t = el('table', 'tlc-t'), thead = el('thead'), hr = el('tr'), tb = el('tbody');
    var trs = [];
    cols.forEach(function (c, ci) {
      var th = el('th', (c.t && c.t !== 'str' ? 'n ' : '') + (opts.sortable === false ? '' : 'sortable'), c.label);
      th.setAttribute('data-key', c.k);
      if (opts.sortable !== false) th.addEventListener('click', function () { sortBy(ci, th); });
      hr.appendChild(th);
    });
    rows.forEach(function (r, ri) {
      var tr = el('tr');
      tr._row = r;
      tr._i = ri;
      cols.forEach(function (c) {
        var v = c.get ? c.get(r) : r[c.k];
        var td = el('td', c.cls || (c.t && c.t !== 'str' ? 'n' : ''), fmt(v, c.t));
        if (isInt(v)) td.setAttribute('data-value', String(v));
        else if (typeof v === 'number') td.setAttribute('data-number', String(v));
        td.setAttribute('data-key', c.k);
        tr.appendChild(td);
      });
      if (opts.onRow) opts.onRow(tr, r);
      trs.push(tr);
      tb.appendChild(tr);
    });
    function sortBy(ci, th) {
      var c = cols[ci], dir = th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending';
      hr.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir);
      var s = dir === 'descending' ? -1 : 1;
      var get = function (tr) { return c.get ? c.get(tr._row) : tr._row[c.k]; };
      trs.sort(function (a, b) {
        var va = get(a), vb = get(b), an = va === null || va === undefined, bn = vb === null || vb === undefined;
        if (an || bn) return an === bn ? a._i - b._i : an ? 1 : -1; /* unknown last either way */
        return s * cmp(va, vb, c.t) || a._i - b._i;
      });
      trs.forEach(function (tr) { tb.appendChild(tr); });
    }
    add(thead, hr);
    add(t, thead, tb);
    if (opts.filter) {
      var f = el('input', 'tlc-filter');
      f.type = 'search';
      f.placeholder = 'filter: ' + opts.filter;
      f.addEventListener('input', function () {
        var q = f.value.toLowerCase();
        trs.forEach(function (tr) {
          var hay = cols.filter(function (c) { return !c.t || c.t === 'str'; })
            .map(function (c) { return String((c.get ? c.get(tr._row) : tr._row[c.k]) || ''); }).join(' ').toLowerCase();
          tr.style.display = !q || hay.indexOf(q) >= 0 ? '' : 'none';
        });
      });
      wrap.appendChild(f);
    }
    add(wrap, add(el('div', opts.scroll === false ? '' : 'tlc-scroll'), t));
    wrap._table = t;
    return wrap;
  }
  var COLS = {
    key: { k: 'key', label: 'name', t: 'str', cls: 'name' },
    phase: { k: 'phase', label: 'phase', t: 'str' },
    module: { k: 'module', label: 'module', t: 'str', cls: 'name' },
    klass: { k: 'class', label: 'class', t: 'str' },
    count: { k: 'count', label: 'count', t: 'int' },
    unknown: { k: 'unknown', label: 'unknown', t: 'int' },
    flops: { k: 'flops', label: 'FLOPs', t: 'int' },
    bytes: { k: 'bytes', label: 'bytes', t: 'int' },
    intensity: { k: 'intensity', label: 'FLOP/B', t: 'num' }
  };
  /* Columns of a profile document: the fixed ones, then every time figure it holds. */
  function profileCols(rows, by) {
    var cols = [COLS.key];
    if (by === 'op') cols.push(COLS.phase, COLS.module, COLS.klass);
    cols.push(COLS.count, COLS.unknown, COLS.flops, COLS.bytes, COLS.intensity);
    var seen = {};
    rows.forEach(function (r) { Object.keys(r).forEach(function (k) { if (/_ns$/.test(k)) seen[k] = 1; }); });
    Object.keys(seen).forEach(function (k) { cols.push({ k: k, label: k.replace(/_ns$/, '').replace(/_/g, ' ') + ' (ns)', t: 'int' }); });
    if (rows.length && 'attribution_status' in rows[0]) cols.push({ k: 'attribution_status', label: 'attribution', t: 'str' });
    return cols;
  }
  /* Scalar columns of an array of objects (ranks, unknown documents). */
  function genericCols(rows) {
    var cols = [], seen = {};
    rows.forEach(function (r) {
      Object.keys(r).forEach(function (k) {
        var v = r[k];
        if (seen[k] || (v !== null && typeof v === 'object')) return;
        seen[k] = 1;
        cols.push({ k: k, label: k.replace(/_/g, ' '), t: isInt(v) ? (/_ns$/.test(k) ? 'ns' : 'int') : typeof v === 'number' ? 'num' : 'str' });
      });
    });
    return cols;
  }

  /* ---- sections ---- */
  function headline(sec, D, n) {
    var f = D.doc.flops, lb = f.lower_bound;
    var v = add(sec, el('div', 'tlc-verdict ' + (lb ? 'lower' : 'complete'), lb ? 'LOWER BOUND' : 'COMPLETE'));
    v.lastChild.id = 'tlc-verdict-' + n;
    v.lastChild.setAttribute('data-lower-bound', String(lb));
    add(sec, el('div', 'tlc-why', D.doc.headline.trim()));
    var cols = [{ k: 'phase', label: 'phase', t: 'str' }, { k: 'flops', label: 'FLOPs (fma=2)', t: 'int' },
      { k: 'macs', label: 'MACs', t: 'int' }, { k: 'other_flops', label: 'other FLOPs', t: 'int' },
      { k: 'bytes_read', label: 'bytes read', t: 'int' }, { k: 'bytes_written', label: 'bytes written', t: 'int' },
      { k: 'bytes_complete', label: 'bytes complete', t: 'str' }];
    var rows = Object.keys(f.phases).map(function (p) { return Object.assign({ phase: p }, f.phases[p]); });
    var t = table(cols, rows, { sortable: false, scroll: false, onRow: function (tr, r) {
      tr.setAttribute('data-phase', r.phase);
      tr.id = 'tlc-phase-' + n + '-' + r.phase;
    } });
    t._table.id = 'tlc-phases-' + n;
    add(sec, t, el('p', 'tlc-note', 'Convention ' + f.flop_convention + ', ' + f.count_basis +
      ': exact counts of the recorded ops, never measured. "unknown" is never zero.'));
  }
  function coverage(sec, D, n) {
    var f = D.doc.flops, c = f.coverage, box = el('div', 'tlc-cards');
    Object.keys(c).forEach(function (k) { card(box, k.replace(/_/g, ' '), fmt(c[k]), { id: 'tlc-coverage-' + n + '-' + k }); });
    sec.appendChild(box);
    var dw = f.device_work;
    if (dw && dw.gaps && dw.gaps.length) {
      add(sec, el('h3', null, 'Device work without op rows'));
      add(sec, table([{ k: 'cause', label: 'cause', t: 'str' }, { k: 'records', label: 'records', t: 'int' },
        { k: 'device_ns', label: 'device time', t: 'ns' }, { k: 'message', label: 'what', t: 'str', cls: 'name' },
        { k: 'remedy', label: 'remedy', t: 'str', cls: 'remedy' }], dw.gaps, { scroll: false }));
    }
    add(sec, el('h3', null, 'Unknown-cost ledger (' + f.ledger.length + ' op type' + (f.ledger.length === 1 ? ')' : 's)')));
    if (!f.ledger.length) { add(sec, el('p', 'tlc-note', 'empty: every op has a cost')); return; }
    add(sec, table([{ k: 'name', label: 'op', t: 'str', cls: 'name' }, { k: 'overload', label: 'overload', t: 'str' },
      { k: 'count', label: 'calls', t: 'int' }, { k: 'reason', label: 'reason', t: 'str' },
      { k: 'example_shapes', label: 'example shapes', t: 'str', cls: 'name', get: function (r) { return (r.example_shapes || []).join('; '); } },
      { k: 'remedy', label: 'remedy', t: 'str', cls: 'remedy' }], f.ledger, { filter: 'op, reason, remedy' }));
  }
  function tree(sec, D, n) {
    var t = D.doc.tree, rows = t.rows;
    add(sec, el('p', 'tlc-note', 'Phase ' + t.phase + ', total ' + group(t.total_flops) + ' FLOPs' +
      (t.lower_bound ? ' (a lower bound)' : '') + '; the ' + t.top + ' largest children per module, depth ' + t.depth +
      '. Rows "(+ N ...)" hold what is cut, so the self column adds up to the total. Click \u25be/\u25b8 to collapse or expand.'));
    var extra = [];
    rows.forEach(function (r) { Object.keys(r).forEach(function (k) { if (/_ns$/.test(k) && extra.indexOf(k) < 0) extra.push(k); }); });
    var cols = [{ k: 'label', label: 'module', t: 'str', cls: 'name' }, { k: 'module_type', label: 'type', t: 'str' },
      { k: 'self_flops', label: 'self FLOPs', t: 'int' }, { k: 'subtree_flops', label: 'subtree FLOPs', t: 'int' },
      { k: 'subtree_pct', label: 'subtree %', t: 'pct' }, { k: 'self_ops', label: 'ops', t: 'int' },
      { k: 'subtree_unknown', label: 'unknown', t: 'int' }];
    extra.forEach(function (k) { cols.push({ k: k, label: k.replace(/_ns$/, '').replace(/_/g, ' ') + ' (ns)', t: 'ns' }); });
    if (!extra.length) add(sec, el('p', 'tlc-note', 'Device time per module: not in this document (no device-time join, or not in this build).'));
    var trs = [];
    var w = table(cols, rows, { sortable: false, onRow: function (tr, r) {
      var d = r.depth, cell = tr.firstChild;
      cell.textContent = '';
      cell.style.paddingLeft = (6 + 16 * d) + 'px';
      tr._depth = d;
      tr._collapsed = false;
      trs.push(tr);
      var b = el('button', 'tlc-tog', '');
      b.type = 'button';
      tr._tog = b;
      var bar = el('span', 'tlc-bar');
      bar.style.width = Math.max(0, Math.min(100, Number(r.subtree_pct) || 0)) * 0.6 + 'px';
      add(cell, b, bar, document.createTextNode(r.label));
      tr.setAttribute('data-path', r.path);
    } });
    w._table.id = 'tlc-tree-' + n;
    function refresh() { /* one pass: a row shows unless an ancestor above it is collapsed */
      var hide = -1;
      trs.forEach(function (tr) {
        if (hide >= 0 && tr._depth > hide) { tr.classList.add('tlc-hidden'); return; }
        hide = -1;
        tr.classList.remove('tlc-hidden');
        if (tr._collapsed) hide = tr._depth;
      });
    }
    trs.forEach(function (tr, i) {
      var kids = i + 1 < trs.length && trs[i + 1]._depth > tr._depth;
      if (!kids) { tr._tog.disabled = true; tr._tog.style.visibility = 'hidden'; return; }
      tr._collapsed = tr._depth >= 2;
      tr._tog.setAttribute('aria-expanded', String(!tr._collapsed));
      tr._tog.textContent = tr._collapsed ? '\u25b8' : '\u25be';
      tr._tog.addEventListener('click', function () {
        tr._collapsed = !tr._collapsed;
        tr._tog.setAttribute('aria-expanded', String(!tr._collapsed));
        tr._tog.textContent = tr._collapsed ? '\u25b8' : '\u25be';
        refresh();
      });
    });
    refresh();
    sec.appendChild(w);
  }
  function profileTable(sec, doc, by, title, id) {
    add(sec, el('h3', null, title));
    var note = 'Sorted by ' + doc.sort + ' in the document; click a column to sort.';
    if (doc.hidden_rows) note += ' ' + group(doc.hidden_rows) + ' more rows are not in the page (`tlcost profile --by ' + by + ' --top 0` lists them).';
    if (doc.lower_bound) note += ' FLOPs count the ops with a cost: a lower bound where "unknown" > 0.';
    add(sec, el('p', 'tlc-note', note));
    var w = table(profileCols(doc.rows, by), doc.rows, { filter: 'name' + (by === 'op' ? ', module' : '') });
    w._table.id = id;
    sec.appendChild(w);
  }
  function roofline(sec, D) {
    var r = D.doc.roofline;
    if (D.absent.roofline_svg) { absentNote(sec, D.absent.roofline_svg); return; }
    if (r && r.device) {
      add(sec, el('p', 'tlc-note', 'HYPOTHESES from ideal traffic (every input read once, every output written once) against ' +
        r.device.name + ' (' + r.device.basis + '; ' + r.device.source + '), ceilings from the ' + r.device_from + '.'));
      if (r.summary) {
        var box = el('div', 'tlc-cards');
        ['memory_bound_hypothesis', 'compute_bound_hypothesis', 'cache_resident_excluded', 'covered_flops', 'covered_bytes', 'aggregate_intensity']
          .forEach(function (k) { if (k in r.summary) card(box, k.replace(/_/g, ' '), fmt(r.summary[k])); });
        sec.appendChild(box);
      }
    }
    var svg = D.doc.roofline_svg;
    if (svg) { var holder = el('div', 'tlc-svg'); while (svg.firstChild) holder.appendChild(svg.firstChild); sec.appendChild(holder); }
  }
  function join(sec, D, n) {
    if (D.absent.join) { absentNote(sec, D.absent.join); return; }
    var j = D.doc.join, g = j.gate;
    var v = add(el('p'), el('b', null, 'Gate: '), el('span', g.passed ? 'pass' : 'fail', g.passed ? 'PASSED' : 'NOT PASSED'),
      document.createTextNode(' (at least ' + fmt(g.threshold_permille, 'permille') + ' of kernel time attributed to ops, per gated phase). Path: ' +
        j.path + ' \u2014 ' + (j.path_reason || '')));
    v.querySelector('span').id = 'tlc-gate-' + n;
    sec.appendChild(v);
    var box = el('div', 'tlc-cards');
    ['kernel_ns', 'kernel_attributed_ns', 'kernel_ambiguous_ns', 'kernel_unattributed_ns', 'kernel_on_wrapper_ns', 'kernel_known_cost_ns', 'busy_ns']
      .forEach(function (k) { if (k in j) card(box, k.replace(/_ns$/, '').replace(/_/g, ' '), fmt(j[k], 'ns'), { id: 'tlc-join-' + n + '-' + k }); });
    sec.appendChild(box);
    add(sec, table([{ k: 'phase', label: 'phase', t: 'str' }, { k: 'present', label: 'present', t: 'str' }, { k: 'gated', label: 'gated', t: 'str' },
      { k: 'attributed_ns', label: 'attributed', t: 'ns' }, { k: 'ambiguous_ns', label: 'ambiguous', t: 'ns' },
      { k: 'on_wrapper_ns', label: 'on wrappers', t: 'ns' }, { k: 'total_ns', label: 'kernel time', t: 'ns' },
      { k: 'share_permille', label: 'attributed share', t: 'permille' }, { k: 'passed', label: 'passed', t: 'str' }], g.phases, { sortable: false, scroll: false }));
    if (j.devices && j.devices.length) { add(sec, el('h3', null, 'Devices')); add(sec, table(genericCols(j.devices), j.devices, { scroll: false })); }
    if (j.remainder && j.remainder.length) {
      add(sec, el('h3', null, 'Unattributed remainder, by kernel name'));
      add(sec, table(genericCols(j.remainder), j.remainder, { filter: 'name' }));
    }
    if (j.wrappers && j.wrappers.length) { add(sec, el('h3', null, 'Time on wrapper rows (not an op)')); add(sec, table(genericCols(j.wrappers), j.wrappers)); }
  }
  function firstRows(doc) { /* the main array of objects of a document */
    var best = null;
    Object.keys(doc || {}).forEach(function (k) {
      var v = doc[k];
      if (Array.isArray(v) && v.length && typeof v[0] === 'object' && (!best || v.length > best.length)) best = v;
    });
    return best;
  }
  function generic(sec, doc, why) {
    if (why) { absentNote(sec, why); return; }
    var rows = firstRows(doc);
    if (rows) add(sec, table(genericCols(rows), rows, { filter: 'name' }));
    else add(sec, el('pre', 'tlc-note', JSON.stringify(doc, null, 1)));
  }

  /* `tlcost steps --format json`: one row per step and device, the buckets
   * as columns (they add up to the wall time; the residual is shown). */
  function steps(sec, doc, why, n) {
    if (why) { absentNote(sec, why); return; }
    var names = [];
    doc.steps.forEach(function (r) { Object.keys(r.buckets).forEach(function (b) { if (names.indexOf(b) < 0) names.push(b); }); });
    add(sec, el('p', 'tlc-note', (doc.windows === 'profiler_steps' ? 'One row per profiler step (ProfilerStep#N) and device'
      : 'The input has no ProfilerStep#N markers: one row per device, its span (first work start to last work end)') +
      '; times in ns. The buckets add up to the wall time exactly (residual 0). Compute is split by op family; ' +
      'communication and copies count only where no compute kernel overlaps them; idle is queued (a launch pending) or host-bound (nothing queued).'));
    var cols = [{ k: 'step', label: 'step', t: 'str', get: function (r) { return r.step === null ? 'device span' : String(r.step); } },
      { k: 'device', label: 'device', t: 'int' }, { k: 'wall_ns', label: 'wall (ns)', t: 'int' }];
    names.forEach(function (b) { cols.push({ k: b, label: b.replace(/_/g, ' '), t: 'int', get: function (r) { return r.buckets[b]; } }); });
    cols.push({ k: 'residual_ns', label: 'residual', t: 'int' });
    var w = table(cols, doc.steps, { onRow: function (tr, r) { tr.id = 'tlc-step-' + n + '-' + (r.step === null ? 'span' : r.step) + '-' + r.device; } });
    w._table.id = 'tlc-steps-' + n;
    sec.appendChild(w);
  }
  /* `tlcost profile --by args --utilization --format json`: one row per
   * (op, shapes, dtypes) group with its attributed kernel utilization. */
  function uniqueArgs(sec, doc, why, n) {
    if (why) { absentNote(sec, why); return; }
    var note = 'Attributed kernel utilization (the join passed its gate): each group\'s exact FLOPs and ideal bytes over the kernel time of its costed ops, ' +
      'against the device\'s peak for the dtype; not measured FLOPs. Recoverable time is a HYPOTHESIS (time above the roof with ideal traffic). Sorted by ' + doc.sort + '.';
    if (doc.hidden_rows) note += ' ' + group(doc.hidden_rows) + ' more groups are not in the page (`tlcost profile --by args --utilization --top 0`).';
    add(sec, el('p', 'tlc-note', note));
    var u = function (k) { return function (r) { var a = r.attributed_kernel_utilization; return a ? a[k] : null; }; };
    var cols = [COLS.key, COLS.count, COLS.unknown, COLS.flops, COLS.bytes,
      { k: 'costed_kernel_ns', label: 'kernel time', t: 'ns' },
      { k: 'flop_per_s', label: 'TFLOP/s', t: 'tera', get: u('flop_per_s') },
      { k: 'peak_share', label: '% of peak', t: 'share', get: u('peak_share') },
      { k: 'peak_dtype', label: 'dtype', t: 'str', get: u('peak_dtype') },
      { k: 'byte_per_s', label: 'TB/s', t: 'tera', get: u('byte_per_s') },
      { k: 'bandwidth_share', label: '% of bandwidth', t: 'share', get: u('bandwidth_share') },
      { k: 'recoverable_ns_hypothesis', label: 'recoverable ns (hypothesis)', t: 'num', get: u('recoverable_ns_hypothesis') },
      { k: 'note', label: 'note', t: 'str', cls: 'remedy', get: function (r) { var a = r.attributed_kernel_utilization; return a ? a.note || a.refusal || '' : ''; } }];
    var w = table(cols, doc.rows, { filter: 'name' });
    w._table.id = 'tlc-unique-' + n;
    sec.appendChild(w);
  }

  /* `tlcost diff --format json A B`: the totals per phase, then one row per
   * aligned group (A, B and the change; the change of device time split
   * into work and speed where both joins passed their gate). */
  function diff(sec, doc, why) {
    if (why) { absentNote(sec, why); return; }
    var side = function (s, k) { return function (r) { return r[s] ? r[s][k] : null; }; };
    var cols = function (first) {
      var c = first.slice();
      ['flops', 'bytes'].concat(doc.has_time ? ['kernel_ns'] : []).forEach(function (k) {
        var t = k === 'kernel_ns' ? 'ns' : 'int', l = k === 'kernel_ns' ? 'kernel time' : k === 'flops' ? 'FLOPs' : 'bytes';
        c.push({ k: 'a_' + k, label: 'A ' + l, t: t, get: side('a', k) }, { k: 'b_' + k, label: 'B ' + l, t: t, get: side('b', k) },
          { k: 'change_' + k, label: '\u0394 ' + l, t: t, get: side('change', k) });
      });
      return c;
    };
    var lb = function (s) { return doc[s].lower_bound ? ' (a lower bound)' : ''; };
    add(sec, el('p', 'tlc-note', 'B against A: A = [0] ' + (doc.a.model || doc.a.format) + lb('a') + ', B = [1] ' + (doc.b.model || doc.b.format) + lb('b') +
      '. Groups aligned most specific first (' + Object.keys(doc.aligned_rows).map(function (k) { return k.replace(/_/g, ' ') + ' ' + group(doc.aligned_rows[k]); }).join(', ') +
      '). Device time is compared only where both joins passed their gate' + (doc.has_time ? '.' : ': not here (' + (doc.a.device_time_absent_why || doc.b.device_time_absent_why || 'no device time') + ').')));
    var t = table(cols([{ k: 'phase', label: 'phase', t: 'str' }]), doc.totals, { sortable: false, scroll: false,
      onRow: function (tr, r) { tr.id = 'tlc-diff-total-' + r.phase; } });
    t._table.id = 'tlc-diff-totals';
    sec.appendChild(t);
    add(sec, el('h3', null, 'Per aligned group'));
    if (doc.hidden_rows) add(sec, el('p', 'tlc-note', group(doc.hidden_rows) + ' more groups are not in the page (`tlcost diff --top 0`).'));
    var c = cols([COLS.key, { k: 'match', label: 'match', t: 'str' }, COLS.phase]);
    if (doc.has_time) c.push({ k: 'work_ns', label: '\u0394 from work', t: 'ns', get: side('change', 'work_ns') }, { k: 'rate_ns', label: '\u0394 from speed', t: 'ns', get: side('change', 'rate_ns') });
    var w = table(c, doc.rows, { filter: 'name, match' });
    w._table.id = 'tlc-diff-rows';
    sec.appendChild(w);
  }

  function ranks(sec, doc, why) {
    if (why) { absentNote(sec, why); return; }
    var rows = doc.ranks || [], phases = [];
    rows.forEach(function (r) { Object.keys(r.phases || {}).forEach(function (p) { if (phases.indexOf(p) < 0) phases.push(p); }); });
    var cols = genericCols(rows);
    phases.forEach(function (p) {
      cols.splice(3, 0, { k: p + '_flops', label: p + ' FLOPs', t: 'int',
        get: function (r) { return r.phases && r.phases[p] ? r.phases[p].flops : null; } });
    });
    var w = table(cols, rows, { filter: 'trace' });
    w._table.id = 'tlc-ranks-table';
    sec.appendChild(w);
    var st = doc.stragglers;
    if (st) add(sec, el('p', 'tlc-note', 'Stragglers (' + st.metric + ', above the median ' + fmt(st.median_ns, 'ns') +
      ' by more than ' + fmt(st.threshold_permille, 'permille') + '): ' + (st.ranks.length ? fmt(st.ranks) : 'none') + '.'));
    (doc.notices || []).forEach(function (n) { add(sec, el('p', 'tlc-note', 'notice: ' + n.code + ': ' + n.input + ': ' + n.message)); });
  }

  /* ---- the page ---- */
  function render() {
    var page = document.getElementById('tlc-page');
    var inputs = document.querySelectorAll('#tlc-docs .tlc-input');
    var top = add(el('header', 'tlc-top'), el('h1', null, document.title));
    top.appendChild(el('span', 'tlc-meta', inputs.length + ' input' + (inputs.length === 1 ? '' : 's') + ' \u00b7 every figure from tlcost\'s JSON documents, embedded in this file'));
    page.appendChild(top);
    var nav = el('nav', 'tlc-nav');
    page.appendChild(nav);
    function link(id, text) { var a = el('a', null, text); a.href = '#' + id; nav.appendChild(a); }
    var all = docs('all');
    for (var n = 0; n < inputs.length; n++) {
      var name = inputs[n].getAttribute('data-name'), D = docs(String(n)), p = 'tlc-' + n + '-';
      var f = D.doc.flops, dev = f.input && f.input.device;
      var h = section(page, p + 'headline', (inputs.length > 1 ? '[' + n + '] ' : '') + name);
      h.firstChild.title = name;
      add(h, el('p', 'tlc-note', [f.input && f.input.format, f.input && f.input.producer, dev ? 'device ' + dev : null]
        .filter(Boolean).join(' \u00b7 ')));
      headline(h, D, n);
      link(p + 'headline', inputs.length > 1 ? '[' + n + '] headline' : 'headline');
      coverage(section(page, p + 'coverage', 'Coverage and the unknown-cost ledger'), D, n);
      link(p + 'coverage', 'ledger');
      tree(section(page, p + 'tree', 'Module tree'), D, n);
      link(p + 'tree', 'tree');
      var ops = section(page, p + 'ops', 'Top ops, op types and modules');
      profileTable(ops, D.doc.ops, 'op', 'Top ops by FLOPs', 'tlc-ops-' + n);
      profileTable(ops, D.doc.types, 'type', 'Per op type', 'tlc-types-' + n);
      profileTable(ops, D.doc.modules, 'module', 'Per module (innermost)', 'tlc-modules-' + n);
      link(p + 'ops', 'ops');
      uniqueArgs(section(page, p + 'unique', 'Unique arguments (op, shapes, dtypes) and attributed kernel utilization'), D.doc.unique_args, D.absent.unique_args, n);
      link(p + 'unique', 'unique args');
      roofline(section(page, p + 'roofline', 'Roofline'), D);
      link(p + 'roofline', 'roofline');
      join(section(page, p + 'join', 'Device-time join and its gate'), D, n);
      link(p + 'join', 'join');
      steps(section(page, p + 'steps', 'Where the step time went'), D.doc.steps, D.absent.steps, n);
      link(p + 'steps', 'steps');
    }
    ranks(section(page, 'tlc-ranks', 'Per-rank table'), all.doc.ranks, all.absent.ranks);
    link('tlc-ranks', 'ranks');
    diff(section(page, 'tlc-diff', 'Diff of two inputs'), all.doc.diff, all.absent.diff);
    if (all.doc.diff) link('tlc-diff', 'diff');
  }

  /* ---- ?selftest: the page clicks its own controls ---- */
  function shown(tr) { return !tr.classList.contains('tlc-hidden') && tr.style.display !== 'none'; }
  function column(t, key) {
    return Array.prototype.map.call(t.tBodies[0].rows, function (tr) {
      var td = tr.querySelector('td[data-key="' + key + '"]');
      return td.hasAttribute('data-value') ? BigInt(td.getAttribute('data-value')) : null;
    });
  }
  function ordered(v, desc) {
    var known = v.filter(function (x) { return x !== null; });
    for (var i = 1; i < known.length; i++) if (desc ? known[i - 1] < known[i] : known[i - 1] > known[i]) return false;
    return v.indexOf(null) < 0 || v.slice(v.indexOf(null)).every(function (x) { return x === null; });
  }
  function selftest() {
    var r = { sort: null, filter: null, collapse: null };
    var t = document.getElementById('tlc-types-0');
    if (t && t.tBodies[0].rows.length > 1) {
      var th = function (k) { return t.querySelector('th[data-key="' + k + '"]'); };
      th('count').click();
      var byCount = ordered(column(t, 'count'), true);
      th('flops').click();
      var desc = ordered(column(t, 'flops'), true);
      th('flops').click();
      var asc = ordered(column(t, 'flops'), false);
      th('key').click();
      var names = Array.prototype.map.call(t.tBodies[0].rows, function (tr) { return tr.cells[0].textContent; });
      var namesDesc = names.every(function (x, i) { return i === 0 || names[i - 1].localeCompare(x) >= 0; });
      r.sort = { rows: t.tBodies[0].rows.length, count_desc: byCount, flops_desc: desc, flops_asc: asc, name_desc: namesDesc };
      th('flops').click();
      r.sort.first_after_desc = t.tBodies[0].rows[0].cells[0].textContent;
      var f = t.parentNode.parentNode.querySelector('input.tlc-filter');
      var q = t.tBodies[0].rows[t.tBodies[0].rows.length - 1].cells[0].textContent;
      f.value = q;
      f.dispatchEvent(new Event('input'));
      var vis = Array.prototype.filter.call(t.tBodies[0].rows, shown);
      r.filter = { query: q, shown: vis.length, all_match: vis.every(function (tr) { return tr.cells[0].textContent.toLowerCase().indexOf(q.toLowerCase()) >= 0; }) };
      f.value = '';
      f.dispatchEvent(new Event('input'));
      r.filter.cleared = Array.prototype.filter.call(t.tBodies[0].rows, shown).length;
    }
    var tree = document.getElementById('tlc-tree-0');
    if (tree) {
      var rows = Array.prototype.slice.call(tree.tBodies[0].rows);
      var i = rows.findIndex(function (tr) { return !tr.querySelector('button.tlc-tog').disabled && tr.querySelector('button').getAttribute('aria-expanded') === 'true'; });
      if (i >= 0) {
        var d = rows[i]._depth, kids = [];
        for (var k = i + 1; k < rows.length && rows[k]._depth > d; k++) kids.push(rows[k]);
        var before = kids.filter(shown).length;
        rows[i].querySelector('button').click();
        var afterCollapse = kids.filter(shown).length;
        rows[i].querySelector('button').click();
        var afterExpand = kids.filter(shown).length;
        r.collapse = { row: rows[i].getAttribute('data-path'), descendants: kids.length, shown_before: before, shown_collapsed: afterCollapse, shown_expanded: afterExpand };
      }
    }
    r.errors = ERRORS.slice();
    var out = el('pre', null, JSON.stringify(r));
    out.id = 'tlc-selftest';
    document.body.appendChild(out);
  }

  try {
    render();
    /* a link to a section (page.html#tlc-0-tree) lands on it once it exists */
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  } catch (e) {
    ERRORS.push(String(e && e.stack || e));
    document.body.appendChild(el('pre', 'fail', 'The page could not be laid out: ' + e));
  }
  if (/[?&]selftest\b/.test(location.search)) selftest();
  var st = el('meta');
  st.name = 'tlc-errors';
  st.content = String(ERRORS.length);
  document.head.appendChild(st);
})();
