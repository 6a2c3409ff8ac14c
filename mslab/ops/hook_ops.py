"""``ops.HookBackward(hook_fn)``: an identity in the forward pass that shows its gradient to ``hook_fn``.

In PYNATIVE mode, when the backward pass reaches ``y = hook(x)``, MindSpore 2.10 calls ``hook_fn((dy,))`` (a
tuple of the gradients) and passes on what it returns (a Tensor) in place of dy, or dy itself when it returns
None; anything else is a TypeError. In GRAPH mode (and in functions under ``jit``) MindSpore drops the hook at
compile time with the warning "Hook operation does not work in graph mode or functions decorated with 'jit', it
will be eliminated during compilation."; the hook never runs. Both observed on MindSpore 2.10 CPU
(docs/mindspore_observed/opsthree.md); mslab does the same. mslab hooks one input (the common use); several
inputs raise NotImplementedError.
"""
from mslab.core import log, state
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive

__all__ = ["HookBackward"]

_GRAPH_WARNING = ("Hook operation does not work in graph mode or functions decorated with 'jit', it will be "
                  "eliminated during compilation.")


class HookIdentity(Primitive):
    """``HookIdentity(hook)(x) = x``; d/dx = hook_fn((dout,)) (or dout when it returns None)."""

    n_tensors = 1
    bprop_replayable = False  # the hook is the user's Python: it runs on every backward

    def __init__(self, hook):
        super().__init__()
        self.hook = hook

    def key(self):
        return (type(self), id(self))  # each hook is its own computation

    def infer(self, x):
        return tuple(x.shape), x.dtype

    def compute(self, x):
        return x

    def bprop(self, x, out, dout):
        got = self.hook.hook_fn((dout,))
        if got is None:
            return (dout,)
        if not isinstance(got, Tensor):
            raise TypeError(f"The output type of function: {self.hook.name} should be a tensor but got "
                            f"{type(got).__name__}.")
        return (got,)


class HookBackward:
    """``ops.HookBackward(hook_fn, cell_id='')(x)``: x unchanged; the backward pass calls ``hook_fn((dx,))``."""

    def __init__(self, hook_fn, cell_id=""):
        if not callable(hook_fn):
            raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")
        self.hook_fn, self.cell_id = hook_fn, cell_id
        self.name = getattr(hook_fn, "__name__", "hook_fn")
        self._identity = HookIdentity(self)

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise NotImplementedError(f"ops.HookBackward with {len(inputs)} inputs exists in MindSpore 2.10 but mslab "
                                      "hooks one input only yet; hook each input separately")
        if state.tracer is not None:  # GRAPH mode: eliminated, as MindSpore's compiler does
            log.warning(_GRAPH_WARNING)
            return inputs[0]
        return self._identity(inputs[0])

    def __repr__(self):
        return f"Prim[HookBackward]<cell_id={self.cell_id}>"


op_table.register(globals(), [])
