"""History: keep the loss (and evaluation results) of every epoch, for plotting after training."""
from mslab.train.callback._callback import Callback, handle_loss


class History(Callback):
    """Record per epoch: ``history.epoch == {'epoch': [1, 2, ...]}`` and ``history.history ==
    {'net_output': [loss of the epoch's last step, ...], <metric>: [...]}`` (metrics come from
    ``Model.fit``'s evaluations)."""

    def __init__(self):
        super().__init__()
        self.epoch = None
        self.history = {}

    def on_train_begin(self, run_context):
        self.epoch = {"epoch": []}

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        if self.epoch is None:
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb_params.cur_epoch_num)
        loss = handle_loss(cb_params.get("net_outputs"))
        if loss is not None:
            self.history.setdefault("net_output", []).append(loss)
        for name, value in (cb_params.get("metrics") or {}).items():
            self.history.setdefault(name, []).append(value)
