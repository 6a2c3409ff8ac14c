// graph_view.js: the graph pane (GraphView), one self-contained ES module. GraphView is the one widget that
// draws an interactive graph; StepThrough, TapeView and CompilePipeline show GraphViews as child widgets.
//
// It reads the traits svg, highlighted, current, selected, inspector, collapse_depth, depth_options,
// graph_title, notice, rankdir and sends {type: "click"|"cluster"|"expand"|"collapse"|"depth"|"rankdir",
// key|value} messages. depth_options lists only the fold choices that draw different pictures (Python
// compares them), so the fold <select> is built from it as it is.
// Expand / collapse act on ONE Cell call over the depth menu's baseline: a click on a collapsed box
// (data-mslab-node="box:...") sends expand, a click on a Cell's frame (data-mslab-cluster) sends collapse.
// DOM hooks for tests: data-mslab-role on controls, data-mslab-node / data-mslab-cluster on SVG groups
// (added by Python), .mslab-highlight / .mslab-current / .mslab-selected classes on node groups.
//
// The pane is made of named pieces, each a small function below: buildPane (the DOM), the viewport
// (pan and zoom), openReadable (the first view), the minimap, search, pointer (drag and click), wheel,
// marks (highlight classes), the inspector, fitting after a redraw, the toolbar and the traits on screen;
// mountGraph wires them to the model.

// ---- view keys -------------------------------------------------------------------------------------
// The one place the front-end reads a view key (Python makes them in mslab/lab/viz/keys.py): "box:fc1",
// "hidden:%3", "input:x", "param:fc1.weight", "const:const0", "output:0", or an op's IR name ("%7");
// inside a control-flow node's subgraph the same behind a prefix ("%2[then]box:opt", "%2[then]%0").
const KEY_KINDS = ["box", "hidden", "input", "param", "const", "output"];
const SUB_PREFIX = /^(?:%\d+\[[^\]]+\])+/;

function keyKind(key) {
  key = key.replace(SUB_PREFIX, "");
  const i = key.indexOf(":");
  const kind = i < 0 ? "" : key.slice(0, i);
  return KEY_KINDS.includes(kind) ? kind : "node";
}

// The key of the frame a box stands for ("box:fc1" -> "fc1", "%2[then]box:opt" -> "%2[then]opt").
function frameOf(key) {
  const m = key.match(SUB_PREFIX), p = m ? m[0] : "", rest = key.slice(p.length);
  return rest.startsWith("box:") ? p + rest.slice(4) : key;
}

function boxOf(frame) {
  const m = frame.match(SUB_PREFIX), p = m ? m[0] : "";
  return p + "box:" + frame.slice(p.length);
}

// ---- DOM helpers -----------------------------------------------------------------------------------
function el(tag, attrs, children) {
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

const SVGNS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// ---- value text --------------------------------------------------------------------------------------
// The formatter of values (summaries from mslab/lab/widgets/_values.py); its Python twin is _values.text.
function fmt(x) {
  if (typeof x === "string") return x;
  if (x === null || x === undefined) return "";
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return x.toExponential(3);
  return String(Math.round(x * 1e5) / 1e5);
}

// One line: the number of a one-number value, else dtype, shape and the first numbers.
function short(s) {
  if (!s) return "(not computed yet)";
  if (s.size === 1) return fmt(s.numbers[0]);
  const nums = s.numbers.slice(0, 6).map(fmt).join(", ");
  return `${s.dtype}[${s.shape.join(", ")}] [${nums}${s.size > 6 ? ", ..." : ""}]`;
}

// ---- pictures of values ------------------------------------------------------------------------------
// A histogram of the numbers, drawn from the numbers Python sent (20 bins).
function histogram(numbers, role) {
  const W = 220, H = 60, B = 20;
  const svg = svgEl("svg", { width: W, height: H + 14, class: "mslab-hist", "data-mslab-role": role });
  if (!numbers.length) return svg;
  let lo = Math.min(...numbers), hi = Math.max(...numbers);
  if (hi === lo) { hi = lo + 1e-12; }
  const counts = new Array(B).fill(0);
  for (const x of numbers) counts[Math.min(B - 1, Math.floor(((x - lo) / (hi - lo)) * B))]++;
  const top = Math.max(...counts);
  counts.forEach((c, i) => {
    const h = (c / top) * H;
    svg.appendChild(svgEl("rect", { x: (i * W) / B + 0.5, y: H - h, width: W / B - 1, height: h,
      class: "mslab-bar", "data-count": c }));
  });
  const t1 = svgEl("text", { x: 0, y: H + 12, class: "mslab-axis" }); t1.textContent = fmt(lo);
  const t2 = svgEl("text", { x: W, y: H + 12, "text-anchor": "end", class: "mslab-axis" });
  t2.textContent = fmt(hi);
  svg.appendChild(t1); svg.appendChild(t2);
  return svg;
}

// A heat-map of a small matrix (blue negative, red positive, white zero).
function heatmap(matrix, role) {
  const rows = matrix.length, cols = matrix[0].length;
  const cell = Math.max(4, Math.min(16, Math.floor(220 / Math.max(rows, cols))));
  const svg = svgEl("svg", { width: cols * cell, height: rows * cell, class: "mslab-heat", "data-mslab-role": role });
  let m = 0;
  for (const r of matrix) for (const x of r) m = Math.max(m, Math.abs(x));
  m = m || 1;
  matrix.forEach((r, i) => r.forEach((x, j) => {
    const s = Math.round(255 * (1 - Math.abs(x) / m));
    const fill = x >= 0 ? `rgb(255,${s},${s})` : `rgb(${s},${s},255)`;
    const rect = svgEl("rect", { x: j * cell, y: i * cell, width: cell, height: cell, fill });
    const tip = svgEl("title", {}); tip.textContent = `[${i}, ${j}] = ${fmt(x)}`;
    rect.appendChild(tip);
    svg.appendChild(rect);
  }));
  return svg;
}

// One value (or gradient) summary: stats line, numbers, histogram, heat-map.
function valueBlock(label, s, role) {
  const box = el("div", { class: "mslab-value", "data-mslab-role": role });
  box.appendChild(el("div", { class: "mslab-value-title", text: label }));
  if (!s) { box.appendChild(el("div", { text: "(not computed yet)" })); return box; }
  const stats = s.size === 1 ? `= ${short(s)}` :
    `${s.dtype}[${s.shape.join(", ")}]  min ${fmt(s.min)}  max ${fmt(s.max)}  mean ${fmt(s.mean)}  std ${fmt(s.std)}`;
  // A minus sign is a place the browser may break a line ("-" / "0.37"): a non-breaking hyphen is not.
  const keep = (text) => text.replace(/-/g, "\u2011");
  box.appendChild(el("div", { class: "mslab-stats", text: keep(stats) }));
  if (s.size > 1) {
    const nums = s.numbers.slice(0, 48).map(fmt).join(", ") + (s.numbers.length > 48 || s.truncated ? ", ..." : "");
    box.appendChild(el("pre", { class: "mslab-numbers", text: keep("[" + nums + "]") }));
    box.appendChild(s.matrix ? heatmap(s.matrix, role + "-heatmap") : histogram(s.numbers, role + "-histogram"));
  }
  return box;
}

// ---- the inspector -----------------------------------------------------------------------------------
function drawInspector(panel, info, send) {
  panel.replaceChildren();
  if (!info || !info.key) {
    panel.appendChild(el("div", { class: "mslab-hint",
      text: "Click a node to inspect it. Click a 3D box to open its Cell; click a Cell's frame to fold it again." }));
    return;
  }
  panel.appendChild(el("div", { class: "mslab-inspector-title", text: info.title, "data-mslab-key": info.key }));
  if (info.error) panel.appendChild(el("div", { text: info.error }));
  const table = el("table", { class: "mslab-fields" });
  for (const [k, v] of info.fields || []) {
    // Short values (names, ops, shapes such as f32[32, 84]) never wrap; long ones wrap between words only.
    table.appendChild(el("tr", {}, [el("th", { text: k }),
      el("td", { text: v, class: String(v).length <= 40 ? "mslab-nowrap" : "" })]));
  }
  panel.appendChild(table);
  if (info.members) {
    const list = el("table", { class: "mslab-members" });
    for (const [name, op, type, src] of info.members) {
      list.appendChild(el("tr", {}, [el("td", { class: "mslab-nowrap", text: name }),
        el("td", { class: "mslab-nowrap", text: op }), el("td", { class: "mslab-nowrap", text: type }),
        el("td", { class: "mslab-src", text: src })]));
    }
    panel.appendChild(list);
  }
  if (info.expandable) {
    panel.appendChild(el("button", { class: "mslab-btn", "data-mslab-role": "expand", text: "Expand this Cell",
      onclick: () => send({ type: "expand", key: info.key }) }));
  }
  if (info.collapsible) {
    panel.appendChild(el("button", { class: "mslab-btn", "data-mslab-role": "collapse",
      text: "Collapse this Cell", onclick: () => send({ type: "collapse", key: info.key }) }));
  }
  if (info.value) panel.appendChild(valueBlock("value", info.value, "node-value"));
  if (info.gradient) panel.appendChild(valueBlock("gradient d(loss)/d(value)", info.gradient, "node-gradient"));
}

// ---- the pane's DOM ----------------------------------------------------------------------------------
// Toolbar (zoom, search, fold depth, layout, title), an optional notice, the canvas (the picture on a
// movable stage, and a minimap) and the inspector beside it.
function buildPane() {
  const ui = {};
  ui.stage = el("div", { class: "mslab-stage" });
  ui.mapImg = el("img", { class: "mslab-minimap-img", alt: "overview" });
  ui.mapView = el("div", { class: "mslab-minimap-view" });
  ui.minimap = el("div", { class: "mslab-minimap", "data-mslab-role": "minimap",
    title: "Overview: click or drag to move the view" }, [ui.mapImg, ui.mapView]);
  ui.canvas = el("div", { class: "mslab-canvas", "data-mslab-role": "canvas" }, [ui.stage, ui.minimap]);
  ui.inspector = el("div", { class: "mslab-inspector", "data-mslab-role": "inspector" });
  ui.notice = el("div", { class: "mslab-notice", "data-mslab-role": "notice" });
  ui.depth = el("select", { class: "mslab-depth", "data-mslab-role": "collapse-depth",
    title: "Fold Cell calls into boxes at this depth" });
  ui.layout = el("select", { class: "mslab-layout", "data-mslab-role": "layout",
    title: "Layout: top to bottom, or left to right" }, [
    el("option", { value: "TB", text: "\u2193 TB" }), el("option", { value: "LR", text: "\u2192 LR" })]);
  ui.search = el("input", { class: "mslab-search", type: "search", placeholder: "find node\u2026",
    "data-mslab-role": "search", title: "Find a node by op, name or Cell (Enter: next match, and inspect it)" });
  ui.count = el("span", { class: "mslab-search-count", "data-mslab-role": "search-count" });
  ui.title = el("span", { class: "mslab-graph-title" });
  const button = (role, text, title) => el("button", { class: "mslab-btn", "data-mslab-role": role, text, title });
  ui.zoomIn = button("zoom-in", "+", "Zoom in (or ctrl+wheel)");
  ui.zoomOut = button("zoom-out", "\u2212", "Zoom out");
  ui.fit = button("zoom-fit", "fit", "Show the whole graph");
  ui.read = button("zoom-read", "1:1", "Readable size, top of the graph");
  const toolbar = el("div", { class: "mslab-toolbar" }, [ui.zoomIn, ui.zoomOut, ui.fit, ui.read, ui.search,
    ui.count, el("label", { class: "mslab-depth-label", text: "fold " }, [ui.depth]), ui.layout, ui.title]);
  ui.pane = el("div", { class: "mslab-graph-pane" }, [
    toolbar, ui.notice, el("div", { class: "mslab-graph-body" }, [ui.canvas, ui.inspector])]);
  return ui;
}

// ---- pan and zoom ------------------------------------------------------------------------------------
// The picture moves as one CSS transform of the stage: translate(tx, ty) then scale. `onMove` runs after
// every move (the minimap follows).
class Viewport {
  constructor(canvas, stage, onMove) {
    Object.assign(this, { canvas, stage, onMove, scale: 1, tx: 0, ty: 0, metrics: null });
  }

  svg() { return this.stage.querySelector("svg"); }

  // The picture's size in CSS px at scale 1.
  size() {
    const svg = this.svg();
    if (!svg) return [0, 0];
    return [svg.width.baseVal.value || svg.getBoundingClientRect().width / this.scale,
      svg.height.baseVal.value || svg.getBoundingClientRect().height / this.scale];
  }

  // Keep the picture in view: a picture smaller than the canvas stays inside it, a bigger one cannot
  // drift further than a margin past its edges (zooming used to lose the graph off the top).
  clamp() {
    const r = this.canvas.getBoundingClientRect(), [w, h] = this.size(), M = 24;
    if (!w || !r.width) return;
    const lim = (t, c, v) => (c <= v ? Math.min(Math.max(t, 0), v - c) : Math.min(Math.max(t, v - c - M), M));
    this.tx = lim(this.tx, w * this.scale, r.width);
    this.ty = lim(this.ty, h * this.scale, r.height);
  }

  apply() {
    this.clamp();
    this.stage.style.transform = `translate(${this.tx}px, ${this.ty}px) scale(${this.scale})`;
    this.onMove();
  }

  // Zoom by factor f around the canvas point (cx, cy) (default: the middle).
  zoom(f, cx, cy) {
    const r = this.canvas.getBoundingClientRect();
    const px = cx === undefined ? r.width / 2 : cx, py = cy === undefined ? r.height / 2 : cy;
    const ns = Math.min(8, Math.max(0.05, this.scale * f));
    this.tx = px - ((px - this.tx) * ns) / this.scale;
    this.ty = py - ((py - this.ty) * ns) / this.scale;
    this.scale = ns;
    this.apply();
  }

  // The scale at which the smallest node text is MIN_TEXT_PX on screen.
  readableScale() {
    const svg = this.svg();
    if (!svg) return 1;
    this.metrics = this.metrics || textMetrics(svg);
    return MIN_TEXT_PX / (this.metrics.minFont * this.metrics.ratio) * 1.01;
  }

  // The whole picture in the canvas (small text if it is big: the button's choice, not the opening view).
  fitAll() {
    const r = this.canvas.getBoundingClientRect(), [w, h] = this.size();
    if (!w || !h || !r.width) return;
    this.scale = Math.min(1.5, Math.min(r.width / w, r.height / h) * 0.95);
    this.tx = (r.width - w * this.scale) / 2; this.ty = 4; this.apply();
  }

  // Bring an element of the picture to the middle of the canvas (its top, when it is taller than the canvas).
  centreOn(target) {
    const r = this.canvas.getBoundingClientRect(), b = target.getBoundingClientRect();
    this.tx += r.width / 2 - (b.left - r.left + b.width / 2);
    this.ty += b.height > r.height - 16 ? 8 - (b.top - r.top) : r.height / 2 - (b.top - r.top + b.height / 2);
    this.apply();
  }
}

// ---- reading at first sight --------------------------------------------------------------------------
// A picture opens so that its smallest node text is at least MIN_TEXT_PX on screen: fitted to the canvas's
// width when that is readable, else at the readable scale (then it scrolls: wheel pans, ctrl+wheel zooms
// around the pointer). A minimap shows where the view is when the picture is much bigger than the canvas.
const MIN_TEXT_PX = 11;

// The CSS px per SVG user unit at scale 1, and the smallest node text in user units.
function textMetrics(svg) {
  const vb = svg.viewBox && svg.viewBox.baseVal;
  const ratio = vb && vb.width ? svg.width.baseVal.value / vb.width : 1;
  let min = Infinity;
  for (const t of svg.querySelectorAll("[data-mslab-node] text")) {
    const f = parseFloat(t.getAttribute("font-size"));
    if (f && t.textContent.trim()) min = Math.min(min, f);
  }
  return { ratio, minFont: Number.isFinite(min) ? min : 10 };
}

// Open readable: the width fitted when that is readable, never smaller; the top of the picture in view.
// Bigger than the canvas, it opens at its top-left corner, where reading starts, unless nothing to read
// first is in view there: then the first outlined node (or else the first graph input, topmost, or leftmost
// for left to right) comes to the middle.
function openReadable(view, leftToRight) {
  const r = view.canvas.getBoundingClientRect(), [w, h] = view.size();
  if (!w || !r.width) { view.scale = 1; view.tx = view.ty = 0; view.apply(); return; }
  const fit = (width) => Math.max(view.readableScale(), Math.min(1.5, (width - 16) / w));
  view.scale = fit(r.width);
  // With a minimap (bottom-right corner) the picture is fitted, and centred, in the room left of it.
  const room = hasMinimap(view, r) ? r.width - MINIMAP_ROOM : r.width;
  view.scale = Math.min(view.scale, fit(room));
  const pw = w * view.scale;
  view.tx = pw > room ? 8 : (room - pw) / 2; view.ty = 8; view.apply();
  if (w * view.scale <= r.width && h * view.scale <= r.height) return;
  const boxes = (selector) => [...view.stage.querySelectorAll(selector)].map((g) => g.getBoundingClientRect());
  const outlined = boxes("[data-mslab-node].mslab-highlight");
  const wanted = outlined.length ? outlined : boxes('[data-mslab-kind="input"]');
  const seen = (b) => b.left >= r.left && b.right <= r.right && b.top >= r.top && b.bottom <= r.bottom;
  if (!wanted.length || wanted.some(seen)) return;
  const first = wanted.reduce((a, b) => ((leftToRight ? b.left < a.left : b.top < a.top) ? b : a));
  view.tx += r.left + r.width / 2 - (first.left + first.width / 2);
  view.ty += r.top + r.height / 2 - (first.top + first.height / 2);
  view.apply();
}

// ---- minimap -----------------------------------------------------------------------------------------
// A small copy of the picture with the visible part framed; a click or drag there moves the view. It is
// shown when the picture is much bigger than the canvas, at most 100 x 130 px in the bottom-right corner.
const MINIMAP_ROOM = 120;  // px of the canvas's width the minimap covers, with its margins

function hasMinimap(view, r) {
  const [w, h] = view.size();
  return Boolean(w) && (w * view.scale > r.width * 1.5 || h * view.scale > r.height * 1.5);
}

function attachMinimap(ui, view) {
  const draw = () => {
    const r = view.canvas.getBoundingClientRect(), [w, h] = view.size();
    const big = hasMinimap(view, r);
    ui.minimap.style.display = big ? "block" : "none";
    if (!big) return;
    const k = Math.min(100 / w, 130 / h);
    ui.mapImg.style.width = `${w * k}px`; ui.mapImg.style.height = `${h * k}px`;
    const x0 = Math.max(0, -view.tx / view.scale), y0 = Math.max(0, -view.ty / view.scale);
    const x1 = Math.min(w, (r.width - view.tx) / view.scale), y1 = Math.min(h, (r.height - view.ty) / view.scale);
    Object.assign(ui.mapView.style, { left: `${x0 * k}px`, top: `${y0 * k}px`,
      width: `${Math.max(2, (x1 - x0) * k)}px`, height: `${Math.max(2, (y1 - y0) * k)}px` });
  };
  // XML, not outerHTML: HTML serialisation writes &nbsp; and drops namespaces, which an <img> cannot read.
  const setPicture = (svg) => {
    const xml = new XMLSerializer().serializeToString(svg);
    ui.mapImg.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(xml);
  };
  let dragging = false;
  const moveTo = (ev) => {
    const r = view.canvas.getBoundingClientRect(), m = ui.mapImg.getBoundingClientRect(), [w] = view.size();
    const k = m.width / w;
    view.tx = r.width / 2 - ((ev.clientX - m.left) / k) * view.scale;
    view.ty = r.height / 2 - ((ev.clientY - m.top) / k) * view.scale;
    view.apply();
  };
  ui.minimap.addEventListener("pointerdown", (ev) => {
    ev.stopPropagation(); dragging = true; moveTo(ev);
    try { ui.minimap.setPointerCapture(ev.pointerId); } catch (e) { /* not capturable */ }
  });
  ui.minimap.addEventListener("pointermove", (ev) => { ev.stopPropagation(); if (dragging) moveTo(ev); });
  ui.minimap.addEventListener("pointerup", (ev) => { ev.stopPropagation(); dragging = false; });
  return { draw, setPicture };
}

// ---- search ------------------------------------------------------------------------------------------
// Every node whose words (op, name, Cell, type) contain the query is marked; the first is centred.
// Enter: the next match, shown in the inspector too.
function attachSearch(ui, view, send) {
  let found = [], foundAt = -1;
  const run = (step) => {
    for (const g of found) g.classList.remove("mslab-found");
    const q = ui.search.value.trim().toLowerCase();
    found = !q ? [] : [...ui.stage.querySelectorAll("[data-mslab-node]")].filter((g) =>
      (g.getAttribute("data-mslab-node") + " " + g.textContent).toLowerCase().includes(q));
    for (const g of found) g.classList.add("mslab-found");
    foundAt = found.length ? (step ? (foundAt + 1) % found.length : 0) : -1;
    ui.count.textContent = q ? (found.length ? `${foundAt + 1}/${found.length}` : "none") : "";
    if (foundAt >= 0) {
      for (const g of found) g.classList.toggle("mslab-found-current", g === found[foundAt]);
      if (view.scale < view.readableScale()) { view.scale = view.readableScale(); view.apply(); }
      view.centreOn(found[foundAt]);
    }
  };
  ui.search.addEventListener("input", () => run(false));
  ui.search.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    ev.preventDefault();
    run(true);
    if (foundAt >= 0) send({ type: "click", key: found[foundAt].getAttribute("data-mslab-node") });
  });
  // A new picture: the old matches are gone.
  const forget = () => {
    found = []; foundAt = -1;
    if (ui.search.value.trim()) ui.count.textContent = "";
  };
  return { forget };
}

// ---- pointer: drag to pan, click to inspect, expand or fold -------------------------------------------
// A press that did not move is a click: on a collapsed Cell call it opens the Cell, on another node it
// inspects it, on a Cell's frame it folds the Cell back into a box. `focus(key)` names what to centre on
// after the redraw the click causes.
function attachPointer(ui, view, send, focus) {
  let drag = null;
  ui.canvas.addEventListener("pointerdown", (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, tx: view.tx, ty: view.ty, moved: false };
  });
  ui.canvas.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 3) {
      drag.moved = true;
      try { ui.canvas.setPointerCapture(ev.pointerId); } catch (e) { /* not capturable */ }
      ui.canvas.classList.add("mslab-dragging");
    }
    if (drag.moved) { view.tx = drag.tx + dx; view.ty = drag.ty + dy; view.apply(); }
  });
  ui.canvas.addEventListener("pointerup", (ev) => {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    ui.canvas.classList.remove("mslab-dragging");
    if (!moved) click(ev.target instanceof Element ? ev.target : null, send, focus);
  });
  ui.canvas.addEventListener("pointercancel", () => { drag = null; });
}

function click(target, send, focus) {
  const node = target && target.closest("[data-mslab-node]");
  if (node) {
    // A collapsed Cell call opens (Python then shows the Cell in the inspector); other nodes are inspected.
    const key = node.getAttribute("data-mslab-node");
    const box = keyKind(key) === "box";
    if (box) focus(frameOf(key));
    send({ type: box ? "expand" : "click", key });
    return;
  }
  // A Cell's frame folds back into a box (a frame that is no Cell call is only described).
  const frame = target && target.closest("[data-mslab-cluster]");
  if (frame) {
    const key = frame.getAttribute("data-mslab-cluster");
    focus(boxOf(key));
    send({ type: "collapse", key });
  }
}

// ---- wheel -------------------------------------------------------------------------------------------
// The wheel scrolls the picture (shift: sideways) and ctrl+wheel (a trackpad pinch) zooms around the
// pointer; at the picture's edge the wheel scrolls the notebook again.
function attachWheel(ui, view) {
  ui.canvas.addEventListener("wheel", (ev) => {
    const r = ui.canvas.getBoundingClientRect();
    if (ev.ctrlKey || ev.metaKey) {
      ev.preventDefault();
      view.zoom(Math.exp(-ev.deltaY * 0.0025), ev.clientX - r.left, ev.clientY - r.top);
      return;
    }
    const bx = view.tx, by = view.ty, unit = ev.deltaMode === 1 ? 16 : 1;
    const dx = (ev.shiftKey ? ev.deltaY : ev.deltaX) * unit, dy = ev.shiftKey ? 0 : ev.deltaY * unit;
    view.tx -= dx; view.ty -= dy; view.apply();
    if (view.tx !== bx || view.ty !== by) ev.preventDefault();
  }, { passive: false });
}

// ---- marks -------------------------------------------------------------------------------------------
// The classes of the node groups (outlined, current, selected) and of frames (the branch of an If, or a
// loop body, that ran) from the traits.
function drawMarks(stage, model) {
  const hl = new Set(model.get("highlighted") || []);
  const cur = model.get("current"), sel = model.get("selected");
  for (const g of stage.querySelectorAll("[data-mslab-node]")) {
    const k = g.getAttribute("data-mslab-node");
    g.classList.toggle("mslab-highlight", hl.has(k));
    g.classList.toggle("mslab-current", k === cur);
    g.classList.toggle("mslab-selected", k === sel);
  }
  for (const g of stage.querySelectorAll("[data-mslab-cluster]")) {
    g.classList.toggle("mslab-highlight", hl.has(g.getAttribute("data-mslab-cluster")));
  }
}

// ---- fitting the view after a redraw ------------------------------------------------------------------
// The first picture opens readable; after expand / fold / a new depth or layout the view is re-fitted and the
// Cell that changed is brought to the middle. `focus(key)` names that Cell before the redraw ("open": none).
function makeFitting(ui, view, model) {
  let want = null, first = true;
  const open = () => openReadable(view, model.get("rankdir") === "LR");
  const refit = () => {
    const key = want;
    want = null;
    open();
    if (!key || key === "open") return;
    const target = ui.stage.querySelector(`[data-mslab-cluster="${CSS.escape(key)}"]`) ||
      ui.stage.querySelector(`[data-mslab-node="${CSS.escape(key)}"]`);
    if (target) view.centreOn(target);
  };
  const afterDraw = () => {
    if (first) {
      first = false;
      requestAnimationFrame(refit);  // the first picture is drawn before the widget is attached (no size yet)
    } else if (want) refit();
    else view.apply();
  };
  return { open, afterDraw, focus: (key) => { want = key; } };
}

// ---- toolbar -----------------------------------------------------------------------------------------
function attachToolbar(ui, view, send, fitting) {
  ui.zoomIn.onclick = () => view.zoom(1.25);
  ui.zoomOut.onclick = () => view.zoom(0.8);
  ui.fit.onclick = () => view.fitAll();
  ui.read.onclick = fitting.open;
  ui.depth.addEventListener("change", () => { fitting.focus("open"); send({ type: "depth", value: ui.depth.value }); });
  ui.layout.addEventListener("change", () => {
    fitting.focus("open");
    send({ type: "rankdir", value: ui.layout.value });
  });
}

// ---- the traits on screen ----------------------------------------------------------------------------
// Draw each trait where it belongs, now and whenever it changes. Returns a cleanup function.
function bindTraits(ui, model, view, map, search, fitting, send) {
  const marks = () => drawMarks(ui.stage, model);
  const drawSvg = () => {
    ui.stage.innerHTML = model.get("svg") || "";
    view.metrics = null;
    search.forget();
    const svg = view.svg();
    if (svg) map.setPicture(svg);
    marks();
    fitting.afterDraw();
  };
  const drawDepth = () => {
    ui.depth.replaceChildren(...(model.get("depth_options") || []).map((o) => el("option", { value: o, text: o })));
    ui.depth.value = model.get("collapse_depth");
  };
  const drawTitle = () => { ui.title.textContent = ui.title.title = model.get("graph_title"); };
  const drawNotice = () => {
    const n = model.get("notice") || "";
    ui.notice.textContent = n;
    ui.notice.style.display = n ? "block" : "none";
  };
  const drawLayout = () => { ui.layout.value = model.get("rankdir") || "TB"; };
  const inspect = () => drawInspector(ui.inspector, model.get("inspector"), send);
  const handlers = [["svg", drawSvg], ["highlighted", marks], ["current", marks], ["selected", marks],
    ["depth_options", drawDepth], ["collapse_depth", drawDepth], ["graph_title", drawTitle],
    ["inspector", inspect], ["notice", drawNotice], ["rankdir", drawLayout]];
  for (const draw of [drawSvg, drawDepth, drawTitle, drawNotice, drawLayout, inspect]) draw();
  for (const [name, fn] of handlers) model.on(`change:${name}`, fn);
  return () => { for (const [name, fn] of handlers) model.off(`change:${name}`, fn); };
}

// ---- the pane ----------------------------------------------------------------------------------------
// Mount a graph pane into `root`: the pieces above, wired to the model. Returns a cleanup function.
function mountGraph(root, model) {
  const send = (msg) => model.send(msg);
  const ui = buildPane();
  root.appendChild(ui.pane);
  let map = null;
  const view = new Viewport(ui.canvas, ui.stage, () => map && map.draw());
  map = attachMinimap(ui, view);
  const search = attachSearch(ui, view, send);
  const fitting = makeFitting(ui, view, model);
  attachPointer(ui, view, send, fitting.focus);
  attachWheel(ui, view);
  attachToolbar(ui, view, send, fitting);
  const unbind = bindTraits(ui, model, view, map, search, fitting, send);
  // A widget first drawn while hidden (a collapsed output, another tab) has no size: open it when it gets one.
  const resize = new ResizeObserver(() => {
    const r = ui.canvas.getBoundingClientRect();
    if (r.width && !ui.canvas.dataset.sized) { ui.canvas.dataset.sized = "1"; fitting.open(); }
  });
  resize.observe(ui.canvas);
  return () => { resize.disconnect(); unbind(); };
}

export default {
  render({ model, el: root }) {
    root.classList.add("mslab-widget", "mslab-graph-view");
    return mountGraph(root, model);
  },
};
