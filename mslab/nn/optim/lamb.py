"""Lamb (``mindspore.nn.Lamb``): layer-wise adaptive moments, an optimizer MindSpore 2.10 cannot run on CPU.

LAMB (You et al., "Large Batch Optimization for Deep Learning") is Adam whose step for each weight
tensor is rescaled by the trust ratio ||w|| / ||update||. MindSpore computes it with one ``Lamb``
kernel that exists for Ascend and GPU only: on CPU the optimizer builds (state ``lamb_m.<name>``,
``lamb_v.<name>``) but its first step fails with RuntimeError "Unsupported op [Lamb] on CPU", before
anything is written. mslab, which mirrors MindSpore on CPU, does the same.
"""
from mslab.nn.optim.optimizer import Optimizer, clone_state

__all__ = ["Lamb"]


def _check_beta_eps(beta1, beta2, eps):
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if not isinstance(value, float):
            raise TypeError(f"For 'Lamb', the type of '{name}' should be 'float', but got type "
                            f"'{type(value).__name__}'.")
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"For 'Lamb', the '{name}' must be in range of (0.0, 1.0), but got {value} with "
                             f"type 'float'.")
    if eps <= 0.0:
        raise ValueError(f"For 'Lamb', the 'eps' must be float and must > 0, but got '{eps}' with type 'float'.")


class Lamb(Optimizer):
    """``Lamb(params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``; calling it
    raises RuntimeError, as MindSpore 2.10 does on CPU (its Lamb kernel is Ascend/GPU only)."""

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_beta_eps(beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.moments1 = clone_state(self.parameters, "lamb_m", "zeros")
        self.moments2 = clone_state(self.parameters, "lamb_v", "zeros")

    def construct(self, gradients):
        raise RuntimeError("Unsupported op [Lamb] on CPU: MindSpore 2.10 has a Lamb kernel for Ascend and GPU only, "
                           "so nn.Lamb cannot take a step on CPU (mslab mirrors MindSpore on CPU). Use "
                           "nn.AdamWeightDecay or nn.Adam instead.")
