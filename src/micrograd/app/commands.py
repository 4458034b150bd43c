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
from micrograd.data import DATASETS, names
from micrograd.engine import Value
from micrograd.io import (
    atomic_write,
    check_target,
    write_files,
)
from micrograd.teach.drawings import fmt_number, render_dot, to_dot, to_mermaid
from micrograd.teach.explain import explain
from micrograd.teach.expr import ExpressionError, assignments, parse_expression
from micrograd.teach.quiz import quiz
from micrograd.teach.stepper import stepper
from micrograd.text import language
from micrograd.text import text as say


class UsageError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


# ---------------------------------------------------------------------------- demo and train
FORMATS = ("svg", "png", "dot", "mermaid")
# points drawn from a 2-D data set of micrograd.data.DATASETS, where the command trains on it (a
# new data set there is a choice of --data with POINTS, until it needs more)
POINTS = 300
SIZES = {"yinyang": 400}  # its two small dots need the points
IMAGES = {"digits": (8, 8), "mnist": (28, 28)}  # image data sets: (height, width)
DATA = (*sorted(DATASETS), *IMAGES, "names")  # --data's data sets; any other is a text file
GPT_OPTIONS = ("--n-layer", "--n-head", "--n-embd", "--block-size")  # a GPT's sizes, not an MLP's
OUTPUTS = ("model.json", "decision_boundary.png", "confusion.png", "misclassified.png", "loss.png")
MONITOR = 2000  # the train accuracy of each step is measured on at most this many images


def dest(option: str) -> str:
    """The attribute of an option's value: --n-layer is args.n_layer."""
    return option[2:].replace("-", "_")


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
    for option in GPT_OPTIONS:
        if getattr(args, dest(option)) is not None:
            raise UsageError(say("gpt.err_gpt_option", lang, option=option))
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


def bridge_command(args: argparse.Namespace) -> int:
    """`micrograd bridge`: the array operations of the demo's model, the digits model, a GPT or
    a saved model, one line each (micrograd.teach.bridge); --write FILE.py writes them as a numpy
    script (or PyTorch with --torch) that prints the loss and gradients of a few rows."""
    from micrograd.data import CharTokenizer
    from micrograd.gpt import GPT
    from micrograd.io import load, load_gpt
    from micrograd.nn import MLP
    from micrograd.teach import bridge, script

    lang = language(args.lang)
    if args.hidden and (args.gpt or args.model):
        raise UsageError(say("bridge.err_hidden", lang))
    if args.torch and not args.write:
        raise UsageError(say("bridge.err_torch", lang))
    model: MLP | GPT
    tokenizer = CharTokenizer(names())
    random.seed(args.seed)  # the weights a new model draws: the same each run of this seed
    if args.model:  # a model.json, or else a gpt.json
        try:
            model = load(args.model)
        except ValueError as not_mlp:
            try:
                model, tokenizer = load_gpt(args.model)
            except ValueError:
                raise not_mlp from None
    elif args.gpt:
        model = GPT(vocab_size=tokenizer.vocab_size)  # microgpt's sizes
    else:
        kind = "images" if args.digits else "points"
        hidden = args.hidden or DEFAULTS[kind]["hidden"]
        model = MLP(64, [*hidden, 10]) if args.digits else MLP(2, [*hidden, 1])
    if isinstance(model, GPT):
        length = min(args.length, model.block_size)
        shown = bridge.of_gpt(model, length)
        rows = bridge.gpt_rows(model, tokenizer, length, names())
    else:
        shown = bridge.of_classifier(model)
        rows = bridge.classifier_rows(model)
    if not args.write:
        print(shown.text(lang))
        return 0
    write = script.torch_script if args.torch else script.numpy_script
    atomic_write(args.write, write(shown, rows, model.spec).encode())
    print(say("bridge.wrote", lang, path=args.write, rows=len(rows)))
    return 0
