"""Save and load: versioned JSON, atomic writes, and a clear error with the model untouched."""

import json
import math
import os
import shutil
import stat
import tempfile
import tracemalloc

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
    """Replacing a hard-linked file by rename would leave its other name with the old model."""
    path, other = tmp_path / "model.json", tmp_path / "current.json"
    save(MLP(2, [1]), path)
    os.link(path, other)
    with pytest.raises(ValueError, match="2 hard links"):
        save(MLP(2, [3, 1]), path)
    assert load(path).sizes == load(other).sizes == [2, 1]
    assert sorted(os.listdir(tmp_path)) == ["current.json", "model.json"]


def test_long_file_names_that_open_writes_are_written(tmp_path):
    """The temporary file's name is short, so a 250-byte name is written like open() would."""
    path = tmp_path / ("m" * 245 + ".json")
    with open(path, "w") as f:  # the system takes the name
        f.write("x")
    save(MLP(2, [1]), path)
    assert load(path).sizes == [2, 1] and os.listdir(tmp_path) == [path.name]


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="no /dev/shm on this system")
def test_dev_shm_is_a_folder_like_any_other():
    """Files under /dev/shm (a tmpfs) are written; /dev/stdout and devices still refused."""
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
    """A file of another user in one's own folder keeps its owner and group when replaced (as
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
    """When one file of a set cannot be written, none is replaced and no temporary is left."""
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


# ---------------------------------------------------------------------------- hostile and edge input
def test_save_keeps_a_symlink(tmp_path):
    """Saving through a symlink writes the file it points to and keeps the link."""
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    save(MLP(2, [3, 1]), real)
    os.symlink(real, link)
    save(MLP(2, [5, 1]), link)
    assert os.path.islink(link) and load(real).sizes == [2, 5, 1]


def test_atomic_write_refuses_a_fifo_a_device_and_a_folder(tmp_path):
    """Atomic_write refuses a FIFO, a device or a folder instead of replacing it with a file."""
    fifo = tmp_path / "fifo.dot"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path, "/dev/null"):
        with pytest.raises(ValueError, match="regular file|refusing"):
            atomic_write(target, b"x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_save_never_writes_what_load_refuses(tmp_path):
    """What save() writes, load() reads (a wide layer); what load() would refuse (a NaN), save()
    refuses and writes nothing."""
    wide = MLP(150000, [1])
    save(wide, tmp_path / "wide.json")
    assert load(tmp_path / "wide.json").sizes == [150000, 1]
    nan = MLP(2, [1])
    nan.parameters()[0].data = math.nan
    with pytest.raises(ValueError, match="not a finite number"):
        save(nan, tmp_path / "nan.json")
    assert not (tmp_path / "nan.json").exists()


def test_load_checks_sizes_against_the_parameters_before_building(tmp_path):
    """Load() checks the architecture's sizes against the parameters before it builds the model,
    so a small file cannot allocate gigabytes."""
    bomb = tmp_path / "bomb.json"
    bomb.write_text(
        '{"format":"micrograd-model","version":1,"architecture":{"type":"MLP",'
        '"sizes":[100000,100000,100000],"activation":"relu"},"parameters":{}}'
    )
    tracemalloc.start()
    with pytest.raises(ValueError, match="parameters"):
        load(bomb)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 10_000_000


def test_the_umask_is_never_changed(tmp_path, monkeypatch):
    """Save() and atomic_write() never change the process umask (other threads would create
    files with it)."""

    def forbidden(mask):
        raise AssertionError("os.umask called")

    monkeypatch.setattr(os, "umask", forbidden)
    save(MLP(2, [1]), tmp_path / "m.json")
    atomic_write(tmp_path / "x.txt", b"x")


def test_a_read_only_file_is_refused_not_replaced(tmp_path):
    """Save() refuses a read-only target file instead of replacing it."""
    path = tmp_path / "good.json"
    save(MLP(2, [3, 1]), path)
    os.chmod(path, 0o400)
    with pytest.raises(PermissionError, match="read-only"):
        save(MLP(2, [4, 1]), path)
    assert load(path).sizes == [2, 3, 1]


@pytest.mark.parametrize("value", ["1" + "0" * 400, "1" + "0" * 5000, "[" * 100000 + "]" * 100000])
def test_hostile_numbers_in_a_model_file_are_value_errors(tmp_path, value):
    """Hostile numbers and structures in a model file are ValueErrors naming the file, and
    load_state_dict refuses a number too large for a float."""
    model = MLP(2, [1])
    path = tmp_path / "m.json"
    save(model, path)
    text = path.read_text()
    name = "layers.0.neurons.0.b"
    path.write_text(
        text.replace(f'"{name}": {json.loads(text)["parameters"][name]}', f'"{name}": {value}')
    )
    with pytest.raises(ValueError, match=str(path.name)):
        load_into(model, path)
    with pytest.raises(ValueError, match="finite"):
        model.load_state_dict({**model.state_dict(), name: 10**400})


def test_saving_a_nan_names_the_parameter_and_the_file(tmp_path):
    """Saving a NaN parameter names the parameter and the file."""
    model = MLP(2, [1])
    model.parameters()[1].data = math.nan
    with pytest.raises(ValueError, match=r"m\.json.*layers\.0\.neurons\.0\.w\.1"):
        save(model, tmp_path / "m.json")


def test_versions_must_be_the_integer_1(tmp_path):
    """A model file's version must be the integer 1, and a JSON error reads cleanly."""
    path = tmp_path / "m.json"
    save(MLP(2, [1]), path)
    doc = json.loads(path.read_text())
    for version in (True, 1.0):
        path.write_text(json.dumps({**doc, "version": version}))
        with pytest.raises(ValueError, match="version"):
            load(path)
    path.write_text(path.read_text()[:20])
    with pytest.raises(ValueError) as e:
        load(path)
    assert "at at" not in str(e.value)


def test_save_and_load_take_bytes_paths(tmp_path):
    """Save() and load() take bytes paths."""
    path = os.fsencode(tmp_path / "m.json")
    save(MLP(2, [1]), path)
    assert load(path).sizes == [2, 1]


def test_the_folder_is_synced_after_the_rename(tmp_path, monkeypatch):
    """Atomic_write() syncs the folder after the rename, so the rename survives a power loss."""
    synced = []
    real = os.fsync

    def fsync(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    atomic_write(tmp_path / "x", b"x")
    assert synced == [False, True]
