"""Coverage-guided fuzzing of the expression language and backward, with atheris.

    python fuzz/fuzz_expressions.py -runs=100000        # or without -runs: until stopped

Any text with any values for a and b must either evaluate and backpropagate, or be refused with
ExpressionError; every other exception is a bug, and atheris reports the input that caused it.
"""

import sys

import atheris

with atheris.instrument_imports():
    from micrograd.expr import ExpressionError, parse_expression


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
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
