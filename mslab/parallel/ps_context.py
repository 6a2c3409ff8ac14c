"""``set_ps_context``: the parameter-server settings (``mindspore.set_ps_context``), kept and read back.

MindSpore stores them for a launcher that starts scheduler, server and worker processes; on one CPU
process with no such launcher it trains stand-alone, and so does mslab: the values are stored and
``get_ps_context`` returns them, nothing else changes. The keys and defaults are MindSpore 2.10's (observed).
"""
_DEFAULTS = {"server_mode": "", "ms_role": "MS_NOT_PS", "enable_ps": False, "worker_num": 0, "server_num": 0,
             "scheduler_ip": "127.0.0.1", "scheduler_port": 6667, "enable_ssl": False, "config_file_path": ""}
# set-only keys (MindSpore never returns the passwords)
_SET_ONLY = ("client_password", "server_password")
_values = dict(_DEFAULTS)

__all__ = ["set_ps_context", "get_ps_context", "reset_ps_context"]


def set_ps_context(**kwargs):
    """Store parameter-server settings (``enable_ps=True``, ``worker_num=...``); stand-alone training is unchanged."""
    for key in kwargs:
        if key not in _DEFAULTS and key not in _SET_ONLY:
            raise ValueError(f"Set PS context keyword {key} is not recognized!")
    _values.update({k: v for k, v in kwargs.items() if k in _DEFAULTS})


def get_ps_context(attr_key):
    """The stored value of one parameter-server setting."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_ps_context():
    """Back to MindSpore's defaults."""
    _values.clear()
    _values.update(_DEFAULTS)
