"""micrograd.app.plot: the pictures of a training run, in English and in Chinese."""

import warnings

import pytest

pytest.importorskip("matplotlib")

from micrograd.app import plot  # noqa: E402

HISTORY = [(1.0 / (k + 1), min(1.0, 0.5 + k / 20)) for k in range(20)]


def test_chinese_pictures_are_drawn_with_a_font_that_has_the_characters():
    if plot._cjk_font() is None:
        pytest.skip("no Chinese font for matplotlib here (apt install fonts-noto-cjk)")
    assert plot.picture_language("zh") == "zh"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font"
        chinese = plot.loss_curve(HISTORY, lang="zh")
        plot.confusion_matrix([0, 1, 1], [0, 1, 0], 2, title="数字", lang="zh")
        plot.misclassified([[0.0] * 4] * 2, [0, 1], [1, 1], (2, 2), lang="zh")
    assert chinese.startswith(b"\x89PNG") and chinese != plot.loss_curve(HISTORY)


def test_without_a_chinese_font_the_pictures_stay_english_and_say_why(monkeypatch, capsys):
    monkeypatch.setattr(plot, "_cjk_font", lambda: None)
    assert plot.picture_language("zh") == "en"
    assert "no Chinese font" in capsys.readouterr().err
    assert plot.loss_curve(HISTORY, lang="zh") == plot.loss_curve(HISTORY)  # English words


def test_the_attention_picture_draws_each_head_in_both_languages(monkeypatch, capsys):
    """A heat map per head (two layers of two here), the characters on the axes: a PNG, drawn
    in Chinese without a missing glyph where a Chinese font is found, else in English."""
    rows = [[1.0], [0.25, 0.75], [0.2, 0.3, 0.5]]
    weights = [[rows, rows], [rows, rows]]
    english = plot.attention_weights(weights, ["·", "a", "b"])
    assert english.startswith(b"\x89PNG")
    if plot._cjk_font() is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            chinese = plot.attention_weights(weights, ["·", "a", "b"], lang="zh")
        assert chinese.startswith(b"\x89PNG") and chinese != english
    monkeypatch.setattr(plot, "_cjk_font", lambda: None)
    assert plot.attention_weights(weights, ["·", "a", "b"], lang="zh") == english
    assert "no Chinese font" in capsys.readouterr().err
