"""`micrograd train --data names` and `micrograd sample`: Karpathy's microgpt, its GPT trained on
the first names shipped with the package, and names drawn from a saved one.

microgpt's recipe, step by step: one document a step (the names shuffled once, then taken in
turn), the mean negative log likelihood of its next tokens, Adam with betas (0.85, 0.99) and eps
1e-8, the learning rate 0.01 decaying linearly to 0 over the run; then samples at temperature 0.5.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from micrograd import replay
from micrograd.app.commands import UsageError, check_out_folder, progress_bar, write_out_folder
from micrograd.app.train import Trainer
from micrograd.data import CharTokenizer, names
from micrograd.engine import Value
from micrograd.io import check_target, gpt_bytes, load_gpt
from micrograd.losses import cross_entropy_one
from micrograd.modes import no_grad
from micrograd.nn import GPT, HeadReading
from micrograd.optim import Adam, LinearLR
from micrograd.text import language
from micrograd.text import text as say
from micrograd.tuning import tuned

# microgpt's 1,000 steps. A step's graph has 36,000 Values for a 3-letter name and 107,000 for an
# 11-letter one; eager (inside tuned()) that is 65-200 ms a step on the 2-core development machine,
# the compiled step (CompiledStep) 2-4 ms on numpy and 5-9 ms on python (where Adam on the Values
# adds 6-8 ms). `micrograd train --data names` measured there, lightly loaded: 11 s in all on
# numpy, 40 s on python (compiling the lengths 4, 8 and 12 included: ~15 s).
STEPS = 1000
LEARNING_RATE = 0.01
BETAS = (0.85, 0.99)
EPS = 1e-8
TEMPERATURE = 0.5
SAMPLES = 10
OUTPUTS = ("gpt.json", "gpt_loss.png", "gpt_attention.png")
MEAN_OF = 50  # the loss picture's running mean: one name a step makes each step's loss noisy
BOS_LABEL = "·"  # BOS on the attention picture's axes


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

    def __init__(self, model: GPT, backend: str = "auto", lengths: Sequence[int] = LENGTHS) -> None:
        self.model, self.backend = model, replay.which(backend)
        self.params = model.parameters()
        self.lengths = sorted({min(n, model.block_size) for n in (*lengths, model.block_size)})
        self.programs: dict[tuple[int, str], replay.Program] = {}

    def length_of(self, n: int) -> int:
        """The shortest compiled length that holds n positions."""
        return next(m for m in self.lengths if m >= n)

    def program(self, n: int, kind: str = "loss") -> replay.Program:
        """The program of the shortest compiled length that holds n positions (traced now if
        new): of the loss ("loss"), or of each position's logits ("logits", for the accuracy)."""
        length = self.length_of(n)
        if (length, kind) not in self.programs:
            inputs = (length + 1) * self.model.vocab_size + length
            example = self.row([self.model.vocab_size - 1] * 2, length)
            self.programs[length, kind] = replay.compile(
                self._function(length, kind), self.params, inputs, example, self.backend
            )
        return self.programs[length, kind]

    def _function(self, length: int, kind: str) -> Callable[..., Value | list[Value]]:
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
        vocab, n = self.model.vocab_size, len(tokens) - 1
        row = [0.0] * ((length + 1) * vocab + length)
        for i, t in enumerate(tokens):
            row[i * vocab + t] = 1.0
        row[(length + 1) * vocab : (length + 1) * vocab + n] = [1.0 / n] * n
        return row

    def _by_length(self, sequences: Sequence[Sequence[int]]) -> dict[int, list[list[float]]]:
        """The sequences' rows, grouped by the length of the program that runs them."""
        rows: dict[int, list[list[float]]] = {}
        for tokens in sequences:
            n = self.model.positions(tokens)
            length = self.length_of(n)
            rows.setdefault(length, []).append(self.row(tokens[: n + 1], length))
        return rows

    def loss_and_grad(
        self, sequences: Sequence[Sequence[int]], theta: Any = None
    ) -> tuple[float, Any]:
        """(the mean over `sequences` of GPT.loss(tokens), its gradient for model.parameters()),
        as GPT.loss and backward() give them; the sequences of each length run in one call.
        `theta` holds the parameters' numbers (default: their Values')."""
        if not sequences:
            raise ValueError(f"{self.model.spec}: the loss of no sequences")
        total, grads = 0.0, None
        for length, rows in self._by_length(sequences).items():
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
        for length, rows in self._by_length(sequences).items():
            found[length] = iter(self.program(length, "logits")(rows, theta))
        out = []
        for tokens in sequences:  # each sequence's outputs, in the order of `sequences`
            n = self.model.positions(tokens)
            flat = [float(z) for z in next(found[self.length_of(n)])]
            out.append(flat[: n * vocab])
        return out


class NextToken:
    """The GPT's task for fit() and a Trainer (micrograd.app.train): each document's mean negative
    log likelihood of its next tokens (GPT.loss), averaged over a minibatch of documents, and
    their gradient. On "eager" each step builds the documents' graphs of Values and walks them;
    on the other back ends a CompiledStep of `lengths` replays them. Documents are strings
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
        self.steps: dict[str, CompiledStep] = {}

    def parameters(self) -> list[Value]:
        """The GPT's parameters."""
        return self.model.parameters()

    def compiled(self, backend: str = "auto") -> CompiledStep:
        """The CompiledStep of `backend` (made once; its programs are traced when first run)."""
        name = replay.which(backend)
        if name not in self.steps:
            self.steps[name] = CompiledStep(self.model, name, self.lengths)
        return self.steps[name]

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
        self, X: Sequence[Any], y: Sequence[int] | None, backend: str = "auto", what: str = "X"
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
        self, X: Sequence[Any], y: Sequence[int] | None, backend: str = "auto"
    ) -> tuple[Any, None]:
        """The monitored documents as token ids, encoded once."""
        return self.batch(X, y, backend, what="the monitor"), None

    def program(self, kind: str = "loss", backend: str = "auto") -> replay.Program:
        """The compiled loss of the shortest length on `backend` (a Trainer reads its parameters'
        numbers through it)."""
        if kind != "loss":
            raise ValueError(f"NextToken: a program of kind 'loss' only, got {kind!r}")
        step = self.compiled(backend)
        return step.program(step.lengths[0])

    def loss_and_grad(
        self, rows: Sequence[Sequence[int]], params: Any = None, backend: str = "auto"
    ) -> tuple[float, Any]:
        """The mean of GPT.loss over the documents `rows` (batch()'s) and its gradient (a list, or
        an array on the numpy back end); `params` replaces the parameters' numbers."""
        if replay.which(backend) != "eager":
            return self.compiled(backend).loss_and_grad(rows, params)
        values = self.parameters()
        with replay.program.holding(values, params):  # the Values' own numbers by default
            losses = [self.model.loss(tokens) for tokens in rows]
            loss = losses[0] if len(losses) == 1 else sum(losses[1:], losses[0]) / len(losses)
            loss.backward()
            return loss.data, [p.grad for p in values]

    def accuracy(
        self, X: Sequence[Any], y: Sequence[int] | None, params: Any = None, backend: str = "auto"
    ) -> float:
        """The fraction of the documents' next tokens to which the model gives its largest
        logit (X: batch()'s token ids)."""
        vocab, model = self.model.vocab_size, self.model
        if replay.which(backend) != "eager":
            flat = self.compiled(backend).logits(X, params)
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


def train_gpt(
    model: GPT,
    tokenizer: CharTokenizer,
    docs: Sequence[str],
    steps: int,
    lr: float = LEARNING_RATE,
    on_step: Callable[[int, float], None] | None = None,
    backend: str = "eager",
) -> list[float]:
    """microgpt's training loop on `docs`, in order (docs[step % len(docs)]): the loss of one
    document a step, backward, an Adam step at lr * (1 - step / steps), by a Trainer of the
    NextToken task on `backend` ("eager" builds each step's graph of Values; "numpy", "python"
    or "auto" replay a CompiledStep). Returns each step's loss; a loss that is not a number
    stops it with FloatingPointError."""
    optimizer = Adam(model.parameters(), lr=lr, betas=BETAS, eps=EPS)
    schedule = LinearLR(optimizer, start_factor=1.0, end_factor=0.0, total_iters=steps)
    task = NextToken(model, tokenizer)
    trainer = Trainer(
        task, docs, None, optimizer, 1, scheduler=schedule, backend=backend, in_order=True
    )
    losses = []
    try:
        with tuned(), trainer.threads():  # Value's op methods compiled, fewer full collections
            for step in range(steps):
                losses.append(trainer.step())
                if on_step is not None:
                    on_step(step, losses[-1])
    finally:  # the trained numbers back into the model's Values
        trainer.sync()
    return losses


def attention_picture(
    model: GPT, tokenizer: CharTokenizer, name: str, lang: str = "en", path: str | None = None
) -> bytes:
    """The attention picture (micrograd.app.plot.attention_weights) of each head of `model` on
    what it read while it drew `name`: BOS, then the name's characters, up to block_size tokens."""
    from micrograd.app import plot

    read = tokenizer.encode(name)[:-1][: model.block_size]
    labels = [BOS_LABEL if t == tokenizer.bos else tokenizer.decode([t]) for t in read]
    return plot.attention_weights(model.attention(read), labels, path, lang)


def attention_stepper(lang: str | None = None, name: str = "al") -> Any:
    """The backward stepper (micrograd.viz.stepper) through one attention head: a tiny GPT (block
    3, n_embd 4, one head, microgpt's initialisation from seed 0) reads BOS and the first
    letters of `name`, and y = the sum of the head's output at the last position is
    differentiated. Each part of the head is one box, expanded to its ops by a click: each
    position's key and value (and the last one's query), q·k / sqrt(d), the softmax, and the
    weighted sum of the values; explain() names the steps inside each."""
    from micrograd.engine import topo_order
    from micrograd.teach.neurons import region
    from micrograd.teach.stepper import stepper

    lang = language(lang)
    tokenizer = CharTokenizer(names())
    random.seed(0)
    model = GPT(tokenizer.vocab_size, block_size=3, n_layer=1, n_embd=4, n_head=1)
    tokens = tokenizer.encode(name)[: model.block_size]
    cache = model.new_cache()
    readings: list[HeadReading] = []  # what the head computed, token by token
    for pos, token in enumerate(tokens):
        embedding = model.embed(token, pos)
        for j, e in enumerate(embedding):
            e.label = f"e{pos}.{j}"
        model.read(embedding, cache, readings)
    head = readings[-1]  # what the head computed for the last token
    _label_head(readings)
    y = sum(head.out, Value(0.0))
    y.label = "y"
    order = topo_order(y)
    params = model.parameters()
    last = len(tokens) - 1

    def box(key: str, inputs: Sequence[Value], outputs: Sequence[Value], **words: Any) -> Any:
        title = say(f"gpt.group_{key}", lang, **words)
        return region(title, say(f"gpt.group_{key}_ops", lang), inputs, outputs, order, params)

    parts = [
        box("qk", [*head.q, *(x for k in head.keys for x in k)], head.scores),
        box("softmax", head.scores, head.weights),
        box("sum", [*head.weights, *(x for v in head.values for x in v)], head.out),
    ]
    for pos in range(last + 1):  # each position's projections, from its embedding on
        outputs = [*head.keys[pos], *head.values[pos], *(head.q if pos == last else [])]
        parts.append(box("kv" if pos < last else "qkv", [], outputs, pos=pos))
    taken: set[Value] = set()
    groups = []
    for part in parts:  # each node in one box: the first that reaches it
        members = tuple(v for v in part.members if v not in taken)
        taken.update(members)
        groups.append(replace(part, members=members))
    sep = "、" if lang == "zh" else ", "
    read = sep.join("BOS" if t == tokenizer.bos else tokenizer.decode([t]) for t in tokens)
    intro = say("gpt.stepper_intro", lang, tokens=read, last=len(head.out) - 1)
    return stepper(y, model, lang, max_nodes=None, groups=groups, intro=intro)


def _label_head(readings: Sequence[HeadReading]) -> None:
    """Name what one head computed by its role, so that the stepper shows q.0, k1.2, s1, a1 and
    o.0 (and formulas of them, such as (q.0*k1.0)) instead of a node's number: the query q, each
    position's key k and value v, the scores s = q·k / sqrt(d), the weights a = softmax(s), the
    output o = sum_t a_t v_t; and inside each projection, as the stepper names a neuron's
    parts, the products `k1.2:w.0·x`, the partial sums `k1.2:w·x[:2]` and the input x1.0 they
    read (and the partial sums of q·k and of o: `s1:q·k[:2]`, `o.0:a·v[:2]`). `readings` are the
    head's, token by token (the last holds every position's k and v)."""
    head = readings[-1]
    for j, v in enumerate(head.q):
        _label_dot(v, f"q.{j}", len(readings) - 1)
    for pos, (key, value) in enumerate(zip(head.keys, head.values)):
        for j, (k, v) in enumerate(zip(key, value)):
            _label_dot(k, f"k{pos}.{j}", pos)
            _label_dot(v, f"v{pos}.{j}", pos)
    for pos, (s, a) in enumerate(zip(head.scores, head.weights)):
        s.label, a.label = f"s{pos}", f"a{pos}"
        dot = s._prev[0]  # s = q·k / sqrt(d)
        dot.label = f"s{pos}:q·k"
        _label_partial_sums(dot, dot.label)
    for j, o in enumerate(head.out):
        o.label = f"o.{j}"
        _label_partial_sums(o, f"o.{j}:a·v")


def _label_dot(out: Value, name: str, pos: int) -> None:
    """Label a Linear's output `out` and the nodes of its sum: products, partial sums, and the
    inputs x it reads at position pos."""
    out.label = name
    for i, product in enumerate(_label_partial_sums(out, f"{name}:w·x")):
        product.label = f"{name}:w.{i}·x"
        x = product._prev[1]
        x.label = x.label or f"x{pos}.{i}"


def _label_partial_sums(total: Value, name: str) -> list[Value]:
    """Label the sums on the way to `total` = ((0 + t0) + t1) + ..., a sum of products from a zero
    Value, as `name[:2]` (t0 + t1) and so on; return the products t0, t1, ..."""
    chain, node = [], total
    while node._op == "+" and node._prev[1]._op == "*":
        chain.append(node)
        node = node._prev[0]
    chain.reverse()
    for n, part in enumerate(chain[:-1], 1):
        part.label = f"{name}[:{n}]"
    return [part._prev[1] for part in chain]


def _refuse_mlp_options(args: argparse.Namespace, lang: str) -> None:
    """A UsageError for an option of the MLP's training given with --data names."""
    given = {
        "--hidden": args.hidden is not None,
        "--optimizer": args.optimizer is not None,
        "--batch-size": args.batch_size is not None,
        "--data-dir": args.data_dir is not None,
        "--momentum": args.momentum != 0.0,
    }
    for option, there in given.items():
        if there:
            raise UsageError(say("gpt.err_option", lang, option=option))


def run_gpt_training(args: argparse.Namespace, out: Any = None) -> dict[str, Any]:
    """`micrograd train --data names`: train microgpt's GPT on the shipped names, print the loss
    and SAMPLES names it makes up, write gpt.json (and gpt_loss.png, and gpt_attention.png for the
    first name) into args.out."""
    out = out or sys.stdout
    lang = language(args.lang)
    _refuse_mlp_options(args, lang)
    steps, lr = args.steps or STEPS, args.lr or LEARNING_RATE
    docs = names()
    random.Random(args.seed).shuffle(docs)  # microgpt shuffles its documents once
    tokenizer = CharTokenizer(docs)
    random.seed(args.seed)  # the weights come from Python's random, as in microgpt
    model = GPT(tokenizer.vocab_size)
    if not args.no_plot:  # fail before training, not after, if matplotlib is missing
        from micrograd.app import plot

        plot.pyplot()
    check_out_folder(args.out, lang, OUTPUTS)

    bar = progress_bar(steps, args.quiet, lang)
    start = time.perf_counter()
    try:

        def on_step(step: int, loss: float) -> None:
            bar(loss, None)

        losses = train_gpt(model, tokenizer, docs, steps, lr, on_step, args.backend)
    except FloatingPointError as e:
        bar(None, None)
        raise ArithmeticError(say("gpt.err_diverged", lang, why=str(e))) from None
    seconds = time.perf_counter() - start
    bar(None, None)
    rng = random.Random(args.seed)  # `micrograd sample` with the same seed draws the same names
    with tuned():
        samples = [
            tokenizer.decode(model.sample(tokenizer, TEMPERATURE, rng)) for _ in range(SAMPLES)
        ]
    last = max(1, steps // 10)
    final = sum(losses[-last:]) / last
    print(say("gpt.out_loss", lang, first=losses[0], last=final, n=last), file=out)
    for i, name in enumerate(samples, 1):
        print(say("gpt.out_sample", lang, i=i, name=name), file=out)
    files = {"gpt.json": gpt_bytes(model, tokenizer)}  # everything made before anything is written
    if not args.no_plot:
        files["gpt_loss.png"] = plot.next_token_loss(losses, model.spec, len(docs), MEAN_OF, lang)
        with tuned():
            files["gpt_attention.png"] = attention_picture(model, tokenizer, samples[0], lang)
    write_out_folder(args.out, files)
    if not args.quiet:
        joined = ("、" if lang == "zh" else ", ").join(files)
        done = {"steps": steps, "seconds": seconds, "files": joined, "out": args.out}
        print(say("cli.out_done", lang, **done), file=out)
    return {"losses": losses, "final_loss": final, "seconds": seconds, "samples": samples}


def sample_command(args: argparse.Namespace) -> int:
    """`micrograd sample MODEL`: print args.n names drawn from a saved GPT (and, with
    --attention FILE, write the attention picture of the first into FILE)."""
    lang = language(args.lang)
    if args.attention is not None:  # fail before sampling: no matplotlib, or a FILE refused
        from micrograd.app import plot

        plot.pyplot()
        check_target(args.attention)
    try:
        model, tokenizer = load_gpt(args.model)
    except FileNotFoundError:
        raise FileNotFoundError(say("gpt.err_no_model", lang, path=args.model)) from None
    except ValueError as e:
        raise ValueError(say("gpt.err_bad_model", lang, why=e)) from None
    rng = random.Random(args.seed)
    with tuned():
        for i in range(1, args.n + 1):
            name = tokenizer.decode(model.sample(tokenizer, args.temperature, rng))
            print(say("gpt.out_sample", lang, i=i, name=name))
            if i == 1 and args.attention is not None:
                attention_picture(model, tokenizer, name, lang, args.attention)
    if args.attention is not None:
        print(say("gpt.out_attention", lang, path=args.attention))
    return 0
