// graph_view.js: GraphView, one graph pane (graph_core.js is prepended by Python).
export default {
  render({ model, el }) {
    el.classList.add("mslab-widget", "mslab-graph-view");
    return mountGraph(el, model, "");
  },
};
