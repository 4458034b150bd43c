"""nn: compatible with the original micrograd, and the fixes it lacks."""

import random
from fractions import Fraction

import pytest

from micrograd import Value
from micrograd.nn import MLP, Layer, Neuron


def test_parameter_count_and_types():
    model = MLP(3, [4, 4, 1])
    assert len(model.parameters()) == 41
    assert all(isinstance(p, Value) for p in model.parameters())
    names = [n for n, _ in model.named_parameters()]
    assert names[0] == "layers.0.neurons.0.w.0" and names[-1] == "layers.2.neurons.0.b"
    assert len(set(names)) == 41
    for module in (model, model.layers[1], model.layers[1].neurons[2]):  # the same Values, in order
        named = [p for _, p in module.named_parameters()]
        assert len(module.parameters()) == len(named)
        assert all(p is q for p, q in zip(module.parameters(), named))


def test_same_weights_as_the_original_for_the_same_seed():
    # The original draws random.uniform(-1, 1) per weight, neuron by neuron, layer by layer.
    random.seed(1337)
    model = MLP(2, [3, 1])
    random.seed(1337)
    expected = []
    for nin, nout in [(2, 3), (3, 1)]:
        for _ in range(nout):
            expected += [random.uniform(-1, 1) for _ in range(nin)] + [0.0]
    assert [p.data for p in model.parameters()] == expected


def test_relu_hidden_linear_output_and_bare_value():
    model = MLP(2, [16, 16, 1])
    assert [layer.neurons[0].activation for layer in model.layers] == ["relu", "relu", "linear"]
    out = model([1.0, -2.0])
    assert isinstance(out, Value)
    outs = MLP(2, [4, 3])([Value(1.0), 2.0])
    assert isinstance(outs, list) and len(outs) == 3


def test_width_one_hidden_layer_works():
    model = MLP(2, [16, 1, 1])
    out = model([0.5, -0.5])
    out.backward()
    assert isinstance(out, Value)


@pytest.mark.parametrize("activation", ["relu", "tanh", "sigmoid", "linear"])
def test_activation_per_model(activation):
    model = MLP(2, [3, 1], activation=activation)
    assert model.layers[0].neurons[0].activation == activation
    assert model.layers[-1].neurons[0].activation == "linear"
    x = [0.3, -0.7]
    n = model.layers[0].neurons[0]
    pre = n.b.data + sum(w.data * xi for w, xi in zip(n.w, x))
    got = model.layers[0].forward(x)[0].data
    want = {"relu": max(pre, 0.0), "linear": pre}.get(activation)
    if activation == "tanh":
        want = Value(pre).tanh().data
    if activation == "sigmoid":
        want = Value(pre).sigmoid().data
    assert got == pytest.approx(want, rel=1e-15)


def test_zero_grad_and_repr():
    model = MLP(2, [2, 1])
    model([1.0, 1.0]).backward()
    assert any(p.grad != 0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0 for p in model.parameters())
    assert (
        repr(model)
        == "MLP of [Layer of [ReLUNeuron(2), ReLUNeuron(2)], Layer of [LinearNeuron(2)]]"
    )
    assert model.spec == "MLP(2, [2, 1], activation='relu')"
    assert repr(Layer(2, 3)) == "Layer of [ReLUNeuron(2), ReLUNeuron(2), ReLUNeuron(2)]"
    assert repr(Neuron(2, nonlin=False)) == "LinearNeuron(2)"
    # an option the original lacks: the richer form
    assert repr(MLP(2, [3, 1], activation="tanh")) == "MLP(2, [3, 1], activation='tanh')"
    assert repr(Layer(2, 3, activation="sigmoid")) == "Layer(2, 3, activation='sigmoid')"
    assert repr(Neuron(2, activation="tanh")) == "Neuron(2, activation='tanh')"
    assert Neuron(2).nonlin and not Neuron(2, nonlin=False).nonlin


def test_original_training_loop_unchanged():
    random.seed(0)
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    model = MLP(3, [4, 4, 1], activation="tanh")
    losses = []
    for _ in range(60):
        scores = [model(list(map(Value, x))) for x in xs]
        loss = sum((s - y) ** 2 for s, y in zip(scores, ys))
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= 0.05 * p.grad
        losses.append(loss.data)
    assert losses[-1] < 0.1 * losses[0]


def test_bad_input():
    with pytest.raises(ValueError, match="expects 2 inputs, got 3"):
        MLP(2, [1])([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="activation"):
        MLP(2, [1], activation="gelu")
    with pytest.raises(ValueError):
        MLP(2, [])
    with pytest.raises(ValueError):
        Layer(2, 0)
    with pytest.raises(TypeError):
        MLP(2, [1])(["a", 1.0])


# ---------------------------------------------------------------------------- hostile and edge input
def test_fractions_load_like_values():
    """Load_state_dict takes Fractions, as Value() does."""
    model = MLP(1, [1])
    state = {name: Fraction(1, 4) for name in model.state_dict()}
    model.load_state_dict(state)
    assert model.state_dict() == {name: 0.25 for name in state}
    assert Value(Fraction(1, 4)).data == 0.25
