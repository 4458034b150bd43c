"""The GPT's subcommands, once app/cli.py has read the command line: `micrograd train --data
names` (or --data FILE.txt) and `micrograd sample`. Each takes the parsed arguments."""

from __future__ import annotations

import argparse
import inspect
import random
import sys
import time
from collections.abc import Collection, Sequence
from typing import Any

from micrograd.app.commands import (
    DATA,
    GPT_OPTIONS,
    UsageError,
    check_out_folder,
    dest,
    progress_bar,
    write_out_folder,
)
from micrograd.app.train import LEARNING_RATE, train_gpt
from micrograd.data import CharTokenizer, documents, names
from micrograd.gpt import GPT
from micrograd.io import (
    MAX_BLOCK,
    check_gpt_config,
    check_target,
    gpt_bytes,
    gpt_documents,
    load_gpt,
)
from micrograd.replay import backend
from micrograd.text import language
from micrograd.text import text as say
from micrograd.tuning import tuned

# `micrograd train --data names` and `micrograd sample`: microgpt's recipe, step by step. One
# document a step (the names shuffled once, then taken in turn), the mean negative log likelihood
# of its next tokens, Adam with betas (0.85, 0.99) and eps 1e-8, the learning rate 0.01 decaying
# linearly to 0 over the run (micrograd.app.train.train_gpt); then samples at temperature 0.5.
# microgpt's 1,000 steps: a step's graph has 27,600 Values for a 2-letter name and 107,000 for an
# 11-letter one; eager that is 65-200 ms a step on the 2-core development machine, the compiled
# step (micrograd.app.tasks.CompiledStep) 2-4 ms on numpy and 5-9 ms on python (where Adam on the
# Values adds 6-8 ms). `micrograd train --data names` measured there, lightly loaded: 11 s in all
# on numpy, 40 s on python (compiling the lengths 4, 8 and 12 included: ~15 s).
GPT_STEPS = 1000
TEMPERATURE = 0.5
SAMPLES = 10
GPT_OUTPUTS = ("gpt.json", "gpt_loss.png", "gpt_attention.png")
MEAN_OF = 50  # the loss picture's running mean: one name a step makes each step's loss noisy
BOS_LABEL = "·"  # BOS on the attention picture's axes
# a GPT's sizes where --n-layer, --n-head, --n-embd, --block-size say nothing: GPT's own, microgpt's
GPT_DEFAULTS = {
    name: p.default for name, p in inspect.signature(GPT).parameters.items() if name != "vocab_size"
}


def printable(name: str) -> str:
    """A name made up by a GPT, as a terminal may show it: a character that is not printable
    (a control sequence a model file can make it draw) written as its escape, `\\x1b`."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in name)


def attention_picture(
    model: GPT, tokenizer: CharTokenizer, name: str, lang: str = "en", path: str | None = None
) -> bytes:
    """The attention picture (micrograd.app.plot.attention_weights) of each head of `model` on
    what it read while it drew `name`: BOS, then the name's characters, up to block_size tokens."""
    from micrograd.app import plot

    read = tokenizer.encode(name)[:-1][: model.block_size]
    labels = [BOS_LABEL if t == tokenizer.bos else tokenizer.decode([t]) for t in read]
    return plot.attention_weights(model.attention(read), labels, path, lang)


def _refuse_mlp_options(args: argparse.Namespace, lang: str) -> None:
    """A UsageError for an option of the MLP's training given for a GPT."""
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


def trains_gpt(data: str) -> bool:
    """Whether `--data data` trains a GPT: the shipped names, or a text file of documents."""
    return data == "names" or data not in DATA


def _documents(args: argparse.Namespace, lang: str) -> list[str]:
    """The documents --data names: the shipped names, or the lines of a text file."""
    if args.data == "names":
        return names()
    try:
        return documents(args.data)
    except OSError as e:
        raise OSError(say("gpt.err_data_file", lang, path=args.data, why=e.strerror)) from None
    except ValueError as e:
        raise ValueError(say("gpt.err_data_file", lang, path=args.data, why=e)) from None


def _gpt_config(args: argparse.Namespace, vocab_size: int, lang: str) -> dict[str, int]:
    """GPT(**config) as --n-layer, --n-head, --n-embd and --block-size say (microgpt's sizes
    where they say nothing), checked as a model file holds it before any training."""
    config = {"vocab_size": vocab_size}
    for option in GPT_OPTIONS:
        given = getattr(args, dest(option))
        config[dest(option)] = GPT_DEFAULTS[dest(option)] if given is None else given
    if config["n_embd"] % config["n_head"]:
        raise UsageError(say("gpt.err_heads", lang, n_embd=config["n_embd"], n=config["n_head"]))
    if config["block_size"] > MAX_BLOCK:
        raise UsageError(say("gpt.err_block", lang, block=config["block_size"], most=MAX_BLOCK))
    try:
        check_gpt_config(config)
    except ValueError as e:  # too many parameters: its message says how many
        raise UsageError(str(e)) from None
    return config


def _long_documents(docs: Sequence[str], block_size: int, lang: str) -> str | None:
    """A note when documents are longer than the block: GPT.loss learns the first block_size
    characters of a longer one, and never where it ends."""
    long = [d for d in docs if len(d) >= block_size]
    if not long:
        return None
    longest = max(len(d) for d in long)
    fields = {"long": len(long), "n": len(docs), "block": block_size, "longest": longest}
    return say("gpt.note_long", lang, most=MAX_BLOCK, **fields)


def sample_line(i: int, name: str, seen: Collection[str] | None, lang: str) -> str:
    """Made-up name i as printed, marked new or as a copy of a training document (a GPT that
    learned its data well draws some of them back); unmarked where the documents are unknown."""
    key = "out_sample" if seen is None else "out_copy" if name in seen else "out_new"
    shown = printable(name) if name else say("gpt.empty_name", lang)  # BOS drawn first
    return say(f"gpt.{key}", lang, i=i, name=shown)


def copies_line(samples: Sequence[str], seen: Collection[str], lang: str) -> str:
    """How many of the made-up names are training documents."""
    copies = sum(name in seen for name in samples)
    return say("gpt.out_copies", lang, copies=copies, new=len(samples) - copies, n=len(samples))


def run_gpt_training(args: argparse.Namespace, out: Any = None) -> dict[str, Any]:
    """`micrograd train --data names` (or --data FILE.txt, one document a line): train
    microgpt's GPT, of the sizes the options give, print the loss and SAMPLES names it makes up,
    each marked new or a copy of a document, and write gpt.json (with its documents; and
    gpt_loss.png, and gpt_attention.png for the first name) into args.out."""
    out = out or sys.stdout
    lang = language(args.lang)
    _refuse_mlp_options(args, lang)
    steps, lr = args.steps or GPT_STEPS, args.lr or LEARNING_RATE
    docs = _documents(args, lang)
    random.Random(args.seed).shuffle(docs)  # microgpt shuffles its documents once
    tokenizer = CharTokenizer(docs)
    config = _gpt_config(args, tokenizer.vocab_size, lang)
    random.seed(args.seed)  # the weights come from Python's random, as in microgpt
    model = GPT(**config)
    if not args.no_plot:  # fail before training, not after, if matplotlib is missing
        from micrograd.app import plot

        plot.pyplot()
    check_out_folder(args.out, lang, GPT_OUTPUTS)
    note = _long_documents(docs, model.block_size, lang)
    if note:
        print(note, file=out)

    if not args.quiet and backend(args.backend).replays:  # the first steps' times include it
        print(say("gpt.out_compiling", lang), file=out)
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
    if final > losses[0] and last >= 10:  # worse over 10+ steps, not one noisy name: too large
        print(say("gpt.note_lr", lang, lr=lr, default=LEARNING_RATE), file=out)
    seen = set(docs)
    for i, name in enumerate(samples, 1):
        print(sample_line(i, name, seen, lang), file=out)
    print(copies_line(samples, seen, lang), file=out)
    # everything made before anything is written
    files = {"gpt.json": gpt_bytes(model, tokenizer, documents=docs)}
    if not args.no_plot:
        kind = "names" if args.data == "names" else "documents"
        files["gpt_loss.png"] = plot.next_token_loss(
            losses, model.spec, len(docs), MEAN_OF, lang, kind
        )
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
        docs = gpt_documents(args.model)
    except FileNotFoundError:
        raise FileNotFoundError(say("gpt.err_no_model", lang, path=args.model)) from None
    except ValueError as e:
        raise ValueError(say("gpt.err_bad_model", lang, why=e)) from None
    seen = None if docs is None else set(docs)
    rng = random.Random(args.seed)
    samples = []
    with tuned():
        for i in range(1, args.n + 1):
            try:
                name = tokenizer.decode(model.sample(tokenizer, args.temperature, rng))
            except FloatingPointError as e:  # finite numbers whose sums overflow
                raise ValueError(say("gpt.err_bad_model", lang, why=f"{args.model}: {e}")) from None
            print(sample_line(i, name, seen, lang))
            samples.append(name)
            if i == 1 and args.attention is not None:
                attention_picture(model, tokenizer, name, lang, args.attention)
    if seen is not None:
        print(copies_line(samples, seen, lang))
    if args.attention is not None:
        print(say("gpt.out_attention", lang, path=args.attention))
    return 0
