"""Regression tests for the adversarial review (shared/reviews/redteam.md), one per finding id,
each built from the review's reproduction. T1 and T2 are in test_hardening.py and
test_properties.py (the finite-difference oracle's skip rules), T4 is the `core` job of tasks.py."""

import json
import math
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import threading
import tracemalloc
from fractions import Fraction

import pytest

from micrograd import MLP, Adam, Value, detect_anomaly, no_grad
from micrograd.cli import main
from micrograd.engine import OPS
from micrograd.io import atomic_write, load, load_into, save
from micrograd.optim import SGD, LinearLR
from micrograd.viz import to_mermaid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- data loss
def test_D1_save_keeps_symlink(tmp_path):
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    save(MLP(2, [3, 1]), real)
    os.symlink(real, link)
    save(MLP(2, [5, 1]), link)
    assert os.path.islink(link) and load(real).sizes == [2, 5, 1]


def test_D1_refuses_fifo_device_and_directory(tmp_path):
    fifo = tmp_path / "fifo.dot"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path, "/dev/null"):
        with pytest.raises(ValueError, match="regular file|refusing"):
            atomic_write(target, b"x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_D1_cli_output_to_dev_and_fifo_is_one_line_exit_1(tmp_path, capsys):
    fifo = tmp_path / "fifo.dot"
    os.mkfifo(fifo)
    for target in ("/dev/stdout", str(fifo)):
        code, out, err = run_cli(
            capsys, "graph", "a*b", "--set", "a=1", "--set", "b=2", "-o", target
        )
        assert code == 1 and err.count("\n") == 1 and "micrograd: error:" in err
    assert os.path.islink("/dev/stdout") or not os.path.isfile("/dev/stdout")


def test_D1_dash_writes_to_standard_output(capsys):
    code, out, _ = run_cli(capsys, "graph", "a*b", "--set", "a=1", "--set", "b=2", "-o", "-")
    assert code == 0 and out.startswith("digraph micrograd")


def test_D2_a_failing_backward_leaves_every_grad_as_it_was():
    w = Value(2.0)
    (w * 3).backward()
    assert w.grad == 3.0
    bad = Value(10.0, (w * 5,), "myop")  # made by hand, with a closure that fails half-way

    def fails():
        w.grad += 100.0
        raise ValueError("myop failed")

    bad._backward = fails
    with pytest.raises(ValueError, match="myop"):
        (bad + w).backward()
    assert w.grad == 3.0

    x = Value(0.0)
    x.grad = 1.0
    with detect_anomaly():
        y = x**0.5
        with pytest.raises(FloatingPointError):
            y.backward()
    assert x.grad == 1.0

    a, b = Value(1.0), Value(2.0)
    a.grad, b.grad = 7.0, 8.0
    c = a * b

    def half_done():  # changes one grad, then fails
        a.grad += 100.0
        raise RuntimeError("user closure failed")

    c._backward = half_done
    with pytest.raises(RuntimeError):
        (c + a).backward()
    assert (a.grad, b.grad, c.grad) == (7.0, 8.0, 0)


# ---------------------------------------------------------------------------- wrong results
def test_W1_tracing_inside_no_grad_traces_the_real_function():
    np = pytest.importorskip("numpy")
    from micrograd.app.train import Classifier
    from micrograd.fast import trace

    with no_grad():
        prog = trace(lambda x: x * 2, [], 1)
    assert prog(np.array([[3.0], [10.0]])).tolist() == [6.0, 20.0]
    random.seed(3)  # weights that give the three points three scores, whatever ran before
    model = MLP(2, [4, 1])
    clf = Classifier(model, 2)
    X = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]
    with no_grad():
        inside = [s for (s,) in clf.scores(X)]
    eager = [s for (s,) in Classifier(model, 2, fast=False).scores(X)]
    assert inside == pytest.approx(eager, rel=1e-12) and len(set(inside)) == 3


def test_W2_from_torch_refuses_other_layouts_and_changes_nothing():
    torch = pytest.importorskip("torch")
    from micrograd.export import from_torch

    S, L, R = torch.nn.Sequential, torch.nn.Linear, torch.nn.ReLU
    model = MLP(2, [3, 1])
    before = model.state_dict()
    for net in [
        S(L(2, 3), R(), L(3, 1), R()),
        S(R(), L(2, 3), L(3, 1)),
        S(L(2, 3), L(3, 2), torch.nn.Tanh(), L(2, 1)),
    ]:
        with pytest.raises(ValueError, match="from_torch"):
            from_torch(net, model)
        with pytest.raises(ValueError, match="from_torch"):
            from_torch(net)
    assert model.state_dict() == before


def test_W3_threads_on_graphs_that_share_a_subgraph_get_exact_grads():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(5):
            x = Value(1.5)
            h = x
            for _ in range(5000):
                h = h * 1.0 + 0.0
            a, b = h * 2, h * 3
            threads = [threading.Thread(target=v.backward) for v in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert x.grad == 5.0
    finally:
        sys.setswitchinterval(old)


def test_W4_classifier_retraces_when_reg_or_model_changes():
    pytest.importorskip("numpy")
    from micrograd.app.train import Classifier

    rows = [[0.5, -1.0, 1.0], [-0.3, 0.8, -1.0], [1.2, 0.1, 1.0]]
    model, other = MLP(2, [4, 1]), MLP(2, [4, 1])
    fast, eager = Classifier(model, 2), Classifier(model, 2, fast=False)
    fast.loss_and_grad(rows)
    fast.reg = eager.reg = 10.0
    assert fast.loss_and_grad(rows) == pytest.approx(eager.loss_and_grad(rows), rel=1e-12)
    fast.model = eager.model = other
    assert fast.loss_and_grad(rows) == pytest.approx(eager.loss_and_grad(rows), rel=1e-12)


def test_W5_math_functions_on_a_value_raise_instead_of_cutting_the_graph():
    x = Value(2.0)
    with pytest.raises(TypeError, match=r"v\.exp\(\)"):
        math.exp(x)
    with pytest.raises(TypeError, match="cut the graph"):
        float(x)


def test_W6_second_derivative_of_sqrt_at_zero_is_minus_inf_as_pytorch():
    from micrograd.functional import hessian

    assert hessian(lambda x: x**0.5)(0.0) == [[-math.inf]]


def test_W7_save_never_writes_what_load_refuses(tmp_path):
    wide = MLP(150000, [1])
    save(wide, tmp_path / "wide.json")
    assert load(tmp_path / "wide.json").sizes == [150000, 1]
    nan = MLP(2, [1])
    nan.parameters()[0].data = math.nan
    with pytest.raises(ValueError, match="not a finite number"):
        save(nan, tmp_path / "nan.json")
    assert not (tmp_path / "nan.json").exists()


# ---------------------------------------------------------------------------- resources
def test_R1_load_checks_sizes_against_the_parameters_before_building(tmp_path):
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


def test_R2_cli_refuses_widths_beyond_the_budget(capsys):
    code, _, err = run_cli(capsys, "train", "--hidden", "1024,1024", "--steps", "1", "--no-plot")
    assert code == 2 and "to_torch" in err and err.count("\n") == 1


def test_R3_detect_anomaly_keeps_no_value_alive():
    model = MLP(2, [16, 16, 1])
    with detect_anomaly():
        model([Value(0.1), Value(0.2)]).backward()  # warm up
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(5):
            model([Value(0.1), Value(0.2)]).backward()
        grown = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
    assert grown < 200_000  # a step's graph is ~400 KB here; none of them is kept


def test_R4_ops_does_not_grow_with_each_exponent():
    before = len(OPS)
    for i in range(3000):
        Value(1.5) ** (i / 1000)
    assert len(OPS) == before


# ---------------------------------------------------------------------------- security
def test_S1_the_umask_is_never_changed(tmp_path, monkeypatch):
    def forbidden(mask):
        raise AssertionError("os.umask called")

    monkeypatch.setattr(os, "umask", forbidden)
    save(MLP(2, [1]), tmp_path / "m.json")
    atomic_write(tmp_path / "x.txt", b"x")


def test_S2_a_read_only_file_is_refused_not_replaced(tmp_path):
    path = tmp_path / "good.json"
    save(MLP(2, [3, 1]), path)
    os.chmod(path, 0o400)
    with pytest.raises(PermissionError, match="read-only"):
        save(MLP(2, [4, 1]), path)
    assert load(path).sizes == [2, 3, 1]


# ---------------------------------------------------------------------------- crashes
def test_C1_diverging_training_stops_with_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = run_cli(
        capsys, "train", "--lr", "1e7", "--no-plot", "--quiet", "--out", str(out)
    )
    assert code == 1 and "diverged at step" in err and "--lr" in err
    assert "Traceback" not in err and err.count("\n") == 1 and not out.exists()


def test_C2_a_failing_dot_is_reported_with_what_it_said(tmp_path, capsys, monkeypatch):
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\necho 'Format: \"png\" not recognized' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    code, _, err = run_cli(
        capsys, "graph", "a*b", "--set", "a=1", "--set", "b=2", "-o", str(tmp_path / "g.png")
    )
    assert code == 1 and "not recognized" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["1" + "0" * 400, "1" + "0" * 5000, "[" * 100000 + "]" * 100000])
def test_C3_hostile_numbers_in_a_model_file_are_value_errors(tmp_path, value):
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


def test_C4_from_torch_errors_are_one_clear_value_error():
    torch = pytest.importorskip("torch")
    from micrograd.export import from_torch

    S, L = torch.nn.Sequential, torch.nn.Linear
    for net, says in [
        (S(L(2, 3, bias=False)), "no bias"),
        (L(2, 3), "Sequential"),
        (S(L(2, 3), torch.nn.Tanh(), L(5, 1)), "in_features=5"),
        (S(torch.nn.LazyLinear(3)), "LazyLinear"),
    ]:
        with pytest.raises(ValueError, match=says):
            from_torch(net)


def test_C5_create_graph_gives_inf_where_first_order_does():
    x = Value(1e-320)
    (x**0.001).backward(create_graph=True)
    assert x.grad.data == math.inf


def test_C6_small_crashes_are_clear_errors_or_nan():
    from micrograd.data import spiral
    from micrograd.functional import grad

    p = Value(1.0)
    Adam([p], eps=0.0).step()  # zero grad: 0/0, nan as in PyTorch
    assert math.isnan(p.data)
    for kwargs in [{"classes": 0}, {"classes": -1}, {"noise": math.inf}]:
        with pytest.raises(ValueError):
            spiral(n=10, **kwargs)
    with pytest.raises(ValueError, match="argnums=3"):
        grad(lambda x: x * 2, argnums=3)(1.0)


# ---------------------------------------------------------------------------- unclear messages
def test_U1_an_expression_starting_with_minus_gets_a_hint(capsys):
    code, _, err = run_cli(capsys, "explain", "-a*b", "--set", "a=1", "--set", "b=2")
    assert code == 2 and "after '--'" in err
    code, out, _ = run_cli(capsys, "explain", "--set", "a=1", "--set", "b=2", "--", "-a*b")
    assert code == 0 and "out = -2" in out


def test_U2_out_problems_are_reported_before_training(tmp_path, capsys):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    code, out, err = run_cli(capsys, "train", "--out", str(a_file), "--no-plot", "--quiet")
    assert code == 1 and "not a folder" in err and "accuracy" not in out
    code, _, err = run_cli(capsys, "train", "--out", "", "--no-plot", "--quiet")
    assert code == 2 and "--out" in err
    for name, fmt in [("graph", "digraph"), ("g.SVG", "<svg")]:
        if fmt == "<svg" and not shutil.which("dot"):
            continue
        code, _, _ = run_cli(
            capsys, "graph", "a*b", "--set", "a=1", "--set", "b=2", "-o", str(tmp_path / name)
        )
        assert code == 0 and fmt in (tmp_path / name).read_text()


def test_U3_saving_a_nan_names_the_parameter_and_the_file(tmp_path):
    model = MLP(2, [1])
    model.parameters()[1].data = math.nan
    with pytest.raises(ValueError, match=r"m\.json.*layers\.0\.neurons\.0\.w\.1"):
        save(model, tmp_path / "m.json")


def test_U4_names_are_normalised_in_set_too(capsys):
    code, out, _ = run_cli(capsys, "explain", "ａ*2", "--set", "ａ=3")
    assert code == 0 and "out = 6" in out


def test_U5_backward_anomaly_names_the_input(capsys):
    with detect_anomaly():
        x, y = Value(-2.0), Value(2.0)
        z = x**y
        with pytest.raises(FloatingPointError, match="input 1"):
            (z * 0 + z).backward()


def test_U6_type_errors_name_the_op():
    with pytest.raises(TypeError, match="^-:"):
        Value(1.0) - "a"
    with pytest.raises(TypeError, match="^-:"):
        "a" - Value(1.0)
    with pytest.raises(OverflowError, match=r"Value\(\): 1000.*\.\.\. is too large"):
        Value(10**400)
    with pytest.raises(OverflowError, match=r"\*\*"):
        Value(1.0) ** (10**400)


def test_U7_wrong_kinds_of_input_get_clear_errors():
    np = pytest.importorskip("numpy")
    from micrograd.fast import trace
    from micrograd.losses import cross_entropy

    assert cross_entropy([[Value(1.0), Value(2.0)]], [np.int64(1)]).data > 0
    with pytest.raises(TypeError, match="list of layer sizes"):
        MLP(2, 3)
    prog = trace(lambda x: x * 2, [], 1)
    with pytest.raises(ValueError, match="weights"):
        prog.value_and_grad(np.ones((3, 1)), weights=np.ones(2))


def test_U8_a_broken_pipe_exits_quietly():
    expr = " + ".join(f"a*{i}" for i in range(200))
    cmd = f"{sys.executable} -m micrograd explain '{expr}' --set a=1 --max-nodes 10000 | head -1"
    done = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60)
    assert done.stderr == "" and done.stdout.startswith("out = ")


def test_U9_a_one_layer_model_keeps_loading_after_a_round_trip_through_torch(tmp_path):
    pytest.importorskip("torch")
    from micrograd.export import from_torch, to_torch

    original = MLP(2, [5], activation="relu")
    back = from_torch(to_torch(original))
    save(back, tmp_path / "m.json")
    load_into(original, tmp_path / "m.json")  # one layer: the activation name does not matter


# ---------------------------------------------------------------------------- low
def test_L1_repeated_and_impossible_set_names_and_max_nodes(capsys):
    for argv in [
        ["explain", "a", "--set", "a=1", "--set", "a=2"],
        ["explain", "a", "--set", "if=1", "--set", "a=1"],
        ["explain", "a", "--set", "a=1", "--max-nodes", "-1"],
    ]:
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
    code, out, _ = run_cli(
        capsys,
        "explain",
        "a*b*c",
        "--set",
        "a=1",
        "--set",
        "b=2",
        "--set",
        "c=3",
        "--max-nodes",
        "2",
    )
    assert code == 1 and out == ""  # nothing printed before the error


def test_L2_diverging_training_leaves_no_half_written_folder(tmp_path, capsys):
    out = tmp_path / "results"
    run_cli(capsys, "train", "--lr", "1e7", "--no-plot", "--quiet", "--out", str(out))
    assert not out.exists()


def test_L3_mermaid_labels_with_newlines_stay_on_one_line():
    a = Value(1.0, label="two\nlines")
    text = to_mermaid(a * 2)
    assert all(line.startswith(("    ", "flowchart")) for line in text.splitlines())


def test_L4_versions_must_be_the_integer_1(tmp_path):
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


def test_L5_bytes_paths(tmp_path):
    path = os.fsencode(tmp_path / "m.json")
    save(MLP(2, [1]), path)
    assert load(path).sizes == [2, 1]


def test_L6_optimizer_settings_must_be_finite_and_lr_factors_in_range():
    for kwargs in [{"momentum": math.nan}, {"dampening": math.inf}, {"weight_decay": -1}]:
        with pytest.raises(ValueError):
            SGD([Value(1.0)], lr=0.1, **kwargs)
    with pytest.raises(ValueError, match="end_factor"):
        LinearLR(SGD([Value(1.0)], lr=0.1), 1.0, -1.0, 10)


def test_L7_fractions_load_like_values():
    model = MLP(1, [1])
    state = {name: Fraction(1, 4) for name in model.state_dict()}
    model.load_state_dict(state)
    assert model.state_dict() == {name: 0.25 for name in state}
    assert Value(Fraction(1, 4)).data == 0.25


def test_L9_the_folder_is_synced_after_the_rename(tmp_path, monkeypatch):
    synced = []
    real = os.fsync

    def fsync(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    atomic_write(tmp_path / "x", b"x")
    assert synced == [False, True]


def test_L10_python_minus_m_micrograd():
    done = subprocess.run(
        [sys.executable, "-m", "micrograd", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.startswith("micrograd ")


def test_L11_messages_have_no_errno_tuples():
    with pytest.raises(OverflowError) as e:
        Value(10.0) ** 400
    assert "(34," not in str(e.value) and "too large" in str(e.value)


def test_L12_truth_of_a_value_while_tracing_is_an_error():
    pytest.importorskip("numpy")
    from micrograd.fast import TraceError, trace

    with pytest.raises(TraceError):
        trace(lambda x: x * 2 if x else x, [], 1)
    assert bool(Value(0.0)) is True  # eager: as the original (any object is true)


# ---------------------------------------------------------------------------- the suite itself
def test_T3_the_suite_pins_its_own_hypothesis_profile():
    from hypothesis import settings

    if os.environ.get("MICROGRAD_HYPOTHESIS_PROFILE", "micrograd") == "micrograd":
        assert settings.default.derandomize and settings.default.database is None
        assert settings.default.deadline is None


def test_T5_no_test_sets_a_deadline():
    here = os.path.dirname(os.path.abspath(__file__))
    for name in os.listdir(here):
        if name.startswith("test_") and name.endswith(".py"):
            with open(os.path.join(here, name), encoding="utf-8") as f:
                assert not re.search(r"deadline\s*=\s*\d", f.read()), name
