"""The graduation path to PyTorch: the same model as torch code, and back.

    net = to_torch(model)                    # torch.nn.Sequential, float64, the same weights
    from_torch(net, model)                   # and back, after training in PyTorch
    gpt = gpt_to_torch(model)                # a GPT as a torch.nn.Module: gpt(tokens) -> logits

Any Value graph as a function of tensors is micrograd.replay.torch.to_torch_fn. Needs torch
(`pip install micrograd-plus[torch]`).
"""

from __future__ import annotations

import math
from typing import Any

from micrograd.gpt import GPT
from micrograd.nn import MLP


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise ImportError(
            "micrograd.export needs PyTorch: pip install 'micrograd-plus[torch]'"
        ) from None
    return torch


def _activation_module(torch: Any, name: str) -> Any:
    return {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh, "sigmoid": torch.nn.Sigmoid}[name]()


def to_torch(model: MLP) -> Any:
    """A torch.nn.Sequential (float64) with the MLP's architecture and weights: Linear layers,
    the model's activation between them. It maps (B, nin) to (B, nout). A GPT is refused:
    gpt_to_torch(model) is its PyTorch twin."""
    if isinstance(model, GPT):
        raise TypeError(
            f"to_torch: {model.spec} is a GPT, not an MLP; gpt_to_torch(model) gives it as a "
            "torch.nn.Module that reads a whole sequence"
        )
    if not isinstance(model, MLP):
        raise TypeError(f"to_torch: expected an MLP, got {type(model).__name__}")
    torch = _torch()
    layers: list[Any] = []
    for i, layer in enumerate(model.layers):
        nin, nout = len(layer.neurons[0].w), len(layer.neurons)
        linear = torch.nn.Linear(nin, nout, dtype=torch.float64)
        with torch.no_grad():
            linear.weight.copy_(
                torch.tensor([[w.data for w in n.w] for n in layer.neurons], dtype=torch.float64)
            )
            linear.bias.copy_(torch.tensor([n.b.data for n in layer.neurons], dtype=torch.float64))
        layers.append(linear)
        if i < len(model.layers) - 1 and model.activation != "linear":
            layers.append(_activation_module(torch, model.activation))
    return torch.nn.Sequential(*layers)


def from_torch(module: Any, model: MLP | None = None) -> MLP:
    """Copy the weights of a torch.nn.Sequential laid out as to_torch makes it (Linear, then pairs
    of one activation and a Linear) into `model`, or into a new MLP of that shape. Anything else
    raises ValueError naming the problem, and `model` is left unchanged."""
    torch = _torch()
    acts = {torch.nn.ReLU: "relu", torch.nn.Tanh: "tanh", torch.nn.Sigmoid: "sigmoid"}
    if not isinstance(module, torch.nn.Sequential):
        raise ValueError(
            f"from_torch: expected a torch.nn.Sequential as to_torch makes, got {type(module).__name__}"
        )
    layers = list(module)
    linears, between = layers[0::2], layers[1::2]
    if (
        len(layers) % 2 == 0
        or not all(type(m) is torch.nn.Linear for m in linears)
        or not all(type(m) in acts for m in between)
    ):
        kinds = [type(m).__name__ for m in layers]
        raise ValueError(
            f"from_torch: expected Linear, then (ReLU|Tanh|Sigmoid, Linear) pairs, got {kinds}"
        )
    found = {acts[type(m)] for m in between}
    if len(found) > 1:
        raise ValueError(f"from_torch: an MLP has one kind of activation, got {sorted(found)}")
    for k, linear in enumerate(linears):
        if linear.bias is None:
            raise ValueError(f"from_torch: Linear {k} has no bias; every micrograd neuron has one")
        if k and linear.in_features != linears[k - 1].out_features:
            raise ValueError(
                f"from_torch: Linear {k} has in_features={linear.in_features}, but the layer "
                f"before it has out_features={linears[k - 1].out_features}"
            )
    # with one layer there is no hidden activation: keep the model's, or call it linear
    activation = found.pop() if found else (model.activation if model else "linear")
    sizes = [linears[0].in_features] + [m.out_features for m in linears]
    if model is None:
        model = MLP(sizes[0], sizes[1:], activation=activation)
    if model.sizes != sizes or model.activation != activation:
        raise ValueError(
            f"from_torch: the module is MLP({sizes[0]}, {sizes[1:]}, activation={activation!r}), "
            f"not {model.spec}"
        )
    state = {}
    for i, linear in enumerate(linears):
        weight = linear.weight.detach().double().tolist()
        bias = linear.bias.detach().double().tolist()
        for j, (row, b) in enumerate(zip(weight, bias)):
            state.update({f"layers.{i}.neurons.{j}.w.{k}": w for k, w in enumerate(row)})
            state[f"layers.{i}.neurons.{j}.b"] = b
    model.load_state_dict(state)
    return model


def gpt_matrices(model: GPT) -> dict[str, Any]:
    """The GPT's weight matrices by name ("wte", "layers.0.attn.wq", ...): the modules whose
    `.weight` rows of Values they are, in named_parameters()'s order."""
    mods: dict[str, Any] = {"wte": model.wte, "wpe": model.wpe, "lm_head": model.lm_head}
    for i, layer in enumerate(model.layers):
        for name in ("wq", "wk", "wv", "wo"):
            mods[f"layers.{i}.attn.{name}"] = getattr(layer.attn, name)
        mods[f"layers.{i}.mlp.fc1"], mods[f"layers.{i}.mlp.fc2"] = layer.mlp.fc1, layer.mlp.fc2
    return mods


def gpt_to_torch(model: GPT) -> Any:
    """The GPT as a torch.nn.Module (float64, the same weights) that reads a whole sequence at
    once, nanoGPT's way: a (T, T) causal mask and the heads batched, with microgpt's rmsnorm on
    the embeddings, ReLU MLP, no biases and a separate head. `net(tokens)` gives each position's
    logits, (T, vocab_size), and for a (B, T) batch of sequences of one length (B, T,
    vocab_size); `net.weights[name]` is the matrix of gpt_matrices(model)[name]."""
    torch = _torch()

    class TorchGPT(torch.nn.Module):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.weights: dict[str, Any] = {}
            for name, m in gpt_matrices(model).items():
                rows = [[w.data for w in row] for row in m.weight]
                weight = torch.nn.Parameter(torch.tensor(rows, dtype=torch.float64))
                self.register_parameter(name.replace(".", "_"), weight)
                self.weights[name] = weight

        def forward(self, tokens: Any) -> Any:
            tokens = torch.as_tensor(tokens)
            W, H, E = self.weights, model.n_head, model.n_embd
            *batch, T = tokens.shape  # batch: [] for one sequence, [B] for a batch
            d = E // H

            def rms(x: Any) -> Any:
                return x * (x.pow(2).mean(-1, keepdim=True) + 1e-5) ** -0.5

            x = rms(W["wte"][tokens] + W["wpe"][:T])
            mask = torch.ones(T, T, dtype=torch.bool).tril()
            for i in range(model.n_layer):
                p = f"layers.{i}."
                h = rms(x)
                q, k, v = (  # (..., H, T, d): each head's positions
                    (h @ W[f"{p}attn.{n}"].T).view(*batch, T, H, d).transpose(-3, -2)
                    for n in ("wq", "wk", "wv")
                )
                att = (q @ k.transpose(-1, -2) / math.sqrt(d)).masked_fill(~mask, -math.inf)
                y = (att.softmax(-1) @ v).transpose(-3, -2).reshape(*batch, T, E)
                x = x + y @ W[p + "attn.wo"].T
                x = x + torch.relu(rms(x) @ W[p + "mlp.fc1"].T) @ W[p + "mlp.fc2"].T
            return x @ W["lm_head"].T

    return TorchGPT()
