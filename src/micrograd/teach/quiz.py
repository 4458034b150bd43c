"""Predict, then reveal: a backward pass asked one `+=` at a time.

Each chain-rule step `input.grad += local * upstream` becomes a question: what does this step add?
The stepper's page (`stepper(root, quiz=True)`) and the terminal (`micrograd explain --quiz`,
`quiz(root)`) ask the same questions and read answers by the same rule.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from micrograd.engine import Value
from micrograd.teach.drawings import fmt_number
from micrograd.teach.explain import explain, shown
from micrograd.text import aside, language
from micrograd.text import text as say

# A typed answer is right within 1e-4, or 0.1% of the number: the pictures show 4 decimals, so a
# learner who types 0.42 for 0.41997 is right. The stepper page applies the same rule.
TOLERANCE = (1e-4, 1e-3)
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?", re.IGNORECASE)  # as the page reads one


def read_answer(typed: str) -> float | None:
    """The number a learner typed ("-1.5", "3", "1/2", "1e-3", full-width digits too), or None."""
    text = unicodedata.normalize("NFKC", typed).strip().replace("\u2212", "-")
    parts = text.split("/")
    if len(parts) > 2 or not all(_NUMBER.fullmatch(p.strip()) for p in parts):
        return None
    try:
        x = float(parts[0]) / float(parts[1]) if len(parts) == 2 else float(text)
    except (ZeroDivisionError, OverflowError):
        return None
    return x if math.isfinite(x) else None


def answer_is_right(x: float, expected: float) -> bool:
    """Whether the answer x is the number `expected`, within TOLERANCE."""
    absolute, relative = TOLERANCE
    return abs(x - expected) <= max(absolute, relative * abs(expected))


@dataclass
class Question:
    """One `input.grad += local * upstream` of a backward pass, to be predicted."""

    node: str  # the Value whose step it is
    input: str  # the input whose grad it adds to
    local: float  # d node / d input
    upstream: float  # node.grad
    added: float  # local * upstream: the answer
    step_line: str  # the line that starts the node's step (its formula and grad)
    line: str  # the += line, shown once answered
    said: str = ""  # the learner's last wrong answer
    formula: str = ""  # how the node was computed: tanh(n)
    input_data: float | None = None  # the input's own value
    total: float = 0.0  # the input's grad after this +=
    repeated: bool = False  # the input had received a share before this one

    def ask(self, lang: str) -> str:
        """The step and the hidden +=: `c.grad += ?`."""
        return self.step_line + "\n" + say("quiz_ask", lang, input=shown(self.input))

    def wrong(self, lang: str) -> str:
        """What a wrong answer is shown: the local derivative and the upstream grad."""
        local, upstream = fmt_number(self.local), fmt_number(self.upstream)
        return say(
            "quiz_wrong",
            lang,
            node=shown(self.node),
            input=shown(self.input),
            local=local,
            upstream=upstream,
        )


def questions(ex: Any) -> Iterator[tuple[Any, Any, Question]]:
    """(step, contribution, question) for each `+=` of an explain() that can be asked: a known
    local derivative and a finite number (a hand-written closure's steps are only shown)."""
    for s in ex.steps:
        for c in s.contributions:
            if c.local is not None and math.isfinite(c.added):
                step_line = ex.step_line(s).strip()
                q = Question(
                    s.node,
                    c.input,
                    c.local,
                    c.upstream,
                    float(c.added),
                    step_line,
                    ex.line(c).strip(),
                    formula=s.formula,
                    input_data=None if c.value is None else float(c.value.data),
                    total=float(c.total),
                    repeated=c.repeated,
                )
                yield s, c, q


@dataclass
class Score:
    """How a quiz went: the questions asked, and which were right at the first try."""

    asked: int = 0
    right: int = 0
    missed: list[Question] = field(default_factory=list)  # shown after the tries ran out
    total: int = 0  # the questions there are

    @property
    def passed(self) -> bool:
        """Every question answered right, at some try (a quiz left early has not passed)."""
        return 0 < self.asked == self.total and not self.missed


QUIT = ("q", "quit", "exit", "退出")  # typed instead of a number: the quiz ends here


def quiz(
    root: Value,
    params: Any = (),
    lang: str | None = None,
    tries: int = 2,
    ask: Callable[[str], str] = input,
    tell: Callable[[str], None] = print,
) -> Score:
    """Ask each `+=` of `root.backward()` in the terminal, in backward()'s order: the learner
    types the number it adds; a wrong answer is shown the local derivative and the upstream grad,
    and after `tries` wrong answers the step is shown. `q` (or the end of input) stops the quiz."""
    lang = language(lang)
    ex = explain(root, params=params, lang=lang)
    asked = list(questions(ex))
    tell(aside(say("quiz_intro", lang), say("quiz_quit", lang), lang))
    # the numbers a step's local derivative is made of: what the page's graph shows
    data = ", ".join(f"{shown(n)} = {fmt_number(x)}" for n, x in ex.values.items())
    tell(say("quiz_values", lang, values=data))
    tell(say("order", lang, order=", ".join(ex.order)))
    tell(say("start", lang, root=ex.root))
    score = Score(total=len(asked))
    node = None
    for _, _, q in asked:
        score.asked += 1
        if q.node != node:  # a node's step starts
            tell(q.step_line)
            node = q.node
        wrong = 0
        while wrong < tries:
            try:
                typed = ask(f"      {shown(q.input)}.grad += ")
            except EOFError:
                typed = "q"
                tell("")  # after the prompt
            if unicodedata.normalize("NFKC", typed).strip().lower() in QUIT:
                score.asked -= wrong == 0  # a question left untried is not counted
                tell(say("quiz_stopped", lang, asked=score.asked, total=score.total))
                tell(say("quiz_score", lang, right=score.right, asked=score.asked))
                return score
            x = read_answer(typed)
            if x is None:  # not a number: said, and not counted as a try
                tell(f"      {say('quiz_not_number', lang)}")
            elif answer_is_right(x, q.added):
                score.right += wrong == 0
                tell("      " + say("quiz_right_step", lang, line=q.line))
                break
            else:
                wrong += 1
                q.said = typed.strip()
                tell(f"      {q.wrong(lang)}")
        else:
            score.missed.append(q)
            tell(f"      {q.line}")
    tell(say("quiz_score", lang, right=score.right, asked=score.asked))
    return score
