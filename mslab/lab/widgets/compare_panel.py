"""ComparePanel: mslab / PyTorch / TensorFlow code side by side for each step of a training script, and a Run
button that checks mslab against PyTorch and TensorFlow on the same weights and data (those installed).

    ComparePanel()                      # tabs: dataset, network, loss, optimizer, training step, autodiff
    ComparePanel().run()                # the comparison as a dict (what the Run button shows)

The comparison builds the same small network in both frameworks (Dense 3->4, ReLU, Dense 4->2, MSE loss,
SGD lr=0.1), copies mslab's initial weights into PyTorch and into Keras (whose Dense kernel is the transpose of
mslab's weight), and compares the loss, every weight's gradient and every weight after one step (max absolute
difference). A framework that is not installed is named with what to install.
"""
import os
from html import escape

import ipywidgets as widgets
import numpy as np

from mslab import nn
from mslab.core.context import PYNATIVE_MODE, in_mode
from mslab.core.seed import set_seed
from mslab.core.tensor import ParameterTuple, Tensor
from mslab.ops import GradOperation

CONCEPTS = ("dataset", "network", "loss", "optimizer", "training step", "autodiff")
FRAMEWORKS = ("mslab", "PyTorch", "TensorFlow")
INSTALL = "pip install torch==2.13.0   (or: make lab, then .venv/bin/pip install -e '.[torch]')"
INSTALL_TF = "pip install tensorflow-cpu==2.21.0   (or: make lab, then .venv/bin/pip install -e '.[compare]')"

CODE = {
    "dataset": {
        "mslab": '''import numpy as np
import mslab.dataset as ds

class MyDataset:
    def __init__(self, n):
        self.data = [np.zeros((3, 4, 5), np.float32) for _ in range(n)]
        self.label = [np.ones((1,), np.float32) for _ in range(n)]
    def __len__(self):
        return len(self.data)
    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]

# GeneratorDataset ~ torch DataLoader; batch/shuffle are pipeline steps
dataset = ds.GeneratorDataset(MyDataset(100), column_names=["data", "label"], shuffle=True)
dataset = dataset.batch(32)
for data, label in dataset.create_tuple_iterator():
    ...''',
        "PyTorch": '''import torch

class MyDataset(torch.utils.data.Dataset):
    def __init__(self, n): ...
    def __len__(self): ...
    def __getitem__(self, idx): ...

loader = torch.utils.data.DataLoader(MyDataset(100), batch_size=32, shuffle=True)
for data, label in loader:
    ...''',
        "TensorFlow": '''import tensorflow as tf

train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(100).batch(32)
for data, label in train_ds:
    ...''',
    },
    "network": {
        "mslab": '''from mslab import nn

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(4, 2)
    def construct(self, x):          # construct ~ forward
        return self.fc2(self.relu(self.fc1(x)))''',
        "PyTorch": '''import torch

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(3, 4)
        self.relu = torch.nn.ReLU()
        self.fc2 = torch.nn.Linear(4, 2)
    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))''',
        "TensorFlow": '''import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation="relu", input_shape=(3,)),
    tf.keras.layers.Dense(2),
])''',
    },
    "loss": {
        "mslab": '''loss_fn = nn.MSELoss()
loss = loss_fn(net(x), y)
# or joined into one Cell, as TrainOneStepCell expects:
loss_net = nn.WithLossCell(net, loss_fn)''',
        "PyTorch": '''loss_fn = torch.nn.MSELoss()
loss = loss_fn(net(x), y)''',
        "TensorFlow": '''loss_fn = tf.keras.losses.MeanSquaredError()
loss = loss_fn(y, model(x))          # note: (labels, predictions)''',
    },
    "optimizer": {
        "mslab": '''opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
# nn.Momentum(params, lr, momentum), nn.Adam(params, lr) ...''',
        "PyTorch": '''opt = torch.optim.SGD(net.parameters(), lr=0.1)''',
        "TensorFlow": '''opt = tf.keras.optimizers.SGD(learning_rate=0.1)''',
    },
    "training step": {
        "mslab": '''# forward, sens, backward, (grad reduce), update: one Cell, one call
train_net = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
loss = train_net(x, y)                # the loss BEFORE the update
# or the whole loop: mslab.Model(net, loss_fn, opt).train(epochs, dataset)''',
        "PyTorch": '''opt.zero_grad()
loss = loss_fn(net(x), y)             # forward, recorded on the tape
loss.backward()                       # backward walks the tape
opt.step()                            # update''',
        "TensorFlow": '''@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss''',
    },
    "autodiff": {
        "mslab": '''from mslab import ops, ParameterTuple

loss_net = nn.WithLossCell(net, nn.MSELoss())
weights = ParameterTuple(net.trainable_params())
grad_fn = ops.GradOperation(get_by_list=True)(loss_net, weights)
grads = grad_fn(x, y)      # GRAPH mode: backward graph derived from the forward graph's structure''',
        "PyTorch": '''loss = loss_fn(net(x), y)  # each op records its grad_fn while running
loss.backward()             # walks the recorded chain in reverse
grads = [p.grad for p in net.parameters()]''',
        "TensorFlow": '''with tf.GradientTape() as tape:     # records while running, like PyTorch
    loss = loss_fn(y, model(x))
grads = tape.gradient(loss, model.trainable_variables)''',
    },
}


def have_torch():
    try:
        import torch  # noqa: F401
    except Exception:  # ImportError, or a broken install
        return False
    return True


class _MslabStep:
    """The step every comparison checks against: Dense 3->4, ReLU, Dense 4->2, MSE loss, one SGD step in mslab
    (PYNATIVE), from ``set_seed(seed)``'s weights on a batch of 8: ``x``, ``y``, the weights before (``start``), the
    gradients, the loss and the weights after."""

    def __init__(self, seed, lr):
        set_seed(seed)
        net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
        r = np.random.RandomState(seed)
        self.x = r.randn(8, 3).astype(np.float32)
        self.y = r.randn(8, 2).astype(np.float32)
        self.params = net.trainable_params()  # 0.weight, 0.bias, 2.weight, 2.bias
        self.start = [p.asnumpy().copy() for p in self.params]
        X, Y = Tensor(self.x), Tensor(self.y)
        with in_mode(PYNATIVE_MODE):
            loss_net = nn.WithLossCell(net, nn.MSELoss())
            grads = GradOperation(get_by_list=True)(loss_net, ParameterTuple(self.params))(X, Y)
            self.grads = [g.asnumpy() for g in grads]
            self.loss = float(nn.TrainOneStepCell(loss_net, nn.SGD(self.params, lr))(X, Y).asnumpy())
        self.after = [p.asnumpy() for p in self.params]

    def compared(self, other_loss, other_grads, other_after, **extra):
        """The result dict: the largest differences of the loss, each gradient and each weight after the step."""
        rows = [["loss", abs(self.loss - other_loss)]]
        for p, g, og in zip(self.params, self.grads, other_grads):
            rows.append([f"gradient of {p.name}", float(np.max(np.abs(g - og)))])
        for p, a, oa in zip(self.params, self.after, other_after):
            rows.append([f"{p.name} after one SGD step", float(np.max(np.abs(a - oa)))])
        return {"available": True, "install": "", "loss": (self.loss, other_loss), "rows": rows,
                "agree": all(d <= 1e-5 for _, d in rows), **extra}


def compare_with_torch(seed=0, lr=0.1):
    """Run one SGD step of the same network in mslab and PyTorch; return the differences.

    ``{"available": bool, "install": str, "loss": (mslab, torch), "rows": [[what, max_abs_diff], ...],
    "agree": bool}``. Without torch: ``available`` is False and ``install`` says what to install.
    """
    if not have_torch():
        return {"available": False, "install": INSTALL, "rows": [], "agree": None}
    import torch  # optional: only this comparison needs it

    step = _MslabStep(seed, lr)
    tnet = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    tparams = list(tnet.parameters())  # weight, bias, weight, bias: mslab's order too
    with torch.no_grad():
        for tp, a in zip(tparams, step.start):
            tp.copy_(torch.from_numpy(a))
    opt = torch.optim.SGD(tnet.parameters(), lr=lr)
    opt.zero_grad()
    tloss = torch.nn.functional.mse_loss(tnet(torch.from_numpy(step.x)), torch.from_numpy(step.y))
    tloss.backward()
    tgrads = [p.grad.detach().numpy().copy() for p in tparams]
    opt.step()
    return step.compared(float(tloss.detach()), tgrads, [p.detach().numpy() for p in tparams],
                         torch=torch.__version__)


def have_tensorflow():
    try:
        _quiet_tensorflow()
        import tensorflow  # noqa: F401
    except Exception:  # ImportError, or a broken install
        return False
    return True


def _quiet_tensorflow():
    """TensorFlow's C++ start-up notes (CPU features; "oneDNN custom operations are on", printed before its log
    level applies) would show as red stderr boxes in a notebook. Without oneDNN's custom operations TensorFlow
    also sums in a fixed order, so the comparison's numbers repeat from run to run."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")


def compare_with_tensorflow(seed=0, lr=0.1):
    """The same step in Keras (Dense 4 relu, Dense 2, mean squared error, SGD) from mslab's initial weights.

    ``{"available", "install", "loss": (mslab, tensorflow), "rows", "agree", "tensorflow"}`` as
    ``compare_with_torch`` gives for PyTorch."""
    if not have_tensorflow():
        return {"available": False, "install": INSTALL_TF, "rows": [], "agree": None}
    import tensorflow as tf  # optional: only this comparison needs it

    step = _MslabStep(seed, lr)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.set_weights([a.T if a.ndim == 2 else a for a in step.start])  # Keras: kernel (in, out); mslab (out, in)
    with tf.GradientTape() as tape:
        tloss = tf.keras.losses.MeanSquaredError()(step.y, model(step.x))
    tgrads = tape.gradient(tloss, model.trainable_variables)
    tf.keras.optimizers.SGD(learning_rate=lr).apply_gradients(zip(tgrads, model.trainable_variables))
    back = [g.numpy().T if g.ndim == 2 else g.numpy() for g in tgrads]
    tafter = [w.T if w.ndim == 2 else w for w in model.get_weights()]
    return step.compared(float(tloss), back, tafter, tensorflow=tf.__version__)


def compare_all(seed=0, lr=0.1):
    """Both comparisons: PyTorch's result dict (``compare_with_torch``) with TensorFlow's under ``"tensorflow"``;
    ``"agree"``: every installed framework agrees with mslab."""
    res = compare_with_torch(seed, lr)
    res["tensorflow"] = tf_res = compare_with_tensorflow(seed, lr)
    verdicts = [r["agree"] for r in (res, tf_res) if r["available"]]
    res["agree"] = all(verdicts) if verdicts else None
    return res


def result_html(res):
    """The comparison as an HTML table (what the Run button shows): one column per installed framework."""
    sides = [("PyTorch", res)] + ([("TensorFlow", res["tensorflow"])] if "tensorflow" in res else [])
    missing = [(name, r) for name, r in sides if not r["available"]]
    ran = [(name, r) for name, r in sides if r["available"]]
    notes = "".join(f"<p><b>{name} is not installed</b>, so it is not compared. To compare, install it into this "
                    f"environment:<pre>{escape(r['install'])}</pre>then restart the kernel.</p>" for name, r in missing)
    if not ran:
        return f'<div data-mslab-role="compare-result">{notes}<p>The code tabs above need nothing.</p></div>'
    head = "".join(f"<th>max |mslab - {name}|</th>" for name, _ in ran)
    body = "".join(f"<tr><td>{escape(what)}</td>" + "".join(f"<td>{r['rows'][i][1]:.3g}</td>" for _, r in ran)
                   + "</tr>" for i, (what, _) in enumerate(ran[0][1]["rows"]))
    losses = ", ".join([f"mslab {ran[0][1]['loss'][0]:.6g}"] + [f"{name} {r['loss'][1]:.6g}" for name, r in ran])
    names = " and ".join(name for name, _ in ran)
    verdict = (f"mslab, {names} agree (every difference is at float32 rounding level)" if res["agree"]
               else f"mslab and {names} DISAGREE beyond 1e-5")
    return (f'<div data-mslab-role="compare-result"><p>Same weights, same batch, one SGD step (lr 0.1). '
            f"loss: {losses}</p>"
            f'<table class="mslab-compare"><tr><th>compared</th>{head}</tr>{body}</table>'
            f"<p><b>{escape(verdict)}</b></p>{notes}</div>")


class ComparePanel(widgets.VBox):
    """``ComparePanel(concepts=CONCEPTS)``: a Tab per concept, each with mslab / PyTorch / TensorFlow code."""

    def __init__(self, concepts=CONCEPTS, **kwargs):
        self.concepts = tuple(concepts)
        tabs = []
        for c in self.concepts:
            inner = widgets.Tab(children=[widgets.HTML(f"<pre>{escape(CODE[c][f])}</pre>") for f in FRAMEWORKS])
            for i, f in enumerate(FRAMEWORKS):
                inner.set_title(i, f)
            tabs.append(inner)
        self.tabs = widgets.Tab(children=tabs)
        for i, c in enumerate(self.concepts):
            self.tabs.set_title(i, c)
        # width auto: ipywidgets' fixed default button width cuts the label off
        self.button = widgets.Button(description="Run: mslab vs PyTorch and TensorFlow", button_style="primary",
                                     tooltip="Run the same step in all three on the same weights and data",
                                     layout=widgets.Layout(width="auto"))
        self.button.add_class("mslab-compare-run")
        self.result = widgets.HTML(self._idle_text())
        self.button.on_click(lambda _b: self.run())
        self.last = None
        self.runs = 0
        super().__init__(children=[self.tabs, widgets.HBox([self.button]), self.result], **kwargs)
        self.add_class("mslab-compare-panel")

    def _idle_text(self):
        if have_torch():
            return "<i>Press Run to check that loss and gradients agree with PyTorch and TensorFlow.</i>"
        return "<i>Press Run to compare with PyTorch and TensorFlow (not installed here: Run says how to add them).</i>"

    def run(self):
        """Run the comparison (as the button does) and show it; returns the result dict.

        Each press is numbered in the answer, so a second press visibly answers too (even when the
        answer, e.g. "PyTorch is not installed", is the same)."""
        self.runs += 1
        self.result.value = "<i>running ...</i>"
        self.last = compare_all()
        self.result.value = f"<p><b>Run {self.runs}</b></p>" + result_html(self.last)
        return self.last

    def code(self, concept, framework="mslab"):
        return CODE[concept][framework]

    def static_html(self):
        parts = []
        for c in self.concepts:
            cols = "".join(f"<td style='vertical-align:top'><b>{f}</b><pre>{escape(CODE[c][f])}</pre></td>"
                           for f in FRAMEWORKS)
            parts.append(f"<h4>{escape(c)}</h4><table><tr>{cols}</tr></table>")
        return '<div class="mslab-static">' + "".join(parts) + "</div>"

    def __repr__(self):
        return f"ComparePanel(concepts={list(self.concepts)}, frameworks={list(FRAMEWORKS)})"

    def _repr_mimebundle_(self, **kwargs):
        out = super()._repr_mimebundle_(**kwargs)
        data, meta = out if isinstance(out, tuple) else (out, {})
        data = dict(data or {})
        data["text/plain"] = repr(self)
        data["text/html"] = self.static_html()
        return data, meta
