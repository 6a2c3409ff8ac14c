"""Central-difference gradient check: the test every primitive's bprop rule must pass.

For ``f`` with tensor inputs ``x_i``, the analytic gradient of ``sum(f(x) * w)`` (random fixed
weights ``w``, so every output element matters) must match

    (L(x + eps e_k) - L(x - eps e_k)) / (2 eps)

for every element k, computed in float64. It is checked in both PYNATIVE and GRAPH mode, and PYNATIVE's
replayed backward (a repeated call, mslab.fast.backward_replay) must equal its rule-by-rule one bit for bit.
"""
import numpy as np

from mslab.autodiff.grad_operation import GradOperation
from mslab.core import context
from mslab.core.tensor import Tensor
from mslab.ops import functional as F
from mslab.testing.modes import in_mode


def _weighted(fn, weights):
    def loss(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        total = None
        for o, w in zip(outs, weights):
            term = F.reduce_sum(F.mul(o, Tensor._wrap(w)), (), False)
            total = term if total is None else F.add(total, term)
        return total
    return loss


def numeric_grads(loss_np, arrays, positions, eps):
    """Central differences of the scalar function ``loss_np(list_of_arrays)`` for each position."""
    grads = []
    for i in positions:
        base = arrays[i]
        g = np.zeros_like(base, dtype=np.float64)
        flat = g.reshape(-1)
        for k in range(base.size):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[i].reshape(-1)[k] += eps
            minus[i].reshape(-1)[k] -= eps
            flat[k] = (loss_np(plus) - loss_np(minus)) / (2 * eps)
        grads.append(g)
    return grads


def _check_replay(grad_fn, ins, first):
    """PYNATIVE calls again: the second compiles the repeated backward, the third replays it
    (mslab.fast.backward_replay; with the speed layer off both run the rules again); both must give the first
    call's rule-by-rule gradients bit for bit."""
    for call in ("second", "third"):
        again = grad_fn(*ins)
        for i, (a, b) in enumerate(zip(first, again)):
            np.testing.assert_array_equal(b.asnumpy(), a.asnumpy(), err_msg=f"gradient {i}: the {call} PYNATIVE call "
                                          "(a replayed backward) differs from the first (rule by rule)")


def check_grad(fn, *arrays, positions=None, eps=1e-6, rtol=1e-5, atol=1e-6, seed=0):
    """Assert the bprop gradients of ``fn`` match central differences (float64), in both modes.

    ``arrays``: numpy inputs (floating ones are converted to float64); ``positions``: which inputs
    to check (default: every floating-point input).
    """
    arrays = [a.astype(np.float64) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a for a in arrays]
    if positions is None:
        positions = [i for i, a in enumerate(arrays) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    probe = fn(*[Tensor(a) if isinstance(a, np.ndarray) else a for a in arrays])
    outs = probe if isinstance(probe, (tuple, list)) else (probe,)
    rng = np.random.default_rng(seed)
    weights = [rng.standard_normal(o.shape).astype(np.float64) if o.dtype.is_float else None for o in outs]
    loss = _weighted(fn, weights)

    def loss_np(arrs):
        return float(loss(*[Tensor(a) if isinstance(a, np.ndarray) else a for a in arrs]).asnumpy())

    expected = numeric_grads(loss_np, arrays, positions, eps)
    for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
        with in_mode(mode):
            ins = [Tensor(a) if isinstance(a, np.ndarray) else a for a in arrays]
            grad_fn = GradOperation(get_all=True)(loss)
            got = grad_fn(*ins)
            if mode == context.PYNATIVE_MODE:
                _check_replay(grad_fn, ins, got)
        tensor_positions = [i for i, a in enumerate(ins) if isinstance(a, Tensor)]
        by_pos = dict(zip(tensor_positions, got))
        for i, e in zip(positions, expected):
            g = by_pos[i].asnumpy()
            assert g.shape == e.shape, f"input {i}: gradient shape {g.shape}, expected {e.shape}"
            np.testing.assert_allclose(g, e, rtol=rtol, atol=atol,
                                       err_msg=f"input {i}: bprop gradient differs from central differences "
                                               f"({'GRAPH' if mode == context.GRAPH_MODE else 'PYNATIVE'} mode)")
