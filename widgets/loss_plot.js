// loss_plot.js: LossPlot, curves drawn on a canvas from points Python streams while training runs.
// Python sends {type: "points", series: {name: [steps, values]}} custom messages with the new points and,
// at finish(), stores every point in the `data` trait. The points live per model (initialize), so a view
// opened late, or re-rendered, draws them all. Python decides how each series is drawn and says so in the
// `styles` trait ({name: {axis: "loss" | "metric", color}}): "loss" series on the left axis with solid lines,
// "metric" series on the right one, dashed with dots. This file only draws.
// DOM hooks for tests: data-mslab-role="loss-canvas" carries
// data-mslab-frames (redraws so far), data-mslab-span-ms (first to last redraw) and data-mslab-points;
// "loss-status" holds the last values.
// Keyed by the widget's id (the `uid` trait): anywidget hands initialize and each render its own proxy
// object of the model, so the proxy cannot be the key.
const stores = new Map();

function storeOf(model) {
  const id = model.get("uid");
  let s = stores.get(id);
  if (!s) { s = { series: {}, listeners: new Set(), frames: 0, first: 0, last: 0 }; stores.set(id, s); }
  return s;
}

function appendPoints(store, series) {
  for (const [name, [xs, ys]] of Object.entries(series)) {
    const cur = store.series[name] || (store.series[name] = [[], []]);
    for (let i = 0; i < xs.length; i++) { cur[0].push(xs[i]); cur[1].push(ys[i]); }
  }
  store.listeners.forEach((f) => f());
}

function replacePoints(store, data) {
  const n = (d) => Object.values(d).reduce((a, [xs]) => a + xs.length, 0);
  if (n(data) < n(store.series)) return;  // an older snapshot than what streamed in
  store.series = {};
  for (const [name, [xs, ys]] of Object.entries(data)) store.series[name] = [xs.slice(), ys.slice()];
  store.listeners.forEach((f) => f());
}

// Round tick positions covering [lo, hi]: steps of 1, 2 or 5 times a power of ten.
function ticks(lo, hi, n) {
  const raw = (hi - lo) / Math.max(1, n);
  const p = Math.pow(10, Math.floor(Math.log10(raw || 1)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toPrecision(12));
  return out;
}

function fmt(v) {
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(1);
  return String(+v.toPrecision(4));
}

function valueRange(list, logy) {
  let lo = Infinity, hi = -Infinity;
  for (const [, ys] of list) for (const y of ys) {
    if (!Number.isFinite(y) || (logy && y <= 0)) continue;
    lo = Math.min(lo, y); hi = Math.max(hi, y);
  }
  if (!Number.isFinite(lo)) return null;
  if (logy) return [Math.log10(lo), Math.log10(hi) + (hi === lo ? 1 : 0)];
  if (hi === lo) { lo -= 0.5; hi += 0.5; }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

function drawChart(canvas, model, store) {
  const W = canvas.clientWidth || 600, H = canvas.clientHeight || 300, dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(W * dpr)) { canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr); }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, W, H);
  ctx.font = "12px Helvetica, Arial, sans-serif";
  const styles = model.get("styles") || {};
  const names = Object.keys(store.series).filter((k) => styles[k]);  // a series is drawn once its style is known
  const onAxis = (axis) => names.filter((k) => styles[k].axis === axis).map((k) => [k, store.series[k][1]]);
  const losses = onAxis("loss"), metrics = onAxis("metric");
  const L = 58, R = metrics.length ? 52 : 14, T = 26, B = 36;
  const pw = W - L - R, ph = H - T - B;
  ctx.fillStyle = "#1f2937"; ctx.textAlign = "center";
  ctx.font = "bold 13px Helvetica, Arial, sans-serif";
  ctx.fillText(model.get("title"), L + pw / 2, 16);
  ctx.font = "12px Helvetica, Arial, sans-serif";
  let xmax = 1, xmin = Infinity;
  for (const k of names) { const xs = store.series[k][0]; if (xs.length) { xmin = Math.min(xmin, xs[0]); xmax = Math.max(xmax, xs[xs.length - 1]); } }
  if (!Number.isFinite(xmin) || xmin >= xmax) xmin = Math.min(0, xmax - 1);
  const X = (x) => L + ((x - xmin) / (xmax - xmin)) * pw;
  ctx.strokeStyle = "#94a3b8"; ctx.lineWidth = 1; ctx.strokeRect(L, T, pw, ph);
  ctx.fillStyle = "#475569";
  ctx.textBaseline = "top";
  for (const x of ticks(xmin, xmax, 6)) {
    ctx.strokeStyle = "#e2e8f0"; ctx.beginPath(); ctx.moveTo(X(x), T); ctx.lineTo(X(x), T + ph); ctx.stroke();
    ctx.fillText(fmt(x), X(x), T + ph + 4);
  }
  ctx.fillText("step", L + pw / 2, T + ph + 20);
  ctx.textBaseline = "middle";
  const logy = model.get("logy");
  const axis = (list, side) => {
    const r = valueRange(list, logy && side === "left");
    if (!r) return null;
    const Y = (y) => T + ph - ((y - r[0]) / (r[1] - r[0])) * ph;
    ctx.textAlign = side === "left" ? "right" : "left";
    for (const v of ticks(r[0], r[1], 5)) {
      if (side === "left") { ctx.strokeStyle = "#e2e8f0"; ctx.beginPath(); ctx.moveTo(L, Y(v)); ctx.lineTo(L + pw, Y(v)); ctx.stroke(); }
      const label = logy && side === "left" ? fmt(Math.pow(10, v)) : fmt(v);
      ctx.fillText(label, side === "left" ? L - 5 : L + pw + 5, Y(v));
    }
    return logy && side === "left" ? (y) => Y(Math.log10(y)) : Y;
  };
  const yl = axis(losses, "left"), yr = axis(metrics, "right");
  let points = 0;
  names.forEach((k) => {
    const [xs, ys] = store.series[k];
    const Y = styles[k].axis === "loss" ? yl : yr;
    if (!Y) return;
    points += xs.length;
    ctx.strokeStyle = ctx.fillStyle = styles[k].color;
    ctx.lineWidth = 1.6;
    ctx.setLineDash(Y === yl ? [] : [5, 3]);
    ctx.beginPath();
    xs.forEach((x, j) => { if (j) ctx.lineTo(X(x), Y(ys[j])); else ctx.moveTo(X(x), Y(ys[j])); });
    ctx.stroke();
    ctx.setLineDash([]);
    if (Y === yr) xs.forEach((x, j) => { ctx.beginPath(); ctx.arc(X(x), Y(ys[j]), 3, 0, 2 * Math.PI); ctx.fill(); });
  });
  // legend, top right inside the plot
  ctx.textAlign = "left";
  names.forEach((k, i) => {
    const y = T + 12 + i * 16, x = L + pw - 110;
    ctx.fillStyle = styles[k].color;
    ctx.fillRect(x, y - 2, 18, 3);
    ctx.fillStyle = "#1f2937";
    ctx.fillText(k, x + 24, y);
  });
  return points;
}

export default {
  initialize({ model }) {
    const store = storeOf(model);
    const onMsg = (msg) => { if (msg && msg.type === "points") appendPoints(store, msg.series); };
    model.on("msg:custom", onMsg);
    const onData = () => replacePoints(store, model.get("data") || {});
    model.on("change:data", onData);
    onData();
    return () => {
      model.off("msg:custom", onMsg); model.off("change:data", onData); stores.delete(model.get("uid"));
    };
  },
  render({ model, el }) {
    el.classList.add("mslab-widget", "mslab-loss-plot");
    const store = storeOf(model);
    const canvas = document.createElement("canvas");
    canvas.className = "mslab-lp-canvas";
    canvas.setAttribute("data-mslab-role", "loss-canvas");
    const status = document.createElement("div");
    status.className = "mslab-lp-status";
    status.setAttribute("data-mslab-role", "loss-status");
    el.append(canvas, status);
    let pending = false;
    const draw = () => {
      pending = false;
      const points = drawChart(canvas, model, store);
      // Frames are counted per model (every view of it), so a view re-rendered when the output's static
      // form is replaced after the cell keeps the count of the frames drawn while training ran.
      if (points) {  // frames with curves in them (not the empty "waiting" picture)
        store.frames += 1;
        store.last = performance.now();
        if (store.frames === 1) store.first = store.last;
      }
      canvas.setAttribute("data-mslab-frames", String(store.frames));
      canvas.setAttribute("data-mslab-span-ms", String(Math.round(store.last - store.first)));
      canvas.setAttribute("data-mslab-points", String(points));
      const names = Object.keys(store.series);
      const parts = names.map((k) => { const ys = store.series[k][1]; return `${k} = ${fmt(ys[ys.length - 1])}`; });
      const steps = Math.max(0, ...names.map((k) => { const xs = store.series[k][0]; return xs[xs.length - 1]; }));
      status.textContent = names.length ? `step ${steps}: ${parts.join(", ")}${model.get("finished") ? " (finished)" : ""}`
        : "waiting for the first step";
    };
    const schedule = () => { if (!pending) { pending = true; requestAnimationFrame(draw); } };
    store.listeners.add(schedule);
    model.on("change:finished", schedule);
    model.on("change:title", schedule);
    model.on("change:styles", schedule);
    draw();
    if (!Object.keys(store.series).length) { model.send({ type: "hello" }); }
    return () => { store.listeners.delete(schedule); model.off("change:finished", schedule); model.off("change:title", schedule);
      model.off("change:styles", schedule); };
  },
};
