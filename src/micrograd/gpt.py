"""A GPT made of Values: Karpathy's microgpt (2026) as modules, the lesson after nn.py.

Embedding, Linear, rmsnorm, softmax, CausalSelfAttention (with a key/value cache), MLPBlock, Block
and GPT, with microgpt's defaults and initialisation; it reads one token at a time, as microgpt
does, and its loss is the mean negative log likelihood of a document's next tokens.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from micrograd.engine import Value
from micrograd.losses import cross_entropy, logsumexp
from micrograd.modes import no_grad
from micrograd.nn import Input, Module

if TYPE_CHECKING:
    from micrograd.data import CharTokenizer

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
        if type(token) is int and 0 <= token < self.vocab_size:  # the usual case, checked at once
            return token
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
        embedding as a product with one-hot inputs (micrograd.app.tasks.CompiledStep), this method the rest.
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
            if not all(map(math.isfinite, logits)):  # numbers that overflowed on the way
                raise FloatingPointError(f"{self.spec}: logits {logits[:3]}... are not finite")
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
