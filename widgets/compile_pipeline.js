// compile_pipeline.js: CompilePipeline, the graph after each compilation stage (one stage shown at a time).
// Reads the traits `stages` (list of {key, title, count, note, code, highlighted}), `panes` (one GraphView
// child widget per stage, as widget references) and `index`; a click on a stage button sets `index`, and
// the chosen stage's GraphView is rendered (by its own module, graph_view.js, through anywidget's host)
// in the picture box. DOM hooks for tests: data-mslab-role="stage-button" (data-mslab-stage),
// "stage-picture" (data-mslab-stage of the picture shown), "stage-note", "stage-code".

function el(tag, attrs, children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children || []) if (c) e.appendChild(c);
  return e;
}

export default {
  render({ model, el: root, host, signal }) {
    root.classList.add("mslab-widget", "mslab-compile-pipeline");
    const bar = el("div", { class: "mslab-cp-stages", "data-mslab-role": "stage-selector" });
    const note = el("div", { class: "mslab-explanation", "data-mslab-role": "stage-note" });
    const picture = el("div", { class: "mslab-cp-picture", "data-mslab-role": "stage-picture" });
    const code = el("pre", { class: "mslab-cp-code", "data-mslab-role": "stage-code" });
    root.append(bar, note, picture, code);

    const drawBar = () => {
      bar.replaceChildren();
      model.get("stages").forEach((s, i) => {
        const b = el("button", { class: "mslab-cp-stage", "data-mslab-role": "stage-button",
          "data-mslab-stage": s.key, title: s.note }, [
          el("span", { class: "mslab-cp-step", text: `${i + 1}. ${s.title}` }),
          el("span", { class: "mslab-cp-count", "data-mslab-role": "stage-count", text: `${s.count} nodes` })]);
        b.addEventListener("click", () => { model.set("index", i); model.save_changes(); });
        bar.appendChild(b);
      });
    };
    // The picture: the stage's GraphView, rendered afresh (the view of the stage shown before is closed).
    let shown = null;
    const drawPicture = async (i, key) => {
      if (shown) shown.abort();
      const mine = (shown = new AbortController());
      const pane = await host.getWidget(model.get("panes")[i]);
      if (mine.signal.aborted) return;
      const box = el("div", { class: "mslab-cp-pane" });
      await pane.render({ el: box, signal: AbortSignal.any([signal, mine.signal]) });
      if (mine.signal.aborted) return;
      picture.replaceChildren(box);
      picture.setAttribute("data-mslab-stage", key);
    };
    const drawStage = () => {
      const stages = model.get("stages");
      const i = Math.max(0, Math.min(model.get("index"), stages.length - 1));
      const s = stages[i];
      if (!s) return;
      bar.querySelectorAll("button").forEach((b, k) => b.classList.toggle("mslab-active", k === i));
      note.textContent = `${s.title}: ${s.count} nodes. ${s.note}`;
      code.textContent = s.code || "";
      code.style.display = s.code ? "" : "none";
      drawPicture(i, s.key);
    };
    const redraw = () => { drawBar(); drawStage(); };
    redraw();
    model.on("change:stages", redraw);
    model.on("change:index", drawStage);
    return () => { if (shown) shown.abort(); model.off("change:stages", redraw); model.off("change:index", drawStage); };
  },
};
