// compile_pipeline.js: CompilePipeline, the graph after each compilation stage (one stage shown at a time).
// Reads the traits `stages` (list of {key, title, count, note, svg, code, highlighted}) and `index`; a click
// on a stage button sets `index`. DOM hooks for tests: data-mslab-role="stage-button" (data-mslab-stage),
// "stage-picture" (data-mslab-stage of the picture shown), "stage-note", "stage-code". graph_core.js (for
// mslabEl) is prepended by Python.

export default {
  render({ model, el }) {
    el.classList.add("mslab-widget", "mslab-compile-pipeline");
    const bar = mslabEl("div", { class: "mslab-cp-stages", "data-mslab-role": "stage-selector" });
    const note = mslabEl("div", { class: "mslab-explanation", "data-mslab-role": "stage-note" });
    const picture = mslabEl("div", { class: "mslab-cp-picture mslab-static", "data-mslab-role": "stage-picture" });
    const code = mslabEl("pre", { class: "mslab-cp-code", "data-mslab-role": "stage-code" });
    el.append(bar, note, picture, code);

    const drawBar = () => {
      bar.replaceChildren();
      model.get("stages").forEach((s, i) => {
        const b = mslabEl("button", { class: "mslab-cp-stage", "data-mslab-role": "stage-button",
          "data-mslab-stage": s.key, title: s.note });
        b.append(mslabEl("span", { class: "mslab-cp-step", text: `${i + 1}. ${s.title}` }),
          mslabEl("span", { class: "mslab-cp-count", "data-mslab-role": "stage-count", text: `${s.count} nodes` }));
        b.addEventListener("click", () => { model.set("index", i); model.save_changes(); });
        bar.appendChild(b);
      });
    };
    const drawStage = () => {
      const stages = model.get("stages");
      const i = Math.max(0, Math.min(model.get("index"), stages.length - 1));
      const s = stages[i];
      if (!s) return;
      bar.querySelectorAll("button").forEach((b, k) => b.classList.toggle("mslab-active", k === i));
      note.textContent = `${s.title}: ${s.count} nodes. ${s.note}`;
      picture.innerHTML = s.svg;
      picture.setAttribute("data-mslab-stage", s.key);
      // Bring the first outlined node into view: what the next pass removes is the point of the stage.
      const first = picture.querySelector(".mslab-highlight");
      if (first) {
        const p = picture.getBoundingClientRect(), r = first.getBoundingClientRect();
        picture.scrollLeft += r.left - p.left - (p.width - r.width) / 2;
        picture.scrollTop += r.top - p.top - (p.height - r.height) / 2;
      } else {
        picture.scrollTop = 0; picture.scrollLeft = 0;
      }
      code.textContent = s.code || "";
      code.style.display = s.code ? "" : "none";
    };
    const redraw = () => { drawBar(); drawStage(); };
    redraw();
    model.on("change:stages", redraw);
    model.on("change:index", drawStage);
    return () => { model.off("change:stages", redraw); model.off("change:index", drawStage); };
  },
};
