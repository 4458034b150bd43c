"""Export to PyTorch and back: same outputs and gradients to 1e-12."""

import random

import pytest

from micrograd.engine import Value
from micrograd.export import from_torch, to_torch
from micrograd.io import load_into, save
from micrograd.nn import MLP

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("activation", ["relu", "tanh", "sigmoid", "linear"])
def test_to_torch_same_outputs_and_gradients(activation):
    random.seed(11)
    model = MLP(3, [5, 4, 2], activation=activation)
    net = to_torch(model)
    X = [[random.uniform(-2, 2) for _ in range(3)] for _ in range(6)]
    out = net(torch.tensor(X, dtype=torch.float64))
    loss_t = (out[:, 0] * out[:, 1].tanh()).sum()
    loss_t.backward()
    model.zero_grad()
    rows = [model(x) for x in X]
    loss = sum(r[0] * r[1].tanh() for r in rows)
    loss.backward()
    for row, trow in zip(rows, out.tolist()):
        assert [v.data for v in row] == pytest.approx(trow, rel=1e-12, abs=1e-14)
    tgrads = []
    for lin in [m for m in net if isinstance(m, torch.nn.Linear)]:
        for wrow, b in zip(lin.weight.grad.tolist(), lin.bias.grad.tolist()):
            tgrads += [*wrow, b]
    assert [p.grad for p in model.parameters()] == pytest.approx(tgrads, rel=1e-12, abs=1e-14)


def test_from_torch_round_trip():
    model = MLP(2, [3, 1], activation="tanh")
    net = to_torch(model)
    with torch.no_grad():
        for p in net.parameters():
            p.mul_(2.0)
    back = from_torch(net)
    assert [p.data for p in back.parameters()] == pytest.approx(
        [2 * p.data for p in model.parameters()]
    )
    from_torch(net, model)
    assert model.state_dict() == back.state_dict()


def test_from_torch_refuses_a_different_architecture():
    model = MLP(2, [3, 1])
    before = model.state_dict()
    with pytest.raises(ValueError, match="from_torch: the module is MLP"):
        from_torch(to_torch(MLP(2, [4, 1])), model)
    assert model.state_dict() == before


# ---------------------------------------------------------------------------- hostile and edge input
def test_from_torch_refuses_other_layouts_and_changes_nothing():
    """From_torch refuses torch modules that are not laid out like an MLP, and changes no
    parameter."""
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


def test_from_torch_errors_are_one_clear_value_error():
    """From_torch on an ordinary torch module it cannot take raises one ValueError saying
    why."""
    S, L = torch.nn.Sequential, torch.nn.Linear
    for net, says in [
        (S(L(2, 3, bias=False)), "no bias"),
        (L(2, 3), "Sequential"),
        (S(L(2, 3), torch.nn.Tanh(), L(5, 1)), "in_features=5"),
        (S(torch.nn.LazyLinear(3)), "LazyLinear"),
    ]:
        with pytest.raises(ValueError, match=says):
            from_torch(net)


def test_a_one_layer_model_keeps_loading_after_a_round_trip_through_torch(tmp_path):
    """A one-layer model still loads into its original after a round trip through torch, which
    loses its activation: the parameters come back bit for bit (float64 both ways), and loading
    them puts them back into the original after it has changed, which keeps its activation."""
    random.seed(3)
    original = MLP(2, [5], activation="relu")
    before = [p.data for p in original.parameters()]
    x = [0.3, -1.2]
    outputs = [v.data for v in original(x)]
    back = from_torch(to_torch(original))
    assert back.activation == "linear" and back.sizes == original.sizes  # no hidden layer
    assert [p.data for p in back.parameters()] == before
    save(back, tmp_path / "m.json")
    for p in original.parameters():
        p.data += 1.0  # trained on since
    assert [p.data for p in original.parameters()] != before
    load_into(original, tmp_path / "m.json")  # one layer: the activation name does not matter
    assert [p.data for p in original.parameters()] == before
    assert original.activation == "relu" and [v.data for v in original(x)] == outputs


def test_to_torch_of_a_gpt_names_gpt_to_torch_and_refuses_what_is_no_mlp():
    from micrograd.gpt import GPT

    with pytest.raises(TypeError, match=r"is a GPT, not an MLP; gpt_to_torch\(model\) gives it"):
        to_torch(GPT(5, block_size=4, n_embd=4, n_head=1))
    with pytest.raises(TypeError, match="expected an MLP, got Value"):
        to_torch(Value(1.0))
