// graph_core.js: the graph pane shared by GraphView, StepThrough and TapeView.
// Python prepends this file to each widget's module (anywidget loads one module text per widget, so
// relative imports are not available). It defines functions only; the widget file exports `render`.
//
// A pane reads the traits <prefix>svg, <prefix>highlighted, <prefix>current, <prefix>selected,
// <prefix>inspector, <prefix>collapse_depth, <prefix>depth_options, <prefix>graph_title, <prefix>notice,
// <prefix>rankdir and sends {type: "click"|"cluster"|"expand"|"collapse"|"depth"|"rankdir", pane: prefix,
// key|value} messages. <prefix>depth_options lists only the fold choices that draw different pictures
// (Python compares them), so the fold <select> is built from it as it is.
// Expand / collapse act on ONE Cell call over the depth menu's baseline: a click on a collapsed box
// (data-mslab-node="box:...") sends expand, a click on a Cell's frame (data-mslab-cluster) sends collapse.
// DOM hooks for tests: data-mslab-role on controls, data-mslab-node / data-mslab-cluster on SVG groups
// (added by Python), .mslab-highlight / .mslab-current / .mslab-selected classes on node groups.

// ---- view keys -------------------------------------------------------------------------------------
// The one place the front-end reads a view key (Python makes them in mslab/lab/viz/keys.py): "box:fc1",
// "hidden:%3", "input:x", "param:fc1.weight", "const:const0", "output:0", or an op's IR name ("%7");
// inside a control-flow node's subgraph the same behind a prefix ("%2[then]box:opt", "%2[then]%0").
const MSLAB_KEY_KINDS = ["box", "hidden", "input", "param", "const", "output"];
const MSLAB_SUB_PREFIX = /^(?:%\d+\[[^\]]+\])+/;

function mslabKeyKind(key) {
  key = key.replace(MSLAB_SUB_PREFIX, "");
  const i = key.indexOf(":");
  const kind = i < 0 ? "" : key.slice(0, i);
  return MSLAB_KEY_KINDS.includes(kind) ? kind : "node";
}

// ---- DOM helpers -----------------------------------------------------------------------------------
function mslabEl(tag, attrs, children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children || []) if (c) e.appendChild(c);
  return e;
}

// ---- value text --------------------------------------------------------------------------------------
// The one formatter of values (summaries from mslab/lab/widgets/_values.py); its Python twin is _values.text.
function mslabFmt(x) {
  if (typeof x === "string") return x;
  if (x === null || x === undefined) return "";
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return x.toExponential(3);
  return String(Math.round(x * 1e5) / 1e5);
}

// One line: the number of a one-number value, else dtype, shape and the first numbers.
function mslabShort(s) {
  if (!s) return "(not computed yet)";
  if (s.size === 1) return mslabFmt(s.numbers[0]);
  const nums = s.numbers.slice(0, 6).map(mslabFmt).join(", ");
  return `${s.dtype}[${s.shape.join(", ")}] [${nums}${s.size > 6 ? ", ..." : ""}]`;
}

// ---- pictures of values ------------------------------------------------------------------------------
const MSLAB_SVGNS = "http://www.w3.org/2000/svg";

function mslabSvg(tag, attrs) {
  const e = document.createElementNS(MSLAB_SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// A histogram of the numbers, drawn from the numbers Python sent (20 bins).
function mslabHistogram(numbers, role) {
  const W = 220, H = 60, B = 20;
  const svg = mslabSvg("svg", { width: W, height: H + 14, class: "mslab-hist", "data-mslab-role": role });
  if (!numbers.length) return svg;
  let lo = Math.min(...numbers), hi = Math.max(...numbers);
  if (hi === lo) { hi = lo + 1e-12; }
  const counts = new Array(B).fill(0);
  for (const x of numbers) counts[Math.min(B - 1, Math.floor(((x - lo) / (hi - lo)) * B))]++;
  const top = Math.max(...counts);
  counts.forEach((c, i) => {
    const h = (c / top) * H;
    svg.appendChild(mslabSvg("rect", { x: (i * W) / B + 0.5, y: H - h, width: W / B - 1, height: h,
      class: "mslab-bar", "data-count": c }));
  });
  const t1 = mslabSvg("text", { x: 0, y: H + 12, class: "mslab-axis" }); t1.textContent = mslabFmt(lo);
  const t2 = mslabSvg("text", { x: W, y: H + 12, "text-anchor": "end", class: "mslab-axis" });
  t2.textContent = mslabFmt(hi);
  svg.appendChild(t1); svg.appendChild(t2);
  return svg;
}

// A heat-map of a small matrix (blue negative, red positive, white zero).
function mslabHeatmap(matrix, role) {
  const rows = matrix.length, cols = matrix[0].length;
  const cell = Math.max(4, Math.min(16, Math.floor(220 / Math.max(rows, cols))));
  const svg = mslabSvg("svg", { width: cols * cell, height: rows * cell, class: "mslab-heat",
    "data-mslab-role": role });
  let m = 0;
  for (const r of matrix) for (const x of r) m = Math.max(m, Math.abs(x));
  m = m || 1;
  matrix.forEach((r, i) => r.forEach((x, j) => {
    const s = Math.round(255 * (1 - Math.abs(x) / m));
    const fill = x >= 0 ? `rgb(255,${s},${s})` : `rgb(${s},${s},255)`;
    const rect = mslabSvg("rect", { x: j * cell, y: i * cell, width: cell, height: cell, fill });
    const tip = mslabSvg("title", {}); tip.textContent = `[${i}, ${j}] = ${mslabFmt(x)}`;
    rect.appendChild(tip);
    svg.appendChild(rect);
  }));
  return svg;
}

// One value (or gradient) summary: stats line, numbers, histogram, heat-map.
function mslabValueBlock(label, s, role) {
  const box = mslabEl("div", { class: "mslab-value", "data-mslab-role": role });
  box.appendChild(mslabEl("div", { class: "mslab-value-title", text: label }));
  if (!s) { box.appendChild(mslabEl("div", { text: "(not computed yet)" })); return box; }
  const stats = s.size === 1 ? `= ${mslabShort(s)}` :
    `${s.dtype}[${s.shape.join(", ")}]  min ${mslabFmt(s.min)}  max ${mslabFmt(s.max)}  mean ${mslabFmt(s.mean)}` +
    `  std ${mslabFmt(s.std)}`;
  // A minus sign is a place the browser may break a line ("-" / "0.37"): a non-breaking hyphen is not.
  const keep = (text) => text.replace(/-/g, "\u2011");
  box.appendChild(mslabEl("div", { class: "mslab-stats", text: keep(stats) }));
  if (s.size > 1) {
    const nums = s.numbers.slice(0, 48).map(mslabFmt).join(", ") + (s.numbers.length > 48 || s.truncated ? ", ..." : "");
    box.appendChild(mslabEl("pre", { class: "mslab-numbers", text: keep("[" + nums + "]") }));
    box.appendChild(s.matrix ? mslabHeatmap(s.matrix, role + "-heatmap") : mslabHistogram(s.numbers, role + "-histogram"));
  }
  return box;
}

function mslabInspector(panel, info, send) {
  panel.replaceChildren();
  if (!info || !info.key) {
    panel.appendChild(mslabEl("div", { class: "mslab-hint",
      text: "Click a node to inspect it. Click a 3D box to open its Cell; click a Cell's frame to fold it again." }));
    return;
  }
  panel.appendChild(mslabEl("div", { class: "mslab-inspector-title", text: info.title, "data-mslab-key": info.key }));
  if (info.error) panel.appendChild(mslabEl("div", { text: info.error }));
  const table = mslabEl("table", { class: "mslab-fields" });
  for (const [k, v] of info.fields || []) {
    // Short values (names, ops, shapes such as f32[32, 84]) never wrap; long ones wrap between words only.
    table.appendChild(mslabEl("tr", {}, [mslabEl("th", { text: k }),
      mslabEl("td", { text: v, class: String(v).length <= 40 ? "mslab-nowrap" : "" })]));
  }
  panel.appendChild(table);
  if (info.members) {
    const list = mslabEl("table", { class: "mslab-members" });
    for (const [name, op, type, src] of info.members) {
      list.appendChild(mslabEl("tr", {}, [mslabEl("td", { class: "mslab-nowrap", text: name }),
        mslabEl("td", { class: "mslab-nowrap", text: op }), mslabEl("td", { class: "mslab-nowrap", text: type }),
        mslabEl("td", { class: "mslab-src", text: src })]));
    }
    panel.appendChild(list);
  }
  if (info.expandable) {
    panel.appendChild(mslabEl("button", { class: "mslab-btn", "data-mslab-role": "expand", text: "Expand this Cell",
      onclick: () => send({ type: "expand", key: info.key }) }));
  }
  if (info.collapsible) {
    panel.appendChild(mslabEl("button", { class: "mslab-btn", "data-mslab-role": "collapse",
      text: "Collapse this Cell", onclick: () => send({ type: "collapse", key: info.key }) }));
  }
  if (info.value) panel.appendChild(mslabValueBlock("value", info.value, "node-value"));
  if (info.gradient) panel.appendChild(mslabValueBlock("gradient d(loss)/d(value)", info.gradient, "node-gradient"));
}

// ---- reading at first sight ---------------------------------------------------------------------------
// A picture opens so that its smallest node text is at least MSLAB_MIN_TEXT_PX on screen: fitted to the
// canvas's width when that is readable, else at the readable scale (then it scrolls: wheel pans, ctrl+wheel
// zooms around the pointer). A minimap shows where the view is when the picture is much bigger than it.
const MSLAB_MIN_TEXT_PX = 11;

// The key of the frame a box stands for ("box:fc1" -> "fc1", "%2[then]box:opt" -> "%2[then]opt").
function mslabFrameOf(key) {
  const m = key.match(MSLAB_SUB_PREFIX), p = m ? m[0] : "", rest = key.slice(p.length);
  return rest.startsWith("box:") ? p + rest.slice(4) : key;
}

function mslabBoxOf(frame) {
  const m = frame.match(MSLAB_SUB_PREFIX), p = m ? m[0] : "";
  return p + "box:" + frame.slice(p.length);
}

// The CSS px per SVG user unit at scale 1, and the smallest node text in user units.
function mslabTextMetrics(svg) {
  const vb = svg.viewBox && svg.viewBox.baseVal;
  const ratio = vb && vb.width ? svg.width.baseVal.value / vb.width : 1;
  let min = Infinity;
  for (const t of svg.querySelectorAll("[data-mslab-node] text")) {
    const f = parseFloat(t.getAttribute("font-size"));
    if (f && t.textContent.trim()) min = Math.min(min, f);
  }
  return { ratio, minFont: Number.isFinite(min) ? min : 10 };
}

// Mount a graph pane into `root`; returns a cleanup function.
function mountGraph(root, model, prefix) {
  const P = prefix || "";
  const get = (name) => model.get(P + name);
  const send = (msg) => model.send(Object.assign({ pane: P }, msg));
  let scale = 1, tx = 0, ty = 0, metrics = null, focus = null, found = [], foundAt = -1;

  const stage = mslabEl("div", { class: "mslab-stage" });
  const mapImg = mslabEl("img", { class: "mslab-minimap-img", alt: "overview" });
  const mapView = mslabEl("div", { class: "mslab-minimap-view" });
  const minimap = mslabEl("div", { class: "mslab-minimap", "data-mslab-role": "minimap",
    title: "Overview: click or drag to move the view" }, [mapImg, mapView]);
  const canvas = mslabEl("div", { class: "mslab-canvas", "data-mslab-role": "canvas" }, [stage, minimap]);
  const inspector = mslabEl("div", { class: "mslab-inspector", "data-mslab-role": "inspector" });
  const notice = mslabEl("div", { class: "mslab-notice", "data-mslab-role": "notice" });
  const depth = mslabEl("select", { class: "mslab-depth", "data-mslab-role": "collapse-depth",
    title: "Fold Cell calls into boxes at this depth" });
  const layout = mslabEl("select", { class: "mslab-layout", "data-mslab-role": "layout",
    title: "Layout: top to bottom, or left to right" }, [
    mslabEl("option", { value: "TB", text: "\u2193 TB" }), mslabEl("option", { value: "LR", text: "\u2192 LR" })]);
  const search = mslabEl("input", { class: "mslab-search", type: "search", placeholder: "find node\u2026",
    "data-mslab-role": "search", title: "Find a node by op, name or Cell (Enter: next match, and inspect it)" });
  const count = mslabEl("span", { class: "mslab-search-count", "data-mslab-role": "search-count" });
  const title = mslabEl("span", { class: "mslab-graph-title" });

  const svgEl = () => stage.querySelector("svg");
  const size = () => {
    const svg = svgEl();
    if (!svg) return [0, 0];
    return [svg.width.baseVal.value || svg.getBoundingClientRect().width / scale,
      svg.height.baseVal.value || svg.getBoundingClientRect().height / scale];
  };
  // Keep the picture in view: a picture smaller than the canvas stays inside it, a bigger one cannot
  // drift further than a margin past its edges (zooming used to lose the graph off the top).
  const clamp = () => {
    const r = canvas.getBoundingClientRect(), [w, h] = size(), M = 24;
    if (!w || !r.width) return;
    const lim = (t, c, v) => (c <= v ? Math.min(Math.max(t, 0), v - c) : Math.min(Math.max(t, v - c - M), M));
    tx = lim(tx, w * scale, r.width); ty = lim(ty, h * scale, r.height);
  };
  const drawMinimap = () => {
    const r = canvas.getBoundingClientRect(), [w, h] = size();
    const big = w && (w * scale > r.width * 1.5 || h * scale > r.height * 1.5);
    minimap.style.display = big ? "block" : "none";
    if (!big) return;
    const k = Math.min(100 / w, 130 / h);
    mapImg.style.width = `${w * k}px`; mapImg.style.height = `${h * k}px`;
    const x0 = Math.max(0, -tx / scale), y0 = Math.max(0, -ty / scale);
    const x1 = Math.min(w, (r.width - tx) / scale), y1 = Math.min(h, (r.height - ty) / scale);
    Object.assign(mapView.style, { left: `${x0 * k}px`, top: `${y0 * k}px`,
      width: `${Math.max(2, (x1 - x0) * k)}px`, height: `${Math.max(2, (y1 - y0) * k)}px` });
  };
  const apply = () => {
    clamp();
    stage.style.transform = `translate(${tx}px, ${ty}px) scale(${scale})`;
    drawMinimap();
  };
  const zoom = (f, cx, cy) => {
    const r = canvas.getBoundingClientRect();
    const px = cx === undefined ? r.width / 2 : cx, py = cy === undefined ? r.height / 2 : cy;
    const ns = Math.min(8, Math.max(0.05, scale * f));
    tx = px - ((px - tx) * ns) / scale; ty = py - ((py - ty) * ns) / scale; scale = ns; apply();
  };
  // The scale at which the smallest node text is MSLAB_MIN_TEXT_PX on screen.
  const readableScale = () => {
    const svg = svgEl();
    if (!svg) return 1;
    metrics = metrics || mslabTextMetrics(svg);
    return MSLAB_MIN_TEXT_PX / (metrics.minFont * metrics.ratio) * 1.01;
  };
  // Open readable: the width fitted when that is readable, never smaller; the top of the picture in view.
  const open = () => {
    const r = canvas.getBoundingClientRect(), [w] = size();
    if (!w || !r.width) { scale = 1; tx = ty = 0; apply(); return; }
    const [, h] = size(), lr = get("rankdir") === "LR";
    scale = Math.max(readableScale(), Math.min(1.5, (r.width - 16) / w));
    tx = w * scale > r.width ? 8 : (r.width - w * scale) / 2; ty = 8; apply();
    // Bigger than the canvas: it opens at its top-left corner, where reading starts, unless no graph input is
    // in view there; then the first input (topmost, or leftmost for left to right) comes to the middle.
    if (w * scale <= r.width && h * scale <= r.height) return;
    const inputs = [...stage.querySelectorAll('[data-mslab-kind="input"]')].map((g) => g.getBoundingClientRect());
    const seen = (b) => b.left >= r.left && b.right <= r.right && b.top >= r.top && b.bottom <= r.bottom;
    if (!inputs.length || inputs.some(seen)) return;
    const first = inputs.reduce((a, b) => ((lr ? b.left < a.left : b.top < a.top) ? b : a));
    tx += r.left + r.width / 2 - (first.left + first.width / 2);
    ty += r.top + r.height / 2 - (first.top + first.height / 2);
    apply();
  };
  // The whole picture in the canvas (small text if it is big: the button's choice, not the opening view).
  const fitAll = () => {
    const r = canvas.getBoundingClientRect(), [w, h] = size();
    if (!w || !h || !r.width) return;
    scale = Math.min(1.5, Math.min(r.width / w, r.height / h) * 0.95);
    tx = (r.width - w * scale) / 2; ty = 4; apply();
  };
  // Bring an element of the picture to the middle of the canvas (its top, when it is taller than the canvas).
  const centreOn = (el) => {
    const r = canvas.getBoundingClientRect(), b = el.getBoundingClientRect();
    const cx = b.left - r.left + b.width / 2;
    tx += r.width / 2 - cx;
    ty += b.height > r.height - 16 ? 8 - (b.top - r.top) : r.height / 2 - (b.top - r.top + b.height / 2);
    apply();
  };
  const toolbar = mslabEl("div", { class: "mslab-toolbar" }, [
    mslabEl("button", { class: "mslab-btn", "data-mslab-role": "zoom-in", text: "+", title: "Zoom in (or ctrl+wheel)",
      onclick: () => zoom(1.25) }),
    mslabEl("button", { class: "mslab-btn", "data-mslab-role": "zoom-out", text: "\u2212", title: "Zoom out",
      onclick: () => zoom(0.8) }),
    mslabEl("button", { class: "mslab-btn", "data-mslab-role": "zoom-fit", text: "fit", title: "Show the whole graph",
      onclick: fitAll }),
    mslabEl("button", { class: "mslab-btn", "data-mslab-role": "zoom-read", text: "1:1",
      title: "Readable size, top of the graph", onclick: open }),
    search, count,
    mslabEl("label", { class: "mslab-depth-label", text: "fold " }, [depth]),
    layout,
    title,
  ]);
  const pane = mslabEl("div", { class: "mslab-graph-pane", "data-mslab-pane": P || "main" }, [
    toolbar, notice, mslabEl("div", { class: "mslab-graph-body" }, [canvas, inspector])]);
  root.appendChild(pane);

  depth.addEventListener("change", () => { focus = "open"; send({ type: "depth", value: depth.value }); });
  layout.addEventListener("change", () => { focus = "open"; send({ type: "rankdir", value: layout.value }); });

  // Search: every node whose words (op, name, Cell, type) contain the query is marked; the first is centred.
  const runSearch = (step) => {
    for (const g of found) g.classList.remove("mslab-found");
    const q = search.value.trim().toLowerCase();
    found = !q ? [] : [...stage.querySelectorAll("[data-mslab-node]")].filter((g) =>
      (g.getAttribute("data-mslab-node") + " " + g.textContent).toLowerCase().includes(q));
    for (const g of found) g.classList.add("mslab-found");
    foundAt = found.length ? (step ? (foundAt + 1) % found.length : 0) : -1;
    count.textContent = q ? (found.length ? `${foundAt + 1}/${found.length}` : "none") : "";
    if (foundAt >= 0) {
      for (const g of found) g.classList.toggle("mslab-found-current", g === found[foundAt]);
      if (scale < readableScale()) { scale = readableScale(); apply(); }
      centreOn(found[foundAt]);
    }
  };
  search.addEventListener("input", () => runSearch(false));
  search.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    ev.preventDefault();
    runSearch(true);
    if (foundAt >= 0) send({ type: "click", key: found[foundAt].getAttribute("data-mslab-node") });
  });

  // The minimap: a click or drag puts that point of the picture in the middle of the canvas.
  let mapDrag = false;
  const mapMove = (ev) => {
    const r = canvas.getBoundingClientRect(), m = mapImg.getBoundingClientRect(), [w] = size();
    const k = m.width / w;
    tx = r.width / 2 - ((ev.clientX - m.left) / k) * scale;
    ty = r.height / 2 - ((ev.clientY - m.top) / k) * scale;
    apply();
  };
  minimap.addEventListener("pointerdown", (ev) => {
    ev.stopPropagation(); mapDrag = true; mapMove(ev);
    try { minimap.setPointerCapture(ev.pointerId); } catch (e) { /* not capturable */ }
  });
  minimap.addEventListener("pointermove", (ev) => { ev.stopPropagation(); if (mapDrag) mapMove(ev); });
  minimap.addEventListener("pointerup", (ev) => { ev.stopPropagation(); mapDrag = false; });

  // Pan by dragging; a press that did not move is a click on a node or a frame.
  let drag = null;
  canvas.addEventListener("pointerdown", (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, tx, ty, moved: false };
  });
  canvas.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 3) {
      drag.moved = true;
      try { canvas.setPointerCapture(ev.pointerId); } catch (e) { /* not capturable */ }
      canvas.classList.add("mslab-dragging");
    }
    if (drag.moved) { tx = drag.tx + dx; ty = drag.ty + dy; apply(); }
  });
  const end = (ev) => {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    canvas.classList.remove("mslab-dragging");
    if (moved) return;
    const target = ev.target instanceof Element ? ev.target : null;
    const node = target && target.closest("[data-mslab-node]");
    if (node) {
      // A collapsed Cell call opens (Python then shows the Cell in the inspector); other nodes are inspected.
      const key = node.getAttribute("data-mslab-node");
      const box = mslabKeyKind(key) === "box";
      if (box) focus = mslabFrameOf(key);
      send({ type: box ? "expand" : "click", key });
      return;
    }
    // A Cell's frame folds back into a box (a frame that is no Cell call is only described).
    const cl = target && target.closest("[data-mslab-cluster]");
    if (cl) {
      focus = mslabBoxOf(cl.getAttribute("data-mslab-cluster"));
      send({ type: "collapse", key: cl.getAttribute("data-mslab-cluster") });
    }
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", () => { drag = null; });
  // The wheel scrolls the picture (shift: sideways) and ctrl+wheel (a trackpad pinch) zooms around the
  // pointer; at the picture's edge the wheel scrolls the notebook again.
  canvas.addEventListener("wheel", (ev) => {
    const r = canvas.getBoundingClientRect();
    if (ev.ctrlKey || ev.metaKey) {
      ev.preventDefault();
      zoom(Math.exp(-ev.deltaY * 0.0025), ev.clientX - r.left, ev.clientY - r.top);
      return;
    }
    const bx = tx, by = ty, unit = ev.deltaMode === 1 ? 16 : 1;
    const dx = (ev.shiftKey ? ev.deltaY : ev.deltaX) * unit, dy = ev.shiftKey ? 0 : ev.deltaY * unit;
    tx -= dx; ty -= dy; apply();
    if (tx !== bx || ty !== by) ev.preventDefault();
  }, { passive: false });

  const marks = () => {
    const hl = new Set(get("highlighted") || []);
    const cur = get("current"), sel = get("selected");
    for (const g of stage.querySelectorAll("[data-mslab-node]")) {
      const k = g.getAttribute("data-mslab-node");
      g.classList.toggle("mslab-highlight", hl.has(k));
      g.classList.toggle("mslab-current", k === cur);
      g.classList.toggle("mslab-selected", k === sel);
    }
    // A frame can be highlighted too: the branch of an If (or a loop body) that ran.
    for (const g of stage.querySelectorAll("[data-mslab-cluster]")) {
      g.classList.toggle("mslab-highlight", hl.has(g.getAttribute("data-mslab-cluster")));
    }
  };
  let first = true;
  // After a redraw: the first picture opens readable; after expand / fold / a new depth or layout the view is
  // re-fitted and the Cell that changed is brought to the middle.
  const refit = () => {
    const want = focus;
    focus = null;
    open();
    if (!want || want === "open") return;
    const el = stage.querySelector(`[data-mslab-cluster="${CSS.escape(want)}"]`) ||
      stage.querySelector(`[data-mslab-node="${CSS.escape(want)}"]`);
    if (el) centreOn(el);
  };
  const drawSvg = () => {
    const text = get("svg") || "";
    stage.innerHTML = text;
    metrics = null; found = []; foundAt = -1;
    const svg = svgEl();
    // XML, not outerHTML: HTML serialisation writes &nbsp; and drops namespaces, which an <img> cannot read
    if (svg) {
      mapImg.src = "data:image/svg+xml;charset=utf-8," +
        encodeURIComponent(new XMLSerializer().serializeToString(svg));
    }
    marks();
    if (search.value.trim()) count.textContent = "";
    if (first || focus) {
      const wasFirst = first;
      first = false;
      // the first picture is drawn before the widget is attached (no size yet): wait a frame
      if (wasFirst) requestAnimationFrame(refit); else refit();
    } else apply();
  };
  const drawDepth = () => {
    depth.replaceChildren(...(get("depth_options") || []).map((o) => mslabEl("option", { value: o, text: o })));
    depth.value = get("collapse_depth");
  };
  const drawTitle = () => { title.textContent = get("graph_title"); title.title = get("graph_title"); };
  const drawNotice = () => {
    const n = get("notice") || "";
    notice.textContent = n;
    notice.style.display = n ? "block" : "none";
  };
  const drawLayout = () => { layout.value = get("rankdir") || "TB"; };
  const drawInspector = () => mslabInspector(inspector, get("inspector"), send);

  drawSvg(); drawDepth(); drawTitle(); drawNotice(); drawLayout(); drawInspector();
  // A widget first drawn while hidden (a collapsed output, another tab) has no size: open it when it gets one.
  const resize = new ResizeObserver(() => {
    const r = canvas.getBoundingClientRect();
    if (r.width && !canvas.dataset.sized) { canvas.dataset.sized = "1"; open(); }
  });
  resize.observe(canvas);
  const handlers = [["svg", drawSvg], ["highlighted", marks], ["current", marks], ["selected", marks],
    ["depth_options", drawDepth], ["collapse_depth", drawDepth], ["graph_title", drawTitle],
    ["inspector", drawInspector], ["notice", drawNotice], ["rankdir", drawLayout]];
  for (const [name, fn] of handlers) model.on(`change:${P}${name}`, fn);
  return () => {
    resize.disconnect();
    for (const [name, fn] of handlers) model.off(`change:${P}${name}`, fn);
  };
}
