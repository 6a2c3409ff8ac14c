"""Where MindSpore 2.10's CPU kernels compute something other than its documentation says, and mslab follows them.

mslab's promise is MindSpore's numbers, so where the two disagree it computes what the CPU kernel computes, and
says so once per process with a :class:`KernelDiffersFromDocs` warning: a learner comparing with the
documentation then learns something true about MindSpore instead of suspecting a bug. Each case was observed on
MindSpore 2.10 CPU (docs/mindspore_observed/wrongvals.md has the snippets and their output).
"""
import warnings

__all__ = ["KernelDiffersFromDocs", "DIFFERENCES", "warn_kernel_differs"]


class KernelDiffersFromDocs(UserWarning):
    """The category of these warnings (``warnings.filterwarnings("ignore", category=KernelDiffersFromDocs)``)."""


DIFFERENCES = {
    "FTRL": "with l1 > 0, MindSpore 2.10's CPU kernel (ApplyFtrl) sets w = (l1 - linear) / quadratic where its "
            "documentation has (sign(linear) * l1 - linear) / quadratic: for a negative linear the l1 term takes "
            "the wrong sign. mslab computes what the kernel computes.",
    "Momentum(use_nesterov=True)": "MindSpore 2.10's CPU ApplyMomentum kernel ignores use_nesterov: it updates "
                                   "w -= lr * v, as without Nesterov, where its documentation has "
                                   "w -= lr * (g + momentum * v). mslab does the same.",
    "NaturalExpDecayLR": "MindSpore 2.10's NaturalExpDecayLR computes lr * exp(-decay_rate * p) with p = step "
                         "(is_stair: floor(step / decay_steps) * decay_steps), where its documentation has "
                         "p = step / decay_steps (is_stair: floor(step / decay_steps)). mslab computes what "
                         "MindSpore computes.",
    "LeakyReLU": "MindSpore's LeakyReLU is max(alpha * x, x), and Maximum's gradient splits a tie evenly, so its "
                 "slope at exactly x = 0 is (1 + alpha) / 2, where the documented x >= 0 branch would give 1. "
                 "mslab gives (1 + alpha) / 2, as MindSpore 2.10's CPU kernels do.",
}

_warned = set()


def warn_kernel_differs(case, stacklevel=3):
    """Warn, the first time only, that ``case`` (a key of DIFFERENCES) follows the kernel, not the docs."""
    if case in _warned:
        return
    _warned.add(case)
    warnings.warn(f"{case}: {DIFFERENCES[case]}", KernelDiffersFromDocs, stacklevel=stacklevel)
