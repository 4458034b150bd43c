"""`micrograd practice list | start ID | check ID [FILE] | hint ID | reveal ID | status |
check-engine FILE`: the exercises from the command line.

Stubs and progress live in ./practice/ (progress in practice/progress.json, nowhere else). The
language is --lang, else the locale's (LANG=zh_CN... is Chinese), as for `micrograd explain`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from typing import Any

from micrograd.text import LANGUAGES, columns, language

FOLDER = "practice"
PROGRESS = "progress.json"
VERSION = 1

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "task": "Task",
        "hints_left": "hint {n} of {total}",
        "last_hint": "That was the last hint. After a check, `micrograd practice reveal {id}` "
        "shows a solution.",
        "more_hints": "More: `micrograd practice hint {id}`.",
        "exists": "{path} exists already: not overwritten (delete it to start again)",
        "written": "wrote {path}: write the TODO parts, then `micrograd practice check {id}`",
        "written_quiz": "wrote {path}: open it in a browser and predict each +=, or answer in "
        "the terminal: `micrograd practice check {id}`",
        "no_stub": "no {path}: start with `micrograd practice start {id}`, or give a file",
        "reveal_first": "check your own attempt first: `micrograd practice check {id}` "
        "(reveal opens after one check)",
        "solution": "A solution for {id} (the lecture's way):",
        "corrupt": "{path} could not be read ({why}): starting over with no progress",
        "fresh": "no progress yet ({path} does not exist)",
        "passed_count": "{n} of {total} exercises passed",
        "col_id": "exercise",
        "col_title": "title",
        "col_attempts": "checks",
        "col_hints": "hints",
        "col_done": "passed",
        "yes": "yes",
        "no": "-",
        "stub_check": "check it:   micrograd practice check {id}",
        "stub_hint": "a hint:     micrograd practice hint {id}",
        "unknown": "no exercise {id!r}; `micrograd practice list` shows them",
        "help": "exercises: write backpropagation yourself, checked step by step",
        "about": "Practise backpropagation: each exercise asks for a part of a lecture-style "
        "Value; check finds the first wrong step of your code.",
        "help_lang": "language: en or zh (default: from LANG, zh_* is Chinese)",
        "help_list": "the exercises, in the lecture's order",
        "help_start": "write ./practice/ID.py: the task and a stub to fill in",
        "help_notebook": "write ID.ipynb instead",
        "help_check": "check your code (default: ./practice/ID.py); exit 0 if it passes",
        "help_seed": "replay the random points of an earlier check",
        "help_hint": "the next hint for an exercise",
        "help_reveal": "a reference solution (after at least one check)",
        "help_status": "your progress, from ./practice/progress.json",
        "help_check_engine": "every exercise that applies to a whole lecture-style engine",
    },
    "zh": {
        "task": "任务",
        "hints_left": "提示 {n} / {total}",
        "last_hint": "这是最后一条提示。检查过一次之后，`micrograd practice reveal {id}` 会显示参考答案。",
        "more_hints": "更多提示：`micrograd practice hint {id}`。",
        "exists": "{path} 已经存在：没有覆盖（想重新开始就先删掉它）",
        "written": "已写入 {path}：完成其中的 TODO，然后运行 `micrograd practice check {id}`",
        "written_quiz": "已写入 {path}：在浏览器里打开它，预测每一次 +=；或者在终端里回答："
        "`micrograd practice check {id}`",
        "no_stub": "没有 {path}：先运行 `micrograd practice start {id}`，或者给出文件",
        "reveal_first": "先检查一次你自己的代码：`micrograd practice check {id}`（检查过一次后才能查看答案）",
        "solution": "{id} 的参考答案（讲座的写法）：",
        "corrupt": "{path} 无法读取（{why}）：进度从头开始",
        "fresh": "还没有进度（{path} 不存在）",
        "passed_count": "{total} 个练习中通过了 {n} 个",
        "col_id": "练习",
        "col_title": "标题",
        "col_attempts": "检查次数",
        "col_hints": "提示",
        "col_done": "通过",
        "yes": "是",
        "no": "-",
        "stub_check": "检查：     micrograd practice check {id}",
        "stub_hint": "提示：     micrograd practice hint {id}",
        "unknown": "没有练习 {id!r}；`micrograd practice list` 会列出所有练习",
        "help": "练习：自己实现反向传播，逐步检查",
        "about": "练习反向传播：每个练习要求你写讲座风格 Value 的一部分；check 会找出你代码里第一个出错的步骤。",
        "help_lang": "语言：en 或 zh（默认按 LANG，zh_* 为中文）",
        "help_list": "按讲座的顺序列出所有练习",
        "help_start": "写出 ./practice/ID.py：任务说明和一个待你填写的代码框架",
        "help_notebook": "改为写出 ID.ipynb",
        "help_check": "检查你的代码（默认：./practice/ID.py）；通过时退出状态为 0",
        "help_seed": "给出之前某次检查的随机数种子，重放同样的随机点",
        "help_hint": "显示一个练习的下一条提示",
        "help_reveal": "显示参考答案（至少检查过一次之后）",
        "help_status": "你的进度（来自 ./practice/progress.json）",
        "help_check_engine": "对一个完整的讲座风格引擎运行所有适用于它的练习",
    },
}


def word(key: str, lang: str, **fields: Any) -> str:
    """A sentence of the command in `lang`."""
    return WORDS[lang][key].format(**fields)


def add_arguments(p: argparse.ArgumentParser, lang: str = "en") -> None:
    """The subcommands and options of `micrograd practice`, their help in `lang`."""
    from micrograd.text import text

    lang_help = word("help_lang", lang)
    p.add_argument("--lang", choices=LANGUAGES, help=lang_help)
    sub = p.add_subparsers(dest="practice", metavar="ACTION")

    def action(name: str) -> argparse.ArgumentParser:
        help = word(f"help_{name.replace('-', '_')}", lang)
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
    start.add_argument("--notebook", action="store_true", help=word("help_notebook", lang))
    check = action("check")
    check.add_argument("id", metavar="ID")
    check.add_argument("file", nargs="?", metavar="FILE")
    check.add_argument("--seed", type=int, help=word("help_seed", lang))
    hint = action("hint")
    hint.add_argument("id", metavar="ID")
    reveal = action("reveal")
    reveal.add_argument("id", metavar="ID")
    action("status")
    engine = action("check-engine")
    engine.add_argument("file", metavar="FILE")
    engine.add_argument("--seed", type=int, help=word("help_seed", lang))


def about(lang: str) -> tuple[str, str]:
    """(help, description) of `micrograd practice` in `lang`."""
    return word("help", lang), word("about", lang)


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
            print(word("fresh", lang, path=path), file=sys.stderr)
        return {}
    except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
        print(word("corrupt", lang, path=path, why=str(e).splitlines()[0]), file=sys.stderr)
        return {}


def save_progress(progress: dict[str, dict[str, Any]]) -> None:
    """Write practice/progress.json atomically (a crash leaves the old file or the new one)."""
    from micrograd.io import atomic_write

    os.makedirs(FOLDER, exist_ok=True)
    doc = {"version": VERSION, "exercises": progress}
    atomic_write(_progress_path(), (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode())


def _entry(progress: dict[str, dict[str, Any]], id: str) -> dict[str, Any]:
    entry = progress.setdefault(id, {})
    for key, default in (("attempts", 0), ("hints", 0), ("passed", False)):
        if not isinstance(entry.get(key), type(default)):
            entry[key] = default
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
        print(f"micrograd: error: {word('unknown', lang, id=args.id)}", file=sys.stderr)
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


def _list(args: argparse.Namespace, lang: str) -> int:
    from micrograd.practice.exercises import EXERCISES

    status = args.practice == "status"
    progress = load_progress(lang, quiet_if_missing=not status)
    keys = ("col_id", "col_title", "col_attempts", "col_hints", "col_done")
    rows = [[word(k, lang) for k in keys]]
    for ex in EXERCISES.values():
        e = _entry(dict(progress), ex.id) if ex.id in progress else None
        done = word("yes", lang) if e and e["passed"] else word("no", lang)
        rows.append(
            [
                ex.id,
                ex.title[lang],
                str(e["attempts"] if e else 0),
                str(e["hints"] if e else 0),
                done,
            ]
        )
    widths = [max(columns(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c + " " * (w - columns(c)) for c, w in zip(r, widths)).rstrip())
    passed = sum(1 for ex in EXERCISES if progress.get(ex, {}).get("passed") is True)
    print()
    print(word("passed_count", lang, n=passed, total=len(EXERCISES)))
    return 0


def _comment(text: str, width: int = 94) -> list[str]:
    """Text as `# ` comment lines, wrapped (Chinese text wraps at any character)."""
    if columns(text) == len(text):
        return [f"# {line}" for line in textwrap.wrap(text, width)]
    lines, line = [], ""
    for ch in text:
        if columns(line + ch) > width:
            lines.append(line.rstrip())
            line = ch.lstrip()
        else:
            line += ch
    return [f"# {line}" for line in [*lines, line.rstrip()] if line]


def _header(id: str, lang: str) -> str:
    from micrograd.practice.exercises import EXERCISES

    ex = EXERCISES[id]
    lines = [f"# micrograd practice: {id}: {ex.title[lang]}", "#"]
    lines += _comment(f"{word('task', lang)}: {ex.task[lang]}")
    lines += ["#", "# " + word("stub_check", lang, id=id), "# " + word("stub_hint", lang, id=id)]
    return "\n".join(lines) + "\n\n"


def _start(args: argparse.Namespace, lang: str) -> int:
    from micrograd.io import atomic_write
    from micrograd.practice.exercises import EXERCISES
    from micrograd.practice.solutions import stub

    predict = EXERCISES[args.id].kind == "predict"
    ext = "ipynb" if args.notebook else "html" if predict else "py"
    path = os.path.join(FOLDER, f"{args.id}.{ext}")
    if os.path.exists(path):
        print(word("exists", lang, path=path), file=sys.stderr)
        return 1
    os.makedirs(FOLDER, exist_ok=True)
    if predict:
        data = _quiz_page(args.id, lang, args.notebook)
        atomic_write(path, data.encode())
        print(word("written_quiz", lang, path=path, id=args.id))
        return 0
    code = stub(args.id)
    if args.notebook:
        ex = EXERCISES[args.id]
        check = (
            "import sys\n\nfrom micrograd.practice import check\n\n"
            f'check("{args.id}", sys.modules["__main__"], lang="{lang}")'
        )
        cells = [
            _cell("markdown", f"# {args.id}: {ex.title[lang]}\n\n{ex.task[lang]}"),
            _cell("code", code.strip("\n")),
            _cell("code", check),
        ]
        nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        data = json.dumps(nb, indent=1, ensure_ascii=False) + "\n"
    else:
        data = _header(args.id, lang) + code
    atomic_write(path, data.encode())
    print(word("written", lang, path=path, id=args.id))
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
    cells = [_cell("markdown", f"# {id}: {ex.title[lang]}\n\n{ex.task[lang]}"), _cell("code", show)]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _cell(kind: str, text: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": text.splitlines(True)}
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
    from micrograd.practice.checker import check
    from micrograd.practice.exercises import EXERCISES

    if EXERCISES[args.id].kind == "predict" and not args.file:
        result = _quiz_in_terminal(args.id, lang)
        return _record(args.id, result, lang)
    path = args.file or _learner_file(args.id)
    if path is None or not os.path.isfile(path):
        shown = path or os.path.join(FOLDER, f"{args.id}.py")
        print(f"micrograd: error: {word('no_stub', lang, path=shown, id=args.id)}", file=sys.stderr)
        return 2
    result = check(args.id, path, seed=args.seed, lang=lang)
    print(result)
    return _record(args.id, result, lang)


def _quiz_in_terminal(id: str, lang: str) -> Any:
    """A predict exercise asked here, one += at a time: passed when every one is answered."""
    from micrograd.practice.lecture import graph, missed_step
    from micrograd.practice.result import CheckResult
    from micrograd.teach.quiz import quiz

    score = quiz(graph(id), lang=lang)
    result = CheckResult(id, score.passed, lang=lang)
    if score.missed:
        q = score.missed[0]
        result.mistake = "wrong-local"
        result.first_wrong_step = missed_step(q, q.said, lang)
    print()
    print(result)
    return result


def _record(id: str, result: Any, lang: str) -> int:
    """Count the check in ./practice/progress.json; the exit status of `check`."""
    progress = load_progress(lang)
    entry = _entry(progress, id)
    entry["attempts"] += 1
    entry["passed"] = entry["passed"] or result.passed
    save_progress(progress)
    if not result.passed:
        print()
        print(word("more_hints", lang, id=id))
    return 0 if result.passed else 1


def _hint(args: argparse.Namespace, lang: str) -> int:
    from micrograd.practice.exercises import EXERCISES

    hints = EXERCISES[args.id].hints[lang]
    progress = load_progress(lang)
    entry = _entry(progress, args.id)
    shown = min(entry["hints"] + 1, len(hints))
    for i in range(shown):
        print(f"{word('hints_left', lang, n=i + 1, total=len(hints))}: {hints[i]}")
    entry["hints"] = shown
    save_progress(progress)
    if shown == len(hints):
        print(word("last_hint", lang, id=args.id))
    else:
        print(word("more_hints", lang, id=args.id))
    return 0


def _reveal(args: argparse.Namespace, lang: str) -> int:
    from micrograd.practice.exercises import EXERCISES
    from micrograd.practice.lecture import graph
    from micrograd.practice.solutions import solution
    from micrograd.teach.explain import explain

    progress = load_progress(lang)
    if _entry(progress, args.id)["attempts"] < 1:
        print(word("reveal_first", lang, id=args.id), file=sys.stderr)
        return 1
    print(word("solution", lang, id=args.id))
    print()
    if EXERCISES[args.id].kind == "predict":  # every += of the pass, in words
        print(explain(graph(args.id), lang=lang))
    else:
        print(solution(args.id), end="")
    return 0


def _check_engine(args: argparse.Namespace, lang: str) -> int:
    from micrograd.practice.checker import check_engine

    if not os.path.isfile(args.file):
        print(f"micrograd: error: no file {args.file}", file=sys.stderr)
        return 2
    result = check_engine(args.file, seed=args.seed, lang=lang)
    print(result)
    return 0 if result.passed else 1
