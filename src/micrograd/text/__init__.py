"""The words micrograd shows a person, in English and Chinese: one catalog per language, one lookup.

    text("order", "zh", order="a, b")      # the sentence "order" of the catalog zh.py, filled in

Every sentence that the engine's warnings and errors, the teaching tools, practice mode, the
command and the pages show is a key of micrograd/text/en.py and zh.py (the same keys and fields in
both: tests/test_text.py). With no language given, LC_ALL, LC_MESSAGES or LANG starting with "zh"
choose Chinese. This package imports nothing else of micrograd: every layer may use it.

The one sentence this package translates rather than looks up is argparse's (the standard
library's own English usage errors, which the command shows): `usage_error`.
"""

from __future__ import annotations

import importlib
import os
import re
from functools import cache

LANGUAGES = ("en", "zh")


def language(lang: str | None = None) -> str:
    """`lang` if given ("en" or "zh"), else Chinese where the locale variables say zh_*."""
    if lang is not None:
        if lang not in LANGUAGES:
            raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
        return lang
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    """The catalog of one language: key -> template (read on first use, not at import)."""
    module = importlib.import_module(f"micrograd.text.{language(lang)}")
    table: dict[str, str] = module.CATALOG
    return table


def text(key: str, lang: str | None = None, **fields: object) -> str:
    """The sentence `key` in `lang` (the locale's language if None), with its fields filled in."""
    lang = language(lang)
    try:
        template = catalog(lang)[key]
    except KeyError:
        raise KeyError(f"no sentence {key!r} in micrograd/text/{lang}.py") from None
    return template.format(**fields)


# ---------------------------------------------------------------------------- punctuation
def aside(sentence: str, note: str, lang: str) -> str:
    """`sentence (note)`, with full-width brackets in Chinese."""
    return f"{sentence}（{note}）" if lang == "zh" else f"{sentence} ({note})"


def then(sentence: str, more: str, lang: str) -> str:
    """`more` after `sentence`, which gets a full stop if it has none."""
    sentence = sentence.rstrip()
    if lang == "zh":
        return sentence + ("" if sentence.endswith(("。", ".", "！", "？")) else "。") + more
    return sentence + ("" if sentence.endswith((".", "!", "?")) else ".") + " " + more


def joined(parts: list[str], lang: str) -> str:
    """Sentences joined with a semicolon, full width in Chinese."""
    return ("；" if lang == "zh" else "; ").join(parts)


def titled(title: str, sentence: str, lang: str) -> str:
    """`title: sentence`, with a full-width colon in Chinese."""
    return f"{title}：{sentence}" if lang == "zh" else f"{title}: {sentence}"


def columns(sentence: str) -> int:
    """The screen columns `sentence` takes: two for each Chinese character or full-width sign."""
    return sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in sentence)


# ---------------------------------------------------------------------------- errors
def error(kind: type[Exception], key: str, **fields: object) -> Exception:
    """An exception of `kind` whose message is the English sentence `key`; it keeps the key and
    the fields, so a Chinese screen shows the same error in Chinese (op_error)."""
    e = kind(text(key, "en", **fields))
    e.reason, e.fields = key, fields  # type: ignore[attr-defined]
    return e


def op_error(e: BaseException, lang: str) -> str:
    """The message of an error raised by an op of the engine, in `lang`: the engine keeps the
    op, its inputs and the key of its reason on the exception (micrograd.guards.op_error); any other
    error's message as it is."""
    op = getattr(e, "op", None)
    if op is None:
        return str(e)
    reason = text(e.reason, lang, **e.fields)  # type: ignore[attr-defined]
    return text("op_error", lang, op=op, inputs=e.inputs, reason=reason)  # type: ignore[attr-defined]


# argparse's own sentences (its usage errors): the standard library says them in English only
_USAGE = [
    (r"the following arguments are required: (.*)", "usage_required"),
    (r"unrecognized arguments: (.*)", "usage_unrecognized"),
    (r"invalid choice: (.*) \(choose from (.*)\)", "usage_choice"),
    (r"expected one argument", "usage_one_argument"),
    (r"invalid (\w+) value: (.*)", "usage_invalid"),
    (r"not allowed with argument (.*)", "usage_not_with"),
]


def usage_error(message: str, lang: str) -> str:
    """A usage error of the command (argparse's words, then "(see 'PROG --help')") in `lang`."""
    if lang == "en":
        return message
    found = re.fullmatch(r"(.*) \(see '(.+) --help'\)", message, re.S)
    if found is None:
        return _usage(message, lang)
    return text("usage_see_help", lang, error=_usage(found[1], lang), prog=found[2])


def _usage(sentence: str, lang: str) -> str:
    """One of argparse's sentences in `lang` ("argument --x: ..." around another one)."""
    argument = re.fullmatch(r"argument (\S+): (.*)", sentence, re.S)
    if argument:
        return text("usage_argument", lang, name=argument[1], error=_usage(argument[2], lang))
    for pattern, key in _USAGE:
        found = re.fullmatch(pattern, sentence, re.S)
        if found:
            return text(key, lang, **{f"x{i}": g for i, g in enumerate(found.groups(), 1)})
    return sentence
