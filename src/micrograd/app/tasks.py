"""The tasks a Trainer trains (micrograd.app.train): the MLP's Classifier and the GPT's NextToken.

A task knows its model, the rows its data become, and the loss of a minibatch of them with its
gradient, on a back end of micrograd.replay (a Backend, or its name) that it asks what it needs
to know: whether rows are arrays, whether a traced program is replayed.

Classifier: binary tasks train one output with the original demo's hinge loss (labels -1/+1);
tasks with more classes train one output per class with softmax cross-entropy. Both add 1e-4 * L2
regularisation. One sample's loss is traced once and replayed on the batch.

NextToken: each document's mean negative log likelihood of its next tokens (GPT.loss), averaged
over a minibatch of documents; a CompiledStep replays it, traced once per length.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from micrograd import replay
from micrograd.data import CharTokenizer, Images
from micrograd.engine import Value
from micrograd.gpt import GPT
from micrograd.losses import cross_entropy_one
from micrograd.modes import no_grad
from micrograd.nn import MLP
from micrograd.replay import Backend, Program

BackendLike = Union[str, Backend]  # a Backend, or its name in micrograd.replay.BACKENDS ("auto")
SCORED = 10_000  # points scored at once on a back end of arrays


@dataclass
class Classifier:
    """An MLP, the loss that trains it, and how it predicts a class. Its methods take the back
    end to compute with (a micrograd.replay Backend or its name; "auto" by default) and,
    optionally, the parameters' numbers (a Trainer's vector: a numpy array), which are read from
    the model's Values otherwise."""

    model: MLP
    classes: int
    reg: float = 1e-4
    dtype: str = "float64"  # of the numpy back end's arrays (float32: faster, to ~1e-5)
    _programs: dict[tuple[str, Backend], Program] = field(default_factory=dict, repr=False)
    _traced: MLP | None = field(default=None, repr=False)  # the model the programs are of
    monitors_batch = False  # a Trainer's accuracy() measures the training set by default

    @property
    def binary(self) -> bool:
        """True when one output separates two classes by its sign."""
        return self.classes == 2

    def sample_loss(self, *row: Value) -> Value:
        """The loss of one sample; `row` is its features, then its target(s)."""
        nin = self.model.sizes[0]
        x, target = list(row[:nin]), list(row[nin:])
        out = self.model(x)
        if self.binary:
            assert isinstance(out, Value)
            return (1 + -target[0] * out).relu()  # hinge: the target is -1 or +1
        assert isinstance(out, list)
        return cross_entropy_one(out, target)  # the target is one-hot

    def outputs(self, *x: Value) -> list[Value]:
        """The model's outputs for one point, as a list."""
        out = self.model(list(x))
        return out if isinstance(out, list) else [out]

    def largest_product(self, rows: int) -> int:
        """The step's largest matrix product: the widest layer's weights times the rows."""
        sizes = self.model.sizes
        return max(a * b for a, b in zip(sizes, sizes[1:])) * rows

    def monitored(
        self, X: Sequence[Sequence[float]], y: Sequence[int], backend: BackendLike = "auto"
    ) -> tuple[Any, Sequence[int]]:
        """(X, y) as accuracy() reads it fastest on `backend` (on numpy: the points by column)."""
        return replay.backend(backend).scored(X, self.dtype), y

    def rows(self, X: Sequence[Sequence[float]], y: Sequence[int]) -> list[list[float]]:
        """Features followed by the target encoding, one row per sample."""
        if self.binary:
            return [[*x, 2.0 * c - 1.0] for x, c in zip(X, y)]
        return [[*x, *(1.0 if k == c else 0.0 for k in range(self.classes))] for x, c in zip(X, y)]

    def program(self, kind: str, backend: BackendLike = "auto") -> Program:
        """The traced `sample_loss` (kind "loss") or `outputs` ("outputs"), compiled by `backend`;
        traced once, and again when the model is another."""
        if self._traced is not self.model:
            self._programs.clear()
            self._traced = self.model
        chosen = replay.backend(backend)
        key = (kind, chosen)
        if key not in self._programs:
            nin = self.model.sizes[0]
            fn, width = (
                (self.sample_loss, nin + (1 if self.binary else self.classes))
                if kind == "loss"
                else (self.outputs, nin)
            )
            dtype = self.dtype if "dtype" in chosen.options() else None
            self._programs[key] = chosen.compile(fn, self.model.parameters(), width, dtype=dtype)
        return self._programs[key]

    def batch(
        self, X: Sequence[Sequence[float]], y: Sequence[int], backend: BackendLike = "auto"
    ) -> Any:
        """The rows (Classifier.rows) in the form `backend` replays: lists, or one array (for
        Images, compact rows that make the float array of a batch when it is picked)."""
        chosen = replay.backend(backend)
        if chosen.arrays and isinstance(X, Images):
            targets = chosen.table(self.rows([[]] * len(y), y), self.dtype)
            return ImageRows(X, targets, self.dtype)
        return chosen.table(self.rows(X, y), self.dtype)

    def loss_and_grad(
        self, rows: Any, params: Any = None, backend: BackendLike = "auto"
    ) -> tuple[float, Any]:
        """Mean loss over `rows` (Classifier.rows, or batch()'s) plus L2, and its gradient with
        respect to the parameters (a list, or an array on the numpy back end)."""
        program = self.program("loss", backend)
        theta = program.pull() if params is None else params
        losses, grads, _ = program.value_and_grad(rows, 1.0 / len(rows), theta)
        mean = sum(losses) / len(rows) if isinstance(losses, list) else float(losses.mean())
        # L2 in closed form: reg * |theta|^2, gradient 2 * reg * theta
        reg = self.reg
        if isinstance(grads, list):
            l2 = reg * sum(x * x for x in theta)
            return mean + l2, [g + 2 * reg * x for g, x in zip(grads, theta)]
        grads += (2 * reg) * theta
        return mean + reg * float(theta @ theta), grads

    def _scores(self, X: Sequence[Sequence[float]], params: Any, backend: BackendLike) -> Any:
        """The outputs for each point: an (N, outputs) array on a back end of arrays (in pieces
        of SCORED points, so that Images are never a float array all at once), else lists."""
        chosen = replay.backend(backend)
        program = self.program("outputs", chosen)
        if not chosen.arrays:
            values = program(X, params)
            return [list(v) if program.n_outputs > 1 else [v] for v in values]
        import numpy as np

        parts = [
            program(chosen.table(X[start : start + SCORED], self.dtype), params).reshape(
                min(SCORED, len(X) - start), -1
            )
            for start in range(0, len(X), SCORED)
        ]
        return np.concatenate(parts) if len(parts) != 1 else parts[0]

    def scores(
        self, X: Sequence[Sequence[float]], params: Any = None, backend: BackendLike = "auto"
    ) -> list[list[float]]:
        """The model's outputs for each point."""
        if len(X) == 0:
            return []
        scores = self._scores(X, params, backend)
        return scores if isinstance(scores, list) else scores.tolist()

    def predict(
        self, X: Sequence[Sequence[float]], params: Any = None, backend: BackendLike = "auto"
    ) -> list[int]:
        """The predicted class of each point."""
        if len(X) == 0:
            return []
        scores = self._scores(X, params, backend)
        if not isinstance(scores, list):  # numpy's array: at once
            picked = (scores[:, 0] > 0) if self.binary else scores.argmax(axis=1)
            return picked.astype(int).tolist()
        if self.binary:
            return [int(s[0] > 0) for s in scores]
        return [max(range(self.classes), key=s.__getitem__) for s in scores]

    def accuracy(
        self,
        X: Sequence[Sequence[float]],
        y: Sequence[int],
        params: Any = None,
        backend: BackendLike = "auto",
    ) -> float:
        """The fraction of points classified correctly."""
        if len(y) == 0:
            return float("nan")
        return sum(p == t for p, t in zip(self.predict(X, params, backend), y)) / len(y)


class ImageRows:
    """Training rows of a data set of Images: the pixels stay bytes, and `rows[idx]` makes the
    float rows (pixels, then targets) of the picked samples only."""

    def __init__(self, images: Images, targets: Any, dtype: Any) -> None:
        self.images, self.targets, self.dtype = images, targets, dtype

    def __len__(self) -> int:
        return len(self.targets)

    def __getitem__(self, idx: Any) -> Any:
        import numpy as np

        picked = self.images.take(idx).astype(self.dtype, copy=False)
        return np.concatenate([picked, self.targets[idx]], axis=1)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        import numpy as np

        rows = self[np.arange(len(self))]
        return rows if dtype is None else rows.astype(dtype, copy=False)


# The lengths a step is compiled for: a sequence runs in the shortest that holds it, its other
# positions weighted 0. A program per length would waste no work but compile up to 16 times (1-3 s
# each on numpy, 2.5-11 s on python for this model: longer than a 1,000-step run takes); one of
# the block's length wastes 2-3x on the average name. Measured in benchmarks/gpt.py.
LENGTHS = (4, 8, 12, 16)


class CompiledStep:
    """The GPT's loss on sequences and its gradient, replayed (micrograd.replay) instead of built
    and walked as a graph of Values each step: traced once per length of LENGTHS.

    A traced program cannot branch on which token comes (tracing records the rows that the
    example's tokens picked), so a program reads its tokens as one-hot rows: a token's
    embedding is sum_v onehot[v] * wte[v] plus its position's row, a product with the table that
    the numpy back end runs as one matrix product and that adds only exact zeros to the row. Each
    position's loss (the fused cross-entropy against the next token's one-hot row) is weighted by
    an input too: 1/n for the n positions of the sequence, 0 for the rest. A second program of
    each length gives the logits, for the accuracy: apart from the loss, which is all a training
    step needs, so that training compiles and runs no output it does not read. `lengths` are the
    lengths to compile (the block's length is always one)."""

    def __init__(
        self, model: GPT, backend: BackendLike = "auto", lengths: Sequence[int] = LENGTHS
    ) -> None:
        self.model, self.backend = model, replay.backend(backend)
        self.params = model.parameters()
        self.lengths = sorted({min(n, model.block_size) for n in (*lengths, model.block_size)})
        self.programs: dict[tuple[int, str], Program] = {}

    def length_of(self, n: int) -> int:
        """The shortest compiled length that holds n positions."""
        return next(m for m in self.lengths if m >= n)

    def program(self, n: int, kind: str = "loss") -> Program:
        """The program of the shortest compiled length that holds n positions (traced now if
        new): of the loss ("loss"), or of each position's logits ("logits", for the accuracy)."""
        length = self.length_of(n)
        if (length, kind) not in self.programs:
            example = self.row([self.model.vocab_size - 1] * 2, length)
            self.programs[length, kind] = self.backend.compile(
                self.function(length, kind), self.params, self.n_inputs(length), example
            )
        return self.programs[length, kind]

    def function(self, length: int, kind: str) -> Callable[..., Value | list[Value]]:
        """The loss of `length` positions, or their logits one position after another, as a
        function of one-hot rows and position weights."""
        model, vocab = self.model, self.model.vocab_size
        if kind not in ("loss", "logits"):
            raise ValueError(
                f"a CompiledStep's program is of kind 'loss' or 'logits', not {kind!r}"
            )

        def function(*x: Value) -> Value | list[Value]:
            onehot = [list(x[i * vocab : (i + 1) * vocab]) for i in range(length + 1)]
            weights = x[(length + 1) * vocab :]
            cache, terms, logits = model.new_cache(), [], []
            for pos in range(length):
                table, position = model.wte.weight, model.wpe.weight[pos]
                embedding = [
                    sum((onehot[pos][v] * table[v][j] for v in range(vocab)), position[j])
                    for j in range(model.n_embd)
                ]
                logits.append(model.read(embedding, cache))
                if kind == "loss":
                    terms.append(weights[pos] * cross_entropy_one(logits[-1], onehot[pos + 1]))
            if kind == "logits":
                return [z for row in logits for z in row]
            return sum(terms[1:], terms[0])

        return function

    def row(self, tokens: Sequence[int], length: int) -> list[float]:
        """The inputs of the program of `length` for `tokens` (2 to length + 1 of them): their
        one-hot rows (zeros past the end), then each position's weight."""
        row = [0.0] * self.n_inputs(length)
        for c, x in zip(*self.entries(tokens, length)):
            row[c] = x
        return row

    def n_inputs(self, length: int) -> int:
        """How many inputs the program of `length` reads."""
        return (length + 1) * self.model.vocab_size + length

    def entries(self, tokens: Sequence[int], length: int) -> tuple[list[int], list[float]]:
        """Where row(tokens, length) is not zero (its columns), and its numbers there."""
        vocab, n = self.model.vocab_size, len(tokens) - 1
        weights = range((length + 1) * vocab, (length + 1) * vocab + n)
        columns = [i * vocab + t for i, t in enumerate(tokens)] + list(weights)
        return columns, [1.0] * len(tokens) + [1.0 / n] * n

    def _lengths(self, positions: Sequence[int]) -> list[int]:
        """The length of the program that runs each sequence (of `positions` positions): the
        shortest that holds it, or a longer one that the batch calls anyway where fewer
        sequences than the back end's call_rows would need a call of their own (the call costs
        more than their padding)."""
        shortest = [self.length_of(n) for n in positions]
        count = {m: shortest.count(m) for m in set(shortest)}
        called, waiting = set(), 0
        for m in sorted(count):  # a small group joins the next longer one that is called
            waiting += count[m]
            if waiting >= self.backend.call_rows or m == max(count):
                called.add(m)
                waiting = 0
        return [min(c for c in called if c >= m) for m in shortest]

    def _by_length(self, sequences: Sequence[Sequence[int]]) -> tuple[dict[int, Any], list[int]]:
        """The sequences' rows, in the form the back end reads, grouped by the length of the
        program that runs them, and each sequence's length."""
        positions = [self.model.positions(tokens) for tokens in sequences]
        lengths = self._lengths(positions)
        entries: dict[int, list[tuple[list[int], list[float]]]] = {}
        for tokens, n, length in zip(sequences, positions, lengths):
            entries.setdefault(length, []).append(self.entries(tokens[: n + 1], length))
        tables = {m: self.backend.sparse_table(self.n_inputs(m), e) for m, e in entries.items()}
        return tables, lengths

    def loss_and_grad(
        self, sequences: Sequence[Sequence[int]], theta: Any = None
    ) -> tuple[float, Any]:
        """(the mean over `sequences` of GPT.loss(tokens), its gradient for model.parameters()),
        as GPT.loss and backward() give them; the sequences of each length run in one call.
        `theta` holds the parameters' numbers (default: their Values')."""
        if not sequences:
            raise ValueError(f"{self.model.spec}: the loss of no sequences")
        total, grads = 0.0, None
        for length, rows in self._by_length(sequences)[0].items():
            values, g, _ = self.program(length).value_and_grad(rows, 1.0 / len(sequences), theta)
            total += float(sum(values))
            if grads is None:  # the program's own array: copied before another adds to it
                grads = g
            elif isinstance(g, list):
                grads = [a + b for a, b in zip(grads, g)]
            else:
                grads = grads + g
        return total / len(sequences), grads

    def logits(self, sequences: Sequence[Sequence[int]], theta: Any = None) -> list[list[float]]:
        """For each sequence, the logits at each position GPT.loss reads, one row after another."""
        vocab, found = self.model.vocab_size, {}
        by_length, lengths = self._by_length(sequences)
        for length, rows in by_length.items():
            found[length] = iter(self.program(length, "logits")(rows, theta))
        out = []
        for tokens, length in zip(sequences, lengths):  # in their order
            n = self.model.positions(tokens)
            flat = [float(z) for z in next(found[length])]
            out.append(flat[: n * vocab])
        return out


class NextToken:
    """The GPT's task for fit() and a Trainer (micrograd.app.train): each document's mean negative
    log likelihood of its next tokens (GPT.loss), averaged over a minibatch of documents, and
    their gradient. On a back end that replays nothing (eager) each step builds the documents'
    graphs of Values and walks them; on the others a CompiledStep of `lengths` replays them. Documents are strings
    (encoded by `tokenizer`, BOS on both sides) or lists of token ids. Without a monitor, a
    Trainer's accuracy() is that of the last step's documents."""

    monitors_batch = True

    def __init__(
        self, model: GPT, tokenizer: CharTokenizer | None = None, lengths: Sequence[int] = LENGTHS
    ) -> None:
        if tokenizer is not None and getattr(tokenizer, "vocab_size", None) != model.vocab_size:
            raise ValueError(
                f"NextToken: the tokenizer ({tokenizer!r}) does not fit {model.spec}: "
                f"its vocab_size is {getattr(tokenizer, 'vocab_size', None)}"
            )
        for n in lengths:
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ValueError(f"NextToken: lengths must be integers >= 1, got {list(lengths)!r}")
        self.model, self.tokenizer, self.lengths = model, tokenizer, lengths
        self.steps: dict[Backend, CompiledStep] = {}

    def parameters(self) -> list[Value]:
        """The GPT's parameters."""
        return self.model.parameters()

    def compiled(self, backend: BackendLike = "auto") -> CompiledStep:
        """The CompiledStep of `backend` (made once; its programs are traced when first run)."""
        chosen = replay.backend(backend)
        if chosen not in self.steps:
            self.steps[chosen] = CompiledStep(self.model, chosen, self.lengths)
        return self.steps[chosen]

    def encode(self, doc: str | Sequence[int]) -> list[int]:
        """A document as token ids: a string by the tokenizer, ids as they are; every id and the
        length checked now, not at a later step."""
        if isinstance(doc, bytes):
            raise ValueError("a document is a string or a list of token ids, not bytes")
        if isinstance(doc, str):
            if self.tokenizer is None:
                raise ValueError("the documents are strings but no tokenizer was given")
            tokens = self.tokenizer.encode(doc)
        else:
            tokens = list(doc)
        self.model.positions(tokens)
        for t in tokens:  # past the block too: a bad id is no less bad where it is cut off
            self.model.check_token(t)
        return tokens

    def batch(
        self,
        X: Sequence[Any],
        y: Sequence[int] | None,
        backend: BackendLike = "auto",
        what: str = "X",
    ) -> Any:
        """The documents as token ids (their targets are their own next tokens: y is None); a
        ValueError names the first bad one by its index in `what` (X, or the monitor's)."""
        if y is not None:
            raise ValueError(
                f"NextToken: a document's targets are its next tokens; give None, not {what}'s y"
            )
        if isinstance(X, (str, bytes)):
            raise ValueError(
                f"NextToken: {what} is one {type(X).__name__}, {X[:20]!r}; give a list of "
                "documents, such as ['emma', 'olivia']"
            )
        if not X:
            raise ValueError(f"NextToken: {what} has no documents")
        rows = []
        for i, doc in enumerate(X):
            try:
                rows.append(self.encode(doc))
            except ValueError as e:
                raise ValueError(f"NextToken: {what}[{i}], {doc!r}: {e}") from None
        return rows

    def monitored(
        self, X: Sequence[Any], y: Sequence[int] | None, backend: BackendLike = "auto"
    ) -> tuple[Any, None]:
        """The monitored documents as token ids, encoded once."""
        return self.batch(X, y, backend, what="the monitor"), None

    def program(self, kind: str = "loss", backend: BackendLike = "auto") -> Program:
        """The compiled loss of the shortest length on `backend` (a Trainer reads its parameters'
        numbers through it)."""
        if kind != "loss":
            raise ValueError(f"NextToken: a program of kind 'loss' only, got {kind!r}")
        step = self.compiled(backend)
        return step.program(step.lengths[0])

    def loss_and_grad(
        self, rows: Sequence[Sequence[int]], params: Any = None, backend: BackendLike = "auto"
    ) -> tuple[float, Any]:
        """The mean of GPT.loss over the documents `rows` (batch()'s) and its gradient (a list, or
        an array on the numpy back end); `params` replaces the parameters' numbers."""
        chosen = replay.backend(backend)
        if chosen.replays:
            return self.compiled(chosen).loss_and_grad(rows, params)
        values = self.parameters()
        with replay.program.holding(values, params):  # the Values' own numbers by default
            losses = [self.model.loss(tokens) for tokens in rows]
            loss = losses[0] if len(losses) == 1 else sum(losses[1:], losses[0]) / len(losses)
            loss.backward()
            return loss.data, [p.grad for p in values]

    def accuracy(
        self,
        X: Sequence[Any],
        y: Sequence[int] | None,
        params: Any = None,
        backend: BackendLike = "auto",
    ) -> float:
        """The fraction of the documents' next tokens to which the model gives its largest
        logit (X: batch()'s token ids)."""
        vocab, model = self.model.vocab_size, self.model
        chosen = replay.backend(backend)
        if chosen.replays:
            flat = self.compiled(chosen).logits(X, params)
        else:
            with replay.program.holding(self.parameters(), params), no_grad():
                flat = [
                    [z.data for row in model.forward(t[: model.positions(t)]) for z in row]
                    for t in X
                ]
        right = total = 0
        for tokens, logits in zip(X, flat):
            for pos, target in enumerate(tokens[1 : len(logits) // vocab + 1]):
                row = logits[pos * vocab : (pos + 1) * vocab]
                right += max(range(vocab), key=row.__getitem__) == target
                total += 1
        return right / total

    def largest_product(self, rows: int) -> int:
        """The step's largest matrix product on the numpy back end: the one-hot rows times the
        token table, or the MLP's first layer, for `rows` documents."""
        m = self.model
        return max(m.vocab_size * m.n_embd, 4 * m.n_embd * m.n_embd) * rows
