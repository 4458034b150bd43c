"""Benchmark: one training step of microgpt's GPT (micrograd.gpt.GPT, its defaults: 1 layer,
n_embd 16, 4 heads, block 16, ~4,200 parameters) on one name, as microgpt takes one a step, or
on a batch of names.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/gpt.py            # ~8 minutes
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/gpt.py --rounds 3 --names 20   # a quick look
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/gpt.py --batch 30 --names 9    # 30 names a step
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/gpt.py --rounds 3 --names 20 --exact
    node benchmarks/pyodide.mjs gpt --rounds 2 --names 10   # in Pyodide: eager and python only

With --batch B a step is the mean loss of B names and its gradient (--names steps a round, each
on the next B names). The eager sides are left out of the timing there (a step of 30 names takes
them seconds) but still give the numbers every side is checked against, and torch runs the batch
padded to its longest name, (B, T) at once with the causal mask, each position's loss weighted
1/n for a name of n positions and 0 past its end.

A step here is the loss of one name and its gradient for every parameter (the optimizer's update
is left out: it is the same arithmetic on every side). Sides, all from the same weights:
  eager         GPT.loss(tokens) and backward(): the graph of Values built and walked
  eager tuned   the same inside micrograd.tuned() (full collections rarer), as train_gpt runs
                it; entering the block is not timed
  numpy         micrograd.app.tasks.CompiledStep on the numpy back end (the traced step replayed),
                the parameters' numbers in one array, as a Trainer keeps them while it trains
  python        the same on the pure-Python back end (what the browser runs), the numbers read
                from the Values each step, as a Trainer does there
  python exact  (with --exact) the same with a program for every length, where CompiledStep
                compiles four (4, 8, 12, 16) and runs a name in the shortest that holds it
  torch         micrograd.export.gpt_to_torch: PyTorch float64 on one thread, every position at
                once with a causal mask, F.cross_entropy, backward()
A side whose library is not installed is left out (in Pyodide: numpy and torch). Each round
takes the same names in turn; for each name every side runs once, their order turned by one each
name (paired, interleaved), and each side's time is compared with torch's on the same name (with
no torch, eager's). Printed: the median over all names and rounds of each side's ms a step, and
of its ratio to that reference (min..max of the rounds' medians). Before timing, every side's loss
on every name must equal eager's to 1e-9 (relative), and its gradient to 1e-9 of the gradient's
largest entry. Compiling (tracing and code generation, once per length of CompiledStep.lengths)
is timed apart.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import platform
import random
import statistics
import sys
import time

from micrograd import tuned
from micrograd.app.tasks import CompiledStep
from micrograd.data import CharTokenizer, names
from micrograd.gpt import GPT

try:
    import numpy as np
except ImportError:  # Pyodide, as the site runs it
    np = None
try:
    import torch
except ImportError:
    torch = None


def eager_step(model, tokens):
    """(loss, gradient) by the engine: the graph built and walked."""
    loss = model.loss(tokens)
    model.zero_grad()
    loss.backward()
    return loss.data, [p.grad for p in model.parameters()]


def torch_side(model):
    """A step of the PyTorch twin: (loss, gradient in named_parameters()'s order)."""
    from micrograd.export import gpt_matrices, gpt_to_torch

    torch.set_num_threads(1)
    net = gpt_to_torch(model)
    weights = [net.weights[name] for name in gpt_matrices(model)]
    cross_entropy = torch.nn.functional.cross_entropy

    def step(tokens):
        n = min(model.block_size, len(tokens) - 1)
        for w in weights:
            w.grad = None
        loss = cross_entropy(net(tokens[:n]), torch.tensor(tokens[1 : n + 1]))
        loss.backward()
        return loss.item(), torch.cat([w.grad.reshape(-1) for w in weights]).tolist()

    return step


def torch_batch_side(model):
    """A step of the PyTorch twin on a batch of names: padded to the longest, (B, T) at once,
    each name's positions weighted 1/n (0 past its end); the mean over the names."""
    from micrograd.export import gpt_matrices, gpt_to_torch

    torch.set_num_threads(1)
    net = gpt_to_torch(model)
    weights = [net.weights[name] for name in gpt_matrices(model)]
    cross_entropy = torch.nn.functional.cross_entropy

    def step(batch):
        n = [min(model.block_size, len(tokens) - 1) for tokens in batch]
        B, T = len(batch), max(n)
        x = torch.zeros(B, T, dtype=torch.long)
        y = torch.zeros(B, T, dtype=torch.long)
        weight = torch.zeros(B, T, dtype=torch.float64)
        for b, (tokens, k) in enumerate(zip(batch, n)):
            x[b, :k] = torch.tensor(tokens[:k])
            y[b, :k] = torch.tensor(tokens[1 : k + 1])
            weight[b, :k] = 1.0 / k
        for w in weights:
            w.grad = None
        logits = net(x)
        losses = cross_entropy(logits.reshape(B * T, -1), y.reshape(-1), reduction="none")
        loss = (losses.view(B, T) * weight).sum() / B
        loss.backward()
        return loss.item(), torch.cat([w.grad.reshape(-1) for w in weights]).tolist()

    return step


def eager_batch(model, batch):
    """(mean loss, gradient) of a batch by the engine."""
    losses = [model.loss(tokens) for tokens in batch]
    loss = sum(losses[1:], losses[0]) * (1 / len(batch))
    model.zero_grad()
    loss.backward()
    return loss.data, [p.grad for p in model.parameters()]


def close(got, want):
    loss, grads = got
    scale = max(abs(g) for g in want[1])
    return abs(loss - want[0]) <= 1e-9 * abs(want[0]) and all(
        abs(g - w) <= 1e-9 * scale for g, w in zip(grads, want[1])
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--names", type=int, default=30, help="names (or batches) per round")
    parser.add_argument("--batch", type=int, default=1, help="names a step")
    parser.add_argument(
        "--exact",
        action="store_true",
        help="one more side: the python back end with a program for every length (no padding)",
    )
    args = parser.parse_args(argv)

    docs = names()
    random.Random(0).shuffle(docs)
    tokenizer = CharTokenizer(docs)
    random.seed(42)
    model = GPT(tokenizer.vocab_size)
    k = args.batch
    encoded = [tokenizer.encode(d) for d in docs[: args.names * k]]
    steps = [encoded[i * k : (i + 1) * k] for i in range(args.names)]  # each step's names

    backends = ("numpy", "python") if np is not None else ("python",)
    compiled = {backend: CompiledStep(model, backend) for backend in backends}
    if args.exact:
        compiled["python exact"] = CompiledStep(model, "python", range(1, model.block_size + 1))
    compile_s = {}
    for name, step in compiled.items():
        start = time.perf_counter()
        for n in step.lengths:
            step.program(n)
        compile_s[name] = time.perf_counter() - start

    if np is not None:  # numpy's side: the numbers in one array, as a Trainer keeps them
        theta = np.array([p.data for p in model.parameters()])

    def tuned_step(tokens):
        with tuned():
            return eager_step(model, tokens)

    def timed(name, tokens):
        """One step of side `name` in seconds: "eager tuned" inside tuned(), whose entry is left
        out, as a training loop enters it once."""
        with tuned() if name == "eager tuned" else contextlib.nullcontext():
            gc.collect()
            start = time.perf_counter()
            sides[name](tokens)
            return time.perf_counter() - start

    # a side takes one step's names (a list of token lists)
    sides = {
        "eager": lambda batch: eager_step(model, batch[0]),
        "eager tuned": lambda batch: tuned_step(batch[0]),
        "python": lambda batch: compiled["python"].loss_and_grad(batch),
    }
    if args.exact:
        sides["python exact"] = lambda batch: compiled["python exact"].loss_and_grad(batch)
    if np is not None:
        sides["numpy"] = lambda batch: compiled["numpy"].loss_and_grad(batch, theta)
    if torch is not None and k == 1:
        one = torch_side(model)
        sides["torch"] = lambda batch: one(batch[0])
    elif torch is not None:
        sides["torch"] = torch_batch_side(model)
    for batch in steps:  # the same numbers on every side, or no timing
        want = eager_batch(model, batch)
        for name, side in sides.items():
            if k > 1 and name.startswith("eager"):
                continue
            loss, grads = side(batch)
            if not close((loss, [float(g) for g in grads]), want):
                words = ", ".join(tokenizer.decode(t) for t in batch[:3])
                sys.exit(f"{name} disagrees with eager on {words!r}")
    if k > 1:  # seconds a step: checked above, not timed
        sides = {name: side for name, side in sides.items() if not name.startswith("eager")}
    without_torch = "eager" if k == 1 else "numpy" if np is not None else "python"
    reference = "torch" if torch is not None else without_torch

    times = {name: [] for name in sides}
    ratios = {name: [] for name in sides}  # per round: the median of side / reference
    order = list(sides)
    for _ in range(args.rounds):
        per_round = {name: [] for name in sides}
        for i, batch in enumerate(steps):
            took = {}
            for name in order[i % len(order) :] + order[: i % len(order)]:
                took[name] = timed(name, batch)
            for name in sides:
                times[name].append(took[name])
                per_round[name].append(took[name] / took[reference])
        for name in sides:
            ratios[name].append(statistics.median(per_round[name]))

    a_step = "one name a step" if k == 1 else f"{k} names a step (eager: checked, not timed)"
    print(f"microgpt's GPT: {model.spec}, {len(model.parameters())} parameters; {a_step}")
    libraries = [f"Python {platform.python_version()} ({sys.platform})"]
    if torch is not None:
        libraries.append(f"torch {torch.__version__} (1 thread)")
    if np is not None:
        libraries.append(f"numpy {np.__version__}")
    what = "names" if k == 1 else "steps"
    print(f"{args.rounds} rounds x {args.names} {what}; {', '.join(libraries)}")
    print(f"{'side':<13} {'ms a step':>10} {'/ ' + reference:>9}   rounds' medians")
    for name in sides:
        ms = 1000 * statistics.median(times[name])
        r = ratios[name]
        print(f"{name:<13} {ms:>10.2f} {statistics.median(r):>9.2f}   {min(r):.2f}..{max(r):.2f}")
    for backend in compiled if k == 1 else ():
        ms = statistics.median(times[backend])
        tuned_x = statistics.median(times["eager tuned"]) / ms
        plain_x = statistics.median(times["eager"]) / ms
        print(
            f"{backend}: {plain_x:.1f}x eager, {tuned_x:.1f}x eager tuned; compiling its "
            f"{len(compiled[backend].lengths)} lengths {compile_s[backend]:.1f} s"
        )


if __name__ == "__main__":
    main()
