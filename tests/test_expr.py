"""The expression language of `micrograd explain` and `micrograd graph`: its names and the
`--set NAME=NUMBER` values (micrograd.teach.expr), through the command line."""

import pytest

from micrograd.app.cli import main
from micrograd.teach.expr import ExpressionError, parse_expression


def run_cli(capsys, *argv):
    return main(list(argv)), *capsys.readouterr()


def test_names_are_normalised_in_set_too(capsys):
    """U4: --set names are NFKC-normalised, as the expression's names are."""
    code, out, _ = run_cli(capsys, "explain", "ａ*2", "--set", "ａ=3")
    assert code == 0 and "out = 6" in out


def test_repeated_and_impossible_set_names_and_max_nodes(capsys):
    """L1: --set refuses a name given twice or a keyword, --max-nodes refuses -1, and explain prints
    nothing before an error."""
    for argv in [
        ["explain", "a", "--set", "a=1", "--set", "a=2"],
        ["explain", "a", "--set", "if=1", "--set", "a=1"],
        ["explain", "a", "--set", "a=1", "--max-nodes", "-1"],
    ]:
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
    code, out, _ = run_cli(
        capsys,
        "explain",
        "a*b*c",
        "--set",
        "a=1",
        "--set",
        "b=2",
        "--set",
        "c=3",
        "--max-nodes",
        "2",
    )
    assert code == 1 and out == ""  # nothing printed before the error


@pytest.mark.parametrize(
    "text, en, zh",
    [
        ("a ^ 2", "'^' is not in the language: write ** instead", "表达式里没有 '^'：请写 **"),
        ("a²", "'²' is not in the language: write **2 instead", "请写 **2"),
        ("a × b", "write * instead", "请写 *"),
        ("a ÷ b", "write / instead", "请写 /"),
        ("2a + b", "write the multiplication: 2*a, not 2a", "乘号不能省略：请写 2*a"),
        ("a.relu()", "write relu(a), not a.relu()", "请写 relu(a)"),
        ("a % 2", "the operator % is not in the language", "表达式里没有运算符 %"),
        ("a // 2", "the operator // is not in the language", "运算符 //"),
    ],
)
def test_a_learners_slips_are_answered_with_what_to_type(text, en, zh):
    """L2-10: the common slips get a hint in the learner's words, never an AST class name."""
    with pytest.raises(ExpressionError) as caught:
        parse_expression(text, {"a": 2.0, "b": 3.0})
    assert en in str(caught.value) and zh in caught.value.text("zh")
    assert "BinOp" not in caught.value.text("zh")
    assert parse_expression("2e3*a", {"a": 1.0}).data == 2000.0  # a number in e-notation is no slip


@pytest.mark.parametrize(
    ("text", "names", "english", "chinese"),
    [
        ("log(a)", {"a": 0.0}, "log is defined for positive numbers only", "log 只对正数有定义"),
        ("a / b", {"a": 1.0, "b": 0.0}, "division by zero", "除数是 0"),
        ("a ** -1", {"a": 0.0}, "cannot be raised to the negative power", "不能取负数次幂"),
        ("exp(a)", {"a": 1000.0}, "too large for a float", "超出了浮点数的范围"),
    ],
)
def test_an_op_that_cannot_be_computed_is_said_in_both_languages(text, names, english, chinese):
    """L2-11: the engine's reason inside a Chinese message is Chinese too."""
    with pytest.raises(ExpressionError) as info:
        parse_expression(text, names)
    assert english in info.value.text("en")
    said = info.value.text("zh")
    assert said.startswith("无法计算：运算 '") and chinese in said
