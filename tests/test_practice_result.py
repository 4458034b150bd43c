"""What a check returns (micrograd.practice.result): the table, and the HTML a notebook shows."""

from __future__ import annotations

from micrograd.practice import check
from micrograd.practice.result import CheckResult, Row
from test_practice import REFERENCE, write


def test_the_table_and_html(tmp_path):
    result = check("op-div", write(tmp_path, REFERENCE), seed=7)
    text = str(result)
    assert text.splitlines()[0] == "op-div: passed"
    assert "max diff (central differences)" in text
    assert [r.name for r in result.rows] == ["a", "b"]
    assert [r.points for r in result.rows] == [7, 6]  # 3 random, 3 edges, and a used twice
    bad = CheckResult("op-x", False, "other", "a <b> & 'c'", [Row("<i>", points=1)], seed=1)
    page = bad._repr_html_()
    assert "<b>" not in page.replace("<b>op-x", "") and "&lt;b&gt; &amp;" in page
    assert "&lt;i&gt;" in page
