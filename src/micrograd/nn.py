"""Neural-network building blocks made of Values: Module, Neuron, Layer, MLP, and a GPT.

Compatible with the original micrograd: same constructors, same use of Python's `random` (so
`random.seed(1337)` reproduces a run), and `MLP(...)(x)` returns a bare Value when it has one output.
The GPT is Karpathy's microgpt (2026) as modules: Embedding, Linear, rmsnorm, CausalSelfAttention,
MLPBlock, Block and GPT, with its defaults and its initialisation.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from micrograd.engine import Value
from micrograd.losses import cross_entropy, logsumexp
from micrograd.modes import no_grad

if TYPE_CHECKING:
    from micrograd.data import CharTokenizer

Input = Sequence[Union[Value, float]]

ACTIVATIONS = ("relu", "tanh", "sigmoid", "linear")


class Module:
    """Base class: anything with parameters that can be zeroed, listed, saved and loaded."""

    def named_parameters(self) -> list[tuple[str, Value]]:
        """(dotted name, Value) for every parameter, in a fixed order."""
        return []

    def parameters(self) -> list[Value]:
        """Every parameter Value, in the order of named_parameters()."""
        return [p for _, p in self.named_parameters()]

    def zero_grad(self) -> None:
        """Set every parameter's grad to 0 (gradients accumulate across backward calls)."""
        for p in self.parameters():
            p.grad = 0  # an int, as the original: a parameter then prints grad=0

    def state_dict(self) -> dict[str, float]:
        """Parameter values by name: plain floats, ready for JSON."""
        return {name: p.data for name, p in self.named_parameters()}

    def load_state_dict(self, state: dict[str, float]) -> None:
        """Copy values from `state` into the parameters; on any mismatch raise and change nothing."""
        values = _checked_state(self, state)  # raises before anything is changed
        for name, p in self.named_parameters():
            p.data = values[name]


def _check_param(name: str, x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise ValueError(f"parameter {name!r}: expected a number, got {x!r}")
    try:
        value = float(x)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        shown = repr(x) if len(repr(x)) < 40 else repr(x)[:40] + "..."
        raise ValueError(f"parameter {name!r}: expected a finite number, got {shown}")
    return value


def _checked_state(model: Module, state: Any) -> dict[str, float]:
    """`state` checked against the model's parameters: same names, finite numbers. Raises
    ValueError naming the first problem; nothing is changed."""
    if not isinstance(state, dict):
        raise ValueError(
            f"a state dict must be a dict of name -> number, got {type(state).__name__}"
        )
    names = [n for n, _ in model.named_parameters()]
    known = set(names)
    missing = [n for n in names if n not in state]
    extra = [n for n in state if n not in known]
    if missing or extra:
        raise ValueError(
            f"state does not fit {getattr(model, 'spec', type(model).__name__)}: missing {missing[:5]}{'...' if len(missing) > 5 else ''}, "
            f"unexpected {extra[:5]}{'...' if len(extra) > 5 else ''}"
        )
    return {n: _check_param(n, state[n]) for n in names}


def _activate(x: Value, activation: str) -> Value:
    if activation == "relu":
        return x.relu()
    if activation == "tanh":
        return x.tanh()
    if activation == "sigmoid":
        return x.sigmoid()
    return x


def _check_activation(activation: str) -> str:
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, got {activation!r}")
    return activation


class Neuron(Module):
    """w . x + b, then an activation (ReLU by default, as in the original)."""

    def __init__(self, nin: int, nonlin: bool = True, activation: str = "relu") -> None:
        if not isinstance(nin, int) or nin < 1:
            raise ValueError(f"Neuron: nin must be a positive integer, got {nin!r}")
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)
        self.activation = _check_activation(activation) if nonlin else "linear"

    @property
    def nonlin(self) -> bool:
        """True when the neuron applies an activation (the original's flag)."""
        return self.activation != "linear"

    def __call__(self, x: Input) -> Value:
        if len(x) != len(self.w):
            raise ValueError(f"Neuron expects {len(self.w)} inputs, got {len(x)}: {x!r}")
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)  # the original's line
        return _activate(act, self.activation)

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [(f"w.{i}", w) for i, w in enumerate(self.w)] + [("b", self.b)]

    def parameters(self) -> list[Value]:  # the same order, without making the names each step
        return [*self.w, self.b]

    def __repr__(self) -> str:
        if self.activation in ("relu", "linear"):  # the original's neurons print as it prints them
            return f"{'ReLU' if self.activation == 'relu' else 'Linear'}Neuron({len(self.w)})"
        return f"Neuron({len(self.w)}, activation={self.activation!r})"


class Layer(Module):
    """`nout` neurons that all read the same inputs."""

    def __init__(self, nin: int, nout: int, nonlin: bool = True, activation: str = "relu") -> None:
        if not isinstance(nout, int) or nout < 1:
            raise ValueError(f"Layer: nout must be a positive integer, got {nout!r}")
        self.neurons = [Neuron(nin, nonlin=nonlin, activation=activation) for _ in range(nout)]

    def forward(self, x: Input) -> list[Value]:
        """The outputs as a list, whatever their number."""
        return [n(x) for n in self.neurons]

    def __call__(self, x: Input) -> Value | list[Value]:
        out = self.forward(x)
        return out[0] if len(out) == 1 else out  # the original's convention

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [
            (f"neurons.{i}.{name}", p)
            for i, n in enumerate(self.neurons)
            for name, p in n.named_parameters()
        ]

    def parameters(self) -> list[Value]:
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self) -> str:
        n = self.neurons[0]
        if n.activation in ("relu", "linear"):
            return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"  # the original's text
        return f"Layer({len(n.w)}, {len(self.neurons)}, activation={n.activation!r})"


class MLP(Module):
    """A multi-layer perceptron: activation on every hidden layer, a linear last layer."""

    def __init__(self, nin: int, nouts: Sequence[int], activation: str = "relu") -> None:
        if isinstance(nouts, (int, str)) or not isinstance(nouts, Sequence):
            raise TypeError(
                f"MLP: nouts must be a list of layer sizes like [16, 16, 1], got {nouts!r}"
            )
        if not nouts:
            raise ValueError("MLP needs at least one layer size in nouts")
        sizes = [nin, *nouts]
        self.activation = _check_activation(activation)
        self.layers = [
            Layer(sizes[i], sizes[i + 1], nonlin=i != len(nouts) - 1, activation=activation)
            for i in range(len(nouts))
        ]

    @property
    def sizes(self) -> list[int]:
        """[nin, *nouts]: the width of each layer's input and of the output."""
        return [len(self.layers[0].neurons[0].w)] + [len(layer.neurons) for layer in self.layers]

    def __call__(self, x: Input) -> Value | list[Value]:
        out = self.layers[0].forward(x)
        for layer in self.layers[1:]:
            out = layer.forward(out)  # always a list inside, so a width-1 hidden layer works
        return out[0] if len(out) == 1 else out

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [
            (f"layers.{i}.{name}", p)
            for i, layer in enumerate(self.layers)
            for name, p in layer.named_parameters()
        ]

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        if self.activation == "relu":  # built with the original's arguments: its text
            return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
        return self.spec

    @property
    def spec(self) -> str:
        """The call that builds this architecture, e.g. "MLP(2, [16, 16, 1], activation='relu')"."""
        s = self.sizes
        return f"MLP({s[0]}, {s[1:]}, activation={self.activation!r})"


# ---------------------------------------------------------------------------- a GPT
# Karpathy's microgpt (2026), module by module: the same model, defaults and initialisation. Every
# weight is drawn from N(0, 0.08**2) with Python's random.gauss, in microgpt's order (wte, wpe,
# lm_head, then each layer's wq, wk, wv, wo, fc1, fc2), so random.seed(s) reproduces a model, and
# named_parameters() lists them in that order too: the order of microgpt's `params`.
INIT_STD = 0.08
RMSNORM_EPS = 1e-5


def _positive_int(owner: str, **sizes: Any) -> None:
    for name, n in sizes.items():
        if type(n) is not int or n < 1:
            raise ValueError(f"{owner}: {name} must be a positive integer, got {n!r}")


def _gauss_matrix(rows: int, cols: int, std: float) -> list[list[Value]]:
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


def _matrix_named(weight: list[list[Value]]) -> list[tuple[str, Value]]:
    return [(f"weight.{i}.{j}", w) for i, row in enumerate(weight) for j, w in enumerate(row)]


class _Matrix(Module):
    """A module whose parameters are one matrix of Values, `weight`, row by row."""

    weight: list[list[Value]]

    def named_parameters(self) -> list[tuple[str, Value]]:
        return _matrix_named(self.weight)

    def parameters(self) -> list[Value]:
        return [w for row in self.weight for w in row]


class Embedding(_Matrix):
    """A table of `num` learned vectors of `dim` numbers: `emb(i)` is row i (a token's or a
    position's vector)."""

    def __init__(self, num: int, dim: int, std: float = INIT_STD) -> None:
        _positive_int("Embedding", num=num, dim=dim)
        self.weight = _gauss_matrix(num, dim, std)

    def __call__(self, i: int) -> list[Value]:
        if isinstance(i, bool) or not isinstance(i, numbers.Integral) or not 0 <= i < len(self):
            raise ValueError(f"{self!r}: index must be an integer in 0..{len(self) - 1}, got {i!r}")
        return self.weight[i]

    def __len__(self) -> int:
        return len(self.weight)

    def __repr__(self) -> str:
        return f"Embedding({len(self.weight)}, {len(self.weight[0])})"


class Linear(_Matrix):
    """y = W x with no bias: `nout` rows of `nin` weights, one dot product per row (microgpt's
    `linear`; Layer has biases and the original's uniform initialisation, so it does not fit)."""

    def __init__(self, nin: int, nout: int, std: float = INIT_STD) -> None:
        _positive_int("Linear", nin=nin, nout=nout)
        self.weight = _gauss_matrix(nout, nin, std)

    def __call__(self, x: Input) -> list[Value]:
        if len(x) != len(self.weight[0]):
            raise ValueError(f"{self!r} expects {len(self.weight[0])} inputs, got {len(x)}")
        # each output as a Neuron's, sum(w * x) from a zero Value instead of the bias
        return [sum((wi * xi for wi, xi in zip(row, x)), Value(0.0)) for row in self.weight]

    def __repr__(self) -> str:
        return f"Linear({len(self.weight[0])}, {len(self.weight)})"


def rmsnorm(x: Sequence[Value], eps: float = RMSNORM_EPS) -> list[Value]:
    """x / sqrt(mean(x**2) + eps): x rescaled to a root mean square of about 1.

    A function, not a Module: microgpt's has no learned scale, so it has no parameters to list,
    save or load (a Module would add nothing but a call)."""
    ms = sum((xi * xi for xi in x), Value(0.0)) / len(x)
    scale = (ms + eps) ** -0.5
    return [xi * scale for xi in x]


def softmax(logits: Sequence[Value]) -> list[Value]:
    """exp(z_i) / sum_j exp(z_j), written exp(z_i - logsumexp(z)): losses.logsumexp subtracts the
    max first, with Value ops only, so no exp overflows and nothing branches on data."""
    lse = logsumexp(logits)
    return [(z - lse).exp() for z in logits]


@dataclass(frozen=True)
class HeadReading:
    """What one attention head computed for one token: its query, the keys and values of the
    tokens so far (its slices of them), the scores q·k/sqrt(d), the softmax weights, and the
    output, their weighted sum (the Values of the graph, for the teaching tools to show)."""

    q: list[Value]
    keys: list[list[Value]]
    values: list[list[Value]]
    scores: list[Value]
    weights: list[Value]
    out: list[Value]


class CausalSelfAttention(Module):
    """Multi-head attention of a token on itself and the tokens before it: their keys and values
    come from a cache, one token at a time, so no later token can be seen (causal by construction)."""

    def __init__(self, n_embd: int, n_head: int) -> None:
        _positive_int("CausalSelfAttention", n_embd=n_embd, n_head=n_head)
        if n_embd % n_head:
            raise ValueError(
                f"CausalSelfAttention: n_embd={n_embd} must be a multiple of n_head={n_head}"
            )
        self.n_head, self.head_dim = n_head, n_embd // n_head
        self.wq = Linear(n_embd, n_embd)  # what this token looks for
        self.wk = Linear(n_embd, n_embd)  # what each token offers to be found by
        self.wv = Linear(n_embd, n_embd)  # what each token passes on when found
        self.wo = Linear(n_embd, n_embd)  # the heads' outputs mixed back into one vector

    def __call__(
        self,
        x: Sequence[Value],
        keys: list[list[Value]],
        values: list[list[Value]],
        attention: list[HeadReading] | None = None,
    ) -> list[Value]:
        """The attention output for the token `x`; `keys` and `values` are this layer's cache of
        the tokens before it, and x's own key and value are appended to them. What each head
        computed (a HeadReading) is appended to `attention` too, if a list is given."""
        q = self.wq(x)
        keys.append(self.wk(x))
        values.append(self.wv(x))
        d = self.head_dim
        out: list[Value] = []
        for h in range(self.n_head):  # each head attends with its own slice of d numbers
            s = slice(h * d, (h + 1) * d)
            q_h = q[s]
            scores = [  # q . k / sqrt(d): how well each token so far matches what x looks for
                sum((qi * ki for qi, ki in zip(q_h, k[s])), Value(0.0)) / math.sqrt(d) for k in keys
            ]
            weights = softmax(scores)
            head = [  # the weighted mean of their values
                sum((w * v[j] for w, v in zip(weights, values)), Value(0.0))
                for j in range(h * d, (h + 1) * d)
            ]
            if attention is not None:  # what this head looked at (GPT.attention, the stepper)
                sliced = [k[s] for k in keys], [v[s] for v in values]
                attention.append(HeadReading(q_h, *sliced, scores, weights, head))
            out += head
        return self.wo(out)

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [
            (f"{name}.{sub}", p)
            for name in ("wq", "wk", "wv", "wo")
            for sub, p in getattr(self, name).named_parameters()
        ]

    def parameters(self) -> list[Value]:
        return [p for m in (self.wq, self.wk, self.wv, self.wo) for p in m.parameters()]


class MLPBlock(Module):
    """The transformer's MLP: widen to 4 * n_embd, ReLU, back to n_embd (no biases)."""

    def __init__(self, n_embd: int) -> None:
        self.fc1 = Linear(n_embd, 4 * n_embd)
        self.fc2 = Linear(4 * n_embd, n_embd)

    def __call__(self, x: Sequence[Value]) -> list[Value]:
        return self.fc2([h.relu() for h in self.fc1(x)])

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [(f"fc1.{n}", p) for n, p in self.fc1.named_parameters()] + [
            (f"fc2.{n}", p) for n, p in self.fc2.named_parameters()
        ]

    def parameters(self) -> list[Value]:
        return [*self.fc1.parameters(), *self.fc2.parameters()]


class Block(Module):
    """One transformer layer: attention, then the MLP, each reading the rmsnorm of its input and
    adding its output back onto that input (the residual stream)."""

    def __init__(self, n_embd: int, n_head: int) -> None:
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.mlp = MLPBlock(n_embd)

    def __call__(
        self,
        x: list[Value],
        keys: list[list[Value]],
        values: list[list[Value]],
        attention: list[HeadReading] | None = None,
    ) -> list[Value]:
        """x after this layer; what its attention's heads computed is appended to `attention`
        if given."""
        x = [a + r for a, r in zip(self.attn(rmsnorm(x), keys, values, attention), x)]
        return [m + r for m, r in zip(self.mlp(rmsnorm(x)), x)]

    def named_parameters(self) -> list[tuple[str, Value]]:
        return [(f"attn.{n}", p) for n, p in self.attn.named_parameters()] + [
            (f"mlp.{n}", p) for n, p in self.mlp.named_parameters()
        ]

    def parameters(self) -> list[Value]:
        return [*self.attn.parameters(), *self.mlp.parameters()]


class KVCache:
    """What a GPT keeps of the tokens it has read in one sequence: each layer's keys and values.
    Its length is the number of tokens read, which is the position of the next one."""

    def __init__(self, n_layer: int) -> None:
        self.keys: list[list[list[Value]]] = [[] for _ in range(n_layer)]
        self.values: list[list[list[Value]]] = [[] for _ in range(n_layer)]

    def __len__(self) -> int:
        return len(self.keys[0])


class GPT(Module):
    """microgpt's GPT: token and position embeddings, rmsnorm, `n_layer` Blocks, and a separate
    lm_head (no weight tying) giving the logits of the next token. It reads one token at a time
    with a KVCache, as microgpt does; defaults are microgpt's."""

    def __init__(
        self,
        vocab_size: int,
        block_size: int = 16,
        n_layer: int = 1,
        n_embd: int = 16,
        n_head: int = 4,
    ) -> None:
        _positive_int(
            "GPT",
            vocab_size=vocab_size,
            block_size=block_size,
            n_layer=n_layer,
            n_embd=n_embd,
            n_head=n_head,
        )
        if n_embd % n_head:
            raise ValueError(f"GPT: n_embd={n_embd} must be a multiple of n_head={n_head}")
        self.vocab_size, self.block_size = vocab_size, block_size
        self.n_layer, self.n_embd, self.n_head = n_layer, n_embd, n_head
        self.wte = Embedding(vocab_size, n_embd)  # token embeddings
        self.wpe = Embedding(block_size, n_embd)  # position embeddings
        self.lm_head = Linear(n_embd, vocab_size)
        self.layers = [Block(n_embd, n_head) for _ in range(n_layer)]

    @property
    def config(self) -> dict[str, int]:
        """The constructor's arguments: GPT(**model.config) builds the same architecture."""
        names = ("vocab_size", "block_size", "n_layer", "n_embd", "n_head")
        return {name: getattr(self, name) for name in names}

    @property
    def spec(self) -> str:
        """The call that builds this architecture, e.g. "GPT(vocab_size=27, block_size=16, ...)"."""
        return "GPT(" + ", ".join(f"{k}={v}" for k, v in self.config.items()) + ")"

    def __repr__(self) -> str:
        return self.spec

    def new_cache(self) -> KVCache:
        """An empty cache: the start of a new sequence."""
        return KVCache(self.n_layer)

    def check_token(self, token: Any, what: str = "token") -> int:
        """`token` if it is a token id of this model (an integer in 0..vocab_size-1), else a
        ValueError naming it."""
        if isinstance(token, bool) or not isinstance(token, numbers.Integral):
            raise ValueError(f"{self.spec}: a {what} must be an integer id, got {token!r}")
        index = int(token)
        if not 0 <= index < self.vocab_size:
            raise ValueError(
                f"{self.spec}: {what} {token!r} is out of range 0..{self.vocab_size - 1}"
            )
        return index

    def __call__(
        self, token: int, cache: KVCache, attention: list[HeadReading] | None = None
    ) -> list[Value]:
        """The logits of the token that follows `token`, read after the tokens in `cache` (at
        position len(cache)); `token`'s keys and values are added to the cache (and each head's
        attention weights to `attention`, as read() says)."""
        pos = len(cache)
        if len(cache.keys) != self.n_layer:
            raise ValueError(f"{self.spec}: a cache of {len(cache.keys)} layers; use new_cache()")
        if pos >= self.block_size:
            raise ValueError(
                f"{self.spec}: the sequence is longer than block_size={self.block_size}: no "
                f"position {pos} (start a new cache)"
            )
        return self.read(self.embed(self.check_token(token), pos), cache, attention)

    def embed(self, token: int, pos: int) -> list[Value]:
        """The embedding of `token` at position `pos`: its row of wte plus the position's of wpe."""
        return [t + p for t, p in zip(self.wte(token), self.wpe(pos))]

    def read(
        self, x: list[Value], cache: KVCache, attention: list[HeadReading] | None = None
    ) -> list[Value]:
        """The logits after the token whose embedding (its token's row plus its position's) is
        `x`: the layers on it, its keys and values added to `cache`. A compiled step gives the
        embedding as a product with one-hot inputs (micrograd.app.gpt), this method the rest.
        Given a list, `attention` gets what each head computed (a HeadReading: its softmax
        weights over the tokens read so far, and the rest), layer by layer, head by head."""
        x = rmsnorm(x)  # microgpt normalises the embeddings too
        for layer, keys, values in zip(self.layers, cache.keys, cache.values):
            x = layer(x, keys, values, attention)
        return self.lm_head(x)

    def attention(self, tokens: Sequence[int]) -> list[list[list[list[float]]]]:
        """Each head's attention weights as the model reads `tokens` (1 to block_size of them):
        `weights[layer][head][i][j]` is how much position i attends to position j, for j <= i (row
        i is a softmax over positions 0..i, so it sums to 1)."""
        self._check_sequence(tokens)
        weights: list[list[list[list[float]]]] = [
            [[] for _ in range(self.n_head)] for _ in range(self.n_layer)
        ]
        cache = self.new_cache()
        with no_grad():  # numbers only: no graph to keep
            for t in tokens:
                seen: list[HeadReading] = []  # layer 0's heads, then layer 1's, ...
                self(t, cache, seen)
                for k, head in enumerate(seen):
                    weights[k // self.n_head][k % self.n_head].append(
                        [w.data for w in head.weights]
                    )
        return weights

    def _check_sequence(self, tokens: Sequence[int]) -> None:
        """A ValueError unless `tokens` is 1 to block_size token ids (all checked before anything
        is built)."""
        if not 1 <= len(tokens) <= self.block_size:
            raise ValueError(
                f"{self.spec}: needs 1 to block_size={self.block_size} tokens, got {len(tokens)}"
            )
        for t in tokens:
            self.check_token(t)

    def forward(self, tokens: Sequence[int]) -> list[list[Value]]:
        """The logits after each of `tokens` (1 to block_size of them), read one at a time."""
        self._check_sequence(tokens)
        cache = self.new_cache()
        return [self(t, cache) for t in tokens]

    def loss(self, tokens: Sequence[int]) -> Value:
        """The mean negative log likelihood of each next token, -log softmax(logits)[next], over
        the first n = min(block_size, len(tokens) - 1) positions: a longer sequence (a document
        longer than block_size - 1 characters, with its two BOS) trains on its first
        block_size + 1 tokens, as microgpt does. losses.cross_entropy computes it: logsumexp(z)
        - z[next] per position, logsumexp being the fused op of the numpy replay."""
        n = self.positions(tokens)
        return cross_entropy(self.forward(tokens[:n]), list(tokens[1 : n + 1]))

    def positions(self, tokens: Sequence[int]) -> int:
        """The n = min(block_size, len(tokens) - 1) positions whose next token loss() predicts;
        a ValueError for fewer than 2 tokens or one that is not a token id of this model."""
        if len(tokens) < 2:
            raise ValueError(
                f"{self.spec}: the loss needs at least 2 tokens (an input and its next), "
                f"got {list(tokens)!r}"
            )
        n = min(self.block_size, len(tokens) - 1)
        for t in tokens[: n + 1]:
            self.check_token(t)
        return n

    def sample(
        self,
        bos: int | CharTokenizer,
        temperature: float = 0.5,
        rng: random.Random | None = None,
    ) -> list[int]:
        """Token ids drawn one at a time from softmax(logits / temperature), starting after `bos`
        (a token id, or a tokenizer's .bos), until the model draws bos again (not returned) or
        block_size tokens are drawn. `rng` draws them; by default Python's random, as microgpt."""
        start = self.check_token(getattr(bos, "bos", bos), "bos")
        if not (isinstance(temperature, (int, float)) and 0 < temperature < math.inf):
            raise ValueError(f"sample: temperature must be a number above 0, got {temperature!r}")
        choose = (rng or random).choices
        cache, token, drawn = self.new_cache(), start, []
        for _ in range(self.block_size):
            logits = [z.data for z in self(token, cache)]
            top = max(logits)  # exp of (logit - max) / temperature: at most 1, never overflows
            weights = [math.exp((z - top) / temperature) for z in logits]
            token = choose(range(self.vocab_size), weights=weights)[0]
            if token == start:
                break
            drawn.append(token)
        return drawn

    def named_parameters(self) -> list[tuple[str, Value]]:
        named = [
            (f"{name}.{sub}", p)
            for name in ("wte", "wpe", "lm_head")
            for sub, p in getattr(self, name).named_parameters()
        ]
        for i, layer in enumerate(self.layers):
            named += [(f"layers.{i}.{sub}", p) for sub, p in layer.named_parameters()]
        return named

    def parameters(self) -> list[Value]:
        params = [*self.wte.parameters(), *self.wpe.parameters(), *self.lm_head.parameters()]
        for layer in self.layers:
            params += layer.parameters()
        return params
