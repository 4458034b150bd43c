"""The Python side of the site's pages, run by Pyodide in the page's Web Worker (worker.js).

Each function takes and returns plain data (str, float, dict, list) so that the worker can pass it
to the page as JSON. Only micrograd's public modules are used; nothing here is installed with the
package."""

from __future__ import annotations

import contextlib
import io
import json
import linecache
import math
import os
import random
import re
import time
import traceback
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from micrograd.engine import Value

HOME = "/home/pyodide"

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
        return {"error": e.text(lang)}
    except (ValueError, ArithmeticError, TypeError) as e:
        return {"error": f"{type(e).__name__}: {e}"}
    return {"page": s.page, "frames": s.frames}


# ---------------------------------------------------------------------------- the playground
GRID = 30  # the decision boundary: GRID x GRID predictions, computed on floats


class Playground:
    """An MLP trained on a 2-D data set in pure Python (no numpy here): nn, optim, losses, and
    micrograd.flat, which replays one sample's traced graph on the whole set ~25x faster than
    building it anew with the eager engine on every step (the same numbers, summed in another
    order: ~1e-16)."""

    def __init__(self) -> None:
        self.reset({})

    def reset(self, config: dict) -> dict:
        from micrograd import data
        from micrograd.flat import compile_flat
        from micrograd.nn import MLP
        from micrograd.optim import SGD, Adam

        c = {"data": "moons", "points": 100, "hidden": [8, 8], "activation": "relu"}
        c.update({"optimizer": "adam", "lr": 0.03, "seed": 0})
        c.update(config)
        if c["data"] not in ("moons", "circles", "xor"):
            raise ValueError(f"data must be moons, circles or xor, got {c['data']!r}")
        hidden = [int(h) for h in c["hidden"]]
        if not 1 <= len(hidden) <= 3 or not all(1 <= h <= 16 for h in hidden):
            raise ValueError(f"hidden: 1 to 3 layers of 1 to 16 neurons, got {c['hidden']!r}")
        points = int(c["points"])
        if not 10 <= points <= 400:
            raise ValueError(f"points: from 10 to 400, got {points}")
        lr = float(c["lr"])
        if not 0 < lr <= 10:
            raise ValueError(f"lr must be in (0, 10], got {lr}")
        self.config = {**c, "hidden": hidden, "points": points, "lr": lr}
        self.X, self.y = getattr(data, c["data"])(n=points, seed=int(c["seed"]))
        random.seed(int(c["seed"]))  # the weights come from Python's random, as in the original
        self.model = MLP(2, [*hidden, 1], activation=c["activation"])
        params = self.model.parameters()
        self.optimizer = Adam(params, lr=lr) if c["optimizer"] == "adam" else SGD(params, lr=lr)
        self.program = compile_flat(self._sample, params, 3)  # (x0, x1, target): loss, logit
        self.rows = [[*x, t] for x, t in zip(self.X, self.y)]
        self.step = 0
        self.losses: list[float] = []
        self.accuracies: list[float] = []
        self.train_seconds = 0.0
        xs = [p[0] for p in self.X]
        ys = [p[1] for p in self.X]
        self.box = (min(xs) - 0.5, max(xs) + 0.5, min(ys) - 0.5, max(ys) + 0.5)
        return self.state(since=0)

    def _sample(self, x0: Value, x1: Value, target: Value) -> tuple[Value, Value]:
        """One point's binary cross-entropy on its logit, and the logit (for the accuracy)."""
        from micrograd.losses import bce_with_logits

        logit = self.model([x0, x1])
        return bce_with_logits([logit], [target]), logit

    def train(self, steps: int) -> dict:
        """`steps` steps of the optimizer on the whole set: the mean binary cross-entropy on the
        logits, its gradient from the compiled program into the parameters' grads."""
        since = self.step
        start = time.perf_counter()
        params = self.model.parameters()
        n = len(self.rows)
        for _ in range(max(0, min(int(steps), 100))):
            out, grads = self.program.value_and_grad(self.rows, 1.0 / n)
            loss = sum(row_loss for row_loss, _ in out) * (1.0 / n)
            if not math.isfinite(loss):
                raise FloatingPointError(
                    f"training diverged at step {self.step + 1}: reset with a smaller learning rate"
                )
            for p, g in zip(params, grads):
                p.grad = g
            self.optimizer.step()
            right = sum((z > 0) == (t == 1) for (_, z), t in zip(out, self.y))
            self.step += 1
            self.losses.append(loss)
            self.accuracies.append(right / n)
        self.train_seconds += time.perf_counter() - start
        return self.state(since)

    def _scores(self, points: list) -> list[float]:
        """The model's output at each point, computed on floats from the weights' data."""
        layers = [
            [([w.data for w in n.w], n.b.data, n.activation) for n in layer.neurons]
            for layer in self.model.layers
        ]
        act = {
            "relu": lambda z: z if z > 0 else 0.0,
            "tanh": math.tanh,
            "sigmoid": lambda z: 1 / (1 + math.exp(-z)) if z > -700 else 0.0,
            "linear": lambda z: z,
        }
        scores = []
        for x in points:
            h = x
            for layer in layers:
                h = [act[a](sum(w * v for w, v in zip(ws, h)) + b) for ws, b, a in layer]
            scores.append(h[0])
        return scores

    def state(self, since: int) -> dict:
        x0, x1, y0, y1 = self.box
        grid = [
            [x0 + (x1 - x0) * (i + 0.5) / GRID, y0 + (y1 - y0) * (j + 0.5) / GRID]
            for j in range(GRID)
            for i in range(GRID)
        ]
        scores = self._scores(grid)
        return {
            "step": self.step,
            "loss": self.losses[-1] if self.losses else None,
            "accuracy": self.accuracies[-1] if self.accuracies else None,
            "losses": self.losses[since:],
            "since": since,
            "train_seconds": self.train_seconds,
            "grid": {
                "n": GRID,
                "box": self.box,
                "scores": [min(9.0, max(-9.0, s)) for s in scores],
            },
            "points": self.X,
            "labels": self.y,
            "config": self.config,
            "parameters": len(self.model.parameters()),
        }


PLAYGROUND: Playground | None = None


def playground(action: str, arg: object = None) -> dict:
    global PLAYGROUND
    if PLAYGROUND is None:
        PLAYGROUND = Playground()
    if action == "reset":
        return PLAYGROUND.reset(dict(json.loads(str(arg))) if arg else {})
    if action == "train":
        return PLAYGROUND.train(int(arg or 1))  # type: ignore[call-overload]
    return PLAYGROUND.state(since=0)


# ---------------------------------------------------------------------------- practice
def practice_list(lang: str) -> list:
    """The exercises written in code (the predict ones are quizzes: the stepper page has them)."""
    from micrograd.practice import EXERCISES

    return [
        {"id": ex.id, "title": ex.title[lang], "task": ex.task[lang], "hints": ex.hints[lang]}
        for ex in EXERCISES.values()
        if ex.kind != "predict"
    ]


def practice_stub(exercise: str, lang: str) -> str:
    """The file `micrograd practice start ID` writes."""
    from micrograd.practice.solutions import stub

    return stub(exercise)


def practice_check(exercise: str, source: str, lang: str) -> dict:
    """micrograd.practice.check on the learner's source, written to a file as the command does."""
    from micrograd.practice import check

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
    return {"passed": bool(result.passed), "text": str(result), "mistake": result.mistake}
