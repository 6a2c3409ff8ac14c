"""Checkpoints that survive: MindSpore's files load exactly, damaged files are refused by name, crashes lose nothing.

The fixtures in ../shared/fixtures/mindspore-2.10 were written by real MindSpore 2.10 (CPU) with
make_fixtures.py there: a LeNet5 trained two steps with Momentum, saved as .ckpt and .safetensors,
and the network alone with append_dict. lenet5_reference.npz holds every parameter and the logits.
"""
import importlib.util
import io
import os
import pickle
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mslab as ms
from mslab import Parameter, Tensor, nn
from mslab.errors import CheckpointError
from mslab.train import serialization
from mslab.train.callback import CheckpointConfig, ModelCheckpoint
from mslab.train.serialization._schema import FILE_DESCRIPTOR, Checkpoint

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(os.environ.get("MSLAB_MS_FIXTURES", ROOT.parent / "shared" / "fixtures" / "mindspore-2.10"))
if not (FIXTURES / "lenet5_reference.npz").exists():
    FIXTURES = Path("/work/shared/fixtures/mindspore-2.10")
needs_fixtures = pytest.mark.skipif(not (FIXTURES / "lenet5_reference.npz").exists(),
                                    reason="MindSpore 2.10 fixtures not found")

# MindSpore 2.10's mindspore/train/checkpoint_pb2.py registers exactly these bytes (its DESCRIPTOR.serialized_pb)
MINDSPORE_DESCRIPTOR = (
    b'\n\x10checkpoint.proto"\x93\x01\n\nCheckpoint\x12 \n\x05value\x18\x01 \x03(\x0b2\x11.Checkpoint.Value\x1ac\n'
    b'\x05Value\x12\x0b\n\x03tag\x18\x01 \x02(\t\x12\x1e\n\x06tensor\x18\x02 \x01(\x0b2\x0c.TensorProtoH\x00\x12$\n'
    b'\tmaptensor\x18\x03 \x01(\x0b2\x0f.MapTensorProtoH\x00B\x07\n\x05value"H\n\x0bTensorProto\x12\x0c\n\x04dims'
    b'\x18\x01 \x03(\x03\x12\x13\n\x0btensor_type\x18\x02 \x02(\t\x12\x16\n\x0etensor_content\x18\x03 \x02(\x0c".\n'
    b'\x0eMapTensorProto\x12\x1c\n\x06tensor\x18\x01 \x03(\x0b2\x0c.TensorProto')


# make_fixtures.py's LeNet5 (MindSpore's model zoo LeNet5) is the one benchmarks/lenet_digits.py trains
_spec = importlib.util.spec_from_file_location("lenet_digits", ROOT / "benchmarks" / "lenet_digits.py")
lenet_digits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lenet_digits)
LeNet5 = lenet_digits.LeNet5


def train_net():
    net = LeNet5()
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return net, nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)


@pytest.fixture(scope="module")
def reference():
    return dict(np.load(FIXTURES / "lenet5_reference.npz"))


def test_schema_is_mindspores_checkpoint_message(tmp_path):
    assert FILE_DESCRIPTOR.SerializeToString() == MINDSPORE_DESCRIPTOR
    protoc = shutil.which("protoc")
    if protoc is None:
        pytest.skip("protoc is not installed; checkpoint.proto compared only through _schema.py")
    from google.protobuf import descriptor_pb2
    proto_dir = ROOT / "mslab" / "train" / "serialization"
    out = tmp_path / "set.pb"
    subprocess.run([protoc, f"--proto_path={proto_dir}", f"--descriptor_set_out={out}", "checkpoint.proto"],
                   check=True)
    compiled = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file[0]
    messages = list(compiled.message_type) + list(compiled.message_type[0].nested_type)
    for field in (f for m in messages for f in m.field):
        field.ClearField("json_name")  # protoc adds camelCase JSON names; MindSpore's registered descriptor has none
    expected = descriptor_pb2.FileDescriptorProto.FromString(MINDSPORE_DESCRIPTOR)
    assert compiled == expected


@needs_fixtures
@pytest.mark.parametrize("name,fmt", [("lenet5_momentum.ckpt", "ckpt"), ("lenet5_momentum.safetensors", "safetensors")])
def test_mindspore_files_load_exactly(reference, name, fmt):
    params = ms.load_checkpoint(str(FIXTURES / name), format=fmt)
    net, train = train_net()
    assert sorted(params) == sorted(p.name for p in train.get_parameters())
    not_loaded, ckpt_not_loaded = ms.load_param_into_net(train, params)
    assert not_loaded == [] and ckpt_not_loaded == []
    for p in train.get_parameters():  # the .npz keys are MindSpore's structural names (optimizer.moments...)
        key = p.name if p.name in reference else "optimizer." + p.name
        assert p.asnumpy().dtype == reference[key].dtype, key
        np.testing.assert_array_equal(p.asnumpy(), reference[key], err_msg=key)
    logits = net(Tensor(reference["x"])).asnumpy()
    np.testing.assert_allclose(logits, reference["logits"], rtol=1e-5, atol=1e-6)


@needs_fixtures
def test_mindspore_append_dict_and_net_only(reference):
    net = LeNet5()
    params = ms.load_checkpoint(str(FIXTURES / "lenet5_net_only.ckpt"), net=net)
    # observed on MindSpore 2.10 CPU: epoch_num loads as Parameter(shape=(), dtype=Int64), note as the str 'hello'
    assert params["note"] == "hello"
    assert params["epoch_num"].dtype == ms.int64 and params["epoch_num"].shape == () and int(params["epoch_num"]) == 3
    np.testing.assert_allclose(net(Tensor(reference["x"])).asnumpy(), reference["logits"], rtol=1e-5, atol=1e-6)


@needs_fixtures
def test_mslab_writes_mindspores_bytes(tmp_path):
    """Saving what was loaded gives back MindSpore's file byte for byte (both formats)."""
    for name, fmt in [("lenet5_momentum.ckpt", "ckpt"), ("lenet5_net_only.ckpt", "ckpt"),
                      ("lenet5_momentum.safetensors", "safetensors")]:
        params = ms.load_checkpoint(str(FIXTURES / name), format=fmt)
        out = tmp_path / name
        ms.save_checkpoint(params, str(out), format=fmt)
        assert out.read_bytes() == (FIXTURES / name).read_bytes(), name
    _, train = train_net()
    ms.load_checkpoint(str(FIXTURES / "lenet5_momentum.ckpt"), net=train)
    ms.save_checkpoint(train, str(tmp_path / "again.ckpt"))
    # the same Values; mslab's Momentum lists learning_rate before global_step (MindSpore: global_step first)
    ours = Checkpoint.FromString((tmp_path / "again.ckpt").read_bytes()).value
    theirs = Checkpoint.FromString((FIXTURES / "lenet5_momentum.ckpt").read_bytes()).value
    assert sorted(v.SerializeToString() for v in ours) == sorted(v.SerializeToString() for v in theirs)


def test_round_trips_crc_slices_and_bytesio(tmp_path, monkeypatch):
    values = {"f16": np.arange(6, dtype=np.float16).reshape(2, 3), "b": np.array([True, False]),
              "u8": np.arange(4, dtype=np.uint8), "scalar": np.array(2.5), "empty": np.zeros((0, 3), np.float32)}
    path = str(tmp_path / "all.ckpt")
    ms.save_checkpoint({k: Tensor(v) for k, v in values.items()}, path, crc_check=True, append_dict={"t": "naïve"})
    back = ms.load_checkpoint(path, crc_check=True)
    assert back["t"] == "naïve"
    for k, v in values.items():
        assert back[k].asnumpy().dtype == np.asarray(v).dtype and np.array_equal(back[k].asnumpy(), v), k
    # a parameter bigger than a slice is written as several Values with one tag and joined on reading
    monkeypatch.setattr(serialization._ckpt_format, "SLICE_BYTES", 16)
    big = np.arange(40, dtype=np.float32).reshape(10, 4)
    ms.save_checkpoint({"big": Tensor(big)}, path)
    assert [v.tag for v in Checkpoint.FromString(open(path, "rb").read()).value] == ["big"] * 10
    np.testing.assert_array_equal(ms.load_checkpoint(path)["big"].asnumpy(), big)
    sf = tmp_path / "a.safetensors"
    ms.save_checkpoint({"w": Tensor(big)}, str(sf), format="safetensors", crc_check=True)

    assert np.array_equal(ms.load_checkpoint(io.BytesIO(sf.read_bytes()), format="safetensors",
                                             crc_check=True)["w"].asnumpy(), big)
    with pytest.raises(TypeError, match="format='safetensors' cannot hold"):
        ms.save_checkpoint({"w": Tensor(big)}, str(sf), format="safetensors", append_dict={"note": "x"})


def test_load_param_into_net_warns_and_returns_the_lists():
    net = nn.Dense(3, 2)
    net.extra = Parameter(Tensor(np.zeros(2, np.float32)), name="extra")
    weights = {"weight": Parameter(Tensor(np.ones((2, 3), np.float32)), name="weight"),
               "zzz": Parameter(Tensor(1.0), name="zzz")}
    # observed on MindSpore 2.10 CPU (the same net and dict): returned (['bias', 'extra'], ['zzz']) and logged
    # "For 'load_param_into_net', 2 parameters in the 'net' are not loaded, because they are not in the
    # 'parameter_dict', please check whether the network structure is consistent when training and loading
    # checkpoint." then "['bias', 'extra'] are not loaded."
    with pytest.warns(UserWarning, match=r"2 parameters in the 'net' are not loaded.*\['bias', 'extra'\] are not"):
        assert ms.load_param_into_net(net, weights) == (["bias", "extra"], ["zzz"])
    assert net.weight.asnumpy().all()


def test_load_param_into_net_finds_names_behind_a_prefix():
    net = nn.Dense(3, 2)
    saved = {"network.weight": Parameter(Tensor(np.ones((2, 3), np.float32)), name="network.weight"),
             "network.bias": Parameter(Tensor(np.ones(2, np.float32)), name="network.bias")}
    with pytest.warns(UserWarning, match="remove parameter prefix name: network., continue to load"):
        not_loaded, ckpt_not_loaded = ms.load_param_into_net(net, saved)
    # as MindSpore's _load_dismatch_prefix_params: loaded, yet still listed as not loaded from the checkpoint
    assert not_loaded == [] and ckpt_not_loaded == ["network.weight", "network.bias"]
    assert net.bias.asnumpy().tolist() == [1.0, 1.0]


# ---- damaged files: one CheckpointError naming the file, never a crash elsewhere, nothing executed

@pytest.fixture
def good_ckpt(tmp_path):
    net = LeNet5()
    path = tmp_path / "good.ckpt"
    ms.save_checkpoint(net, str(path), append_dict={"epoch_num": 1})
    return path


def damaged(tmp_path, good):
    data = good.read_bytes()
    (tmp_path / "empty.ckpt").write_bytes(b"")
    (tmp_path / "dir.ckpt").mkdir()
    (tmp_path / "half.ckpt").write_bytes(data[:len(data) // 2])
    (tmp_path / "foreign.ckpt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (tmp_path / "pickle.ckpt").write_bytes(pickle.dumps({"w": np.ones(3)}))
    sf = tmp_path / "ok.safetensors"
    ms.save_checkpoint(LeNet5(), str(sf), format="safetensors")
    sf_data = sf.read_bytes()
    (tmp_path / "half.safetensors").write_bytes(sf_data[:len(sf_data) // 2])
    (tmp_path / "header.safetensors").write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}      ")
    (tmp_path / "huge.safetensors").write_bytes((10 ** 12).to_bytes(8, "little") + b"{}")
    (tmp_path / "empty.safetensors").write_bytes(b"")
    return ([(tmp_path / n, "ckpt") for n in ["empty.ckpt", "dir.ckpt", "half.ckpt", "foreign.ckpt",
                                              "pickle.ckpt", "missing.ckpt"]]
            + [(tmp_path / n, "safetensors") for n in ["half.safetensors", "header.safetensors",
                                                       "huge.safetensors", "empty.safetensors"]])


def test_every_damaged_file_raises_one_checkpoint_error(tmp_path, good_ckpt):
    for path, fmt in damaged(tmp_path, good_ckpt):
        with pytest.raises(CheckpointError) as info:
            ms.load_checkpoint(str(path), format=fmt)
        assert str(path) in str(info.value), str(info.value)
        assert isinstance(info.value, ValueError)  # MindSpore raises ValueError for each of these files
    with pytest.raises(CheckpointError, match="format='safetensors'"):
        ms.load_checkpoint(str(tmp_path / "ok.safetensors"))


def test_declared_sizes_are_checked_before_allocating(tmp_path):
    message = Checkpoint()
    item = message.value.add()
    item.tag, item.tensor.tensor_type, item.tensor.tensor_content = "w", "Float32", b"\0\0\0\0"
    item.tensor.dims.extend([100_000, 100_000])  # 40 GB declared, 4 bytes present
    path = tmp_path / "lie.ckpt"
    path.write_bytes(message.SerializeToString())
    with pytest.raises(CheckpointError, match=r"'w': dims \[100000, 100000\] of Float32 need 40000000000 bytes"):
        ms.load_checkpoint(str(path))
    item.tensor.dims[:] = [-1]
    path.write_bytes(message.SerializeToString())
    with pytest.raises(CheckpointError, match="negative dims"):
        ms.load_checkpoint(str(path))
    item.tensor.dims[:], item.tensor.tensor_type = [1], "Complex64"
    path.write_bytes(message.SerializeToString())
    with pytest.raises(CheckpointError, match="unknown tensor_type 'Complex64'"):
        ms.load_checkpoint(str(path))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_flipped_bytes_load_or_raise_checkpoint_error(tmp_path, data):
    path = tmp_path / "f.ckpt"
    if not path.exists():
        ms.save_checkpoint(nn.Dense(3, 2), str(path), append_dict={"note": "hi"})
    original = path.read_bytes()
    raw = bytearray(original)
    for i in data.draw(st.lists(st.integers(0, len(raw) - 1), min_size=1, max_size=4)):
        raw[i] ^= data.draw(st.integers(1, 255))
    flipped = tmp_path / "flipped.ckpt"
    flipped.write_bytes(bytes(raw))
    try:
        params = ms.load_checkpoint(str(flipped))
    except CheckpointError as e:
        assert str(flipped) in str(e)
    else:  # a flip inside the numbers (or a name) is not detectable without crc_check
        assert all(isinstance(v, (Parameter, str)) for v in params.values())
    with pytest.raises(CheckpointError, match="CRC-32"):
        path_crc = tmp_path / "crc.ckpt"
        ms.save_checkpoint(nn.Dense(3, 2), str(path_crc), crc_check=True)
        raw = bytearray(path_crc.read_bytes())
        raw[len(raw) // 2] ^= 1
        path_crc.write_bytes(bytes(raw))
        ms.load_checkpoint(str(path_crc), crc_check=True)


class Boom:
    def __reduce__(self):
        return (os.system, ("echo pwned > /dev/null",))


def test_nothing_in_a_file_is_executed(tmp_path, monkeypatch):
    (tmp_path / "evil.ckpt").write_bytes(pickle.dumps({"w": Boom()}))
    (tmp_path / "evil.safetensors").write_bytes(pickle.dumps({"w": Boom()}))
    ran = []
    monkeypatch.setattr(os, "system", ran.append)
    for name, fmt in [("evil.ckpt", "ckpt"), ("evil.safetensors", "safetensors")]:
        with pytest.raises(CheckpointError):
            ms.load_checkpoint(str(tmp_path / name), format=fmt)
    assert ran == []


# ---- crashes while saving

KILLED_SAVE = textwrap.dedent("""
    import os, signal, sys
    import numpy as np
    import mslab as ms
    from mslab.train import serialization
    def half_then_die(f, entries, crc_check=False):
        f.write(b"x" * 4096)
        f.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    serialization.write_ckpt = half_then_die
    ms.save_checkpoint({"w": ms.Tensor(np.zeros(3, np.float32))}, sys.argv[1])
""")


def test_a_killed_save_keeps_the_old_file_and_the_next_save_cleans_up(tmp_path):
    path = tmp_path / "CKP-1_1.ckpt"
    ms.save_checkpoint({"w": Tensor(np.ones(3, np.float32))}, str(path))
    before = path.read_bytes()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", KILLED_SAVE, str(path)], env=env, capture_output=True)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()
    assert path.read_bytes() == before
    left = [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
    assert len(left) == 1  # the dead process's temporary file ...
    ms.save_checkpoint({"w": Tensor(np.ones(3, np.float32))}, str(tmp_path / "CKP-1_2.ckpt"))
    assert sorted(os.listdir(tmp_path)) == ["CKP-1_1.ckpt", "CKP-1_2.ckpt"]  # ... is gone after the next save


def test_model_checkpoint_deletes_old_files_only_after_the_new_one_is_in_place(tmp_path, monkeypatch):
    net = nn.Dense(2, 1)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    callback = ModelCheckpoint(prefix="CKP", directory=str(tmp_path), config=CheckpointConfig(keep_checkpoint_max=1))

    params = {"cur_epoch_num": 1, "cur_step_num": 1, "batch_num": 10, "train_network": train}

    class Params(dict):
        __getattr__ = dict.__getitem__

    Params = Params(params)
    callback._save_ckpt(Params, force=False)
    assert sorted(os.listdir(tmp_path)) == ["CKP-1_1.ckpt"]

    def full_disk(f, entries, crc_check=False):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(serialization, "write_ckpt", full_disk)
    Params.cur_step_num = 2
    with pytest.raises(OSError, match="No space left"):
        callback._save_ckpt(Params, force=False)
    assert sorted(os.listdir(tmp_path)) == ["CKP-1_1.ckpt"]  # the old checkpoint survives a failed save
    monkeypatch.undo()
    callback._save_ckpt(Params, force=False)
    assert sorted(os.listdir(tmp_path)) == ["CKP-1_2.ckpt"]
    assert ms.load_checkpoint(str(tmp_path / "CKP-1_2.ckpt"))["weight"].shape == (1, 2)
