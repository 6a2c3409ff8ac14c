"""MindSpore's logger (``mindspore.log``): ``[WARNING] ME(pid:thread,MainProcess):time [file:line] message``.

Messages go to stderr in MindSpore's format, and the level comes, as in MindSpore, from the environment
variable ``GLOG_v`` read when the logger is first used: "0" DEBUG, "1" INFO, "2" WARNING (the default),
"3" ERROR, "4" CRITICAL. Built on Python's ``logging`` (logger name "mslab"), so the usual logging tools
work on it too. MindSpore can also write rotating log files (``GLOG_log_dir``); mslab logs to stderr only.
"""
import functools
import logging
import os
import sys
import time

__all__ = ["debug", "info", "warning", "error", "critical", "get_level", "get_log_config"]

_GLOG_TO_NAME = {"0": "DEBUG", "1": "INFO", "2": "WARNING", "3": "ERROR", "4": "CRITICAL"}
_FORMAT = "[%(levelname)s] ME(%(process)d:%(thread)d,%(processName)s):%(asctime)s [%(filepath)s:%(lineno)d] %(message)s"


class _Formatter(logging.Formatter):
    """MindSpore's time stamp (``2026-11-24-05:51:32.687.000``) and the file path from the package on."""

    def formatTime(self, record, datefmt=None):
        msecs = str(round(record.msecs * 1000))
        return f"{time.strftime('%Y-%m-%d-%H:%M:%S', self.converter(record.created))}.{msecs[:3]}.{msecs[3:]}"

    def format(self, record):
        idx = record.pathname.rfind("mslab" + os.sep)
        record.filepath = record.pathname[idx:] if idx >= 0 else record.pathname
        return super().format(record)


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is now (Jupyter and pytest replace it after import)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


@functools.cache
def _logger():
    level = os.environ.get("GLOG_v", "2").strip()
    if level not in _GLOG_TO_NAME:
        raise ValueError(f"Incorrect log level, please check the configuration of GLOG_v, desired log level: "
                         f"{sorted(_GLOG_TO_NAME)}, but got {level!r}.")
    logger = logging.getLogger("mslab")
    logger.setLevel(_GLOG_TO_NAME[level])
    logger.propagate = False
    if not logger.handlers:
        handler = _StderrHandler()
        handler.setFormatter(_Formatter(_FORMAT))
        logger.addHandler(handler)
    return logger


def _log(level, msg, args, kwargs):
    kwargs.setdefault("stacklevel", 3)  # the caller's file and line, not this module's
    _logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    """Log ``msg % args`` at DEBUG (shown when GLOG_v=0)."""
    _log(logging.DEBUG, msg, args, kwargs)


def info(msg, *args, **kwargs):
    """Log ``msg % args`` at INFO (shown when GLOG_v is 0 or 1)."""
    _log(logging.INFO, msg, args, kwargs)


def warning(msg, *args, **kwargs):
    """Log ``msg % args`` at WARNING (shown by default)."""
    _log(logging.WARNING, msg, args, kwargs)


def error(msg, *args, **kwargs):
    """Log ``msg % args`` at ERROR."""
    _log(logging.ERROR, msg, args, kwargs)


def critical(msg, *args, **kwargs):
    """Log ``msg % args`` at CRITICAL."""
    _log(logging.CRITICAL, msg, args, kwargs)


def get_level():
    """The level as MindSpore's GLOG_v string: "2" (WARNING) unless the environment says otherwise."""
    names = {v: k for k, v in _GLOG_TO_NAME.items()}
    return names[logging.getLevelName(_logger().getEffectiveLevel())]


def get_log_config():
    """``{'GLOG_v': level, 'GLOG_logtostderr': '1'}``: mslab logs to stderr only."""
    return {"GLOG_v": get_level(), "GLOG_logtostderr": "1"}
