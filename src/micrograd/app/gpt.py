"""`micrograd train --data names` and `micrograd sample`: Karpathy's microgpt, its GPT trained on
the first names shipped with the package, and names drawn from a saved one.

microgpt's recipe, step by step: one document a step (the names shuffled once, then taken in
turn), the mean negative log likelihood of its next tokens, Adam with betas (0.85, 0.99) and eps
1e-8, the learning rate 0.01 decaying linearly to 0 over the run; then samples at temperature 0.5.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from micrograd.app.commands import UsageError, check_out_folder, progress_bar, write_out_folder
from micrograd.data import CharTokenizer, names
from micrograd.io import gpt_bytes, load_gpt
from micrograd.nn import GPT
from micrograd.optim import Adam, LinearLR
from micrograd.text import language
from micrograd.text import text as say
from micrograd.tuning import tuned

# A step builds 36,000 Values for a 3-letter name, 53,000 for a 5-letter one and 107,000 for an
# 11-letter one (~8,500 a position: the matrices' multiply-adds). 200 steps took 32-35 s inside
# tuned() on the 2-core development machine while other test runs kept both cores busy (0.16 s
# a step; PyTorch float64 on one thread: 3-4 ms): well under a minute. microgpt runs 1,000.
STEPS = 200
LEARNING_RATE = 0.01
BETAS = (0.85, 0.99)
EPS = 1e-8
TEMPERATURE = 0.5
SAMPLES = 10
OUTPUTS = ("gpt.json", "gpt_loss.png")
MEAN_OF = 50  # the loss picture's running mean: one name a step makes each step's loss noisy


def train_gpt(
    model: GPT,
    tokenizer: CharTokenizer,
    docs: Sequence[str],
    steps: int,
    lr: float = LEARNING_RATE,
    on_step: Callable[[int, float], None] | None = None,
) -> list[float]:
    """microgpt's training loop on `docs`, in order (docs[step % len(docs)]): the loss of one
    document a step, backward, an Adam step at lr * (1 - step / steps). Returns each step's loss;
    a loss that is not a number stops it with FloatingPointError."""
    optimizer = Adam(model.parameters(), lr=lr, betas=BETAS, eps=EPS)
    schedule = LinearLR(optimizer, start_factor=1.0, end_factor=0.0, total_iters=steps)
    losses = []
    with tuned():  # Value's op methods compiled, fewer full garbage collections
        for step in range(steps):
            loss = model.loss(tokenizer.encode(docs[step % len(docs)]))
            if not math.isfinite(loss.data):
                raise FloatingPointError(f"the loss is {loss.data}")
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            losses.append(loss.data)
            if on_step is not None:
                on_step(step, loss.data)
    return losses


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
    and SAMPLES names it makes up, write gpt.json (and gpt_loss.png) into args.out."""
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
        losses = train_gpt(model, tokenizer, docs, steps, lr, lambda _, loss: bar(loss, None))
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
    write_out_folder(args.out, files)
    if not args.quiet:
        joined = ("、" if lang == "zh" else ", ").join(files)
        done = {"steps": steps, "seconds": seconds, "files": joined, "out": args.out}
        print(say("cli.out_done", lang, **done), file=out)
    return {"losses": losses, "final_loss": final, "seconds": seconds, "samples": samples}


def sample_command(args: argparse.Namespace) -> int:
    """`micrograd sample MODEL`: print args.n names drawn from a saved GPT."""
    lang = language(args.lang)
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
    return 0
