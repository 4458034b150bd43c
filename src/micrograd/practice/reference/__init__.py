"""The reference solutions, cut into what an exercise needs: its whole file, its stub, its solution.

The solutions are real modules (derivative.py, then engine.py: the lecture's Value and the code
built on it), which the tests import and ruff and mypy read. In them, each exercise's part starts
at a `# part: ID` comment and runs to the next one: a part at the class's indentation holds
methods of Value, a part at the left margin functions and classes after it. A `# TODO` comment
marks where the learner's own code starts, on its own line (with the comment lines after it) or
after that first line. A stub keeps a part up to each TODO, the comment, and a
`raise NotImplementedError("NAME")` in place of the rest of that def or class; a solution is the
part without its TODO comments.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

FILES = ("derivative.py", "engine.py", "gpt.py")  # in the lecture's order: plain numbers first
WHOLE = "engine.py"  # the file every lecture part fits in: `source()` puts them all there
BUILT_UP = ("gpt.py",)  # a track built in order: each part's file holds the parts before it, solved

_PART = re.compile(r"( *)# part: (\S+)")
_TODO_ALONE = re.compile(r" *# TODO")
_TODO_AFTER = re.compile(r"(.*\S)  (# TODO.*)")
_NAMED = re.compile(r" *(?:def|class) (\w+)")
_TODO_TEXT = re.compile(r"( *)# TODO: ")  # a TODO that says what to write
_GOES_ON = re.compile(r" *# (?!TODO)")


@dataclass(frozen=True)
class Part:
    """One exercise's code in a reference file, with no blank lines at either end."""

    file: str
    indent: int  # 4: methods of Value; 0: functions and classes after the class
    lines: tuple[str, ...]

    def text(self, lines: list[str] | tuple[str, ...]) -> str:
        """`lines` as this part stands in a file: after one blank line in the class, two outside."""
        return ("\n" if self.indent else "\n\n") + "\n".join(lines) + "\n"


def _strip(lines: list[str]) -> list[str]:
    """`lines` without the blank lines at either end."""
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


@cache
def _read(file: str) -> tuple[str, dict[str, Part]]:
    """(the file's code before its first part, {exercise id: part}) of one reference file."""
    code = resources.files(__name__).joinpath(file).read_text(encoding="utf-8")
    tree = ast.parse(code)
    start = (tree.body[0].end_lineno or 0) if ast.get_docstring(tree) else 0
    header: list[str] = []
    found: dict[str, tuple[int, list[str]]] = {}
    lines = header
    for line in code.splitlines()[start:]:
        marker = _PART.fullmatch(line)
        if marker:
            lines = []
            found[marker[2]] = (len(marker[1]), lines)
        else:
            lines.append(line)
    parts = {id: Part(file, indent, tuple(_strip(body))) for id, (indent, body) in found.items()}
    return "\n".join(_strip(header)) + "\n", parts


def _part(exercise_id: str) -> Part:
    for file in FILES:
        part = _read(file)[1].get(exercise_id)
        if part is not None:
            return part
    raise KeyError(f"no reference part {exercise_id!r} in micrograd/practice/reference/")


def _file(file: str, functions: list[Part], stubbed: Part | None = None) -> str:
    """A reference file: its header, every method of Value (the `stubbed` part as its stub), and
    the given parts after the class."""
    header, parts = _read(file)
    methods = [p for p in parts.values() if p.indent]
    return header + "".join(
        p.text(_stub(p)[0] if p is stubbed else _solution(p.lines)) for p in methods + functions
    )


def _solution(lines: tuple[str, ...]) -> list[str]:
    """The lines without their TODO comments."""
    out: list[str] = []
    in_todo = False
    for line in lines:
        in_todo = bool(_TODO_ALONE.match(line)) or (in_todo and line.lstrip().startswith("#"))
        if not in_todo:
            after = _TODO_AFTER.fullmatch(line)
            out.append(after[1] if after else line)
    return out


def _stub(part: Part) -> tuple[list[str], list[str]]:
    """(the part's stub, the names of the defs and classes in it that the learner writes): each
    kept up to its TODO comment, which is followed by a raise in place of the rest."""
    out: list[str] = []
    written: list[str] = []
    name = ""
    cutting = False
    blanks: list[str] = []  # blank lines met while cutting: kept if the next def follows them
    lines = iter(part.lines)
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if cutting:
            if not line.strip():
                blanks.append(line)
                continue
            if indent > part.indent:
                blanks = []
                continue
            out += blanks
            cutting, blanks = False, []
        named = _NAMED.match(line)
        if named and indent == part.indent:
            name = named[1]
        after = _TODO_AFTER.fullmatch(line)
        if _TODO_ALONE.match(line):
            out.append(line)
            for line in lines:  # the comment lines that go on with the TODO
                if not line.lstrip().startswith("#"):
                    break
                out.append(line)
            out.append(" " * indent + f'raise NotImplementedError("{name}")')
        elif after:
            out.append(" " * indent + f'raise NotImplementedError("{name}")  {after[2]}')
        else:
            out.append(line)
            continue
        written.append(name)
        cutting = True
    return out, written


def _before(part: Part) -> list[Part]:
    """The functions of a built-up file's parts before `part` (none in another file)."""
    if part.file not in BUILT_UP:
        return []
    parts = list(_read(part.file)[1].values())
    return [p for p in parts[: parts.index(part)] if not p.indent]


def source(exercise_id: str | None = None) -> str:
    """The reference file of an exercise (with every lecture part if None): what the check
    passes."""
    if exercise_id is None:
        lecture = [f for f in FILES if f not in BUILT_UP]
        return _file(WHOLE, [p for f in lecture for p in _read(f)[1].values() if not p.indent])
    part = _part(exercise_id)
    return _file(part.file, _before(part) + ([] if part.indent else [part]))


def stub(exercise_id: str, lang: str = "en") -> str:
    """The exercise's file with its part left to write: `micrograd practice start` writes it. Its
    `# TODO:` lines in `lang`: the reference's own comments in English, the catalog's
    practice.todo.ID (one line per TODO, in order) in another language."""
    from micrograd.text import text

    part = _part(exercise_id)
    code = _file(part.file, _before(part) + ([] if part.indent else [part]), stubbed=part)
    words = text(f"practice.todo.{exercise_id}", lang) if lang != "en" else ""
    if not words:
        return code
    said = iter(words.split("\n"))
    out: list[str] = []
    for line in code.split("\n"):
        todo = _TODO_TEXT.match(line)
        if todo:
            out.append(f"{todo[1]}# TODO: {next(said)}")
        elif out and _TODO_TEXT.match(out[-1]) and _GOES_ON.match(line):
            continue  # a comment line that goes on with the TODO: the translation says it all
        else:
            out.append(line)
    return "\n".join(out)


def solution(exercise_id: str) -> str:
    """The reference code of what the exercise asks for, as `micrograd practice reveal` shows it."""
    return "\n".join(_solution(_part(exercise_id).lines)) + "\n"


def beside(exercise_id: str) -> tuple[str, ...]:
    """The functions and classes the exercise asks for after the Value class (none for a method
    of Value): the exercise applies to a learner's whole engine once it has them all."""
    part = _part(exercise_id)
    return () if part.indent else tuple(_stub(part)[1])
