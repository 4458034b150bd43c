"""The bridge's scripts (micrograd.teach.script): the numpy script, with its backward pass written
out, and the PyTorch one run without micrograd and print the scalar engine's loss and gradients
to 1e-12, for MLPs and for the GPT."""

import json
import random
import subprocess
import sys

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from micrograd.app.tasks import CompiledStep
from micrograd.data import CharTokenizer, names
from micrograd.engine import Value
from micrograd.gpt import GPT
from micrograd.nn import MLP
from micrograd.teach import bridge, script
from programs import examples, near_kink, programs, run_softmaxes, softmaxes
from programs import run as run_program

pytest.importorskip("numpy")
from test_replay_numpy import layered, run_layered  # noqa: E402

# a run in which `import micrograd` fails: the script stands alone
ALONE = "import sys; sys.modules['micrograd'] = None; sys.argv = [sys.argv[1], '--json']; "
ALONE += "exec(compile(open(sys.argv[0]).read(), sys.argv[0], 'exec'))"


def run(text, tmp_path, name):
    path = tmp_path / name
    path.write_text(text)
    assert "import micrograd" not in text and "from micrograd" not in text
    done = subprocess.run(
        [sys.executable, "-c", ALONE, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def engine(fn, params, rows):
    """The scalar engine's mean loss over `rows` and its gradient, by backward()."""
    for p in params:
        p.grad = 0.0
    total = sum((fn(*map(Value, row)) for row in rows), Value(0.0)) * (1 / len(rows))
    total.backward()
    return total.data, [p.grad for p in params]


def agrees(found, loss, grads):
    assert abs(found["loss"] - loss) <= 1e-12 * max(1.0, abs(loss))
    assert len(found["grad"]) == len(grads)
    assert max(abs(a - b) for a, b in zip(found["grad"], grads)) <= 1e-12


def mlp_case(sizes, activation="relu"):
    random.seed(1)
    model = MLP(sizes[0], sizes[1:], activation=activation)
    shown = bridge.of_classifier(model)
    rows = bridge.classifier_rows(model)
    fn = bridge.loss_of(model)
    return shown, rows, fn, model.parameters()


@pytest.mark.parametrize("torch", [False, True])
@pytest.mark.parametrize(
    ("sizes", "activation"),
    [([2, 4, 3, 1], "relu"), ([64, 8, 10], "relu"), ([3, 5, 3], "tanh"), ([2, 3, 2], "sigmoid")],
)
def test_the_mlp_scripts_print_the_engines_loss_and_gradients(sizes, activation, torch, tmp_path):
    if torch:
        pytest.importorskip("torch")
    shown, rows, fn, params = mlp_case(sizes, activation)
    write = script.torch_script if torch else script.numpy_script
    found = run(write(shown, rows, "an MLP"), tmp_path, "mlp.py")
    agrees(found, *engine(fn, params, rows))


@pytest.mark.parametrize("torch", [False, True])
def test_the_gpt_scripts_print_the_engines_loss_and_gradients(torch, tmp_path):
    if torch:
        pytest.importorskip("torch")
    random.seed(2)
    tokenizer = CharTokenizer(names())
    model = GPT(vocab_size=tokenizer.vocab_size, n_embd=8, n_head=2, n_layer=1, block_size=8)
    length = 4
    shown = bridge.of_gpt(model, length)
    rows = bridge.gpt_rows(model, tokenizer, length, ["ab", "emma", "olivia"])
    assert len(rows) == 3
    fn = CompiledStep(model, "python", lengths=(length,)).function(length, "loss")
    write = script.torch_script if torch else script.numpy_script
    found = run(write(shown, rows, model.spec), tmp_path, "gpt.py")
    agrees(found, *engine(fn, model.parameters(), rows))


def test_the_numpy_script_reads_as_the_chain_rule(tmp_path):
    shown, rows, _, _ = mlp_case([2, 4, 3, 1])
    text = script.numpy_script(shown, rows, "MLP(2, [4, 3, 1])")
    assert "z1 = x @ W1.T + b1" in text and "h1, d_h1 = relu(m, z1)" in text
    assert "g_W1 += g_z1.T @ x" in text and "g_z1 += g_h1 * d_h1[0]" in text
    assert "def relu(m: Any, a: Any)" in text  # the rule, as engine.py writes it


def test_the_command_writes_both_scripts(tmp_path, capsys):
    from micrograd.app.cli import main

    losses = []
    for extra, name in [([], "np.py"), (["--torch"], "with_torch.py")]:
        if extra:
            pytest.importorskip("torch")
        path = tmp_path / name
        argv = ["bridge", "--hidden", "4,3", "--write", str(path), *extra, "--lang", "en"]
        assert main(argv) == 0
        assert f"wrote {path}" in capsys.readouterr().out
        done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("loss ") and "grad of W1, shape (4, 2):" in done.stdout
        losses.append(float(done.stdout.split()[1]))
    # the same seed, the same weights: both scripts print the same loss
    assert losses[0] == pytest.approx(losses[1], rel=1e-12, abs=0)


def run_here(text):
    """A script run in this process (no interpreter to start): what it prints with --json."""
    import contextlib
    import io
    from unittest import mock

    out = io.StringIO()
    with mock.patch.object(sys, "argv", ["script.py", "--json"]), contextlib.redirect_stdout(out):
        exec(compile(text, "<script>", "exec"), {"__name__": "__main__"})
    return json.loads(out.getvalue())


@settings(max_examples=examples(20), deadline=None)
@given(programs(max_inputs=3, max_steps=10), st.randoms(use_true_random=False))
def test_any_program_is_accounted_for_and_its_scripts_compute_it(program, rnd):
    """Random programs of every op (shared subexpressions, powers, exp, log, sigmoid, a Value
    exponent...) mixing two parameters into the inputs: every node in one place, and both scripts
    give the engine's mean loss and the parameters' gradient to 1e-10."""
    xs, steps = program
    params = [Value(0.7), Value(-1.3)]
    fn = lambda *vs: run_program(steps, [*vs, *params]) * params[0]  # noqa: E731
    assume(not near_kink(steps, [*xs, 0.7, -1.3]))
    rows = [xs] + [[x + rnd.uniform(-1e-3, 1e-3) for x in xs] for _ in range(2)]
    rows = [r for r in rows if not near_kink(steps, [*r, 0.7, -1.3])]
    assume(rows)
    shown = bridge.bridge(fn, params, [("x", len(xs))], example=xs)
    assert sorted(shown.place()) == list(range(len(shown.tape.nodes)))
    loss, grads = engine(fn, params, rows)
    writers = [script.numpy_script] + ([script.torch_script] if has_torch() else [])
    for write in writers:
        found = run_here(write(shown, rows))
        assert found["loss"] == pytest.approx(loss, rel=1e-10, abs=1e-12)
        assert found["grad"] == pytest.approx(grads, rel=1e-10, abs=1e-12)


@settings(max_examples=examples(20), deadline=None)
@given(softmaxes())
def test_softmaxes_over_different_numbers_of_scores_are_padded_in_both_scripts(program):
    """The padded fused op in the scripts: each listing line's softmaxes in one (B, n, most
    scores) block filled with -inf, whose exp is 0; every node in one place, and both scripts
    give the engine's loss and gradient to 1e-10."""
    xs, heads = program
    scale = Value(0.9)
    fn = lambda *vs: run_softmaxes(heads, vs, scale)  # noqa: E731
    rows = [xs, [x * 0.5 - 1 for x in xs]]
    shown = bridge.bridge(fn, [scale], [("x", len(xs))], example=xs)
    assert sorted(shown.place()) == list(range(len(shown.tape.nodes)))
    loss, grads = engine(fn, [scale], rows)
    writers = [script.numpy_script] + ([script.torch_script] if has_torch() else [])
    for write in writers:
        found = run_here(write(shown, rows))
        assert found["loss"] == pytest.approx(loss, rel=1e-10, abs=1e-12)
        assert found["grad"] == pytest.approx(grads, rel=1e-10, abs=1e-12)


def has_torch():
    import importlib.util

    return importlib.util.find_spec("torch") is not None


# a layer of one neuron over two inputs, each with a bias parameter of its own: a (2, 1) block
ONE_NEURON_TWO_BIASES = (
    6,
    2,
    [
        [([4], [0], -1, "none", False, None)],
        [
            ([1], [-5], 1, "none", False, None),
            ([2, 2, 5, 0], [-1, -6, -1, 2], 2, "tanh", False, None),
        ],
        [
            ([1, 3, 5, 4], [-3, 0, -3, -4], -7, "tanh", True, 4),
            ([4], [-5], -6, "tanh", False, None),
        ],
    ],
)


@settings(max_examples=examples(20), deadline=None)
@given(layered(), st.randoms(use_true_random=False))
@example(ONE_NEURON_TWO_BIASES, random.Random(0))
def test_any_layered_model_is_accounted_for_and_its_scripts_compute_it(spec, rnd):
    """Layers whose weights repeat within a row, across rows and across layers (a weight that is
    another layer's bias, a parameter as a layer's input): the bridge gathers what no tensor of
    its own can hold, and both scripts still give the engine's numbers."""
    n_params, n_inputs, _ = spec
    params = [Value(rnd.uniform(-1, 1)) for _ in range(n_params)]
    fn = lambda *xs: run_layered(spec, params, xs)  # noqa: E731
    rows = [[rnd.uniform(-1, 1) for _ in range(n_inputs)] for _ in range(3)]
    shown = bridge.bridge(fn, params, [("x", n_inputs)], example=rows[0])
    assert sorted(shown.place()) == list(range(len(shown.tape.nodes)))
    loss, grads = engine(fn, params, rows)
    for write in [script.numpy_script] + ([script.torch_script] if has_torch() else []):
        found = run_here(write(shown, rows))
        assert found["loss"] == pytest.approx(loss, rel=1e-10, abs=1e-12)
        assert found["grad"] == pytest.approx(grads, rel=1e-10, abs=1e-12)
