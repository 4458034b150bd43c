"""The one place learner code runs: loading it (a .py or .ipynb file, a module, a class), and
every call into it, under a time limit and a known recursion limit, with its prints captured.

What goes wrong in learner code becomes a `LearnerError` carrying a Problem in words: it raised,
it is not written yet, it recursed too deep, it ran too long, or a class or function is missing.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any

from micrograd.practice.result import Problem
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
            why = _too_long(path, lang) if isinstance(e, TookTooLong) else None
            why = why or text("practice.load_failed", lang, error=_error(e))
            raise LearnerError(Problem("other", why)) from e
        finally:
            sys.modules.pop(module.__name__, None)
        return module
    if isinstance(code, types.ModuleType):
        return code
    if isinstance(code, type):
        return types.SimpleNamespace(Value=code)
    raise TypeError(f"code must be a path, a module, a class or a function, got {code!r}")


# ---------------------------------------------------------------------------- calls into it
def _too_long(what: str, lang: str) -> str:
    """What the learner's code was doing when it ran past the time limit, in words."""
    return text("practice.too_long", lang, what=what, seconds=f"{TIME_LIMIT:g}")


def _error(e: BaseException) -> str:
    """The exception in one line: its type and the first line of its message."""
    first = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {first}" if first else type(e).__name__


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
    """fn(), everything it raises (sys.exit() included) turned into a Problem that names `what`
    was running."""
    try:
        with _quiet():
            return fn()
    except LearnerError:
        raise
    except TookTooLong as e:
        raise LearnerError(Problem("other", _too_long(what, lang))) from e
    except NotImplementedError as e:
        raise LearnerError(Problem("other", text("practice.not_written", lang, what=what))) from e
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
