"""What the `micrograd` command's subcommands do, once app/cli.py has read the command line:
train (and demo), graph, explain, playground, and the GPT's train --data names and sample. Each
takes the parsed arguments."""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import random
import shutil
import sys
import time
from collections.abc import Sequence
from typing import Any

from micrograd.app.defaults import DEFAULTS, LEARNING_RATES
from micrograd.app.train import LEARNING_RATE, train_gpt
from micrograd.data import DATASETS, CharTokenizer, names
from micrograd.engine import Value
from micrograd.gpt import GPT
from micrograd.io import atomic_write, check_target, gpt_bytes, load_gpt, write_files
from micrograd.teach.drawings import fmt_number, render_dot, to_dot, to_mermaid
from micrograd.teach.explain import explain
from micrograd.teach.expr import ExpressionError, assignments, parse_expression
from micrograd.teach.quiz import quiz
from micrograd.teach.stepper import stepper
from micrograd.text import language
from micrograd.text import text as say
from micrograd.tuning import tuned


class UsageError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


# ---------------------------------------------------------------------------- demo and train
FORMATS = ("svg", "png", "dot", "mermaid")
# points drawn from a 2-D data set of micrograd.data.DATASETS, where the command trains on it (a
# new data set there is a choice of --data with POINTS, until it needs more)
POINTS = 300
SIZES = {"yinyang": 400}  # its two small dots need the points
IMAGES = {"digits": (8, 8), "mnist": (28, 28)}  # image data sets: (height, width)
OUTPUTS = ("model.json", "decision_boundary.png", "confusion.png", "misclassified.png", "loss.png")
MONITOR = 2000  # the train accuracy of each step is measured on at most this many images


def _data(args: argparse.Namespace) -> tuple[Any, Any, Any, Any]:
    """(X_train, y_train, X_test, y_test) of the chosen data set."""
    from micrograd.data import digits, mnist, split

    if args.data == "mnist":
        if not args.data_dir:
            raise UsageError(say("cli.err_mnist_dir", language(args.lang)))
        try:
            return (*mnist(args.data_dir, "train"), *mnist(args.data_dir, "test"))
        except FileNotFoundError:
            lang = language(args.lang)
            raise FileNotFoundError(
                say("cli.err_mnist_missing", lang, folder=args.data_dir)
            ) from None
    if args.data == "digits":
        X, y = digits()
    else:
        n = SIZES.get(args.data, POINTS)
        X, y = DATASETS[args.data](n=n, noise=args.noise, seed=args.seed)
    (X_train, y_train), _, (X_test, y_test) = split(X, y, test=1 / 3, seed=args.seed)
    return X_train, y_train, X_test, y_test


def run_training(args: argparse.Namespace, out: Any = None) -> dict[str, float]:
    """Train as the arguments say, print accuracies, write the model (and plots) into args.out."""
    out = out or sys.stdout
    from micrograd.app.tasks import Classifier
    from micrograd.app.train import fit
    from micrograd.io import model_bytes
    from micrograd.nn import MLP
    from micrograd.optim import SGD, Adam, LinearLR

    lang = language(args.lang)
    images = args.data in IMAGES
    for key, value in DEFAULTS["images" if images else "points"].items():
        if getattr(args, key, None) is None:
            setattr(args, key, value)
    X_train, y_train, X_test, y_test = _data(args)
    classes = max(y_train) + 1
    sizes = [len(X_train[0]), *args.hidden, 1 if classes == 2 else classes]
    _check_budget(sizes, args)
    random.seed(args.seed)  # the weights come from Python's random, as in the original
    model = MLP(sizes[0], sizes[1:], activation=args.activation)
    if images:
        _fit_init_to_width(model)
    clf = Classifier(model, classes)
    if args.optimizer == "sgd":
        lr = args.lr or LEARNING_RATES["sgd"]
        optimizer: Any = SGD(model.parameters(), lr=lr, momentum=args.momentum)
        scheduler = LinearLR(optimizer, 1.0, 0.1, args.steps)  # the original demo's decay
    else:
        lr = args.lr or LEARNING_RATES["adam"]
        optimizer, scheduler = Adam(model.parameters(), lr=lr), None
    if not args.no_plot:  # fail before training, not after, if matplotlib is missing
        from micrograd.app.plot import pyplot

        pyplot()
    check_out_folder(args.out, lang)  # and if the results could not be written

    bar = progress_bar(args.steps, args.quiet, lang)
    start = time.perf_counter()
    done = [0]

    def on_step(step: int, loss: float, acc: float) -> None:
        if step == 0 and classes > 2 and loss > 2 * math.log(classes):
            bar(None, None)  # a line of its own, not inside the progress bar
            print(_first_loss_hint(loss, classes, lang), file=out)
        done[0] = step + 1
        bar(loss, acc)

    try:
        history = fit(
            clf,
            X_train,
            y_train,
            optimizer,
            args.steps,
            batch_size=args.batch_size,
            seed=args.seed,
            scheduler=scheduler,
            on_step=on_step,
            monitor=(X_train[:MONITOR], y_train[:MONITOR]),
            backend=getattr(args, "backend", "auto"),  # the demo has no --backend: auto
        )
    except FloatingPointError as e:
        bar(None, None)
        why = str(e).split(";")[0]
        raise ArithmeticError(say("cli.err_diverged", lang, step=done[0] + 1, why=why)) from None
    seconds = time.perf_counter() - start
    bar(None, None)
    train_acc, test_acc = clf.accuracy(X_train, y_train), clf.accuracy(X_test, y_test)
    print(say("cli.out_train_accuracy", lang, accuracy=train_acc), file=out)
    print(say("cli.out_test_accuracy", lang, accuracy=test_acc), file=out)
    files = {"model.json": model_bytes(model)}  # everything made before anything is written
    if not args.no_plot:
        from micrograd.app import plot

        drawn = plot.picture_language(lang)
        title = say("plot.title", drawn, data=args.data, spec=model.spec, accuracy=test_acc)
        if images:
            predicted = clf.predict(X_test)
            files["confusion.png"] = plot.confusion_matrix(
                y_test, predicted, classes, title=title, lang=drawn
            )
            files["misclassified.png"] = plot.misclassified(
                X_test, y_test, predicted, IMAGES[args.data], lang=drawn
            )
        else:
            files["decision_boundary.png"] = plot.decision_boundary(
                clf, X_train, y_train, title=title, X_test=X_test, y_test=y_test, lang=drawn
            )
        files["loss.png"] = plot.loss_curve(history, lang=drawn)
    write_out_folder(args.out, files)
    written = list(files)
    if not args.quiet:
        joined = ("、" if lang == "zh" else ", ").join(written)
        done_line = {"steps": args.steps, "seconds": seconds, "files": joined}
        print(say("cli.out_done", lang, **done_line, out=args.out), file=out)
    return {"train_accuracy": train_acc, "test_accuracy": test_acc, "seconds": seconds}


# Values one training step may build: beyond this a scalar engine takes minutes (tracing costs
# 3-6 us per Value) and gigabytes. With numpy, --hidden 256,256 builds 270,000 (to trace) and
# 512,512 is refused; without it, the eager engine builds them for every sample of the batch.
MAX_VALUES_PER_STEP = 1_000_000


def _fit_init_to_width(model: Any) -> None:
    """Scale each layer's weights by 1/sqrt(its input width): the original's uniform(-1, 1) on 64
    or 784 pixels makes the first logits large, and a softmax over 10 classes then starts far
    above ln 10 = 2.30 and spends its first steps undoing that (the lecture on initialisation)."""
    for layer in model.layers:
        scale = 1 / math.sqrt(len(layer.neurons[0].w))
        for neuron in layer.neurons:
            for w in neuron.w:
                w.data *= scale


def _first_loss_hint(loss: float, classes: int, lang: str = "en") -> str:
    """What a first loss far above ln(classes) says about the initialisation."""
    return say("cli.out_first_loss", lang, loss=loss, classes=classes, ln=math.log(classes))


def _check_budget(sizes: list[int], args: argparse.Namespace) -> None:
    """Refuse widths whose graphs would not fit in memory, before building anything: every
    weight makes a `*` and a `+` node per sample (on the fast path, once, to trace; without numpy,
    the eager engine does it for each sample of the batch), and the L2 penalty as many again."""
    params = sum((a + 1) * b for a, b in zip(sizes, sizes[1:]))
    eager = importlib.util.find_spec("numpy") is None
    points = SIZES.get(args.data, POINTS) if args.data in DATASETS else 60_000
    samples = (args.batch_size or points) if eager else 1
    per_step = 2 * params * samples + 2 * params
    if per_step > MAX_VALUES_PER_STEP:
        lang = language(args.lang)
        # without numpy each sample of the batch is built, so a smaller batch helps; with
        # numpy one sample is traced whatever the batch, and only smaller widths do
        hint = say("cli.err_budget_eager", lang) if eager else ""
        hidden = ",".join(map(str, args.hidden))
        limit = MAX_VALUES_PER_STEP
        raise UsageError(
            say("cli.err_budget", lang, hidden=hidden, values=per_step, limit=limit, eager=hint)
        )


def check_out_folder(folder: str, lang: str = "en", outputs: Sequence[str] = OUTPUTS) -> None:
    """OSError now, before training, if the results (the files `outputs`) could not be written
    into `folder`."""
    if not folder:
        raise UsageError(say("cli.err_out_empty", lang))
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise OSError(say("cli.err_out_not_folder", lang, folder=folder))
    parent = folder if os.path.isdir(folder) else os.path.dirname(os.path.abspath(folder))
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):  # a/b where a is a file: no folder can be made there
        raise OSError(say("cli.err_out_not_folder", lang, folder=parent))
    if not os.access(parent, os.W_OK):
        raise OSError(say("cli.err_out_no_permission", lang, folder=folder))
    for name in outputs:  # a file there that would be refused is refused now
        path = os.path.join(folder, name)
        if os.path.lexists(path):
            check_target(path)


def write_out_folder(folder: str, files: dict[str, bytes]) -> None:
    """Write the results into `folder`, all or none (micrograd.io.write_files); a folder made for
    them is removed again if they could not be written."""
    made, parent = None, os.path.abspath(folder)
    while not os.path.exists(parent):  # the outermost folder that makedirs will create
        made, parent = parent, os.path.dirname(parent)
    os.makedirs(folder, exist_ok=True)
    try:
        write_files({os.path.join(folder, name): data for name, data in files.items()})
    except BaseException:
        if made:
            shutil.rmtree(made, ignore_errors=True)
        raise


def progress_bar(total: int, quiet: bool, lang: str = "en") -> Any:
    """A callback (loss, acc) that advances a tqdm bar; (None, None) closes it. An acc of None
    (a GPT's steps have no accuracy) shows the loss alone."""
    if quiet:
        return lambda loss, acc: None
    try:
        from tqdm import tqdm
    except ImportError:  # no bar without tqdm: a line every 10% of the run
        count = [0]

        def report(loss: float | None, acc: float | None) -> None:
            if loss is None:
                return
            count[0] += 1
            if count[0] % max(1, total // 10) == 0:
                line = {"step": count[0], "total": total, "loss": loss, "accuracy": acc}
                key = "gpt.out_step" if acc is None else "cli.out_step"
                print(say(key, lang, **line), file=sys.stderr)

        return report
    unit = say("cli.out_unit", lang)
    bar = tqdm(total=total, desc=say("cli.out_progress", lang), unit=unit, file=sys.stderr)

    def update(loss: float | None, acc: float | None) -> None:
        if loss is None:
            bar.close()
            return
        if acc is None:
            bar.set_postfix(loss=f"{loss:.4f}", refresh=False)
        else:
            bar.set_postfix(loss=f"{loss:.4f}", acc=f"{acc:.2f}", refresh=False)
        bar.update()

    return update


def run_train(args: argparse.Namespace) -> int:
    """`micrograd demo` and `micrograd train`: train, print the accuracies, write the files."""
    run_training(args)
    return 0


# ---------------------------------------------------------------------------- graph and explain
# Their help, errors and output are in the language of --lang, else of the locale (LANG=zh_CN...).
def _expression(args: argparse.Namespace) -> Value:
    try:
        return parse_expression(args.expr, assignments(args.set))
    except ExpressionError as e:
        raise UsageError(e.text(language(args.lang))) from None


def graph_command(args: argparse.Namespace) -> int:
    """`micrograd graph`: the expression's graph as DOT, Mermaid, SVG or PNG."""
    lang = language(args.lang)
    out = _expression(args)
    out.backward()
    fmt = args.format
    if fmt is None and args.output and args.output != "-":
        fmt = os.path.splitext(args.output)[1].lstrip(".").lower() or None
    fmt = fmt or "dot"
    if fmt not in FORMATS:
        raise UsageError(say("unknown_format", lang, fmt=fmt, formats=", ".join(FORMATS)))
    if fmt == "png" and args.output in (None, "-") and sys.stdout.isatty():
        raise UsageError(say("png_tty", lang))
    draw = to_mermaid if fmt == "mermaid" else to_dot
    text = draw(out, max_nodes=args.max_nodes, lang=lang)
    data = render_dot(text, fmt, lang) if fmt in ("svg", "png") else text.encode()
    atomic_write(args.output or "-", data)
    return 0


def explain_command(args: argparse.Namespace) -> int:
    """`micrograd explain`: every step of backward in words, the stepper page, or the quiz."""
    out = _expression(args)
    fmt = args.format or ("html" if (args.output or "").lower().endswith(".html") else "text")
    if fmt == "html":  # the backward stepper: a page that steps through the same pass
        text = stepper(out, lang=args.lang, max_nodes=args.max_nodes, quiz=args.quiz).page
    elif args.quiz:  # asked here, one += at a time
        print(f"{out.label} = {fmt_number(out.data)}")
        score = quiz(out, lang=args.lang)
        return 0 if score.asked == score.total else 1  # left before the end: not done
    else:
        steps = explain(out, max_nodes=args.max_nodes, lang=args.lang)
        text = f"{out.label} = {fmt_number(out.data)}\n{steps}\n"
    atomic_write(args.output or "-", text.encode())  # computed whole: an error writes nothing
    if args.output and args.output != "-":  # the learner's next step is to open it
        key = "wrote_page" if fmt == "html" else "wrote"
        print(say(key, language(args.lang), path=args.output))
    return 0


def playground_command(args: argparse.Namespace) -> int:
    """`micrograd playground`: serve the playground on 127.0.0.1."""
    from micrograd.app.playground import serve  # numpy and the server only for this command

    return serve(args.port, open_browser=not args.no_browser, lang=args.lang)


# ---------------------------------------------------------------------------- the GPT
# `micrograd train --data names` and `micrograd sample`: microgpt's recipe, step by step. One
# document a step (the names shuffled once, then taken in turn), the mean negative log likelihood
# of its next tokens, Adam with betas (0.85, 0.99) and eps 1e-8, the learning rate 0.01 decaying
# linearly to 0 over the run (micrograd.app.train.train_gpt); then samples at temperature 0.5.
# microgpt's 1,000 steps: a step's graph has 36,000 Values for a 3-letter name and 107,000 for an
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
    steps, lr = args.steps or GPT_STEPS, args.lr or LEARNING_RATE
    docs = names()
    random.Random(args.seed).shuffle(docs)  # microgpt shuffles its documents once
    tokenizer = CharTokenizer(docs)
    random.seed(args.seed)  # the weights come from Python's random, as in microgpt
    model = GPT(tokenizer.vocab_size)
    if not args.no_plot:  # fail before training, not after, if matplotlib is missing
        from micrograd.app import plot

        plot.pyplot()
    check_out_folder(args.out, lang, GPT_OUTPUTS)

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
        print(say("gpt.out_sample", lang, i=i, name=printable(name)), file=out)
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
            try:
                name = tokenizer.decode(model.sample(tokenizer, args.temperature, rng))
            except FloatingPointError as e:  # finite numbers whose sums overflow
                raise ValueError(say("gpt.err_bad_model", lang, why=f"{args.model}: {e}")) from None
            print(say("gpt.out_sample", lang, i=i, name=printable(name)))
            if i == 1 and args.attention is not None:
                attention_picture(model, tokenizer, name, lang, args.attention)
    if args.attention is not None:
        print(say("gpt.out_attention", lang, path=args.attention))
    return 0
