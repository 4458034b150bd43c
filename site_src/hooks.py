"""MkDocs hooks of the site (mkdocs.yml): the API reference may show no undocumented public name.

mkdocstrings renders the docstrings of the objects named by `::: path` in docs/site/api*.md; a
public class, function or method among them without a docstring (its own or inherited) is a
warning, and the strict build fails on it."""

from __future__ import annotations

import importlib
import inspect
import logging
import re

log = logging.getLogger("mkdocs.hooks.micrograd")
DIRECTIVE = re.compile(r"^::: ([\w.]+)", re.M)


def _find(path: str):
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(path)


def _members(cls: type):
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if inspect.isfunction(value) or isinstance(value, property):
            yield name, getattr(cls, name) if not isinstance(value, property) else value


def undocumented(path: str) -> list[str]:
    obj = _find(path)
    found: list[str] = []
    if inspect.ismodule(obj):
        public = getattr(obj, "__all__", None) or [
            n
            for n, v in vars(obj).items()
            if not n.startswith("_") and getattr(v, "__module__", None) == obj.__name__
        ]
        targets = [(f"{path}.{n}", getattr(obj, n)) for n in public]
        if not inspect.getdoc(obj):
            found.append(path)
    else:
        targets = [(path, obj)]
    for name, target in targets:
        if not (inspect.isclass(target) or inspect.isfunction(target)):
            continue
        if not inspect.getdoc(target):
            found.append(name)
        if inspect.isclass(target):
            for member, value in _members(target):
                doc = value.__doc__ if isinstance(value, property) else inspect.getdoc(value)
                if not (doc or "").strip():
                    found.append(f"{name}.{member}")
    return found


def on_page_markdown(markdown, page, config, files):
    for path in DIRECTIVE.findall(markdown):
        for name in undocumented(path):
            log.warning("%s: the public name %s has no docstring", page.file.src_uri, name)
    return markdown
