"""The one place learner code runs: loading it (a .py or .ipynb file, a module, a class), and
every call into it, under a time limit and a known recursion limit, with its prints captured.

What goes wrong in learner code becomes a `LearnerError` carrying a Problem in words: it raised,
it is not written yet, it recursed too deep, it ran too long, or a class or function is missing.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from typing import Any

from micrograd.practice.result import Problem
from micrograd.teach.expr import parser_error
from micrograd.text import text

RECURSION_LIMIT = 10_000  # while learner code runs: a recursive backward fails the same everywhere


class LearnerError(Exception):
    """The learner's code raised, or is not what the exercise needs: carries the Problem."""

    def __init__(self, problem: Problem):
        super().__init__(problem.step)
        self.problem = problem


# ---------------------------------------------------------------------------- loading
CHECK_TAG = "micrograd-check"  # the tag of the check cell `practice start --notebook` writes


def _source_of(path: str, lang: str) -> str:
    """A .py file's text, or the code cells of an .ipynb in the order the notebook runs them
    (IPython's %/! lines left out), less the check cell tagged CHECK_TAG."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    if not path.endswith(".ipynb"):
        return source
    not_notebook = LearnerError(Problem("other", text("practice.not_notebook", lang, path=path)))
    try:
        cells = json.loads(source).get("cells", [])
    except (ValueError, RecursionError, AttributeError) as e:  # cut short, or not an object
        raise not_notebook from e
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise not_notebook
    code = []
    for cell in cells:
        tags = (
            cell.get("metadata", {}).get("tags", [])
            if isinstance(cell.get("metadata"), dict)
            else []
        )
        if cell.get("cell_type") != "code" or CHECK_TAG in tags:
            continue
        src = cell.get("source", "")
        if isinstance(src, list) and all(isinstance(line, str) for line in src):
            src = "".join(src)
        if not isinstance(src, str):
            raise not_notebook
        code.append("\n".join(ln for ln in src.splitlines() if not ln.startswith(("%", "!"))))
    return "\n\n".join(code)


_loaded = 0


def load(code: Any, lang: str = "en") -> Any:
    """The learner's namespace: a module (run from a .py or .ipynb path, or given), or one holding
    a given Value class."""
    global _loaded
    if isinstance(code, (str, os.PathLike)):
        path = os.fspath(code)
        if not os.path.isfile(path):
            raise FileNotFoundError(text("practice.no_file", lang, path=path))
        source = _source_of(path, lang)
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
            if isinstance(e, TookTooLong):
                _disarm()
            why = too_long(path, lang) if isinstance(e, TookTooLong) else None
            if isinstance(e, SyntaxError) and e.lineno:  # where, and why in the learner's words
                code = (e.text or "").strip()
                why = text(
                    "practice.syntax", lang, line=e.lineno, reason=parser_error(e, lang), code=code
                )
            why = why or text("practice.load_failed", lang, error=_error(e))
            mistake = "too-long" if isinstance(e, TookTooLong) else "other"
            mistake = "syntax-error" if isinstance(e, SyntaxError) else mistake
            raise LearnerError(Problem(mistake, why)) from e
        finally:
            sys.modules.pop(module.__name__, None)
        return module
    if isinstance(code, types.ModuleType):
        return code
    if isinstance(code, type):
        return types.SimpleNamespace(Value=code)
    raise TypeError(f"code must be a path, a module, a class or a function, got {code!r}")


# ---------------------------------------------------------------------------- calls into it
def too_long(what: str, lang: str) -> str:
    """What the learner's code was doing when it ran past the time limit, in words."""
    return text("practice.too_long", lang, what=what, seconds=f"{TIME_LIMIT:g}")


def _error(e: BaseException) -> str:
    """The exception in one line: its type and the first line of its message, with the name
    Python's own traceback would suggest for a misspelt attribute (`self.gard`: grad?)."""
    first = str(e).splitlines()[0] if str(e) else ""
    said = f"{type(e).__name__}: {first}" if first else type(e).__name__
    if isinstance(e, AttributeError) and e.name and e.obj is not None:
        near = difflib.get_close_matches(
            e.name, [n for n in dir(e.obj) if not n.startswith("__")], 1
        )
        if near:
            said += f" ({near[0]}?)"
    return said


class Output:
    """What the learner's code printed during one check."""

    def __init__(self) -> None:
        self.buffer = io.StringIO()

    def lines(self) -> list[str]:
        """The printed lines, in order."""
        return self.buffer.getvalue().splitlines()


def _seconds(said: str | None, default: float = 10.0) -> float:
    """The time limit MICROGRAD_CHECK_SECONDS asks for (a class's slower machines, a test's
    quicker one), if it is a number of seconds from 0.1 to an hour; else the default."""
    try:
        seconds = float(said) if said else default
    except ValueError:
        return default
    return seconds if 0.1 <= seconds <= 3600 else default


TIME_LIMIT = _seconds(os.environ.get("MICROGRAD_CHECK_SECONDS"))  # a whole check: loops end here
_deadline: float | None = None  # when the check that runs now must end (None: none runs)
_output: Output | None = None  # where the running check keeps the learner's prints


class TookTooLong(BaseException):
    """Raised inside learner code that ran past the check's deadline. Not an Exception, so that
    an `except Exception:` in the learner's loop cannot swallow it."""


@contextlib.contextmanager
def session(seconds: float | None = None) -> Iterator[Output]:
    """One check: one time limit for all it runs (learner code and the checker's own: `seconds`,
    TIME_LIMIT by default), and one buffer for what the learner's code prints. Nested sessions
    share the outer one."""
    global _deadline, _output
    if _deadline is not None and _output is not None:
        yield _output
        return
    seconds = TIME_LIMIT if seconds is None else seconds
    _deadline, _output = time.monotonic() + seconds, Output()
    try:
        with _alarm(seconds):
            yield _output
    finally:
        _deadline, _output = None, None


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Raise TookTooLong after `seconds` (a loop that never ends), with SIGALRM: where there is
    one (not on Windows or in the browser), in the main thread, and when no other timer runs.
    Elsewhere the deadline is still checked before each call into learner code."""
    usable = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    )
    if not usable:
        yield
        return

    armed = True

    def stop(signum: int, frame: Any) -> None:
        if armed:  # an alarm that lands while the block ends passes: the timer is being stopped
            raise TookTooLong

    before = signal.signal(signal.SIGALRM, stop)
    # again every 0.25 s after the first: a loop that swallows one TookTooLong (`except
    # BaseException`) meets the next outside its `try`
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.25)
    try:
        yield
    finally:
        # disarmed first: a TookTooLong raised in here would skip the rest, leave the timer
        # firing and the handler in place, and stop every later check in this process at once
        armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def _disarm() -> None:
    """The learner's code was stopped: no more alarms for the rest of the check (the deadline
    keeps any further call from starting)."""
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, 0)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Learner code runs with its prints kept for after the verdict (a print in _backward would
    flood the table), a known recursion limit, and the check's time limit."""
    if _deadline is not None and time.monotonic() > _deadline:
        raise TookTooLong  # the time ran out earlier: nothing more of the learner's runs
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(min(old, RECURSION_LIMIT), 1000))
    try:
        with contextlib.redirect_stdout(_output.buffer if _output else io.StringIO()):
            yield
    finally:
        sys.setrecursionlimit(old)


# the problems that end a check, not one case of it: no case can run on (a missing part, the time
# spent, a recursion over any graph)
ENDS_THE_CHECK = ("not-written", "too-long", "recursion-limit")


def raised_type(e: LearnerError) -> str:
    """The type of what the learner's code raised, for comparing outcomes (the problem's words
    where it raised nothing)."""
    return type(e.__cause__).__name__ if e.__cause__ is not None else e.problem.step


def guarded(what: str, lang: str, fn: Callable[[], Any]) -> Any:
    """fn(), everything it raises (sys.exit() included) turned into a Problem that names `what`
    was running."""
    try:
        with _quiet():
            return fn()
    except LearnerError:
        raise
    except TookTooLong as e:
        _disarm()
        raise LearnerError(Problem("too-long", too_long(what, lang))) from e
    except NotImplementedError as e:
        raise LearnerError(
            Problem("not-written", text("practice.not_written", lang, what=what))
        ) from e
    except RecursionError as e:
        raise LearnerError(
            Problem("recursion-limit", text("practice.recursion", lang, what=what))
        ) from e
    except (SystemExit, KeyboardInterrupt) as e:
        # sys.exit(), exit() or quit() left in from debugging must not end the check (with exit
        # status 0): it is named like any other error
        how = "sys.exit()" if isinstance(e, SystemExit) else "KeyboardInterrupt"
        raise LearnerError(
            Problem("other", text("practice.exited", lang, what=what, how=how))
        ) from e
    except BaseException as e:
        raise LearnerError(
            Problem("other", text("practice.raised", lang, what=what, error=_error(e)))
        ) from e


# ---------------------------------------------------------------------------- the checker's own code
WATCHED = ("builtins", "math", "random", "operator", "functools")  # besides micrograd's modules


class Tampering:
    """What the checker's code is made of (micrograd's modules, and the standard ones it calls),
    taken before the learner's code runs: changed() names what the learner's code replaced in it
    since (a check swapped for one that always passes, a comparison made lenient), so that the
    check says so instead of giving the verdict of a checker the learner rewrote."""

    def __init__(self) -> None:
        self.before = _made_of()

    def changed(self) -> list[str]:
        """The names whose object is another now, in order."""
        now = _made_of()
        return sorted(name for name, made in self.before.items() if now.get(name) != made)


def _made_of() -> dict[str, int]:
    """name -> id of each module, of its functions, classes and their members, of the entries of
    its tables (dicts), and of each function's code: what a monkey-patch replaces."""
    made: dict[str, int] = {}
    for name, module in list(sys.modules.items()):
        if not (name == "micrograd" or name.startswith("micrograd.") or name in WATCHED):
            continue
        made[name] = id(module)
        for attr, value in list(vars(module).items()):
            where = f"{name}.{attr}"
            if isinstance(value, dict) and attr.isupper():  # a table: CHECKS, RULES, OPS...
                made.update({f"{where}[{k!r}]": id(v) for k, v in list(value.items())})
            elif isinstance(value, type) and value.__module__ == name:
                made[where] = id(value)
                made.update({f"{where}.{k}": id(v) for k, v in list(vars(value).items())})
            elif isinstance(value, types.FunctionType):
                made[where] = id(value)
                made[f"{where}.__code__"] = id(value.__code__)
            elif callable(value) and not isinstance(value, type):
                made[where] = id(value)
    return made


def value_class(ns: Any, lang: str) -> Any:
    """The learner's `Value` class, or a LearnerError saying it is missing."""
    cls = getattr(ns, "Value", None)
    if not isinstance(cls, type):
        raise LearnerError(Problem("other", text("practice.no_class", lang, name="Value")))
    return cls


def function_of(ns: Any, name: str, lang: str) -> Callable[..., Any]:
    """The learner's function `name`, or a LearnerError saying it is missing."""
    fn = getattr(ns, name, None)
    if not callable(fn):
        raise LearnerError(Problem("other", text("practice.no_function", lang, name=name)))
    return fn
