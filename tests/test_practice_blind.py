"""The practice checker on the blind sets (tests/practice_blind/README.md): each solution's verdict
agrees with its label, found by its author with micrograd's engine and finite differences, and no
check crashes. Marked `measured`: CI runs it in a step of its own."""

from __future__ import annotations

import json
import os

import pytest

from micrograd.practice import check, sandbox
from micrograd.practice.result import MISTAKES

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "practice_blind")
LABELS = [
    (folder, label)
    for folder in sorted(os.listdir(HERE))
    if os.path.isdir(os.path.join(HERE, folder))
    for label in json.load(open(os.path.join(HERE, folder, "labels.json"), encoding="utf-8"))
]


@pytest.mark.measured
@pytest.mark.parametrize(
    ("folder", "label"), LABELS, ids=[f"{f}/{label['file']}" for f, label in LABELS]
)
def test_the_verdict_agrees_with_the_label(folder, label, monkeypatch, tmp_path):
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 5.0)
    monkeypatch.chdir(tmp_path)  # a learner's file may write beside itself
    result = check(label["exercise"], os.path.join(HERE, folder, label["file"]), seed=1)
    assert result.passed == label["correct"], (label["cause"], result.first_wrong_step)
    if not result.passed:
        assert result.mistake in MISTAKES and result.first_wrong_step
        assert "Traceback" not in result.first_wrong_step
