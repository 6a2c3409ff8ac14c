"""``@lazy_inline`` on a Cell's ``__init__``: ask GRAPH mode to compile a repeated block once and reuse it.

MindSpore keeps such a Cell's graph un-inlined so a network of N identical blocks compiles one block;
it changes compile time, never the numbers. In PYNATIVE it only records the arguments: after
``__init__`` the Cell has ``cell_init_args == "lazy_inline_" + class name + str(argument values)``
(``policy="front"`` also sets ``no_inline = False``), as MindSpore 2.10 does (observed). mslab does the
same and compiles as usual in GRAPH mode.

Observed on MindSpore 2.10 CPU: calling such a Cell in GRAPH mode raises RuntimeError "Input[0] must be
a Primitive ValueNode, but get ValueNode<FuncGraph> ..." from the CPU backend; mslab does not copy that
failure (its GRAPH result equals PYNATIVE's).
"""
import functools
import inspect

__all__ = ["lazy_inline"]


def lazy_inline(fn=None, attrs=None, policy=None):
    """Decorate ``Cell.__init__`` (``@lazy_inline`` or ``@lazy_inline(attrs=..., policy="front")``)."""

    def wrap(init):
        @functools.wraps(init)
        def lazy_inline_init(self, *args, **kwargs):
            values = []
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
                del bound["self"]
                values = bound.values()
            init(self, *args, **kwargs)
            if policy == "front":
                self.no_inline = False
            elif policy is not None:
                raise ValueError("policy must be None or 'front'")
            if isinstance(attrs, list):
                if not all(isinstance(a, str) for a in attrs):
                    raise ValueError("attr must be a string")
                values = [getattr(self, a) for a in attrs if hasattr(self, a)]
            elif isinstance(attrs, str):
                values = getattr(self, attrs) if hasattr(self, attrs) else values
            elif attrs is not None:
                raise ValueError("attrs must be list or string")
            self.cell_init_args = "lazy_inline_" + type(self).__name__ + str(values)

        return lazy_inline_init

    return wrap(fn) if fn is not None else wrap
