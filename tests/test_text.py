"""micrograd.text: one catalog per language, the same keys and fields in both, and one lookup."""

import ast
import os
import re

import pytest

import micrograd.text as text_module
from micrograd.text import LANGUAGES, catalog, language, op_error, text, usage_error

FIELD = r"%\(\w+\)s|{\w+(?:[:!][^}]*)?}"  # argparse's %(default)s, {name}, {name:.2f}, {name!r}


def test_every_key_is_in_every_language_with_the_same_fields():
    en, zh = catalog("en"), catalog("zh")
    assert sorted(set(en) - set(zh)) == [], "missing in zh.py"
    assert sorted(set(zh) - set(en)) == [], "missing in en.py"
    for key, sentence in en.items():
        if sentence == "{message}":  # Python's own English words, which zh.py says in Chinese
            continue
        assert sorted(re.findall(FIELD, sentence)) == sorted(re.findall(FIELD, zh[key])), key


def test_the_catalogs_have_no_key_twice():
    """A dict literal keeps the last of two equal keys silently: the source must not have them."""
    for lang in LANGUAGES:
        with open(
            os.path.join(os.path.dirname(text_module.__file__), f"{lang}.py"), encoding="utf-8"
        ) as f:
            tree = ast.parse(f.read())
        keys = [k.value for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys]
        assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)


def test_one_lookup_with_fields_and_a_clear_error():
    assert text("order", "en", order="a, b") == "1. topological order (inputs first): [a, b]"
    assert text("order", "zh", order="a").startswith("1. ")
    with pytest.raises(KeyError, match="no sentence 'nothing' in micrograd/text/zh.py"):
        text("nothing", "zh")
    with pytest.raises(ValueError, match="lang must be one of"):
        text("order", "fr", order="")


def test_the_language_follows_the_locale_unless_given(monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert language() == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert language() == "zh" and language("en") == "en"
    monkeypatch.setenv("LC_ALL", "C")
    assert language() == "en"


def test_an_ops_error_is_said_from_its_key_not_translated_from_english():
    from micrograd import Value

    with pytest.raises(ValueError) as e:
        Value(0.0).log()
    assert str(e.value) == "op 'log' on (0.0): log is defined for positive numbers only, got 0.0"
    assert (e.value.reason, e.value.fields) == ("reason_log", {"x": 0.0})
    assert op_error(e.value, "zh") == "运算 'log'（输入 0.0）：log 只对正数有定义，收到的是 0.0"
    with pytest.raises(ZeroDivisionError) as e:
        Value(1.0) / 0.0
    assert op_error(e.value, "en") == "op '/' on (1.0, 0.0): float division by zero"
    assert op_error(e.value, "zh") == "运算 '/'（输入 1.0, 0.0）：除数是 0"
    assert op_error(RuntimeError("other"), "zh") == "other"


def test_argparses_own_sentences_in_chinese():
    said = "argument --steps: invalid int value: 'x' (see 'micrograd train --help')"
    assert usage_error(said, "en") == said
    assert (
        usage_error(said, "zh") == "参数 --steps：无效的 int 值：'x'（见 'micrograd train --help'）"
    )
    assert usage_error("something new", "zh") == "something new"  # argparse's words we don't know
