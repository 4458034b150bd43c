"""Save and load: versioned JSON, atomic writes, and a clear error with the model untouched."""

import json
import os
import shutil
import tempfile

import pytest

from micrograd.io import atomic_write, load, load_into, save
from micrograd.nn import MLP


@pytest.fixture
def model():
    return MLP(2, [3, 1], activation="tanh")


def test_round_trip(tmp_path, model):
    path = tmp_path / "m.json"
    save(model, path)
    loaded = load(path)
    assert loaded.state_dict() == model.state_dict()
    assert loaded.sizes == [2, 3, 1] and loaded.activation == "tanh"
    doc = json.loads(path.read_text())
    assert doc["format"] == "micrograd-model" and doc["version"] == 1


def test_state_dict_round_trip(model):
    other = MLP(2, [3, 1], activation="tanh")
    other.load_state_dict(model.state_dict())
    assert other.state_dict() == model.state_dict()


def good_doc(model):
    from micrograd.io import to_json

    return to_json(model)


BROKEN = {
    "truncated": lambda text, doc: text[: len(text) // 2],
    "not json": lambda text, doc: "hello",
    "a list": lambda text, doc: "[1, 2]",
    "other version": lambda text, doc: json.dumps({**doc, "version": 99}),
    "no format": lambda text, doc: json.dumps({k: v for k, v in doc.items() if k != "format"}),
    "NaN": lambda text, doc: text.replace(str(doc["parameters"]["layers.0.neurons.0.b"]), "NaN", 1),
    "huge": lambda text, doc: text.replace(
        str(doc["parameters"]["layers.0.neurons.0.b"]), "1e999", 1
    ),
    "string": lambda text, doc: json.dumps(
        {**doc, "parameters": {**doc["parameters"], "layers.0.neurons.0.b": "1"}}
    ),
    "bool": lambda text, doc: json.dumps(
        {**doc, "parameters": {**doc["parameters"], "layers.0.neurons.0.b": True}}
    ),
    "missing key": lambda text, doc: json.dumps(
        {**doc, "parameters": {k: v for k, v in list(doc["parameters"].items())[1:]}}
    ),
    "extra key": lambda text, doc: json.dumps(
        {**doc, "parameters": {**doc["parameters"], "bogus": 1.0}}
    ),
    "other architecture": lambda text, doc: json.dumps(
        {**doc, "architecture": {**doc["architecture"], "sizes": [2, 4, 1]}}
    ),
    "bad sizes": lambda text, doc: json.dumps(
        {**doc, "architecture": {**doc["architecture"], "sizes": [2, -1]}}
    ),
    "binary": lambda text, doc: "\udcff",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_files_raise_and_leave_the_model_unchanged(tmp_path, model, case):
    path = tmp_path / "m.json"
    save(model, path)
    text = path.read_text()
    broken = BROKEN[case](text, good_doc(model))
    if case == "binary":
        path.write_bytes(b"\xff\xfe\x00garbage")
    else:
        path.write_text(broken)
    before = model.state_dict()
    with pytest.raises(ValueError, match=str(path).replace("\\", "\\\\")):
        load_into(model, path)
    with pytest.raises(ValueError):
        load(path)
    assert model.state_dict() == before


def test_interrupted_save_keeps_the_old_file(tmp_path, model, monkeypatch):
    path = tmp_path / "m.json"
    save(model, path)
    old = path.read_bytes()

    def crash(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        save(MLP(2, [3, 1]), path)
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["m.json"]  # no temporary file left behind


def test_atomic_write_keeps_mode(tmp_path):
    path = tmp_path / "f.txt"
    atomic_write(path, b"one")
    os.chmod(path, 0o640)
    atomic_write(path, b"two")
    assert path.read_bytes() == b"two" and (os.stat(path).st_mode & 0o777) == 0o640


def test_a_file_with_a_second_hard_link_is_refused_not_split(tmp_path):
    """N4: replacing a hard-linked file by rename would leave its other name with the old model."""
    path, other = tmp_path / "model.json", tmp_path / "current.json"
    save(MLP(2, [1]), path)
    os.link(path, other)
    with pytest.raises(ValueError, match="2 hard links"):
        save(MLP(2, [3, 1]), path)
    assert load(path).sizes == load(other).sizes == [2, 1]
    assert sorted(os.listdir(tmp_path)) == ["current.json", "model.json"]


def test_long_file_names_that_open_writes_are_written(tmp_path):
    """N17: the temporary file's name is short, so a 250-byte name is written like open() would."""
    path = tmp_path / ("m" * 245 + ".json")
    with open(path, "w") as f:  # the system takes the name
        f.write("x")
    save(MLP(2, [1]), path)
    assert load(path).sizes == [2, 1] and os.listdir(tmp_path) == [path.name]


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="no /dev/shm on this system")
def test_dev_shm_is_a_folder_like_any_other():
    """N18: files under /dev/shm (a tmpfs) are written; /dev/stdout and devices still refused."""
    folder = tempfile.mkdtemp(dir="/dev/shm")
    try:
        save(MLP(2, [1]), os.path.join(folder, "m.json"))
        assert load(os.path.join(folder, "m.json")).sizes == [2, 1]
    finally:
        shutil.rmtree(folder)
    for path in ("/dev/stdout", "/dev/null", "/proc/self/fd/1"):
        with pytest.raises(ValueError, match="refusing|regular file"):
            atomic_write(path, b"x")


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make another user's file")
def test_another_users_file_keeps_its_owner(tmp_path):
    """S2: a file of another user in one's own folder keeps its owner and group when replaced (as
    root); a user who could not give it back would be refused (open() refuses it)."""
    path = tmp_path / "theirs.json"
    path.write_text("{}")
    os.chmod(path, 0o644)
    os.chown(path, 65534, 65534)
    save(MLP(2, [1]), path)
    st = os.stat(path)
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (65534, 65534, 0o644)
    assert load(path).sizes == [2, 1]


def test_write_files_is_all_or_none(tmp_path, monkeypatch):
    """L2: when one file of a set cannot be written, none is replaced and no temporary is left."""
    from micrograd import io

    (tmp_path / "a").write_bytes(b"old a")
    real = io._temporary
    calls = []

    def fail_on_second(name, target, old, data):
        calls.append(name)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(name, target, old, data)

    monkeypatch.setattr(io, "_temporary", fail_on_second)
    with pytest.raises(OSError, match="No space"):
        io.write_files({str(tmp_path / "a"): b"new a", str(tmp_path / "b"): b"new b"})
    assert os.listdir(tmp_path) == ["a"] and (tmp_path / "a").read_bytes() == b"old a"
    monkeypatch.setattr(io, "_temporary", real)
    io.write_files({str(tmp_path / "a"): b"new a", str(tmp_path / "b"): b"new b"})
    assert (tmp_path / "a").read_bytes() == b"new a" and (tmp_path / "b").read_bytes() == b"new b"
