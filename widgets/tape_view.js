// tape_view.js: TapeView, two graph panes side by side under a caption. The panes are GraphView child
// widgets (traits `tape` and `backward`, widget references), each rendered by its own module
// (graph_view.js) through anywidget's host; this file only lays them out with their captions.

function div(cls, role) {
  const e = document.createElement("div");
  e.className = cls;
  if (role) e.setAttribute("data-mslab-role", role);
  return e;
}

export default {
  async render({ model, el, host, signal }) {
    el.classList.add("mslab-widget", "mslab-tape-view");
    const caption = div("mslab-caption", "caption");
    const left = div("mslab-side", "tape"), right = div("mslab-side", "backward-graph");
    const leftCap = div("mslab-side-caption"), rightCap = div("mslab-side-caption");
    const leftPane = div("mslab-side-pane"), rightPane = div("mslab-side-pane");
    left.append(leftCap, leftPane);
    right.append(rightCap, rightPane);
    const row = div("mslab-side-by-side");
    row.append(left, right);
    el.append(caption, row);
    const draw = () => {
      caption.textContent = model.get("caption");
      leftCap.textContent = leftCap.title = model.get("tape_caption");
      rightCap.textContent = rightCap.title = model.get("backward_caption");
    };
    draw();
    model.on("change:caption", draw);
    const [tape, backward] = await Promise.all([host.getWidget(model.get("tape")),
      host.getWidget(model.get("backward"))]);
    await Promise.all([tape.render({ el: leftPane, signal }), backward.render({ el: rightPane, signal })]);
    return () => model.off("change:caption", draw);
  },
};
