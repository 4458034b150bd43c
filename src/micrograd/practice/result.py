"""What a check returns: passed or not, the mistake's name, the first wrong step in words, and a
summary per input; printed as a table, and as HTML in a notebook. Also how the checks compare and
show numbers (`close`, `fmt`), which every layer of practice mode uses."""

from __future__ import annotations

import cmath
import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from micrograd.text import columns, joined, text

MISTAKES = (  # each one's name to show is the catalog's practice.mistake.NAME
    "assign-not-add",
    "closure-not-attached",
    "called-closure",
    "wrong-local",
    "wrong-operand",
    "wrong-upstream",
    "no-upstream",
    "input-output-swapped",
    "value-as-slope",
    "number-operand",
    "not-reset",
    "zeroed-late",
    "zeroes-leaves",
    "recursion-limit",
    "visit-order",
    "not-reversed",
    "reversed-not-topological",
    "wrong-forward",
    "no-output-grad",
    "graph-cut",
    "graph-reused",
    "update-sign",
    "difference-quotient",
    "param-count",
    "nested-params",
    "param-order",
    "list-output",
    "shared-neuron",
    "own-value",
    "input-not-output",
    "running-total",
    "unfinished",
    "not-written",
    "syntax-error",
    "wrong-axis",
    "no-scale",
    "sees-future",
    "cache-after",
    "no-epsilon",
    "mean-not-square",
    "no-bias-correction",
    "moments-swapped",
    "moments-not-kept",
    "state-kept",
    "wrong-update",
    "too-long",
    "tampered",
    "other",
)


def mistake_name(mistake: str, lang: str) -> str:
    """A mistake's name as a learner reads it in `lang` (the id itself in English)."""
    return text(f"practice.mistake.{mistake}", lang)


@dataclass(frozen=True)
class Problem:
    """The first wrong thing found: a mistake's name (one of MISTAKES) and the step in words."""

    mistake: str
    step: str
    hint: int | None = None  # the exercise's hint that fits this step (None: the table's)
    gap: float = 0.0  # how far off the step is, relative: the check tells the point it shows most
    # a wrong amount that no cause fits, not even "adds nothing": evidence against a cause
    # named elsewhere, whose prediction it breaks
    unexplained: bool = False
    cause: str = ""  # the catalog key of the cause the step names, if it names one


def close(x: Any, y: Any, rel: float = 1e-7, abs_: float = 1e-12) -> bool:
    """x and y agree to `rel` (relative) or `abs_`; two NaNs agree, as do equal infinities."""
    if x == y and type(x) in (float, int) and type(y) in (float, int):
        return True
    try:
        x, y = float(x), float(y)
    except (TypeError, ValueError, OverflowError):
        return False
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= max(abs_, rel * max(abs(x), abs(y)))


def explanation(fits: list[tuple[str, str]]) -> tuple[str, str] | None:
    """Of the (mistake, words) whose numbers are all the learner's, the one to name: the only
    one, or the one they all say; None where they say different things (or none fits)."""
    return fits[0] if len({words for _, words in fits}) == 1 else None


def agree(x: Any, y: Any, rel: float = 1e-9, abs_: float = 1e-12) -> bool:
    """`close`, for complex numbers too: a negative number to a fractional power is one in Python,
    and a learner's wrong code and the same mistake written by the checker make the same."""
    if isinstance(x, complex) or isinstance(y, complex):
        try:
            return cmath.isclose(complex(x), complex(y), rel_tol=rel, abs_tol=abs_)
        except (TypeError, ValueError):
            return False
    return close(x, y, rel=rel, abs_=abs_)


SIMPLER = (0.0, 1.0, -1.0, 2.0, 0.5, -0.5)  # what a number of a failing case is tried as


def simpler(numbers: Sequence[float], fails: Callable[[list[float]], bool]) -> list[float]:
    """The numbers of a failing case made simpler, one at a time (to 0, 1, -1, 2, ... or the
    nearest integer), for as long as `fails` says the case still fails the same way: a small
    shrinker rather than Hypothesis's, because the case is already found and it runs in Pyodide
    too, in a few dozen calls."""
    flat = [float(x) for x in numbers]
    for i, x in enumerate(flat):
        for simple in (*SIMPLER, float(round(x))):
            if simple == x:
                break
            trial = flat[:i] + [simple] + flat[i + 1 :]
            if fails(trial):
                flat = trial
                break
    return flat


def fmt(x: Any) -> str:
    """A number as a learner reads it: 1, -0.5, 3.14159 (6 significant digits)."""
    try:
        x = float(x)
    except (TypeError, ValueError, OverflowError):
        return repr(x)
    if math.isfinite(x) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.6g}"


def apart(x: Any, y: Any) -> tuple[str, str]:
    """x and y as fmt shows them, with as many more digits as it takes to tell them apart."""
    shown = fmt(x), fmt(y)
    for digits in (9, 12, 17):
        if shown[0] != shown[1]:
            break
        try:
            shown = f"{float(x):.{digits}g}", f"{float(y):.{digits}g}"
        except (TypeError, ValueError, OverflowError):
            break
    return shown


def signed(x: Any) -> str:
    """A contribution with its sign: +1, -0.5."""
    shown = fmt(x)
    return shown if shown.startswith(("-", "n", "i")) else f"+{shown}"


@dataclass
class Row:
    """One input's grads over every point: how many equal the engine's exactly, how many are
    close, and the largest differences from the engine and from central differences."""

    name: str
    points: int = 0
    exact: int = 0
    close: int = 0
    max_engine: float = 0.0
    max_numeric: float = math.nan  # nan: no point where central differences apply

    def add(self, found: object, engine: float, numeric: float | None) -> None:
        """Count one point: the learner's grad, the engine's, and central differences' (or None
        at a kink, where they do not apply)."""
        self.points += 1
        try:
            value = float(found)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            value = math.nan
        if value == engine or (math.isnan(value) and math.isnan(engine)):
            self.exact += 1
        if close(value, engine, rel=1e-6, abs_=1e-9):
            self.close += 1
        self.max_engine = _worse(self.max_engine, value, engine)
        if numeric is not None:
            start = 0.0 if math.isnan(self.max_numeric) else self.max_numeric
            self.max_numeric = _worse(start, value, numeric)


def _worse(current: float, x: float, y: float) -> float:
    if math.isnan(x) != math.isnan(y) or (math.isinf(x) or math.isinf(y)) and x != y:
        return math.inf
    if math.isnan(x) or math.isinf(x):
        return current
    return max(current, abs(x - y))


@dataclass
class CheckResult:
    """The outcome of `check(exercise, code)`: `passed`, `mistake` (None or one of MISTAKES),
    `first_wrong_step` (words, or None), a summary row per input, and the random seed used."""

    exercise: str
    passed: bool
    mistake: str | None = None
    first_wrong_step: str | None = None
    rows: list[Row] = field(default_factory=list)
    seed: int | None = None
    lang: str = "en"
    notes: list[str] = field(default_factory=list)
    parts: list[CheckResult] = field(default_factory=list)  # check-engine: one per exercise
    output: list[str] = field(default_factory=list)  # what the learner's code printed
    hint: str | None = None  # the hint that fits the first wrong step
    hint_index: int | None = None  # which of the exercise's hints that is

    def printed(self, most: int = 20) -> list[str]:
        """What the learner's code printed, trimmed to `most` lines, under a line saying so."""
        if not self.output:
            return []
        lines = [text("practice.printed", self.lang, n=len(self.output))]
        lines += self.output[:most]
        if len(self.output) > most:
            lines.append(text("practice.printed_more", self.lang, n=len(self.output) - most))
        return lines

    def fail(self, problem: Problem) -> CheckResult:
        """This result, marked failed with the problem's mistake and step."""
        self.passed, self.mistake, self.first_wrong_step = False, problem.mistake, problem.step
        self.hint_index = problem.hint
        return self

    def headline(self) -> str:
        """One line: the exercise and whether it passed (with the mistake's name if not)."""
        if self.passed:
            return text("practice.passed", self.lang, exercise=self.exercise)
        mistake = mistake_name(self.mistake or "other", self.lang)
        return text("practice.failed", self.lang, exercise=self.exercise, mistake=mistake)

    def _table(self) -> list[list[str]]:
        if self.parts:
            head = [
                text(f"practice.{k}", self.lang) for k in ("col_exercise", "col_result", "col_step")
            ]
            body = [
                [
                    p.exercise,
                    text("practice.ok", self.lang)
                    if p.passed
                    else mistake_name(p.mistake or "other", self.lang),
                    p.first_wrong_step or ("" if p.passed else joined(p.notes, self.lang)),
                ]
                for p in self.parts
            ]
            return [head, *body]
        if not self.passed:  # the first wrong step says what is wrong; counts would blur it
            return []
        keys = ("col_input", "col_points", "col_exact", "col_close", "col_engine", "col_numeric")
        body = [
            [
                r.name,
                str(r.points),
                str(r.exact),
                str(r.close),
                f"{r.max_engine:.3g}",
                "-" if math.isnan(r.max_numeric) else f"{r.max_numeric:.3g}",
            ]
            for r in self.rows
            if r.points
        ]
        return [[text(f"practice.{k}", self.lang) for k in keys], *body] if body else []

    def _lines(self) -> list[str]:
        lines = [self.headline()]
        if self.first_wrong_step:
            lines.append(text("practice.first_wrong_step", self.lang, step=self.first_wrong_step))
        if self.hint:
            lines.append(text("practice.hint_for_step", self.lang, hint=self.hint))
        lines += self.notes if not self.parts else []
        if self._table() and not self.parts:
            lines.append(text("practice.table_caption", self.lang))
        if self.seed is not None:
            lines.append(
                text("practice.seed", self.lang, seed=str(self.seed), exercise=self.exercise)
            )
        return lines

    def __str__(self) -> str:
        table = self._table()
        out = self._lines()
        if table:
            widths = [max(columns(row[i]) for row in table) for i in range(len(table[0]))]
            out.append("")
            for row in table:
                cells = [c + " " * (w - columns(c)) for c, w in zip(row, widths)]
                out.append("  ".join(cells).rstrip())
        printed = self.printed()
        return "\n".join(out + ([""] + printed if printed else []))

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.passed else "#b42318"
        parts = [
            f'<div class="micrograd-practice" style="border-left:4px solid {colour};'
            'padding-left:8px">'
        ]
        for i, line in enumerate(self._lines()):
            shown = html.escape(line)
            parts.append(f"<p><b>{shown}</b></p>" if i == 0 else f"<p>{shown}</p>")
        table = self._table()
        if table:
            parts.append("<table><thead><tr>")
            parts += [f"<th>{html.escape(c)}</th>" for c in table[0]]
            parts.append("</tr></thead><tbody>")
            for row in table[1:]:
                cells = "".join(f"<td>{html.escape(c)}</td>" for c in row)
                parts.append(f"<tr>{cells}</tr>")
            parts.append("</tbody></table>")
        printed = self.printed()
        if printed:
            parts.append(f"<p>{html.escape(printed[0])}</p>")
            parts.append(f"<pre>{html.escape(chr(10).join(printed[1:]))}</pre>")
        parts.append("</div>")
        return "".join(parts)
