"""`micrograd practice list | start ID | check ID [FILE] | hint ID | reveal ID | status |
check-engine FILE`: the exercises from the command line.

Stubs and progress live in ./practice/ (progress in practice/progress.json, nowhere else). The
language is --lang, else the locale's (LANG=zh_CN... is Chinese), as for `micrograd explain`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any

from micrograd.text import LANGUAGES, columns, language, text, titled

FOLDER = "practice"
PROGRESS = "progress.json"
VERSION = 1


def add_arguments(p: argparse.ArgumentParser, lang: str = "en") -> None:
    """The subcommands and options of `micrograd practice`, their help in `lang`."""
    lang_help = text("practice.cmd.help_lang", lang)
    p.add_argument("--lang", choices=LANGUAGES, help=lang_help)
    sub = p.add_subparsers(dest="practice", metavar="ACTION")

    def action(name: str) -> argparse.ArgumentParser:
        help = text(f"practice.cmd.help_{name.replace('-', '_')}", lang)
        a = sub.add_parser(
            name,
            help=help,
            description=help,
            formatter_class=p.formatter_class,
            add_help=False,
        )
        a._positionals.title = text("positionals", lang)
        a._optionals.title = text("options", lang)
        a.add_argument("-h", "--help", action="help", help=text("help_help", lang))
        a.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=lang_help)
        return a

    action("list")
    start = action("start")
    start.add_argument("id", metavar="ID")
    start.add_argument(
        "--notebook", action="store_true", help=text("practice.cmd.help_notebook", lang)
    )
    check = action("check")
    check.add_argument("id", metavar="ID")
    check.add_argument("file", nargs="?", metavar="FILE")
    check.add_argument("--seed", type=int, help=text("practice.cmd.help_seed", lang))
    hint = action("hint")
    hint.add_argument("id", metavar="ID")
    reveal = action("reveal")
    reveal.add_argument("id", metavar="ID")
    action("status")
    engine = action("check-engine")
    engine.add_argument("file", metavar="FILE")
    engine.add_argument("--seed", type=int, help=text("practice.cmd.help_seed", lang))


def about(lang: str) -> tuple[str, str]:
    """(help, description) of `micrograd practice` in `lang`."""
    return text("practice.cmd.help", lang), text("practice.cmd.about", lang)


# ---------------------------------------------------------------------------- progress
def _progress_path() -> str:
    return os.path.join(FOLDER, PROGRESS)


def load_progress(lang: str, quiet_if_missing: bool = True) -> dict[str, dict[str, Any]]:
    """{exercise id: {"attempts", "hints", "passed"}}; a missing or unreadable file starts over
    (an unreadable one says so on stderr)."""
    path = _progress_path()
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or doc.get("version") != VERSION:
            raise ValueError(f"not a version {VERSION} progress file")
        exercises = doc.get("exercises")
        if not isinstance(exercises, dict) or not all(
            isinstance(v, dict) for v in exercises.values()
        ):
            raise ValueError("no 'exercises' table")
        return exercises
    except FileNotFoundError:
        if not quiet_if_missing:
            print(text("practice.cmd.fresh", lang, path=path), file=sys.stderr)
        return {}
    except (OSError, ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError;
        # a deeply nested file ends json's decoder in RecursionError
        print(
            text("practice.cmd.corrupt", lang, path=path, why=str(e).splitlines()[0]),
            file=sys.stderr,
        )
        return {}


def save_progress(progress: dict[str, dict[str, Any]]) -> None:
    """Write practice/progress.json atomically (a crash leaves the old file or the new one)."""
    from micrograd.io import atomic_write

    os.makedirs(FOLDER, exist_ok=True)
    doc = {"version": VERSION, "exercises": progress}
    atomic_write(_progress_path(), (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode())


def _entry(progress: dict[str, dict[str, Any]], id: str) -> dict[str, Any]:
    """The exercise's entry, repaired where a hand-edited file holds something odd: counters are
    non-negative ints (not bools), and no more hints than the exercise has."""
    from micrograd.practice.exercises import EXERCISES

    entry = progress.setdefault(id, {})
    if not isinstance(entry.get("passed"), bool):
        entry["passed"] = False
    for key in ("attempts", "hints"):
        count = entry.get(key)
        if type(count) is not int or count < 0:  # type(): True is an int too
            entry[key] = 0
    entry["hints"] = min(entry["hints"], len(EXERCISES[id].hints("en")))
    return entry


# ---------------------------------------------------------------------------- the actions
def run(args: argparse.Namespace) -> int:
    """Run `micrograd practice ...`; the exit status (check: 0 passed, 1 not, 2 usage)."""
    from micrograd.practice.exercises import EXERCISES

    lang = language(getattr(args, "lang", None))
    name = getattr(args, "practice", None)
    if name is None:
        print("usage: micrograd practice {list,start,check,hint,reveal,status,check-engine}")
        return 2
    if hasattr(args, "id") and args.id not in EXERCISES:
        _error(text("practice.cmd.unknown", lang, id=args.id), lang)
        return 2
    actions = {
        "list": _list,
        "status": _list,
        "start": _start,
        "check": _check,
        "hint": _hint,
        "reveal": _reveal,
        "check-engine": _check_engine,
    }
    return actions[name](args, lang)


def _error(message: str, lang: str) -> None:
    """A usage error, as the other commands print one: `micrograd: error: ...` in `lang`."""
    print(text("error", lang, message=message), file=sys.stderr)


def _how(lang: str) -> str:
    """The language option to repeat in a command printed for the learner (none in English, the
    default where LANG does not say otherwise)."""
    return "" if lang == "en" else f" --lang {lang}"


def _list(args: argparse.Namespace, lang: str) -> int:
    from micrograd.practice.exercises import EXERCISES

    status = args.practice == "status"
    progress = load_progress(lang, quiet_if_missing=not status)
    keys = ("col_id", "col_title", "col_attempts", "col_hints", "col_done")
    rows = [[text(f"practice.cmd.{k}", lang) for k in keys]]
    tracks: dict[int, str] = {}  # the row before which each track starts: its title
    for ex in EXERCISES.values():
        if ex.track not in tracks.values():
            tracks[len(rows)] = ex.track
        e = _entry(dict(progress), ex.id) if ex.id in progress else None
        done = (
            text("practice.cmd.yes", lang) if e and e["passed"] else text("practice.cmd.no", lang)
        )
        rows.append(
            [
                ex.id,
                ex.title(lang),
                str(e["attempts"] if e else 0),
                str(e["hints"] if e else 0),
                done,
            ]
        )
    widths = [max(columns(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, r in enumerate(rows):
        if i in tracks:
            print(("\n" if i > 1 else "") + text(f"practice.track.{tracks[i]}", lang))
        print("  ".join(c + " " * (w - columns(c)) for c, w in zip(r, widths)).rstrip())
    passed = sum(1 for ex in EXERCISES if progress.get(ex, {}).get("passed") is True)
    print()
    print(text("practice.cmd.passed_count", lang, n=passed, total=len(EXERCISES)))
    return 0


def _comment(sentence: str, width: int = 94) -> list[str]:
    """A sentence as `# ` comment lines, wrapped. Chinese text may break between any two of its
    characters, but never inside a run of ASCII between them (an identifier, a piece of code such
    as `out = Value(...)`, spaces and all, unless it is longer than a line), and a line never
    starts with a Chinese punctuation mark."""
    if re.search(r"[^\x00-\x7f]", sentence):
        runs = re.findall(r"[\x21-\x7e][\x20-\x7e]*[\x21-\x7e]|[\x21-\x7e]|\s+|.", sentence)
        words = [
            piece
            for run in runs
            for piece in (re.findall(r"\S+|\s+", run) if columns(run) > width - 8 else [run])
        ]
    else:
        words = re.findall(r"[\x21-\x7e]+|\s+|.", sentence)
    lines, line = [], ""
    for word in words:
        if line and columns(line + word.rstrip()) > width and not word.isspace():
            if word[0] in NO_LINE_START:  # keep the mark on the line it closes
                line, word = line + word[0], word[1:]
            lines.append(line.rstrip())
            line = ""
        if not line and lines and word[:1] in tuple(NO_LINE_START):  # a second mark: it follows
            lines[-1], word = lines[-1] + word[0], word[1:]
        line += word.lstrip() if not line else word
    return [f"# {ln}" for ln in [*lines, line.rstrip()] if ln]


NO_LINE_START = "，。、；：）」』！？"


def _header(id: str, lang: str) -> str:
    from micrograd.practice.exercises import EXERCISES

    ex = EXERCISES[id]
    lines = [f"# micrograd practice: {id}: {ex.title(lang)}", "#"]
    lines += _comment(titled(text("practice.cmd.task", lang), ex.task(lang), lang))
    lines += [
        "#",
        "# " + text("practice.cmd.stub_check", lang, id=id, how=_how(lang)),
        "# " + text("practice.cmd.stub_hint", lang, id=id, how=_how(lang)),
    ]
    return "\n".join(lines) + "\n\n"


def _start(args: argparse.Namespace, lang: str) -> int:
    from micrograd.io import atomic_write
    from micrograd.practice.exercises import EXERCISES
    from micrograd.practice.reference import stub
    from micrograd.practice.sandbox import CHECK_TAG

    predict = EXERCISES[args.id].kind == "predict"
    ext = "ipynb" if args.notebook else "html" if predict else "py"
    path = os.path.join(FOLDER, f"{args.id}.{ext}")
    if os.path.exists(path):
        print(text("practice.cmd.exists", lang, path=path), file=sys.stderr)
        return 1
    os.makedirs(FOLDER, exist_ok=True)
    if predict:
        data = _quiz_page(args.id, lang, args.notebook)
        atomic_write(path, data.encode())
        print(text("practice.cmd.written_quiz", lang, path=path, id=args.id, how=_how(lang)))
        return 0
    code = stub(args.id, lang)
    if args.notebook:
        ex = EXERCISES[args.id]
        check = (
            "import sys\n\nfrom micrograd.practice import check\n\n"
            f'check("{args.id}", sys.modules["__main__"], lang="{lang}")'
        )
        cells = [
            _cell("markdown", f"# {args.id}: {ex.title(lang)}\n\n{ex.task(lang)}"),
            _cell("code", code.strip("\n")),
            _cell("code", check, tags=[CHECK_TAG]),  # the checker leaves this cell out
        ]
        nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        data = json.dumps(nb, indent=1, ensure_ascii=False) + "\n"
    else:
        data = _header(args.id, lang) + code
    atomic_write(path, data.encode())
    print(text("practice.cmd.written", lang, path=path, id=args.id, how=_how(lang)))
    return 0


def _quiz_page(id: str, lang: str, notebook: bool) -> str:
    """A predict exercise's quiz: the stepper page, or a notebook that shows it."""
    from micrograd.practice.exercises import EXERCISES
    from micrograd.practice.lecture import graph
    from micrograd.teach.stepper import stepper

    if not notebook:
        return stepper(graph(id), lang=lang, quiz=True).page
    ex = EXERCISES[id]
    show = (
        "from micrograd.practice.lecture import graph\nfrom micrograd.viz import stepper\n\n"
        f'stepper(graph("{id}"), lang="{lang}", quiz=True)'
    )
    cells = [_cell("markdown", f"# {id}: {ex.title(lang)}\n\n{ex.task(lang)}"), _cell("code", show)]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _cell(kind: str, source: str, tags: list[str] | None = None) -> dict[str, Any]:
    """A notebook cell of `kind` ("markdown" or "code") holding `source`, with Jupyter's `tags`."""
    metadata = {"tags": tags} if tags else {}
    cell: dict[str, Any] = {
        "cell_type": kind,
        "metadata": metadata,
        "source": source.splitlines(True),
    }
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _learner_file(id: str) -> str | None:
    for ext in ("py", "ipynb"):
        path = os.path.join(FOLDER, f"{id}.{ext}")
        if os.path.isfile(path):
            return path
    return None


def _check(args: argparse.Namespace, lang: str) -> int:
    from micrograd.practice.exercises import EXERCISES

    progress = load_progress(lang)  # read before the learner's code runs: it cannot write a pass
    if EXERCISES[args.id].kind == "predict" and not args.file:
        result = _quiz_in_terminal(args.id, lang)
        return _record(args.id, result, lang, progress)
    path = args.file or _learner_file(args.id)
    if path is None or not os.path.isfile(path):
        shown = path or os.path.join(FOLDER, f"{args.id}.py")
        _error(text("practice.cmd.no_stub", lang, path=shown, id=args.id, how=_how(lang)), lang)
        return 2
    result = _checked(args.id, path, args.seed, lang)
    print(text("practice.cmd.checked", lang, path=path))
    print(result)
    return _record(args.id, result, lang, progress)


def _checked(exercise_id: str, path: str, seed: int | None, lang: str) -> Any:
    """The check of the learner's file, in a child process where the system has process groups
    (micrograd.practice.apart: a deadline that holds, a verdict the learner's code cannot
    write); in this process elsewhere. "check-engine" checks the whole engine."""
    if hasattr(os, "killpg"):
        from micrograd.practice import apart

        return apart.check(exercise_id, path, seed, lang)
    from micrograd.practice.checker import check, check_engine

    if exercise_id == "check-engine":
        return check_engine(path, seed=seed, lang=lang)
    return check(exercise_id, path, seed=seed, lang=lang)


def _quiz_in_terminal(id: str, lang: str) -> Any:
    """A predict exercise asked here, one += at a time: passed when every one is answered."""
    from micrograd.practice.checker import with_hint
    from micrograd.practice.checks.predict import named_miss
    from micrograd.practice.exercises import EXERCISES
    from micrograd.practice.lecture import graph
    from micrograd.practice.result import CheckResult
    from micrograd.teach.quiz import quiz

    score = quiz(graph(id), lang=lang)
    result = CheckResult(id, score.passed, lang=lang)
    if score.missed:
        q = score.missed[0]
        result.fail(named_miss(q, q.said, lang))
    elif not score.passed:  # left before the last question (the quiz said how far): not done
        result.mistake = "unfinished"
    print()
    print(with_hint(EXERCISES[id], result))
    return result


def _record(id: str, result: Any, lang: str, progress: dict[str, dict[str, Any]]) -> int:
    """Count the check in ./practice/progress.json (as `progress` was before the check: what the
    learner's code wrote there meanwhile is not kept); the exit status of `check`."""
    entry = _entry(progress, id)
    entry["attempts"] += 1
    entry["passed"] = entry["passed"] or result.passed
    save_progress(progress)
    if not result.passed:
        print()
        print(text("practice.cmd.more_hints", lang, id=id, how=_how(lang)))
    return 0 if result.passed else 1


def _hint(args: argparse.Namespace, lang: str) -> int:
    from micrograd.practice.exercises import EXERCISES

    hints = EXERCISES[args.id].hints(lang)
    progress = load_progress(lang)
    entry = _entry(progress, args.id)
    shown = min(entry["hints"] + 1, len(hints))
    for i in range(shown):
        print(f"{text('practice.cmd.hints_left', lang, n=i + 1, total=len(hints))}: {hints[i]}")
    entry["hints"] = shown
    save_progress(progress)
    if shown == len(hints):
        print(text("practice.cmd.last_hint", lang, id=args.id, how=_how(lang)))
    else:
        print(text("practice.cmd.more_hints", lang, id=args.id, how=_how(lang)))
    return 0


def _reveal(args: argparse.Namespace, lang: str) -> int:
    from micrograd.practice.exercises import EXERCISES
    from micrograd.practice.lecture import graph
    from micrograd.practice.reference import solution
    from micrograd.teach.explain import explain

    progress = load_progress(lang)
    if _entry(progress, args.id)["attempts"] < 1:
        print(text("practice.cmd.reveal_first", lang, id=args.id, how=_how(lang)), file=sys.stderr)
        return 1
    way = text(f"practice.cmd.way.{EXERCISES[args.id].track}", lang)
    print(text("practice.cmd.solution", lang, id=args.id, way=way))
    print()
    if EXERCISES[args.id].kind == "predict":  # every += of the pass, in words
        print(explain(graph(args.id), lang=lang))
    else:
        print(solution(args.id), end="")
    return 0


def _check_engine(args: argparse.Namespace, lang: str) -> int:
    if not os.path.isfile(args.file):
        _error(text("practice.no_file", lang, path=args.file), lang)
        return 2
    result = _checked("check-engine", args.file, args.seed, lang)
    print(result)
    return 0 if result.passed else 1
