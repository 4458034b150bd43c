"""Coverage-guided fuzzing of the expression language and backward, with atheris.

    python fuzz/fuzz_expressions.py -runs=100000        # or without -runs: until stopped

Any text with any values for a and b must either evaluate and backpropagate, or be refused with
ExpressionError; every other exception is a bug, and atheris reports the input that caused it.
The dictionary of words to try is fuzz/expressions.dict plus a call of each function the language
knows (micrograd.teach.expr.FUNCTIONS, from the ops of micrograd.engine.OPS), so a new op is fuzzed too.
"""

import atexit
import os
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    from micrograd.teach.expr import FUNCTIONS, ExpressionError, parse_expression


def dictionary() -> str:
    """A dictionary file: expressions.dict's words and `name(` for each function."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "expressions.dict"), encoding="utf-8") as f:
        words = f.read()
    words += "".join(f'"{name}("\n' for name in FUNCTIONS)
    file = tempfile.NamedTemporaryFile("w", suffix=".dict", delete=False, encoding="utf-8")
    with file:
        file.write(words)
    atexit.register(os.remove, file.name)
    return file.name


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    a, b = fdp.ConsumeFloat(), fdp.ConsumeFloat()
    text = fdp.ConsumeUnicodeNoSurrogates(120)
    try:
        out = parse_expression(text, {"a": a, "b": b})
    except ExpressionError:
        return
    out.backward()


if __name__ == "__main__":
    atheris.Setup([*sys.argv, f"-dict={dictionary()}"], test_one_input)
    atheris.Fuzz()
