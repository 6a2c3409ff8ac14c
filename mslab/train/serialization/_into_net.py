"""``load_param_into_net``: copy checkpoint values into a network's parameters of the same name.

MindSpore's rules: a parameter is matched by ``param.name``; without ``strict_load`` a float value
is cast to a float parameter's dtype and an int value to an int parameter's (with a warning), and a
name the dict lacks is looked up once more behind a common prefix (``network.fc.weight`` for
``fc.weight``). Parameters left unloaded are warned about in MindSpore's words and returned.
Unlike MindSpore, which stops half-way, every value is checked first and nothing is written if one
does not fit.
"""
import warnings

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, Tensor
from mslab.nn.cell import Cell

__all__ = ["load_param_into_net"]

_OWNER = "For 'load_param_into_net'"


def _check_arguments(net, parameter_dict):
    if not isinstance(net, Cell):
        raise TypeError(f"{_OWNER}, the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"{_OWNER}, the argument 'parameter_dict' should be a dict, but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' should be a "
                            f"'str' and 'Parameter' , but got {type(key)} and {type(value)}.")


def _fitted(param, new, strict_load):
    """``new``'s numbers in ``param``'s shape and dtype, or a RuntimeError message saying why they do not fit."""
    arr, name = new.asnumpy(), param.name
    if arr.shape != tuple(param.shape):
        extra = arr.shape[len(param.shape):]
        # MindSpore accepts trailing 1s: (12, 2048, 1, 1) loads into (12, 2048)
        if not (len(arr.shape) > len(param.shape) and all(d == 1 for d in extra)):
            return None, (f"{_OWNER}, {name} in the argument 'net' should have the same shape as {name} in the "
                          f"argument 'parameter_dict'. But got its shape {tuple(param.shape)} in the argument 'net' "
                          f"and shape {arr.shape} in the argument 'parameter_dict'.")
        arr = arr.reshape(param.shape)
    want = param._np_dtype  # not asnumpy(): a parameter built in no_init_parameters would draw numbers first
    if arr.dtype != want:
        kinds = {arr.dtype.kind, want.kind}
        if strict_load or not (kinds == {"f"} or kinds <= {"i"}):
            return None, (f"{_OWNER}, {name} in the argument 'net' should have the same type as {name} in the "
                          f"argument 'parameter_dict'. but got its type {mstype.from_numpy(want)} in the argument "
                          f"'net' and type {mstype.from_numpy(arr.dtype)} in the argument 'parameter_dict'.")
        warnings.warn(f"The type of {new.name}:{mstype.from_numpy(arr.dtype)} in 'parameter_dict' is different from "
                      f"the type of it in 'net':{mstype.from_numpy(want)}, then the type convert from "
                      f"{mstype.from_numpy(arr.dtype)} to {mstype.from_numpy(want)} in the network.", stacklevel=4)
        arr = arr.astype(want)
    return arr, None


def _behind_a_prefix(params, parameter_dict, param_not_load):
    """MindSpore's ``_load_dismatch_prefix_params``: ``[(param, value)]`` found as ``<prefix><param.name>``."""
    found, prefix, longest = [], "", param_not_load[0]
    while prefix != longest and param_not_load:
        prefix = longest
        for net_name in param_not_load:
            match = next((d for d in parameter_dict if d.endswith(net_name)), None)
            if match is not None:
                prefix = match[:-len(net_name)]
                break
        if prefix != longest:
            warnings.warn(f"{_OWNER}, remove parameter prefix name: {prefix}, continue to load.", stacklevel=3)
            for param in params:
                value = parameter_dict.get(prefix + param.name)
                if param.name in param_not_load and isinstance(value, Tensor):
                    found.append((param, value))
                    param_not_load.remove(param.name)
    return found


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Load ``parameter_dict`` (name -> Parameter, as ``load_checkpoint`` returns) into ``net``.

    Returns ``(param_not_load, ckpt_not_load)``: the net's parameter names that got no value, and the
    dict's names the net did not take (MindSpore leaves names loaded behind a prefix in this list too).
    A shape or dtype that does not fit raises RuntimeError naming the parameter and both shapes, and the
    net is left unchanged.
    """
    _check_arguments(net, parameter_dict)
    params = [p for _, p in net.parameters_and_names()]
    plan, param_not_load, ckpt_not_load = [], [], list(parameter_dict)
    for param in params:
        if param.name in parameter_dict:
            value = parameter_dict[param.name]
            if isinstance(value, Tensor):  # a str (append_dict text) has no numbers to load
                plan.append((param, value))
                ckpt_not_load.remove(param.name)
        elif not param.name.startswith("accu_grads"):
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        plan += _behind_a_prefix(params, parameter_dict, param_not_load)
    fitted, errors = [], []
    for param, value in plan:
        arr, error = _fitted(param, value, strict_load)
        fitted.append((param, arr))
        if error:
            errors.append(error)
    if errors:
        raise RuntimeError(" ".join(errors) + " Nothing was loaded into the net; check whether the checkpoint "
                           "belongs to this network.")
    for param, arr in fitted:
        param.set_data(Tensor(np.asarray(arr)))
    if param_not_load:
        warnings.warn(f"{_OWNER}, {len(param_not_load)} parameters in the 'net' are not loaded, because they are not "
                      "in the 'parameter_dict', please check whether the network structure is consistent when "
                      f"training and loading checkpoint. {param_not_load} are not loaded.", stacklevel=2)
    return param_not_load, ckpt_not_load
