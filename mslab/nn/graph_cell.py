"""``nn.GraphCell``: a graph loaded from a MindIR file (``mindspore.load``), run as a Cell."""
from __future__ import annotations

from typing import Any

from mslab.nn.cell import Cell


class GraphCell(Cell):
    """``nn.GraphCell(graph)``: call it like the network that was exported, ``net(x)``; its Parameters are that
    network's weights under their names (``fc1.weight``), so ``load_param_into_net`` and ``save_checkpoint`` work.

    ``graph`` is what ``mindspore.load`` returns. ``params_init``: a dict of name -> Tensor replacing the file's
    weights (MindSpore's argument). In GRAPH mode the call is traced into mslab's IR like any construct (so
    ``mslab.trace`` and GraphView show the loaded graph); in PYNATIVE mode it runs op by op.
    """

    def __init__(self, graph: Any, params_init: dict | None = None, obf_random_seed: int | None = None) -> None:
        super().__init__(auto_prefix=False)
        if not hasattr(graph, "run") or not hasattr(graph, "parameters"):
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be a FuncGraph loaded by mindspore.load, "
                            f"but got {type(graph)}.")
        if obf_random_seed is not None:
            raise NotImplementedError("GraphCell(obf_random_seed=...): mslab does not read obfuscated MindIR graphs")
        self.graph = graph
        self._weight_keys = {}
        for full_name, parameter in graph.weights().items():
            if params_init is not None and parameter.name in params_init:
                parameter.set_data(params_init[parameter.name])
            self.insert_param_to_cell(parameter.name, parameter, check_name_contain_dot=False)
            self._weight_keys[full_name] = parameter.name

    def construct(self, *inputs: Any) -> Any:
        weights = {full: self._params[short] for full, short in self._weight_keys.items()}
        return self.graph.run(inputs, weights)
