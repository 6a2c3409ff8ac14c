// step_through.js: StepThrough, controls + stage chips + explanation + the graph pane + values panel.
// The graph pane is a GraphView child widget (trait `pane`, a widget reference) rendered by its own module
// (graph_view.js) through anywidget's host. Buttons send {type: "step", action}; chips {type: "goto-stage"}.
// This module is self-contained: the few drawing helpers it shares with graph_view.js are copied below
// (anywidget loads each widget's module on its own, and a copy keeps each file readable alone).

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

function valuesPanel(panel, v) {
  panel.replaceChildren();
  if (!v || !v.params) return;
  const scalar = (label, s, role) => el("div", { class: "mslab-scalar", "data-mslab-role": role },
    [el("b", { text: label + ": " }), el("span", { text: short(s) })]);
  panel.appendChild(scalar("loss", v.loss, "loss"));
  panel.appendChild(scalar("sens", v.sens, "sens"));
  if (v.node) {
    const folded = v.node.folded ? " (folded: computed when the graph was compiled)" : "";
    panel.appendChild(el("div", { class: "mslab-scalar", "data-mslab-role": "current-node" }, [
      el("b", { text: "last node: " }),
      el("span", { text: `${v.node.name} = ${v.node.op}  ${v.node.scope || "(top level)"}${folded}` })]));
    panel.appendChild(el("div", { class: "mslab-src", text: v.node.source || "" }));
  }
  if (v.control && v.control.length) {
    // Control flow that ran: the branch an If took, how many times a While's body ran.
    const box = el("div", { class: "mslab-control", "data-mslab-role": "control-flow" });
    for (const c of v.control) {
      const attrs = { class: "mslab-control-row", "data-mslab-control": c.key, "data-mslab-branch": c.branch || "" };
      if (c.iterations !== null && c.iterations !== undefined) attrs["data-mslab-iterations"] = String(c.iterations);
      box.appendChild(el("div", attrs, [el("b", { text: `${c.op} ${c.key}: ` }),
        el("span", { text: c.text }), el("span", { class: "mslab-src", text: "  " + (c.source || "") })]));
    }
    panel.appendChild(box);
  }
  const table = el("table", { "data-mslab-role": "params" });
  table.appendChild(el("tr", {}, ["parameter", "gradient", "before", "after", "delta"].map(
    (h) => el("th", { text: h }))));
  for (const p of v.params) {
    const row = el("tr", { "data-mslab-param": p.name, class: p.updated ? "mslab-updated" : "" });
    row.appendChild(el("td", { text: p.name }));
    for (const k of ["gradient", "before", "after", "delta"]) {
      const td = el("td", { "data-mslab-field": k, text: short(p[k]) });
      if (p[k] && p[k].size > 1 && k !== "before") {
        td.appendChild(el("br"));
        td.appendChild(p[k].matrix ? heatmap(p[k].matrix, `${k}-heatmap`) : histogram(p[k].numbers, `${k}-histogram`));
      }
      row.appendChild(td);
    }
    table.appendChild(row);
  }
  panel.appendChild(table);
  if (v.stage_nodes && v.stage_nodes.length) {
    const list = el("table", { "data-mslab-role": "stage-nodes" });
    list.appendChild(el("tr", {}, [el("th", { text: "node" }), el("th", { text: "op" }),
      el("th", { text: "value" })]));
    for (const [name, op, text] of v.stage_nodes) {
      list.appendChild(el("tr", {}, [el("td", { text: name }), el("td", { text: op }),
        el("td", { text })]));
    }
    panel.appendChild(el("details", {}, [el("summary", { text: "this stage's nodes" }), list]));
  }
}

export default {
  async render({ model, el: root, host, signal }) {
    root.classList.add("mslab-widget", "mslab-step-through");
    const step = (action) => model.send({ type: "step", action });
    const btn = (role, text, title, cls) => el("button", { class: "mslab-btn " + (cls || ""),
      "data-mslab-role": role, text, title, onclick: () => step(role) });
    const buttons = {
      reset: btn("reset", "|< Start", "Back to the start: weights restored"),
      previous: btn("previous", "\u25c0 Previous", "Back one stage (the weights are restored and replayed)"),
      "previous-node": btn("previous-node", "\u2039 node", "Back one node"),
      "next-node": btn("next-node", "node \u203a", "Run one more node"),
      "next-stage": btn("next-stage", "Next stage \u25b6", "Run the next stage", "mslab-primary"),
      "run-to-end": btn("run-to-end", "Run to end >|", "Finish the step: the weights are updated"),
    };
    const position = el("span", { class: "mslab-position", "data-mslab-role": "position" });
    const mode = el("span", { class: "mslab-position", "data-mslab-role": "mode" });
    const controls = el("div", { class: "mslab-step-controls" }, [
      buttons.reset, buttons.previous, buttons["previous-node"], buttons["next-node"], buttons["next-stage"],
      buttons["run-to-end"], position, mode]);
    const chips = el("div", { class: "mslab-stages", "data-mslab-role": "stages" });
    const explanation = el("div", { class: "mslab-explanation", "data-mslab-role": "explanation" });
    const graph = el("div", { class: "mslab-step-graph" });
    const values = el("div", { class: "mslab-values", "data-mslab-role": "values" });
    root.append(controls, chips, explanation, graph, values);

    const draw = () => {
      const stages = model.get("stages") || [];
      chips.replaceChildren(...stages.map((s, i) => el("span", {
        class: `mslab-stage-chip mslab-${s.state}` + (s.nodes ? "" : " mslab-empty"),
        "data-mslab-stage": s.name, "data-mslab-state": s.state, title: `${s.nodes} nodes`,
        text: s.name, onclick: () => model.send({ type: "goto-stage", index: i }),
      })));
      explanation.textContent = model.get("explanation");
      const p = model.get("position"), n = model.get("total");
      position.textContent = `node ${p} / ${n}`;
      mode.textContent = `${model.get("mode")} mode`;
      buttons.reset.disabled = buttons.previous.disabled = buttons["previous-node"].disabled = p === 0;
      buttons["next-node"].disabled = buttons["next-stage"].disabled = buttons["run-to-end"].disabled = p >= n;
      valuesPanel(values, model.get("values"));
    };
    draw();
    for (const name of ["stages", "explanation", "position", "values", "mode"]) model.on(`change:${name}`, draw);
    const pane = await host.getWidget(model.get("pane"));
    await pane.render({ el: graph, signal });
    return () => {
      for (const name of ["stages", "explanation", "position", "values", "mode"]) model.off(`change:${name}`, draw);
    };
  },
};
