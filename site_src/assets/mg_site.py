"""The Python side of the site's pages, run by Pyodide in the page's Web Worker (worker.js).

Each function takes and returns plain data (str, float, dict, list) so that the worker can pass it
to the page as JSON. Only micrograd's public modules are used; nothing here is installed with the
package."""

from __future__ import annotations

import contextlib
import io
import json
import linecache
import os
import re
import time
import traceback
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from micrograd.engine import Value

HOME = "/home/pyodide"


def use_language(lang: str) -> None:
    """The page's language as the locale, as a learner's terminal has it: what the package says
    in the locale's language (the engine's warnings, explain() without lang=) comes out in the
    page's, as the document shows it."""
    os.environ["LANG"] = "zh_CN.UTF-8" if lang == "zh" else "en_US.UTF-8"


# ---------------------------------------------------------------------------- the page's blocks
# One namespace per page (one worker per page), as tests/test_tutorial.py runs a document.
SCOPE: dict = {"__name__": "__tutorial__"}


def _free_chains_iteratively() -> None:
    """CPython frees a chain of Values recursively (each Value holds its inputs). Pyodide's stack
    is about 1 MB, so freeing a chain deeper than a few thousand Values (the tutorial's 100,000-step
    chain) crashes the runtime. On the site's pages only, each dying Value hands its two inputs to
    a list that the outermost free empties in a loop: the same frees, without the recursion."""
    from micrograd.engine import Value

    if "__del__" in vars(Value):
        return
    pending: list = []
    draining = [False]

    def free_inputs(self: Value) -> None:
        pending.append(self._a)
        pending.append(self._b)
        self._a = self._b = None
        if draining[0]:
            return
        draining[0] = True
        try:
            while pending:
                pending.pop()
        finally:
            draining[0] = False

    Value.__del__ = free_inputs  # type: ignore[attr-defined]


def reset_blocks() -> None:
    """An empty namespace for the page's blocks: site.js runs blocks 1..k in it again."""
    SCOPE.clear()
    SCOPE["__name__"] = "__tutorial__"


def run_block(code: str, index: int) -> dict:
    """Run one block in the page's namespace: what it printed (stdout, then stderr), and an
    error printed as Python prints it, without this function's own frame."""
    _free_chains_iteratively()
    name = f"<block {index + 1}>"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)  # for the traceback
    out = io.StringIO()
    ok = True
    start = time.perf_counter()
    os.chdir(HOME)  # the documents name files by their path in the repository (examples/...)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            exec(compile(code, name, "exec"), SCOPE)
        except BaseException as e:  # SystemExit too: the page goes on
            ok = False
            tb = e.__traceback__.tb_next if e.__traceback__ else None
            out.write("".join(traceback.format_exception(type(e), e, tb)))
    return {"output": out.getvalue(), "ok": ok, "seconds": time.perf_counter() - start}


# ---------------------------------------------------------------------------- the stepper
_VALUE = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(\S+)\s*$")


def stepper_page(expression: str, values: str, lang: str, quiz: bool = False) -> dict:
    """The stepper page of an expression in the CLI's language, with values like "a=2, b=3"."""
    from micrograd.teach.expr import ExpressionError, parse_expression
    from micrograd.text import text
    from micrograd.viz import stepper

    values = unicodedata.normalize("NFKC", values)  # ＝ and ， typed with a Chinese input method
    numbers: dict[str, float] = {}
    for part in re.split(r"[,;\s]+(?=[A-Za-z_]\w*\s*=)", values.strip()):
        if not part.strip():
            continue
        m = _VALUE.match(part.strip().rstrip(",;"))
        if not m:
            return {"error": text("site.bad_value", lang, part=part.strip())}
        try:
            numbers[m.group(1)] = float(m.group(2))
        except ValueError:
            return {"error": text("site.bad_value", lang, part=part.strip())}
    try:
        out = parse_expression(expression, numbers)
        if not out.label:
            out.label = "out"
        s = stepper(out, lang=lang, quiz=quiz)
    except ExpressionError as e:
        if e.key == "expr_unknown_name":  # the CLI's advice names its --set; the page's field
            return {"error": text("site.unknown_name", lang, **e.fields)}
        return {"error": e.text(lang)}
    except (ValueError, ArithmeticError, TypeError) as e:
        return {"error": f"{type(e).__name__}: {e}"}
    return {"page": s.page, "frames": s.frames}


def attention_page(lang: str) -> dict:
    """The GPT chapter's backward stepper through one attention head (section 13:
    micrograd.teach.attention.attention_stepper), for the stepper's frame."""
    from micrograd.teach.attention import attention_stepper

    s = attention_stepper(lang)
    return {"page": s.page, "frames": s.frames}


# ---------------------------------------------------------------------------- the playground
GRID = 30  # the decision boundary: GRID x GRID predictions
POINTS = (10, 100, 400)  # the fewest points, the page's default, the most


def _widths(typed: str) -> list[int]:
    """The hidden layers as typed, "8, 8" (or "8 8", "8，8"), within the local playground's
    limits; a ValueError otherwise."""
    from micrograd.app.runs import checked_config

    typed = unicodedata.normalize("NFKC", typed)
    widths = [int(w) for w in re.split(r"[,;\s]+", typed.strip()) if w]
    checked_config({"hidden": widths})  # past its limits, a BadRequest (a ValueError)
    return widths


class Playground:
    """The page's run: a micrograd.app.runs.Run, the local playground's (its data, model,
    optimizer and Trainer, with the same defaults and limits), trained on the python back end
    (no numpy here), and what the page draws of it."""

    def __init__(self) -> None:
        self.reset({}, "en")

    def reset(self, config: dict, lang: str) -> dict:
        """A new run; {"error": ...} in `lang` for hidden layers that are not widths."""
        from micrograd.app.defaults import PLAYGROUND_LIMITS
        from micrograd.app.runs import Run
        from micrograd.text import text

        config = dict(config)
        if "hidden" in config:  # the text of the page's field
            try:
                config["hidden"] = _widths(str(config["hidden"]))
            except ValueError:
                words = {"got": config["hidden"], **PLAYGROUND_LIMITS}
                return {"error": text("site.bad_hidden", lang, **words)}
        points = int(config.pop("points", POINTS[1]))
        if not POINTS[0] <= points <= POINTS[2]:
            raise ValueError(f"points: from {POINTS[0]} to {POINTS[2]}, got {points}")
        self.run = Run(config, points=points, backend="python")
        self.config = {**self.run.config, "points": points}
        self.train_seconds = 0.0
        return self.state(since=0)

    def train(self, steps: int) -> dict:
        """`steps` steps of the run's Trainer (at most 100 a call)."""
        since = self.run.step
        start = time.perf_counter()
        self.run.train(max(0, min(int(steps), 100)))
        self.train_seconds += time.perf_counter() - start
        return self.state(since)

    def state(self, since: int) -> dict:
        run = self.run
        x0, x1, y0, y1 = run.box
        grid = [
            [x0 + (x1 - x0) * (i + 0.5) / GRID, y0 + (y1 - y0) * (j + 0.5) / GRID]
            for j in range(GRID)
            for i in range(GRID)
        ]
        return {
            "step": run.step,
            "loss": run.losses[-1] if run.losses else None,
            "accuracy": run.accuracies[-1] if run.accuracies else None,
            "losses": run.losses[since:],
            "accuracies": run.accuracies[since:],
            "since": since,
            "train_seconds": self.train_seconds,
            "grid": {
                "n": GRID,
                "box": run.box,
                "scores": [min(9.0, max(-9.0, s[0])) for s in run.trainer.scores(grid)],
            },
            "points": run.X,
            "labels": run.y,
            "active": run.active(),  # the points whose loss is > 0: the page rings them
            "binary": run.clf.binary,
            "config": self.config,
            "parameters": len(run.model.parameters()),
        }


PLAYGROUND: Playground | None = None


def playground(action: str, arg: object = None, lang: str = "en") -> dict:
    global PLAYGROUND
    if PLAYGROUND is None:
        PLAYGROUND = Playground()
    if action == "reset":
        return PLAYGROUND.reset(dict(json.loads(str(arg))) if arg else {}, lang)
    if action == "prepare":
        return GPT_RUN.prepare()
    if action == "train":
        return PLAYGROUND.train(int(arg or 1))  # type: ignore[call-overload]
    return PLAYGROUND.state(since=0)


# ---------------------------------------------------------------------------- the GPT
class GptRun:
    """The page's GPT: microgpt's model (micrograd.gpt.GPT, with a block of 8) on the shipped names
    of at most 7 letters, one name a step, trained with microgpt's Adam (lr 0.01, betas 0.85 and
    0.99) at a constant rate (the page does not know how many steps it will run), by a Trainer of
    the NextToken task. The step is traced once and replayed (micrograd.app.tasks.CompiledStep) on
    the python back end: no numpy here, and eager Values would take ~0.75 s a step in
    WebAssembly, the replay ~25 ms. Every name runs in the one program of the block's length:
    compiling a second would cost more time than the few names it would speed up."""

    LETTERS = 7

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> dict:
        import random

        from micrograd.app.tasks import NextToken
        from micrograd.app.train import BETAS, EPS, LEARNING_RATE
        from micrograd.app.train import Trainer
        from micrograd.data import CharTokenizer, names
        from micrograd.gpt import GPT
        from micrograd.optim import Adam

        every = names()
        docs = [d for d in every if len(d) <= self.LETTERS]
        random.Random(0).shuffle(docs)
        self.tokenizer = CharTokenizer(every)
        random.seed(42)  # the weights come from Python's random, as in microgpt
        self.model = GPT(self.tokenizer.vocab_size, block_size=self.LETTERS + 1)
        self.task = NextToken(self.model, self.tokenizer, lengths=())
        self.docs = docs
        self.trainer: Trainer | None = None  # made (and the step compiled) by the first train()
        self.optimizer = Adam(self.model.parameters(), lr=LEARNING_RATE, betas=BETAS, eps=EPS)
        self.losses: list[float] = []
        self.train_seconds = self.compile_seconds = 0.0
        self.draws = random.Random(0)  # the names' own generator: each click draws new ones
        self.drawn = 0
        return self.state(since=0)

    def prepare(self) -> dict:
        """Trace and compile the step, once: the page asks as soon as its Python is ready, so
        that a learner who reads before pressing train finds it done."""
        from micrograd.app.train import Trainer

        if self.trainer is None:
            start = time.perf_counter()
            self.trainer = Trainer(
                self.task, self.docs, None, self.optimizer, 1, backend="python", in_order=True
            )
            self.compile_seconds = time.perf_counter() - start
        return self.state(since=len(self.losses))

    def train(self, steps: int) -> dict:
        """`steps` steps (at most 50 a call), after compiling the step if it is not yet."""
        since = len(self.losses)
        self.prepare()
        assert self.trainer is not None
        start = time.perf_counter()
        for _ in range(max(0, min(int(steps), 50))):
            self.losses.append(self.trainer.step())
        self.train_seconds += time.perf_counter() - start
        return self.state(since)

    def state(self, since: int) -> dict:
        """The losses from step `since` on, the mean of the last 50, and the times."""
        last = self.losses[-50:]
        return {
            "step": len(self.losses),
            "since": since,
            "losses": self.losses[since:],
            "mean": sum(last) / len(last) if last else None,
            "compiled": self.trainer is not None,
            "compile_seconds": self.compile_seconds,
            "train_seconds": self.train_seconds,
        }

    def sample(self, n: int, temperature: float) -> dict:
        """n names drawn at `temperature`, a number above 0 as the terminal takes it (GPT.sample
        refuses any other), from a generator of their own that goes on: new names each time, and
        the weights' random stays as it is."""
        made = [
            self.model.sample(self.tokenizer, temperature, self.draws)
            for _ in range(max(1, min(int(n), 20)))
        ]
        self.drawn += 1
        return {
            "names": [self.tokenizer.decode(ids) for ids in made],
            "temperature": temperature,
            "step": len(self.losses),
            "draw": self.drawn,
        }


GPT_RUN: GptRun | None = None


def gpt(action: str, arg: object = None) -> dict:
    """The page's GPT: "reset", "prepare" (compile the step), "train" (arg: steps), "sample" (arg:
    temperature), or its state."""
    global GPT_RUN
    if GPT_RUN is None:
        GPT_RUN = GptRun()
    if action == "reset":
        return GPT_RUN.reset()
    if action == "prepare":
        return GPT_RUN.prepare()
    if action == "train":
        return GPT_RUN.train(int(arg or 1))  # type: ignore[call-overload]
    if action == "sample":
        return GPT_RUN.sample(10, float(arg))  # type: ignore[arg-type]
    return GPT_RUN.state(since=0)


# ---------------------------------------------------------------------------- practice
def practice_list(lang: str) -> list:
    """The exercises written in code (the predict ones are quizzes: the stepper page has them)."""
    from micrograd.practice import EXERCISES
    from micrograd.text import text

    return [
        {
            "id": ex.id,
            "title": ex.title(lang),
            "task": ex.task(lang),
            "hints": list(ex.hints(lang)),
            "track": text(f"practice.track.{ex.track}", lang),
        }
        for ex in EXERCISES.values()
        if ex.kind != "predict"
    ]


def practice_stub(exercise: str, lang: str) -> str:
    """The file `micrograd practice start ID` writes."""
    from micrograd.practice.reference import stub

    return stub(exercise, lang)


def practice_check(exercise: str, source: str, lang: str) -> dict:
    """micrograd.practice.check on the learner's source, written to a file as the command does."""
    from micrograd.practice import check

    _free_chains_iteratively()  # the backward check's chain of the engine's Values
    folder = os.path.join(HOME, "practice")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{exercise}.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    os.chdir(HOME)
    try:
        result = check(exercise, path, lang=lang)
    except Exception as e:  # the checker reports the learner's errors itself; this is ours
        return {"passed": False, "text": "".join(traceback.format_exception_only(type(e), e))}
    result.seed = None  # its line says how to replay the points in a terminal: not here
    return {"passed": bool(result.passed), "text": str(result), "mistake": result.mistake}
