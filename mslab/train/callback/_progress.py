"""ProgressBar: one bar per epoch, in a notebook or a terminal.

Uses ``tqdm.auto`` when tqdm is installed (a widget bar in Jupyter, a text bar in a terminal).
Otherwise it writes a plain text line, redrawn with a carriage return, which both terminals and
Jupyter's output area show as one updating line. Not part of MindSpore.
"""
import sys

from mslab.train.callback._callback import Callback, handle_loss


def _tqdm():
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


class _TextBar:
    """A minimal stand-in for tqdm: ``epoch 1/3 [########----------]  4/10  loss 0.5123``."""

    width = 20

    def __init__(self, total, desc, file):
        self.total, self.desc, self.file, self.n, self.postfix = max(int(total), 1), desc, file, 0, ""
        self._draw()

    def update(self, k):
        self.n += k
        self._draw()

    def set_postfix_str(self, text, refresh=True):
        self.postfix = text
        self._draw()

    def _draw(self):
        done = min(self.n, self.total) * self.width // self.total
        bar = "#" * done + "-" * (self.width - done)
        line = f"\r{self.desc} [{bar}] {self.n:>{len(str(self.total))}}/{self.total}"
        self.file.write(line + (f"  {self.postfix}" if self.postfix else ""))
        self.file.flush()

    def close(self):
        self.file.write("\n")
        self.file.flush()


class ProgressBar(Callback):
    """Show training progress: one bar per epoch, advancing per step (per sink in sink mode), with the loss.

    ``ProgressBar(show_loss=True, use_tqdm=None, file=None)``: ``use_tqdm=None`` picks tqdm when it is
    installed, ``False`` forces the plain text bar; ``file`` is where the text bar writes (stdout).
    """

    def __init__(self, show_loss=True, use_tqdm=None, file=None):
        super().__init__()
        self.show_loss = show_loss
        tqdm = _tqdm() if use_tqdm in (None, True) else None
        if use_tqdm is True and tqdm is None:
            raise ImportError("ProgressBar(use_tqdm=True): tqdm is not installed (pip install tqdm)")
        self._tqdm = tqdm
        self._file = file
        self._bar = None
        self._last_step = 0

    def _open(self, total, desc):
        if self._tqdm is not None:
            return self._tqdm(total=total, desc=desc, leave=True, file=self._file)
        return _TextBar(total, desc, self._file or sys.stdout)

    def on_train_epoch_begin(self, run_context):
        cb = run_context.original_args()
        self._bar = self._open(cb.get("batch_num") or 1, f"epoch {cb.cur_epoch_num}/{cb.get('epoch_num', '?')}")
        self._last_step = cb.cur_step_num

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        if self._bar is None:
            return
        if self.show_loss:
            loss = handle_loss(cb.get("net_outputs"))
            if loss is not None:
                self._bar.set_postfix_str(f"loss {loss:.4f}", refresh=False)
        self._bar.update(cb.cur_step_num - self._last_step)
        self._last_step = cb.cur_step_num

    def on_train_epoch_end(self, run_context):
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def on_train_end(self, run_context):
        self.on_train_epoch_end(run_context)

    def __exit__(self, *err):
        # training raised (a NaN loss, Ctrl-C): end the bar's line so the traceback starts on its own
        if self._bar is not None:
            self._bar.close()
            self._bar = None
