"""Save and load: versioned JSON, atomic writes, and a clear error with the model untouched."""

import json
import os

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
