// tape_view.js: TapeView, two graph panes side by side (graph_core.js is prepended by Python).
export default {
  render({ model, el }) {
    el.classList.add("mslab-widget", "mslab-tape-view");
    const caption = mslabEl("div", { class: "mslab-caption", "data-mslab-role": "caption" });
    const left = mslabEl("div", { class: "mslab-side", "data-mslab-role": "tape" });
    const right = mslabEl("div", { class: "mslab-side", "data-mslab-role": "backward-graph" });
    const leftCap = mslabEl("div", { class: "mslab-side-caption" });
    const rightCap = mslabEl("div", { class: "mslab-side-caption" });
    left.appendChild(leftCap);
    right.appendChild(rightCap);
    el.append(caption, mslabEl("div", { class: "mslab-side-by-side" }, [left, right]));
    const draw = () => {
      caption.textContent = model.get("caption");
      leftCap.textContent = leftCap.title = model.get("tape_caption");
      rightCap.textContent = rightCap.title = model.get("graph_caption");
    };
    draw();
    model.on("change:caption", draw);
    const a = mountGraph(left, model, "tape_");
    const b = mountGraph(right, model, "graph_");
    return () => { a(); b(); model.off("change:caption", draw); };
  },
};
