// graph_core.js: the graph pane shared by GraphView, StepThrough and TapeView.
// Python prepends this file to each widget's module (anywidget loads one module text per widget, so
// relative imports are not available). It defines functions only; the widget file exports `render`.
//
// A pane reads the traits <prefix>svg, <prefix>highlighted, <prefix>current, <prefix>selected,
// <prefix>inspector, <prefix>collapse_depth, <prefix>depth_options, <prefix>graph_title and sends
// {type: "click"|"cluster"|"expand"|"collapse"|"depth", pane: prefix, key|value} messages.
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
  box.appendChild(mslabEl("div", { class: "mslab-stats", text: stats }));
  if (s.size > 1) {
    const nums = s.numbers.slice(0, 48).map(mslabFmt).join(", ") + (s.numbers.length > 48 || s.truncated ? ", ..." : "");
    box.appendChild(mslabEl("pre", { class: "mslab-numbers", text: "[" + nums + "]" }));
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
    table.appendChild(mslabEl("tr", {}, [mslabEl("th", { text: k }), mslabEl("td", { text: v })]));
  }
  panel.appendChild(table);
  if (info.members) {
    const list = mslabEl("table", { class: "mslab-members" });
    for (const [name, op, type, src] of info.members) {
      list.appendChild(mslabEl("tr", {}, [mslabEl("td", { text: name }), mslabEl("td", { text: op }),
        mslabEl("td", { text: type }), mslabEl("td", { class: "mslab-src", text: src })]));
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

// Mount a graph pane into `root`; returns a cleanup function.
function mountGraph(root, model, prefix) {
  const P = prefix || "";
  const get = (name) => model.get(P + name);
  const send = (msg) => model.send(Object.assign({ pane: P }, msg));
  let scale = 1, tx = 0, ty = 0;

  const stage = mslabEl("div", { class: "mslab-stage" });
  const canvas = mslabEl("div", { class: "mslab-canvas", "data-mslab-role": "canvas" }, [stage]);
  const inspector = mslabEl("div", { class: "mslab-inspector", "data-mslab-role": "inspector" });
  const depth = mslabEl("select", { class: "mslab-depth", "data-mslab-role": "collapse-depth",
    title: "Fold Cell calls into boxes at this depth" });
  const title = mslabEl("span", { class: "mslab-graph-title" });
  const apply = () => { stage.style.transform = `translate(${tx}px, ${ty}px) scale(${scale})`; };
  const zoom = (f, cx, cy) => {
    const r = canvas.getBoundingClientRect();
    const px = cx === undefined ? r.width / 2 : cx, py = cy === undefined ? r.height / 2 : cy;
    const ns = Math.min(8, Math.max(0.1, scale * f));
    tx = px - ((px - tx) * ns) / scale; ty = py - ((py - ty) * ns) / scale; scale = ns; apply();
  };
  const fit = () => {
    const svg = stage.querySelector("svg");
    if (!svg) return;
    const r = canvas.getBoundingClientRect();
    const w = svg.width.baseVal.value || svg.getBoundingClientRect().width / scale;
    const h = svg.height.baseVal.value || svg.getBoundingClientRect().height / scale;
    if (!w || !h || !r.width) { scale = 1; tx = ty = 0; apply(); return; }
    scale = Math.min(1.5, Math.min(r.width / w, r.height / h) * 0.95);
    tx = (r.width - w * scale) / 2; ty = 4; apply();
  };
  const toolbar = mslabEl("div", { class: "mslab-toolbar" }, [
    mslabEl("button", { class: "mslab-btn", "data-mslab-role": "zoom-in", text: "+", title: "Zoom in",
      onclick: () => zoom(1.25) }),
    mslabEl("button", { class: "mslab-btn", "data-mslab-role": "zoom-out", text: "\u2212", title: "Zoom out",
      onclick: () => zoom(0.8) }),
    mslabEl("button", { class: "mslab-btn", "data-mslab-role": "zoom-fit", text: "fit", title: "Fit the graph",
      onclick: fit }),
    mslabEl("label", { class: "mslab-depth-label", text: "collapse " }, [depth]),
    title,
  ]);
  const pane = mslabEl("div", { class: "mslab-graph-pane", "data-mslab-pane": P || "main" }, [
    toolbar, mslabEl("div", { class: "mslab-graph-body" }, [canvas, inspector])]);
  root.appendChild(pane);

  depth.addEventListener("change", () => send({ type: "depth", value: depth.value }));

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
      send({ type: mslabKeyKind(key) === "box" ? "expand" : "click", key });
      return;
    }
    // A Cell's frame folds back into a box (a frame that is no Cell call is only described).
    const cl = target && target.closest("[data-mslab-cluster]");
    if (cl) send({ type: "collapse", key: cl.getAttribute("data-mslab-cluster") });
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", () => { drag = null; });
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoom(ev.deltaY < 0 ? 1.1 : 1 / 1.1, ev.clientX - r.left, ev.clientY - r.top);
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
  const drawSvg = () => {
    stage.innerHTML = get("svg");
    marks();
    if (first) { first = false; requestAnimationFrame(fit); }
  };
  const drawDepth = () => {
    depth.replaceChildren(...(get("depth_options") || []).map((o) => mslabEl("option", { value: o, text: o })));
    depth.value = get("collapse_depth");
  };
  const drawTitle = () => { title.textContent = get("graph_title"); };
  const drawInspector = () => mslabInspector(inspector, get("inspector"), send);

  drawSvg(); drawDepth(); drawTitle(); drawInspector();
  const handlers = [["svg", drawSvg], ["highlighted", marks], ["current", marks], ["selected", marks],
    ["depth_options", drawDepth], ["collapse_depth", drawDepth], ["graph_title", drawTitle],
    ["inspector", drawInspector]];
  for (const [name, fn] of handlers) model.on(`change:${P}${name}`, fn);
  return () => { for (const [name, fn] of handlers) model.off(`change:${P}${name}`, fn); };
}
