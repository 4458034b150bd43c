"""The `micrograd` command: demo, train, graph, explain. Run `micrograd --help`."""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import shutil
import sys
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from micrograd import __version__
from micrograd.app.cli_texts import cli_text
from micrograd.app.defaults import DEFAULTS, LEARNING_RATES
from micrograd.engine import Value
from micrograd.io import atomic_write, check_target, write_files
from micrograd.teach.drawings import MAX_NODES, fmt_number, render_dot, to_dot, to_mermaid
from micrograd.teach.explain import explain
from micrograd.teach.expr import FUNCTIONS, ExpressionError, assignments, parse_expression
from micrograd.teach.messages import LANGUAGES, columns, language
from micrograd.teach.messages import text as say
from micrograd.teach.quiz import quiz
from micrograd.teach.stepper import stepper


class UsageError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        raise UsageError(f"{message} (see '{self.prog} --help')")


# ---------------------------------------------------------------------------- demo and train
def _hidden(text: str) -> list[int]:
    try:
        sizes = [int(s) for s in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected widths like 16,16, got {text!r}") from None
    if not sizes or any(s < 1 or s > 4096 for s in sizes):
        raise argparse.ArgumentTypeError(f"widths must be between 1 and 4096, got {text!r}")
    return sizes


def _number(kind: type, low: float, strict: bool) -> Any:
    """An argparse type: a finite `kind` above `low` (or at least `low` when not strict)."""

    def parse(text: str) -> Any:
        try:
            x = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a {kind.__name__}, got {text!r}") from None
        if not (x > low if strict else x >= low) or x == float("inf"):
            bound = f"above {low}" if strict else f"at least {low}"
            raise argparse.ArgumentTypeError(f"expected a finite number {bound}, got {text!r}")
        return x

    return parse


FORMATS = ("svg", "png", "dot", "mermaid")
SIZES = {"moons": 300, "circles": 300, "spiral": 300, "xor": 300, "yinyang": 400}
IMAGES = {"digits": (8, 8), "mnist": (28, 28)}  # image data sets: (height, width)
OUTPUTS = ("model.json", "decision_boundary.png", "confusion.png", "misclassified.png", "loss.png")
MONITOR = 2000  # the train accuracy of each step is measured on at most this many images


def _data(args: argparse.Namespace) -> tuple[Any, Any, Any, Any]:
    """(X_train, y_train, X_test, y_test) of the chosen data set."""
    from micrograd.data import DATASETS, digits, mnist, split

    if args.data == "mnist":
        if not args.data_dir:
            raise UsageError(
                "--data mnist needs --data-dir DIR, a folder with the four MNIST files"
            )
        return (*mnist(args.data_dir, "train"), *mnist(args.data_dir, "test"))
    if args.data == "digits":
        X, y = digits()
    else:
        X, y = DATASETS[args.data](n=SIZES[args.data], noise=args.noise, seed=args.seed)
    (X_train, y_train), _, (X_test, y_test) = split(X, y, test=1 / 3, seed=args.seed)
    return X_train, y_train, X_test, y_test


def run_training(args: argparse.Namespace, out: Any = None) -> dict[str, float]:
    """Train as the arguments say, print accuracies, write the model (and plots) into args.out."""
    out = out or sys.stdout
    from micrograd.app.train import Classifier, fit
    from micrograd.io import model_bytes
    from micrograd.nn import MLP
    from micrograd.optim import SGD, Adam, LinearLR

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
    _check_out_folder(args.out)  # and if the results could not be written

    bar = _progress(args.steps, args.quiet)
    start = time.perf_counter()
    done = [0]

    def on_step(step: int, loss: float, acc: float) -> None:
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
        )
    except FloatingPointError as e:
        bar(None, None)
        raise ArithmeticError(
            f"training diverged at step {done[0] + 1} ({str(e).split(';')[0]}); "
            "try a smaller --lr (or --momentum)"
        ) from None
    seconds = time.perf_counter() - start
    bar(None, None)
    train_acc, test_acc = clf.accuracy(X_train, y_train), clf.accuracy(X_test, y_test)
    print(f"train accuracy: {train_acc:.2f}", file=out)
    print(f"test accuracy: {test_acc:.2f}", file=out)
    files = {"model.json": model_bytes(model)}  # everything made before anything is written
    if not args.no_plot:
        from micrograd.app import plot

        title = f"{args.data}: {model.spec}, test accuracy {test_acc:.2f}"
        if images:
            predicted = clf.predict(X_test)
            files["confusion.png"] = plot.confusion_matrix(y_test, predicted, classes, title=title)
            files["misclassified.png"] = plot.misclassified(
                X_test, y_test, predicted, IMAGES[args.data]
            )
        else:
            files["decision_boundary.png"] = plot.decision_boundary(
                clf, X_train, y_train, title=title, X_test=X_test, y_test=y_test
            )
        files["loss.png"] = plot.loss_curve(history)
    _write_out_folder(args.out, files)
    written = list(files)
    if not args.quiet:
        print(
            f"trained {args.steps} steps in {seconds:.1f} s; wrote {', '.join(written)} to {args.out}",
            file=out,
        )
    return {"train_accuracy": train_acc, "test_accuracy": test_acc, "seconds": seconds}


# Values one training step may build: beyond this a scalar engine takes minutes (tracing costs
# 3-6 us per Value) and gigabytes. With numpy, --hidden 256,256 builds 270,000 (to trace) and
# 512,512 is refused; without it, the eager engine builds them for every sample of the batch.
MAX_VALUES_PER_STEP = 1_000_000


def _check_budget(sizes: list[int], args: argparse.Namespace) -> None:
    """Refuse widths whose graphs would not fit (redteam R2), before building anything: every
    weight makes a `*` and a `+` node per sample (on the fast path, once, to trace; without numpy,
    the eager engine does it for each sample of the batch), and the L2 penalty as many again."""
    params = sum((a + 1) * b for a, b in zip(sizes, sizes[1:]))
    eager = importlib.util.find_spec("numpy") is None
    samples = (args.batch_size or SIZES.get(args.data, 60_000)) if eager else 1
    per_step = 2 * params * samples + 2 * params
    if per_step > MAX_VALUES_PER_STEP:
        hint = (
            " or install numpy for the fast path (pip install 'micrograd-plus[fast]'),"
            if eager
            else ""
        )
        raise UsageError(
            f"--hidden {','.join(map(str, args.hidden))} builds about {per_step:,} Values a step, "
            f"more than {MAX_VALUES_PER_STEP:,} (a scalar engine makes one Python object per "
            f"number): choose smaller widths or a smaller --batch-size,{hint} or move the model "
            "to PyTorch (micrograd.export.to_torch)"
        )


def _check_out_folder(folder: str) -> None:
    """OSError now, before training, if the results could not be written into `folder`."""
    if not folder:
        raise UsageError("--out needs a folder name")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise OSError(f"--out {folder}: exists and is not a folder")
    parent = folder if os.path.isdir(folder) else os.path.dirname(os.path.abspath(folder))
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.access(parent, os.W_OK):
        raise OSError(f"--out {folder}: no permission to write there")
    for name in OUTPUTS:  # a file there that would be refused is refused now
        path = os.path.join(folder, name)
        if os.path.lexists(path):
            check_target(path)


def _write_out_folder(folder: str, files: dict[str, bytes]) -> None:
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


def _progress(total: int, quiet: bool) -> Any:
    """A callback (loss, acc) that advances a tqdm bar; (None, None) closes it."""
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
                print(
                    f"step {count[0]}/{total}  loss {loss:.4f}  accuracy {acc:.2f}", file=sys.stderr
                )

        return report
    bar = tqdm(total=total, desc="training", unit="step", file=sys.stderr)

    def update(loss: float | None, acc: float | None) -> None:
        if loss is None:
            bar.close()
            return
        bar.set_postfix(loss=f"{loss:.4f}", acc=f"{acc:.2f}", refresh=False)
        bar.update()

    return update


def _add_training_options(p: argparse.ArgumentParser, demo: bool, lang: str = "en") -> None:
    p.add_argument(
        "--out",
        default="micrograd-out",
        help=cli_text("help_out", lang),
    )
    p.add_argument("--seed", type=int, default=1337, help=cli_text("help_seed", lang))
    p.add_argument("--no-plot", action="store_true", help=cli_text("help_no_plot", lang))
    p.add_argument("--quiet", action="store_true", help=cli_text("help_quiet", lang))
    p.add_argument("--lang", choices=LANGUAGES, help=cli_text("help_lang", lang))
    if demo:
        p.set_defaults(data="moons", noise=0.1, activation="relu", lr=None, momentum=0.0)
        p.set_defaults(**DEFAULTS["points"])  # the original demo's MLP(2, [16, 16, 1]) and SGD
        return
    p.add_argument(
        "--data",
        choices=[*sorted(SIZES), *IMAGES],
        default="moons",
        help=cli_text("help_data", lang),
    )
    p.add_argument("--data-dir", help=cli_text("help_data_dir", lang))
    p.add_argument(
        "--noise",
        type=_number(float, 0, strict=False),
        default=0.1,
        help=cli_text("help_noise", lang),
    )
    p.add_argument("--hidden", type=_hidden, default=None, help=cli_text("help_hidden", lang))
    p.add_argument(
        "--activation",
        choices=["relu", "tanh", "sigmoid", "linear"],
        default="relu",
        help=cli_text("help_activation", lang),
    )
    p.add_argument(
        "--optimizer",
        choices=["sgd", "adam"],
        default=None,
        help=cli_text("help_optimizer", lang),
    )
    p.add_argument(
        "--lr",
        type=_number(float, 0, strict=True),
        default=None,
        help=cli_text("help_lr", lang),
    )
    p.add_argument(
        "--momentum",
        type=_number(float, 0, strict=False),
        default=0.0,
        help=cli_text("help_momentum", lang),
    )
    p.add_argument(
        "--steps",
        type=_number(int, 0, strict=True),
        default=None,
        help=cli_text("help_steps", lang),
    )
    p.add_argument(
        "--batch-size",
        type=_number(int, 0, strict=True),
        default=None,
        help=cli_text("help_batch_size", lang),
    )


# ---------------------------------------------------------------------------- graph and explain
# Their help, errors and output are in the language of --lang, else of the locale (LANG=zh_CN...).
def _expression(args: argparse.Namespace) -> Value:
    try:
        return parse_expression(args.expr, assignments(args.set))
    except ExpressionError as e:
        raise UsageError(e.text(language(args.lang))) from None


def _graph_command(args: argparse.Namespace) -> int:
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


def _explain_command(args: argparse.Namespace) -> int:
    out = _expression(args)
    fmt = args.format or ("html" if (args.output or "").lower().endswith(".html") else "text")
    if fmt == "html":  # the backward stepper: a page that steps through the same pass
        text = stepper(out, lang=args.lang, max_nodes=args.max_nodes, quiz=args.quiz).page
    elif args.quiz:  # asked here, one += at a time
        print(f"{out.label} = {fmt_number(out.data)}")
        quiz(out, lang=args.lang)
        return 0
    else:
        steps = explain(out, max_nodes=args.max_nodes, lang=args.lang)
        text = f"{out.label} = {fmt_number(out.data)}\n{steps}\n"
    atomic_write(args.output or "-", text.encode())  # computed whole: an error writes nothing
    return 0


def _add_expression_commands(sub: Any, lang: str) -> None:
    """Add `graph` and `explain` to the `micrograd` command, their help in `lang`."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("expr", help=say("help_expr", lang, functions=", ".join(FUNCTIONS)))
    common.add_argument(
        "--set", action="append", default=[], metavar="NAME=NUMBER", help=say("help_set", lang)
    )
    common.add_argument("--lang", choices=LANGUAGES, help=say("help_lang", lang))
    common.add_argument(
        "--max-nodes",
        type=_number(int, 0, strict=True),
        default=MAX_NODES,
        help=say("help_max_nodes", lang),
    )
    g = _translated(sub, "graph", common, lang)
    g.add_argument("--format", choices=FORMATS, help=say("help_format", lang))
    g.add_argument("-o", "--output", help=say("help_output", lang))
    g.set_defaults(run=_graph_command)
    e = _translated(sub, "explain", common, lang)
    e.add_argument("--format", choices=("text", "html"), help=say("help_explain_format", lang))
    e.add_argument("-o", "--output", help=say("help_output", lang))
    e.add_argument("--quiz", action="store_true", help=say("help_quiz", lang))
    e.set_defaults(run=_explain_command)


def _translated(sub: Any, name: str, common: argparse.ArgumentParser, lang: str) -> Any:
    """The subcommand `name`, with argparse's own words (usage, headings, -h) in `lang` too."""
    return _command(
        sub,
        name,
        lang,
        help=say(f"help_{name}", lang),
        description=say(f"about_{name}", lang),
        parents=[common],
    )


def _formatter(lang: str) -> type[argparse.HelpFormatter]:
    """A help formatter that writes argparse's own words ("usage: ", the headings) in `lang`;
    in Chinese it also wraps by screen columns and ends the headings with a full-width colon."""
    prefix = say("usage", lang)

    class Formatter(argparse.HelpFormatter):
        def add_usage(self, usage: Any, actions: Any, groups: Any, prefix_: Any = None) -> None:
            # prefix "" is argparse working out a subcommand's prog: left as it is
            super().add_usage(usage, actions, groups, prefix if prefix_ is None else prefix_)

        def format_help(self) -> str:
            text = super().format_help()
            if lang != "zh":
                return text
            usage, gap, rest = text.partition("\n\n")  # the usage's next lines line up under it
            usage = usage.replace("\n", "\n" + " " * (columns(prefix) - len(prefix)))
            titles = "|".join(re.escape(say(k, lang)) for k in ("positionals", "options"))
            return usage + gap + re.sub(rf"^({titles}):$", r"\1：", rest, flags=re.M)

        def _split_lines(self, text: str, width: int) -> list[str]:
            return _wrap(text, width) if lang == "zh" else super()._split_lines(text, width)

        def _fill_text(self, text: str, width: int, indent: str) -> str:
            if lang != "zh":
                return super()._fill_text(text, width, indent)
            return "\n".join(indent + line for line in _wrap(text, width - len(indent)))

    return Formatter


def _wrap(text: str, width: int) -> list[str]:
    """Text with Chinese in it as lines of about `width` columns, broken at a space or next to
    a Chinese character (a full-width comma or stop may hang past the end)."""
    units = re.findall(r"[\u2e80-\uffef]|[^\s\u2e80-\uffef]+|\s", " ".join(text.split()))
    lines, line = [], ""
    for unit in units:
        if line.strip() and columns(line + unit) > width and unit not in "，。：；、）":
            lines.append(line.rstrip())
            line = unit.lstrip()
        else:
            line += unit
    return [*lines, line.rstrip()] if line.strip() else lines


def _localized(p: argparse.ArgumentParser, lang: str) -> argparse.ArgumentParser:
    """`p`, made with add_help=False, given its headings and a -h in `lang`."""
    p._positionals.title = say("positionals", lang)
    p._optionals.title = say("options", lang)
    p.add_argument("-h", "--help", action="help", help=say("help_help", lang))
    return p


def _command(
    sub: Any, name: str, lang: str, help: str, description: str, parents: Sequence[Any] = ()
) -> Any:
    """The subcommand `name` of `sub`, its help and argparse's own words in `lang`."""
    p = sub.add_parser(
        name,
        parents=list(parents),
        help=help,
        description=description,
        formatter_class=_formatter(lang),
        add_help=False,
    )
    return _localized(p, lang)


def _language_of(argv: list[str]) -> str:
    """The language of the command's help and messages: the last --lang X or --lang=X before a
    '--' (read before the parser has run, for --help), else the locale's."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        given = arg.partition("=")[2] if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(argv):
            given = argv[i + 1]
        if given in LANGUAGES:
            found = given
    return found or language()


# ---------------------------------------------------------------------------- the command
def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The argument parser of the `micrograd` command, its help in `lang`."""
    parser = _localized(
        _Parser(
            prog="micrograd",
            description=cli_text("about_micrograd", lang),
            formatter_class=_formatter(lang),
            add_help=False,
        ),
        lang,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"micrograd {__version__}",
        help=cli_text("help_version", lang),
    )
    # `micrograd --lang zh CMD ...`: not listed, so that each command's own --lang is the one shown
    parser.add_argument("--lang", dest="main_lang", choices=LANGUAGES, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in ("demo", "train"):
        p = _command(
            sub,
            name,
            lang,
            help=cli_text(f"help_{name}", lang),
            description=cli_text(f"about_{name}", lang),
        )
        _add_training_options(p, demo=name == "demo", lang=lang)
        p.set_defaults(run=_run_train)
    _add_expression_commands(sub, lang)
    pg = _command(
        sub,
        "playground",
        lang,
        help=cli_text("help_playground", lang),
        description=cli_text("about_playground", lang),
    )
    pg.add_argument(
        "--port",
        type=_number(int, 0, strict=False),
        default=8000,
        help=cli_text("help_port", lang),
    )
    pg.add_argument("--no-browser", action="store_true", help=cli_text("help_no_browser", lang))
    pg.add_argument("--lang", choices=LANGUAGES, help=cli_text("help_page_lang", lang))
    pg.set_defaults(run=_playground_command)
    from micrograd.practice import command as practice  # its checker loads only when it runs

    practice_help, practice_about = practice.about(lang)
    pr = _command(sub, "practice", lang, help=practice_help, description=practice_about)
    practice.add_arguments(pr, lang)
    pr.set_defaults(run=practice.run)
    return parser


def _playground_command(args: argparse.Namespace) -> int:
    from micrograd.app.playground import serve  # numpy and the server only for this command

    return serve(args.port, open_browser=not args.no_browser, lang=args.lang)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status: 0, 1 for a failure, 2 for a usage mistake. No
    traceback reaches the user: every error is one line."""
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = _language_of(argv)
    parser = build_parser(lang)
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        if args.main_lang and getattr(args, "lang", None) is None:  # micrograd --lang zh CMD
            args.lang = args.main_lang
        return int(args.run(args) or 0)
    except UsageError as e:
        print(say("error", lang, message=f"{e}{_dash_hint(argv)}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `micrograd explain ... | head`: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except MemoryError:
        print("micrograd: error: out of memory; try smaller --hidden widths", file=sys.stderr)
        return 1
    except (ImportError, OSError, ValueError, ArithmeticError, TypeError) as e:
        print(say("error", lang, message=str(e)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("micrograd: interrupted", file=sys.stderr)
        return 130


def _dash_hint(argv: list[str]) -> str:
    """A hint when an argument that starts with '-' was not meant as an option (redteam U1)."""
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and arg not in ("-", "-o", "-h"):
            return (
                f"; {arg!r} starts with '-', so it reads as an option: put an expression like it "
                f"last, after '--' (micrograd explain --set a=1 -- {arg!r}); write a negative "
                "number as --lr=-1"
            )
    return ""


def _run_train(args: argparse.Namespace) -> int:
    run_training(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
