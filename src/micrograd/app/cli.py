"""The `micrograd` command: demo, train, sample, graph, explain. Run `micrograd --help`."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from micrograd import __version__, replay
from micrograd.app import commands, gpt_commands, train
from micrograd.app.commands import (
    FORMATS,
    UsageError,
    explain_command,
    graph_command,
    playground_command,
    run_train,
)
from micrograd.app.defaults import DEFAULTS
from micrograd.data import names
from micrograd.teach.drawings import MAX_NODES
from micrograd.teach.expr import FUNCTIONS
from micrograd.text import LANGUAGES, columns, language, op_error, usage_error
from micrograd.text import text as say


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        raise UsageError(f"{message} (see '{self.prog} --help')")


# ---------------------------------------------------------------------------- demo and train
def _help(key: str, lang: str) -> str:
    """The help text `key` of the command in `lang`, with the training defaults filled in."""
    from micrograd.app.defaults import default_fields

    return say(f"cli.{key}", lang, **default_fields())


def _hidden(lang: str) -> Any:
    """An argparse type: hidden widths such as 16,16, each from 1 to 4096 (its errors in `lang`)."""

    def parse(text: str) -> list[int]:
        try:
            sizes = [int(s) for s in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(say("cli.err_widths", lang, text=text)) from None
        if not sizes or any(s < 1 or s > 4096 for s in sizes):
            raise argparse.ArgumentTypeError(say("cli.err_widths_range", lang, text=text))
        return sizes

    return parse


def _number(kind: type, low: float, strict: bool, lang: str = "en") -> Any:
    """An argparse type: a finite `kind` above `low` (or at least `low` when not strict)."""

    def parse(text: str) -> Any:
        try:
            x = kind(text)
        except ValueError:
            key = "err_not_int" if kind is int else "err_not_number"
            raise argparse.ArgumentTypeError(say(f"cli.{key}", lang, text=text)) from None
        if not (x > low if strict else x >= low) or x == float("inf"):
            key = "err_not_above" if strict else "err_not_at_least"
            raise argparse.ArgumentTypeError(say(f"cli.{key}", lang, low=low, text=text))
        return x

    return parse


def _data(lang: str) -> Any:
    """An argparse type: a data set's name, or a text file of documents to train a GPT on."""

    def parse(text: str) -> str:
        if text in commands.DATA or os.path.isfile(text):
            return text
        choices = ", ".join(commands.DATA)
        raise argparse.ArgumentTypeError(say("gpt.err_data", lang, text=text, choices=choices))

    return parse


def _add_training_options(p: argparse.ArgumentParser, demo: bool, lang: str = "en") -> None:
    p.add_argument(
        "--out",
        default="micrograd-out",
        help=_help("help_out", lang),
    )
    p.add_argument("--seed", type=int, default=1337, help=_help("help_seed", lang))
    p.add_argument("--no-plot", action="store_true", help=_help("help_no_plot", lang))
    p.add_argument("--quiet", action="store_true", help=_help("help_quiet", lang))
    p.add_argument("--lang", choices=LANGUAGES, help=_help("help_lang", lang))
    if demo:
        p.set_defaults(data="moons", noise=0.1, activation="relu", lr=None, momentum=0.0)
        p.set_defaults(**{commands.dest(o): None for o in commands.GPT_OPTIONS})
        p.set_defaults(**DEFAULTS["points"])  # the original demo's MLP(2, [16, 16, 1]) and SGD
        return
    p.add_argument(
        "--data",
        type=_data(lang),
        default="moons",
        metavar="DATA",
        help=_help("help_data", lang)
        + say("gpt.help_data", lang, count=len(names()), choices=", ".join(commands.DATA)),
    )
    p.add_argument("--data-dir", help=_help("help_data_dir", lang))
    p.add_argument(
        "--noise",
        type=_number(float, 0, strict=False, lang=lang),
        default=0.1,
        help=_help("help_noise", lang),
    )
    p.add_argument("--hidden", type=_hidden(lang), default=None, help=_help("help_hidden", lang))
    p.add_argument(
        "--activation",
        choices=["relu", "tanh", "sigmoid", "linear"],
        default="relu",
        help=_help("help_activation", lang),
    )
    p.add_argument(
        "--optimizer",
        choices=["sgd", "adam"],
        default=None,
        help=_help("help_optimizer", lang),
    )
    p.add_argument(
        "--lr",
        type=_number(float, 0, strict=True, lang=lang),
        default=None,
        help=_help("help_lr", lang) + say("gpt.help_lr", lang, lr=train.LEARNING_RATE),
    )
    p.add_argument(
        "--momentum",
        type=_number(float, 0, strict=False, lang=lang),
        default=0.0,
        help=_help("help_momentum", lang),
    )
    p.add_argument(
        "--backend",
        choices=["auto", *replay.BACKENDS],
        default="auto",
        help=_help("help_backend", lang),
    )
    p.add_argument(
        "--steps",
        type=_number(int, 0, strict=True, lang=lang),
        default=None,
        help=_help("help_steps", lang) + say("gpt.help_steps", lang, steps=gpt_commands.GPT_STEPS),
    )
    p.add_argument(
        "--batch-size",
        type=_number(int, 0, strict=True, lang=lang),
        default=None,
        help=_help("help_batch_size", lang),
    )
    for option in commands.GPT_OPTIONS:  # --n-layer, --n-head, --n-embd, --block-size
        key = commands.dest(option)
        p.add_argument(
            option,
            type=_number(int, 0, strict=True, lang=lang),
            default=None,
            help=say("gpt.help_size", lang, size=key, default=gpt_commands.GPT_DEFAULTS[key]),
        )


def _train(args: argparse.Namespace) -> int:
    """`micrograd demo` and `micrograd train`; `--data names` or a text file trains a GPT
    (run_gpt_training)."""
    if gpt_commands.trains_gpt(args.data):
        gpt_commands.run_gpt_training(args)
        return 0
    return run_train(args)


def _add_sample_command(sub: Any, lang: str) -> None:
    """Add `sample`: names drawn from a GPT that `train --data names` saved."""
    p = _command(
        sub,
        "sample",
        lang,
        help=say("gpt.help_sample", lang),
        description=say("gpt.about_sample", lang),
    )
    p.add_argument("model", metavar="MODEL", help=say("gpt.help_model", lang))
    p.add_argument(
        "-n",
        type=_number(int, 0, strict=True, lang=lang),
        default=gpt_commands.SAMPLES,
        help=say("gpt.help_n", lang),
    )
    p.add_argument(
        "--temperature",
        type=_number(float, 0, strict=True, lang=lang),
        default=gpt_commands.TEMPERATURE,
        help=say("gpt.help_temperature", lang),
    )
    p.add_argument("--seed", type=int, default=1337, help=say("gpt.help_seed", lang))
    p.add_argument("--attention", metavar="FILE", help=say("gpt.help_attention", lang))
    p.add_argument("--lang", choices=LANGUAGES, help=_help("help_lang", lang))
    p.set_defaults(run=gpt_commands.sample_command)


def _add_bridge_command(sub: Any, lang: str) -> None:
    """Add `bridge`: which scalar operations of a model became which array operation."""
    p = _command(
        sub, "bridge", lang, help=say("bridge.help", lang), description=say("bridge.about", lang)
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument("--model", metavar="FILE", help=say("bridge.help_model", lang))
    which.add_argument("--digits", action="store_true", help=say("bridge.help_digits", lang))
    which.add_argument("--gpt", action="store_true", help=say("bridge.help_gpt", lang))
    p.add_argument(
        "--hidden", type=_hidden(lang), default=None, help=say("bridge.help_hidden", lang)
    )
    p.add_argument(
        "--length",
        type=_number(int, 0, strict=True, lang=lang),
        default=4,
        help=say("bridge.help_length", lang),
    )
    p.add_argument("--seed", type=int, default=0, help=say("bridge.help_seed", lang))
    p.add_argument("--write", metavar="FILE.py", help=say("bridge.help_write", lang))
    p.add_argument("--torch", action="store_true", help=say("bridge.help_torch", lang))
    p.add_argument("--lang", choices=LANGUAGES, help=_help("help_lang", lang))
    p.set_defaults(run=commands.bridge_command)


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
        type=_number(int, 0, strict=True, lang=lang),
        default=MAX_NODES,
        help=say("help_max_nodes", lang),
    )
    g = _translated(sub, "graph", common, lang)
    g.add_argument("--format", choices=FORMATS, help=say("help_format", lang))
    g.add_argument("-o", "--output", help=say("help_output", lang))
    g.set_defaults(run=graph_command)
    e = _translated(sub, "explain", common, lang)
    e.add_argument("--format", choices=("text", "html"), help=say("help_explain_format", lang))
    e.add_argument("-o", "--output", help=say("help_output", lang))
    e.add_argument("--quiz", action="store_true", help=say("help_quiz", lang))
    e.set_defaults(run=explain_command)


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
            if lang != "zh" or not text.startswith(prefix):  # --version's line has no usage
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
DISTRIBUTION = "micrograd-plus"  # the name on PyPI ("micrograd" there is the original)


def _version() -> str:
    """The installed distribution's version; micrograd.__version__ where the package runs from a
    source tree that was never installed (PYTHONPATH=src)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return __version__


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The argument parser of the `micrograd` command, its help in `lang`."""
    parser = _localized(
        _Parser(
            prog="micrograd",
            description=_help("about_micrograd", lang),
            formatter_class=_formatter(lang),
            add_help=False,
        ),
        lang,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{DISTRIBUTION} {_version()}",
        help=_help("help_version", lang),
    )
    # `micrograd --lang zh CMD ...`: not listed, so that each command's own --lang is the one shown
    parser.add_argument("--lang", dest="main_lang", choices=LANGUAGES, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in ("demo", "train"):
        about = _help(f"about_{name}", lang)
        if name == "train":
            about += say("gpt.about_train", lang, count=len(names()), samples=gpt_commands.SAMPLES)
        p = _command(sub, name, lang, help=_help(f"help_{name}", lang), description=about)
        _add_training_options(p, demo=name == "demo", lang=lang)
        p.set_defaults(run=_train)
    _add_sample_command(sub, lang)
    _add_bridge_command(sub, lang)
    _add_expression_commands(sub, lang)
    pg = _command(
        sub,
        "playground",
        lang,
        help=_help("help_playground", lang),
        description=_help("about_playground", lang),
    )
    pg.add_argument(
        "--port",
        type=_number(int, 0, strict=False, lang=lang),
        default=8000,
        help=_help("help_port", lang),
    )
    pg.add_argument("--no-browser", action="store_true", help=_help("help_no_browser", lang))
    pg.add_argument("--lang", choices=LANGUAGES, help=_help("help_page_lang", lang))
    pg.set_defaults(run=playground_command)
    from micrograd.practice import command as practice  # its checker loads only when it runs

    practice_help, practice_about = practice.about(lang)
    pr = _command(sub, "practice", lang, help=practice_help, description=practice_about)
    practice.add_arguments(pr, lang)
    pr.set_defaults(run=practice.run)
    return parser


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
        message = usage_error(str(e), lang)  # argparse's own sentences, in Chinese too
        print(say("error", lang, message=f"{message}{_dash_hint(argv, lang)}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `micrograd explain ... | head`: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except MemoryError:
        print("micrograd: error: out of memory; try smaller --hidden widths", file=sys.stderr)
        return 1
    except (ImportError, OSError, ValueError, ArithmeticError, TypeError) as e:
        print(say("error", lang, message=op_error(e, lang)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("micrograd: interrupted", file=sys.stderr)
        return 130


def _dash_hint(argv: list[str], lang: str = "en") -> str:
    """A hint when an argument that starts with '-' was not meant as an option: an expression of
    graph or explain (the only commands that take one)."""
    if not {"graph", "explain"} & set(argv):
        return ""
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and arg not in ("-", "-o", "-h"):
            return say("cli.err_dash", lang, arg=arg)
    return ""


if __name__ == "__main__":
    sys.exit(main())
