"""Registration information for ``ops.Custom``: ``CustomRegOp``, ``DataType``, ``custom_info_register``.

MindSpore uses this information to pick a compiled kernel for each input dtype and format (``reg_info``).
mslab runs only func_type 'pyfunc', which reads none of it, so here it is data: the builder makes the same
dict as MindSpore 2.10 (``get_op_info()``, observed on CPU) and ``custom_info_register`` attaches it to the
function, and a program that writes it runs unchanged.
"""
import functools

__all__ = ["CustomRegOp", "DataType", "custom_info_register"]


def _need(kind, value):
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{value} value must be {kind.__name__}")


def _entry(keys, values, check, extra):
    """The dict of the given (key, value) pairs without the None values, each value checked; then ``extra``."""
    out = {}
    for key, value, kind in zip(keys, values, check):
        if value is not None:
            _need(kind, value)
            out[key] = value
    out.update(extra)
    return out


class CustomRegOp:
    """``CustomRegOp(op_name).input(...).output(...).attr(...).dtype_format(...).target(...).get_op_info()``."""

    def __init__(self, op_name="Custom"):
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name, self.inputs, self.outputs = op_name, [], []
        self.attr_, self.fusion_type_, self.dtype_format_, self.target_ = [], "", [], "UnKnown"

    def input(self, index=None, name=None, param_type="required", **kwargs):
        """One input: its index, name and param_type ('required', 'dynamic' or 'optional')."""
        self.inputs.append(_entry(("index", "name", "paramType"), (index, name, param_type), (int, str, str), kwargs))
        return self

    def output(self, index=None, name=None, param_type="required", **kwargs):
        """One output, as ``input``."""
        self.outputs.append(_entry(("index", "name", "paramType"), (index, name, param_type), (int, str, str), kwargs))
        return self

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        """One attribute; every given value is a string (a default of 1.0 is written "1.0")."""
        self.attr_.append(_entry(("name", "paramType", "type", "defaultValue"),
                                 (name, param_type, value_type, default_value), (str,) * 4, kwargs))
        return self

    def dtype_format(self, *args):
        """One (dtype, format) pair per input and output, e.g. ``DataType.F32_Default`` for each."""
        n = len(self.inputs) + len(self.outputs)
        if len(args) != n:
            raise ValueError(f"The size of 'args' must be equal to the sum of input tensors and output tensors, but "
                             f"got {len(args)} vs {n}")
        self.dtype_format_.append(tuple(args))
        return self

    def fusion_type(self, fusion_type):
        _need(str, fusion_type)
        self.fusion_type_ = fusion_type
        return self

    def target(self, target=None):
        """'Ascend', 'GPU' or 'CPU' (None: decided by Custom)."""
        if target is not None:
            _need(str, target)
        self.target_ = target
        return self

    def get_op_info(self):
        """The registration information as a dict (keys as MindSpore's: op_name, inputs, ..., target)."""
        return {"op_name": self.op_name, "inputs": self.inputs, "outputs": self.outputs, "attr": self.attr_,
                "fusion_type": self.fusion_type_, "dtype_format": self.dtype_format_, "target": self.target_}


def custom_info_register(*reg_info):
    """Decorator: attach ``reg_info`` (dicts from ``get_op_info()``) to a function as ``func.reg_info``."""
    def decorator(func):
        func.reg_info = reg_info

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapper
    return decorator


# ---- DataType: (dtype, format) pairs, named <DTYPE>_<FORMAT> (204 of them in MindSpore 2.10) ---------------------
_FORMATS = {"None": "", "Default": "DefaultFormat", "5HD": "NC1HWC0", "FracZ": "FRACTAL_Z", "FracNZ": "FRACTAL_NZ",
            "C1HWNCoC0": "C1HWNCoC0", "NCHW": "NCHW", "NHWC": "NHWC", "HWCN": "HWCN", "NDHWC": "NDHWC",
            "ChannelLast": "ChannelLast", "NCDHW": "NCDHW", "NDC1HWC0": "NDC1HWC0", "NC1HWC0": "NC1HWC0",
            "DHWCN": "DHWCN", "FRACTAL_Z_3D": "FRACTAL_Z_3D", "FracZNLSTM": "FRACTAL_ZN_LSTM",
            "FracZNRNN": "FRACTAL_ZN_RNN", "ND_RNNBIAS": "ND_RNN_BIAS"}
_COMMON = ("None", "Default", "Default_List", "Default_Tuple", "5HD", "FracZ", "FracNZ", "C1HWNCoC0", "NCHW", "NHWC",
           "HWCN", "NDHWC", "ChannelLast")
_FLOATS = _COMMON + ("NCDHW", "NDC1HWC0", "DHWCN", "FRACTAL_Z_3D", "FracZNLSTM", "FracZNRNN", "ND_RNNBIAS")
_TABLE = {  # prefix: (dtype, the formats MindSpore 2.10 names for it)
    "BOOL": ("bool", _COMMON), "I16": ("int16", _COMMON), "U16": ("uint16", _COMMON), "U32": ("uint32", _COMMON),
    "I64": ("int64", _COMMON), "U64": ("uint64", _COMMON), "F64": ("float64", _COMMON),
    "I32": ("int32", _COMMON + ("NCDHW", "NDC1HWC0")),
    "I8": ("int8", _COMMON + ("NC1HWC0", "NCDHW", "NDC1HWC0")),
    "U8": ("uint8", _COMMON + ("NC1HWC0", "NCDHW", "NDC1HWC0")),
    "F16": ("float16", _FLOATS), "F32": ("float32", _FLOATS), "BF16": ("bfloat16", _FLOATS),
    "C64": ("complex64", ("Default", "Default_Tuple")), "C128": ("complex128", ("Default", "Default_Tuple")),
    "None": ("", ("None", "Default")),
}


def _pair(dtype, fmt):
    if fmt in ("Default_List", "Default_Tuple"):
        return (dtype, "DefaultFormat", fmt.split("_")[1].lower())
    return (dtype, _FORMATS[fmt])


DataType = type("DataType", (), {
    "__doc__": "(dtype, format) pairs for ``CustomRegOp.dtype_format``: ``DataType.F32_Default`` is "
               "('float32', 'DefaultFormat').",
    **{f"{prefix}_{fmt}": _pair(dtype, fmt) for prefix, (dtype, fmts) in _TABLE.items() for fmt in fmts}})
