"""What a check returns (micrograd.practice.result): the table, and the HTML a notebook shows."""

from __future__ import annotations

from micrograd.practice import check
from micrograd.practice.result import CheckResult, Row, simpler
from test_practice import REFERENCE, write


def test_the_table_and_html(tmp_path):
    result = check("op-div", write(tmp_path, REFERENCE), seed=7)
    text = str(result)
    assert text.splitlines()[0] == "op-div: passed"
    assert "max diff (central differences)" in text
    assert [r.name for r in result.rows] == ["a", "b"]
    # 3 random points, 3 edges, a used twice, and a beside an int and a fraction on either side
    assert [r.points for r in result.rows] == [11, 6]
    assert "Each input's grads at the points checked" in text
    bad = CheckResult("op-x", False, "other", "a <b> & 'c'", [Row("<i>", points=1)], seed=1)
    page = bad._repr_html_()
    assert "<b>" not in page.replace("<b>op-x", "") and "&lt;b&gt; &amp;" in page
    good = CheckResult("op-x", True, rows=[Row("<i>", points=1)], seed=1)
    assert "&lt;i&gt;" in good._repr_html_()


def test_a_failed_check_shows_its_step_without_the_table(tmp_path):
    """The counts of the points that passed would contradict the sentence above them."""
    path = write(
        tmp_path,
        REFERENCE.replace("other.grad += self.data * out.grad", "other.grad += 2 * out.grad"),
    )
    result = check("op-mul", path, lang="zh")
    assert not result.passed and result.rows
    text = str(result)
    assert "完全相同" not in text and "每个输入在各个检查点上的梯度" not in text
    assert "<table>" not in result._repr_html_()


def test_two_numbers_that_differ_are_shown_with_the_digits_that_tell_them_apart():
    from micrograd.practice.result import apart

    assert apart(0.5, 0.25) == ("0.5", "0.25")
    assert apart(-0.030470423, -0.0304704227) == ("-0.030470423", "-0.0304704227")
    assert apart(1.0, 1.0) == ("1", "1")


def test_numbers_are_made_simpler_one_at_a_time_while_the_case_still_fails():
    # fails wherever the second number is negative: the first goes to 0, the second to -1
    assert simpler([3.7, -2.2], lambda ns: ns[1] < 0) == [0.0, -1.0]
    # 0 and 1 keep it from failing: 2 is the simplest that still does; 1 goes to 0, which
    # is simpler still, and 0 is left as it is
    assert simpler([5.3, 1.0, 0.0], lambda ns: ns[0] > 1.5) == [2.0, 0.0, 0.0]
    # nothing simpler fails: the nearest integer, or the number itself
    assert simpler([2.4, 7.6], lambda ns: ns[0] > 2.2 and ns[1] > 7.5) == [2.4, 8.0]
