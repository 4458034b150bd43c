"""`check(exercise, code)`: load a learner's code and check one exercise on it.

Three layers, as issue 21 asks: a gradient check at random points drawn now (the seed is shown so
the run can be replayed) and at edge cases, against micrograd's engine and central differences;
the first wrong step of the backward pass, in words, with the mistake's name; a summary per input.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import sys
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from micrograd import engine
from micrograd.modes import no_grad
from micrograd.practice.exercises import EXERCISES, Exercise, OpSpec, Point
from micrograd.practice.messages import aside, say
from micrograd.practice.result import CheckResult, Row
from micrograd.practice.rules import RULES, Known, close, fmt, inputs_of, topo
from micrograd.practice.steps import Problem, Walk
from micrograd.text import language

RECURSION_LIMIT = 10_000  # while learner code runs: a recursive backward fails the same everywhere


class LearnerError(Exception):
    """The learner's code raised, or is not what the exercise needs: carries the Problem."""

    def __init__(self, problem: Problem):
        super().__init__(problem.step)
        self.problem = problem


# ---------------------------------------------------------------------------- loading
def _source_of(path: str) -> str:
    """A .py file's text, or the code cells of an .ipynb (IPython's %/! lines left out)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not path.endswith(".ipynb"):
        return text
    cells = json.loads(text).get("cells", [])
    code = []
    for cell in cells:
        if cell.get("cell_type") == "code":
            src = cell.get("source", "")
            lines = "".join(src) if isinstance(src, list) else str(src)
            if "micrograd.practice" in lines:  # the notebook's own check cell
                continue
            code.append("\n".join(ln for ln in lines.splitlines() if not ln.startswith(("%", "!"))))
    return "\n\n".join(code)


_loaded = 0


def load(code: Any, lang: str = "en") -> Any:
    """The learner's namespace: a module (from a path or given), or one holding a given class.
    A function is attached, as the method it is named after, to a subclass of the `Value` of
    its module."""
    global _loaded
    if isinstance(code, (str, os.PathLike)):
        path = os.fspath(code)
        if not os.path.isfile(path):
            raise FileNotFoundError(say("no_file", lang, path=path))
        source = _source_of(path)
        _loaded += 1
        module = types.ModuleType(f"micrograd_practice_learner_{_loaded}")
        module.__file__ = os.path.abspath(path)
        sys.modules[module.__name__] = module  # dataclasses and pickling look the module up
        try:
            with _quiet():
                exec(compile(source, path, "exec"), module.__dict__)
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            why = _too_long(path, lang) if isinstance(e, TookTooLong) else None
            why = why or say("load_failed", lang, error=_error(e))
            raise LearnerError(Problem("other", why)) from e
        finally:
            sys.modules.pop(module.__name__, None)
        return module
    if isinstance(code, types.ModuleType):
        return code
    if isinstance(code, type):
        return types.SimpleNamespace(Value=code)
    raise TypeError(f"code must be a path, a module, a class or a function, got {code!r}")


def _attach(fn: Callable[..., Any], ex: Exercise) -> Any:
    """A namespace whose Value has `fn` as the exercise's method."""
    if ex.op is None:
        raise TypeError(f"a function can be checked only for an op exercise, not {ex.id!r}")
    base = fn.__globals__.get("Value")
    if not isinstance(base, type):
        raise TypeError("the function's module has no class Value to attach it to")
    name = ex.op.method
    if ex.id == "op-pow-value":
        name = "_pow_value" if hasattr(base, "_pow_value") else "__pow__"
    return types.SimpleNamespace(Value=type(base.__name__, (base,), {name: fn}))


def _too_long(what: str, lang: str) -> str:
    return say("too_long", lang, what=what, seconds=f"{TIME_LIMIT:g}")


def _error(e: BaseException) -> str:
    text = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Learner code runs with its prints hidden (a print in _backward would flood the table),
    a known recursion limit, and a time limit."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(min(old, RECURSION_LIMIT), 1000))
    try:
        with contextlib.redirect_stdout(io.StringIO()), _time_limit():
            yield
    finally:
        sys.setrecursionlimit(old)


TIME_LIMIT = 60.0  # seconds for one call into learner code (training an MLP takes a few)


class TookTooLong(BaseException):
    """Raised inside learner code that ran past TIME_LIMIT. Not an Exception, so that an
    `except Exception:` in the learner's loop cannot swallow it."""


_timing = False  # a limit is running: calls nested in it share it


@contextlib.contextmanager
def _time_limit() -> Iterator[None]:
    """Stop the block after TIME_LIMIT seconds (a loop that never ends), with SIGALRM: where
    there is one (not on Windows), in the main thread, and when no other timer runs."""
    global _timing
    usable = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and not _timing
        and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    )
    if not usable:
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise TookTooLong

    before = signal.signal(signal.SIGALRM, stop)
    _timing = True
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        _timing = False


def guarded(what: str, lang: str, fn: Callable[[], Any]) -> Any:
    """fn(), its exceptions turned into a Problem that names `what` was running."""
    try:
        with _quiet():
            return fn()
    except LearnerError:
        raise
    except TookTooLong as e:
        raise LearnerError(Problem("other", _too_long(what, lang))) from e
    except NotImplementedError as e:
        raise LearnerError(Problem("other", say("not_written", lang, what=what))) from e
    except RecursionError as e:
        raise LearnerError(Problem("recursion-limit", say("recursion", lang, what=what))) from e
    except Exception as e:
        raise LearnerError(Problem("other", say("raised", lang, what=what, error=_error(e)))) from e


def value_class(ns: Any, lang: str) -> Any:
    """The learner's `Value` class, or a LearnerError saying it is missing."""
    cls = getattr(ns, "Value", None)
    if not isinstance(cls, type):
        raise LearnerError(Problem("other", say("no_class", lang, name="Value")))
    return cls


def function_of(ns: Any, name: str, lang: str) -> Callable[..., Any]:
    """The learner's function `name`, or a LearnerError saying it is missing."""
    fn = getattr(ns, name, None)
    if not callable(fn):
        raise LearnerError(Problem("other", say("no_function", lang, name=name)))
    return fn


# ---------------------------------------------------------------------------- op exercises
def _operands(spec: OpSpec, leaves: list[Any], point: Point) -> tuple[Any, ...]:
    if spec.arity == 1:
        return (leaves[0],)
    return (leaves[0], leaves[0]) if point.twice else (leaves[0], leaves[1])


def _outputs(spec: OpSpec, operands: tuple[Any, ...], point: Point) -> list[Any]:
    """The op applied as the exercise says; a unary op on a Value used twice is applied twice."""
    outs = [spec.apply(*operands, point.k)]
    if spec.arity == 1 and point.twice:
        outs.append(spec.apply(*operands, point.k))
    return outs


def _reference(spec: OpSpec, point: Point) -> tuple[float, list[float], list[float | None]]:
    """Output, engine grads and central differences of the op at `point` (per leaf)."""
    n = 1 if point.twice else spec.arity
    xs = list(point.args[:n])

    def f(values: Sequence[float]) -> float:
        with no_grad():
            vs = [engine.Value(v) for v in values]
            outs = _outputs(spec, _operands(spec, vs, point), point)
            return float(sum(o.data for o in outs))

    vs = [engine.Value(x) for x in xs]
    outs = _outputs(spec, _operands(spec, vs, point), point)
    root = outs[0] if len(outs) == 1 else outs[0] + outs[1]
    root.backward()
    grads = [float(v.grad) for v in vs]
    numeric: list[float | None] = []
    for i, x in enumerate(xs):
        if spec.kink(x):
            numeric.append(None)
            continue
        h = 1e-6 * max(1.0, abs(x))
        up, down = list(xs), list(xs)
        up[i] += h
        down[i] -= h
        numeric.append((f(up) - f(down)) / (2 * h))
    return float(outs[0].data), grads, numeric


def _where(point: Point, names: Sequence[str]) -> str:
    n = 1 if point.twice else len(names)
    where = ", ".join(f"{name} = {fmt(x)}" for name, x in zip(names[:n], point.args))
    return f"{where}, k = {fmt(point.k)}" if point.k_used else where


def check_op(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    """Check one op of the learner's Value at random points and edge cases, step by step."""
    spec = ex.op
    assert spec is not None
    V = value_class(ns, lang)
    rng = random.Random(seed)
    names = ["a", "b"][: spec.arity]
    rows = [Row(n) for n in names]
    first: Problem | None = None
    for point in spec.points(rng):
        _, grads, numeric = _reference(spec, point)
        for seeded in (False, True):
            found, problem = _run_op(spec, V, point, names, rng if seeded else None, lang)
            first = first or problem
            if not seeded and found is not None:
                for row, g, e, d in zip(rows, found, grads, numeric):
                    row.add(g, e, d)
                if first is None:
                    first = _differs(found, grads, names, point, lang)
    result = CheckResult(ex.id, first is None, seed=seed, lang=lang, rows=rows)
    if first is not None:
        result.mistake, result.first_wrong_step = first.mistake, first.step
    return result


def _differs(
    found: list[float], grads: list[float], names: list[str], point: Point, lang: str
) -> Problem | None:
    for name, g, e in zip(names, found, grads):
        if not close(g, e, rel=1e-6, abs_=1e-9):
            where = _where(point, names)
            text = say("grad_differs", lang, input=name, found=fmt(g), expected=fmt(e), where=where)
            return Problem("other", text)
    return None


def _run_op(
    spec: OpSpec, V: Any, point: Point, names: list[str], rng: random.Random | None, lang: str
) -> tuple[list[float] | None, Problem | None]:
    """One run of the learner's op at `point`: plain (grads 0, output grad 1), or seeded (grads
    already there, a random output grad: `=` for `+=` and a missing `* out.grad` show)."""
    n = 1 if point.twice else spec.arity
    what = spec.show.format(*names) if not point.twice else spec.show.format("a", "a")
    try:
        leaves = guarded(what, lang, lambda: [V(x) for x in point.args[:n]])
        operands = _operands(spec, leaves, point)
        outs = guarded(what, lang, lambda: _outputs(spec, operands, point))
        for out in outs:
            if not all(hasattr(out, a) for a in ("data", "grad", "_prev", "_backward")):
                kind = type(out).__name__
                return None, Problem("other", say("not_value", lang, what=what, kind=kind))
        walk = Walk({id(v): name for v, name in zip(leaves, names)}, lang)
        for out in outs:
            if {id(p) for p in inputs_of(out)} == {id(o) for o in operands}:
                walk.known[id(out)] = Known(RULES[spec.rule], operands, point.k)
        expected_out = _reference(spec, point)[0]
        if not close(outs[0].data, expected_out, rel=1e-9):
            where = _where(point, names)
            fields = {"found": fmt(outs[0].data), "expected": fmt(expected_out), "where": where}
            differs = Problem("wrong-forward", say("out_differs", lang, what=what, **fields))
            return None, walk.forward(topo(outs)) or differs
        seeds = [1.0] * len(outs)
        shifts = [0.0] * len(leaves)
        if rng is not None:  # grads already there, and an upstream grad that is not 1
            shifts = [rng.choice((-1, 1)) * rng.uniform(0.5, 2.0) for _ in leaves]
            seeds = [rng.choice((-1, 1)) * rng.uniform(1.5, 2.5)] * len(outs)
            for leaf, s in zip(leaves, shifts):
                leaf.grad = s
        problem = guarded(what + "._backward()", lang, lambda: walk.run(outs, seeds))
        if problem is not None:
            step = aside(problem.step, _where(point, names), lang)
            return None, Problem(problem.mistake, step)
        return [(leaf.grad - s) / seeds[0] for leaf, s in zip(leaves, shifts)], None
    except LearnerError as e:
        return None, e.problem


# ---------------------------------------------------------------------------- check()
def new_seed() -> int:
    """A random seed drawn now, from the operating system: every check sees new points."""
    return random.SystemRandom().randrange(1, 10**9)


def check(
    exercise_id: str, code: Any, *, seed: int | None = None, lang: str | None = None
) -> CheckResult:
    """Check the exercise `exercise_id` on the learner's `code` (a .py or .ipynb path, a module,
    a Value class, or a function for an op exercise). Pass `seed` to replay a run."""
    lang = language(lang)
    if exercise_id not in EXERCISES:
        known = ", ".join(EXERCISES)
        raise ValueError(say("unknown_exercise", lang, exercise=exercise_id, known=known))
    ex = EXERCISES[exercise_id]
    seed = new_seed() if seed is None else seed
    if ex.kind == "predict":  # the learner's answers, not code
        from micrograd.practice.lecture import check_predict

        return check_predict(ex, code, seed, lang)
    try:
        ns = _attach(code, ex) if isinstance(code, types.FunctionType) else load(code, lang)
        return _dispatch(ex, ns, seed, lang)
    except LearnerError as e:
        result = CheckResult(ex.id, False, seed=seed, lang=lang)
        result.mistake, result.first_wrong_step = e.problem.mistake, e.problem.step
        return result


def _dispatch(ex: Exercise, ns: Any, seed: int, lang: str) -> CheckResult:
    from micrograd.practice import lecture, training, traps  # they import this module

    checks: dict[str, Callable[[Exercise, Any, int, str], CheckResult]] = {
        "op": check_op,
        "backward": traps.check_backward,
        "zero-grad": training.check_zero_grad,
        "mlp": training.check_mlp,
        "derivative": lecture.check_derivative,
        "softmax": lecture.check_softmax,
    }
    try:
        return checks[ex.kind](ex, ns, seed, lang)
    except LearnerError as e:
        result = CheckResult(ex.id, False, seed=seed, lang=lang)
        result.mistake, result.first_wrong_step = e.problem.mistake, e.problem.step
        return result


# the functions and classes an exercise checks beside a Value: check_engine runs it when the
# learner's file has them all
WRITTEN_BESIDE = {
    "derivative": ("gradf", "numerical_grad", "symmetric_grad"),
    "zero-grad": ("zero_grad", "zero_grad_all", "train"),
    "softmax": ("softmax", "nll"),
    "mlp": ("Neuron", "Layer", "MLP"),
}


def check_engine(code: Any, *, seed: int | None = None, lang: str | None = None) -> CheckResult:
    """Every exercise that applies to a whole lecture-style engine, in one table: each op (a
    missing method is a failure), backward(), and the exercises whose functions the file has."""
    lang = language(lang)
    seed = new_seed() if seed is None else seed
    result = CheckResult("check-engine", True, seed=seed, lang=lang)
    try:
        ns = load(code, lang)
        V = value_class(ns, lang)
    except LearnerError as e:
        result.passed, result.mistake, result.first_wrong_step = (
            False,
            e.problem.mistake,
            e.problem.step,
        )
        return result
    for ex in EXERCISES.values():
        if ex.kind == "predict":
            continue
        beside = WRITTEN_BESIDE.get(ex.kind, ())
        if not all(hasattr(ns, name) for name in beside):
            continue
        if ex.op is not None and not all(hasattr(V, m) for m in ex.op.needs):
            part = CheckResult(ex.id, False, mistake="other", lang=lang)
            part.notes.append(say("missing_method", lang, method=", ".join(ex.op.needs)))
        else:
            part = _dispatch(ex, ns, seed, lang)
        result.parts.append(part)
    result.passed = all(p.passed for p in result.parts)
    if not result.passed:
        result.mistake = next(p.mistake for p in result.parts if not p.passed)
    return result
