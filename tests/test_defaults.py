"""The training defaults live in micrograd.app.defaults: the guide's tables, the commands' help and
the playground page show those numbers."""

import os
import re

import pytest

from micrograd.app.cli import build_parser
from micrograd.app.defaults import DEFAULTS, LEARNING_RATES, widths

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROWS = {
    "docs/guide.md": ("2-D points", "images", "the playground"),
    "docs/guide.zh-CN.md": ("二维点集", "图像", "训练游乐场"),
}


def table(readme):
    """The defaults table's rows: {first cell's start: cells}."""
    with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
        text = f.read()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for start in ROWS[readme]:
            if line.startswith("| " + start):
                rows[start] = cells
    return rows


@pytest.mark.parametrize("readme", list(ROWS))
def test_the_readme_tables_show_the_defaults(readme):
    rows = table(readme)
    for start, kind in zip(ROWS[readme], ("points", "images", "playground")):
        d = DEFAULTS[kind]
        cells = rows[start]
        assert cells[1] == widths(d["hidden"])
        lr = d.get("lr", LEARNING_RATES[d["optimizer"]])
        assert re.match(rf"{d['optimizer']} ?[（(]{lr}", cells[2]), cells
        if kind != "playground":
            assert cells[3] == str(d["steps"])
        assert cells[4] == (str(d["batch_size"]) if d["batch_size"] else cells[4])
        assert d["batch_size"] or cells[4] in ("the whole set", "整个训练集")


def test_the_help_and_the_playground_page_show_the_defaults():
    train = build_parser("en")._subparsers._group_actions[0].choices["train"].format_help()
    text = " ".join(train.split())
    points, images = DEFAULTS["points"], DEFAULTS["images"]
    assert f"(default: {widths(points['hidden'])}; {widths(images['hidden'])} for images)" in text
    assert f"(default: {points['steps']}; {images['steps']} for images)" in text
    assert f"default: {LEARNING_RATES['sgd']} decaying" in text
    from micrograd.app.playground import Server

    server = Server(0)
    page = server.playground.page()
    server.server_close()
    assert f'"hidden": {DEFAULTS["playground"]["hidden"]}' in page
    assert f'"lr": {DEFAULTS["playground"]["lr"]}' in page
