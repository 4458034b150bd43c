"""The package's line budgets: the lesson files fit a first read, and no file grows past what one
person reads at a sitting. The text catalogs (every sentence shown to a person, in each language)
are data, not code, and have no budget."""

import os

import pytest

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src", "micrograd")
LESSONS = {"engine.py": 450, "nn.py": 300, "gpt.py": 450}
ANY_FILE = 550
CATALOGS = {os.path.join("text", "en.py"), os.path.join("text", "zh.py")}


def lines(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def sources() -> list[str]:
    """Every Python file of the package, relative to src/micrograd."""
    found = []
    for folder, _, files in os.walk(SRC):
        for name in files:
            if name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, name), SRC))
    return sorted(found)


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_each_lesson_file_fits_its_budget(lesson):
    assert lines(os.path.join(SRC, lesson)) <= LESSONS[lesson]


def test_no_file_of_the_package_is_longer_than_a_sitting():
    assert len(sources()) > 50  # the walk found the package
    long = {p: lines(os.path.join(SRC, p)) for p in sources() if p not in CATALOGS}
    assert {p: n for p, n in long.items() if n > ANY_FILE} == {}
