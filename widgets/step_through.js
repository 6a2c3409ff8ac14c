// step_through.js: StepThrough, controls + stage chips + explanation + the graph pane + values panel
// (graph_core.js is prepended by Python). Buttons send {type: "step", action}; chips {type: "goto-stage"}.

function mslabValuesPanel(panel, v) {
  panel.replaceChildren();
  if (!v || !v.params) return;
  const scalar = (label, s, role) => mslabEl("div", { class: "mslab-scalar", "data-mslab-role": role },
    [mslabEl("b", { text: label + ": " }), mslabEl("span", { text: mslabShort(s) })]);
  panel.appendChild(scalar("loss", v.loss, "loss"));
  panel.appendChild(scalar("sens", v.sens, "sens"));
  if (v.node) {
    const folded = v.node.folded ? " (folded: computed when the graph was compiled)" : "";
    panel.appendChild(mslabEl("div", { class: "mslab-scalar", "data-mslab-role": "current-node" }, [
      mslabEl("b", { text: "last node: " }),
      mslabEl("span", { text: `${v.node.name} = ${v.node.op}  ${v.node.scope || "(top level)"}${folded}` })]));
    panel.appendChild(mslabEl("div", { class: "mslab-src", text: v.node.source || "" }));
  }
  if (v.control && v.control.length) {
    // Control flow that ran: the branch an If took, how many times a While's body ran.
    const box = mslabEl("div", { class: "mslab-control", "data-mslab-role": "control-flow" });
    for (const c of v.control) {
      const attrs = { class: "mslab-control-row", "data-mslab-control": c.key, "data-mslab-branch": c.branch || "" };
      if (c.iterations !== null && c.iterations !== undefined) attrs["data-mslab-iterations"] = String(c.iterations);
      box.appendChild(mslabEl("div", attrs, [mslabEl("b", { text: `${c.op} ${c.key}: ` }),
        mslabEl("span", { text: c.text }), mslabEl("span", { class: "mslab-src", text: "  " + (c.source || "") })]));
    }
    panel.appendChild(box);
  }
  const table = mslabEl("table", { "data-mslab-role": "params" });
  table.appendChild(mslabEl("tr", {}, ["parameter", "gradient", "before", "after", "delta"].map(
    (h) => mslabEl("th", { text: h }))));
  for (const p of v.params) {
    const row = mslabEl("tr", { "data-mslab-param": p.name, class: p.updated ? "mslab-updated" : "" });
    row.appendChild(mslabEl("td", { text: p.name }));
    for (const k of ["gradient", "before", "after", "delta"]) {
      const td = mslabEl("td", { "data-mslab-field": k, text: mslabShort(p[k]) });
      if (p[k] && p[k].size > 1 && k !== "before") {
        td.appendChild(mslabEl("br"));
        td.appendChild(p[k].matrix ? mslabHeatmap(p[k].matrix, `${k}-heatmap`) : mslabHistogram(p[k].numbers, `${k}-histogram`));
      }
      row.appendChild(td);
    }
    table.appendChild(row);
  }
  panel.appendChild(table);
  if (v.stage_nodes && v.stage_nodes.length) {
    const list = mslabEl("table", { "data-mslab-role": "stage-nodes" });
    list.appendChild(mslabEl("tr", {}, [mslabEl("th", { text: "node" }), mslabEl("th", { text: "op" }),
      mslabEl("th", { text: "value" })]));
    for (const [name, op, text] of v.stage_nodes) {
      list.appendChild(mslabEl("tr", {}, [mslabEl("td", { text: name }), mslabEl("td", { text: op }),
        mslabEl("td", { text })]));
    }
    panel.appendChild(mslabEl("details", {}, [mslabEl("summary", { text: "this stage's nodes" }), list]));
  }
}

export default {
  render({ model, el }) {
    el.classList.add("mslab-widget", "mslab-step-through");
    const step = (action) => model.send({ type: "step", action });
    const btn = (role, text, title, cls) => mslabEl("button", { class: "mslab-btn " + (cls || ""),
      "data-mslab-role": role, text, title, onclick: () => step(role) });
    const buttons = {
      reset: btn("reset", "|< Start", "Back to the start: weights restored"),
      previous: btn("previous", "\u25c0 Previous", "Back one stage (the weights are restored and replayed)"),
      "previous-node": btn("previous-node", "\u2039 node", "Back one node"),
      "next-node": btn("next-node", "node \u203a", "Run one more node"),
      "next-stage": btn("next-stage", "Next stage \u25b6", "Run the next stage", "mslab-primary"),
      "run-to-end": btn("run-to-end", "Run to end >|", "Finish the step: the weights are updated"),
    };
    const position = mslabEl("span", { class: "mslab-position", "data-mslab-role": "position" });
    const mode = mslabEl("span", { class: "mslab-position", "data-mslab-role": "mode" });
    const controls = mslabEl("div", { class: "mslab-step-controls" }, [
      buttons.reset, buttons.previous, buttons["previous-node"], buttons["next-node"], buttons["next-stage"],
      buttons["run-to-end"], position, mode]);
    const chips = mslabEl("div", { class: "mslab-stages", "data-mslab-role": "stages" });
    const explanation = mslabEl("div", { class: "mslab-explanation", "data-mslab-role": "explanation" });
    const graph = mslabEl("div", { class: "mslab-step-graph" });
    const values = mslabEl("div", { class: "mslab-values", "data-mslab-role": "values" });
    el.append(controls, chips, explanation, graph, values);

    const draw = () => {
      const stages = model.get("stages") || [];
      chips.replaceChildren(...stages.map((s, i) => mslabEl("span", {
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
      mslabValuesPanel(values, model.get("values"));
    };
    draw();
    for (const name of ["stages", "explanation", "position", "values", "mode"]) model.on(`change:${name}`, draw);
    const unmount = mountGraph(graph, model, "");
    return () => {
      unmount();
      for (const name of ["stages", "explanation", "position", "values", "mode"]) model.off(`change:${name}`, draw);
    };
  },
};
