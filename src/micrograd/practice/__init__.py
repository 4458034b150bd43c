"""Practice mode: exercises on a learner's own lecture-style `Value`, checked step by step.

`check(exercise_id, path)` runs one exercise on the learner's code and returns a `CheckResult`
(`passed`, `mistake`, `first_wrong_step`, a table per input); `micrograd practice` is the command.
The names below load on first use, so that the command line's parser stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "check": "checker",
    "check_engine": "checker",
    "CheckResult": "result",
    "Row": "result",
    "MISTAKES": "result",
    "EXERCISES": "exercises",
}
__all__ = list(_WHERE)


def __getattr__(name: str) -> Any:
    """check, check_engine, CheckResult, Row, MISTAKES and EXERCISES, imported when first used."""
    if name not in _WHERE:
        raise AttributeError(f"module 'micrograd.practice' has no attribute {name!r}")
    return getattr(importlib.import_module(f"micrograd.practice.{_WHERE[name]}"), name)
