"""lazy_inline and add_flags: they record their arguments and change nothing else.
Observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""

import mslab as ms
from mslab import nn
from mslab.ops.composite import add_flags


class _Block(nn.Cell):
    @ms.lazy_inline
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k


def test_lazy_inline_records_arguments_and_changes_nothing():
    block = _Block(3)
    # observed on MindSpore 2.10 CPU: [3. 6.] lazy_inline_Bdict_values([3]) (class B there)
    assert block.cell_init_args == "lazy_inline__Blockdict_values([3])"
    assert block(ms.Tensor([1.0, 2.0])).asnumpy().tolist() == [3.0, 6.0]

    class Front(nn.Cell):
        @ms.lazy_inline(policy="front")
        def __init__(self):
            super().__init__()

        def construct(self, x):
            return x + 1

    assert Front().no_inline is False
    assert Front()(ms.Tensor([1.0])).asnumpy().tolist() == [2.0]


def test_add_flags_marks_the_function():
    def f(x):
        return x

    # observed on MindSpore 2.10: returns f itself with f._func_graph_flags == {'a': True, 'b': 1}
    assert add_flags(f, a=True, b=1) is f
    assert f._func_graph_flags == {"a": True, "b": 1}
    assert add_flags(defer=True)(f) is f and f._func_graph_flags["defer"] is True
