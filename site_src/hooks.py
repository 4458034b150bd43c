"""MkDocs hooks of the site (mkdocs.yml): no undocumented public name in the API reference, and a
Content-Security-Policy on every page.

mkdocstrings renders the docstrings of the objects named by `::: path` in docs/site/api*.md; a
public class, function or method among them without a docstring (its own or inherited) is a
warning, and the strict build fails on it.

A static host (GitHub Pages) sends no headers of ours, so each page carries its policy in a
`<meta http-equiv>` as the first thing in its head: scripts only from the site itself or inline by
their hashes (the theme's few, and the stepper page's, which the stepper widget shows in a srcdoc
frame: such a frame, and the worker made from a blob, keep the page's policy), WebAssembly for
Pyodide, requests and frames to the site itself only. Code a visitor runs in a block or the
practice editor can then send nothing elsewhere, whatever it calls."""

from __future__ import annotations

import base64
import hashlib
import html
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
    return join_cjk_lines(separate_lists(markdown))


LIST_ITEM = re.compile(r"([-*+]|\d+[.)])\s")
# what may start a list right under a paragraph's line, as CommonMark (GitHub) reads it
INTERRUPTS = re.compile(r"([-*+]|1[.)])\s+\S")


def separate_lists(markdown: str) -> str:
    """A blank line before a list that starts right under a paragraph's line: GitHub makes it a
    list, MkDocs' Markdown a line of the paragraph ("...：- **原版的接口**...")."""
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        last = out[-1] if out else ""
        if (
            not fenced
            and INTERRUPTS.match(line)
            and last.strip()
            and not last.startswith((" ", "\t"))  # a list item's own continuation
            and not LIST_ITEM.match(last)
            and not last.startswith(("#", "|", "<", ">", "```", "~~~", "!!!"))
        ):
            out.append("")
        out.append(line)
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
    return "\n".join(out)


# A Chinese character or punctuation mark (CJK punctuation, ideographs, full-width forms), and
# the punctuation alone (after which no space belongs, whatever follows).
CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
CJK_PUNCTUATION = re.compile("[\u3000-\u303f\uff00-\uffef]")
BLOCK_START = re.compile(r"([-*+]\s|\d+[.)]\s|#|\||>|<|```|~~~|!!!)")


def join_cjk_lines(markdown: str) -> str:
    """The source's line breaks removed where Chinese text wraps, in paragraphs (not in code
    blocks, headings or tables): between two Chinese characters, and after or before a full-width
    punctuation mark. A browser shows a soft line break as a space, which Chinese text does not
    have ("设随机数 种子", "注意力、 MLP")."""
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        text = line.lstrip()
        last = out[-1] if out else ""
        joins = (
            not fenced
            and text
            and last.strip()
            and not last.lstrip().startswith(("#", "|", "```", "~~~"))
            and not BLOCK_START.match(text)
            and (
                (CJK.match(last[-1:]) and CJK.match(text[:1]))
                or CJK_PUNCTUATION.match(last[-1:])
                or CJK_PUNCTUATION.match(text[:1])
            )
        )
        if joins:
            out[-1] += text
        else:
            out.append(line)
        if text.startswith(("```", "~~~")):
            fenced = not fenced
    return "\n".join(out)


# An inline script that runs: no src, and no type or a JavaScript one (JSON data blocks don't run).
INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*\btype=\"(?!module|text/javascript)[^\"]*\")[^>]*>(.*?)</script>",
    re.S,
)


def script_hashes(page: str) -> list[str]:
    """The CSP sources that allow each inline script of `page`, by its SHA-256."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in INLINE_SCRIPT.findall(page)
    ]


def policy(page: str) -> str:
    """The Content-Security-Policy of one page of the site."""
    from micrograd.teach.stepper import page_template

    scripts = sorted(set(script_hashes(page) + script_hashes(page_template("stepper.html"))))
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' 'wasm-unsafe-eval' {' '.join(scripts)}",
            "style-src 'self' 'unsafe-inline'",  # the theme's and the stepper's style attributes
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            "frame-src 'self' blob: about:",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
        ]
    )


def page_words(page: str) -> str:
    """The site's words (the keys site.* of micrograd.text, and the pg_* ones its playground
    shares with the local playground) in the page's language, as the JSON block that site.js
    reads: one catalog for the package and its pages."""
    from micrograd.teach.stepper import script_json
    from micrograd.text import catalog

    found = re.search(r'<html[^>]*\blang="([\w-]+)"', page)
    lang = "zh" if found and found.group(1).lower().startswith("zh") else "en"
    table = {k[len("site.") :]: v for k, v in catalog(lang).items() if k.startswith("site.")}
    table |= {k: v for k, v in catalog(lang).items() if k.startswith("pg_")}
    return f'<script type="application/json" id="mg-words">{script_json(table)}</script>'


# The theme's language links in the head. Material's script fetches sitemap.xml under each one,
# to find the page in the other language; mkdocs-static-i18n makes them the page's own URLs
# (zh/tutorial/), so every page asked for two files that do not exist (zh/tutorial/sitemap.xml)
# and the browser logged two 404s. The language switch's links are the page's own already (its
# <a hreflang>), and without a site_url these relative links mean nothing to a search engine.
ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[\w-]+">\s*')


def on_post_page(output, page, config):
    return secured(output)


def on_post_template(output, template_name, config):
    """The theme's 404.html is a template, not a page: it gets the pages' policy and words too
    (any URL of the site that has no page is answered with it)."""
    return secured(output) if template_name == "404.html" else output


def secured(output: str) -> str:
    """A page of the site with its Content-Security-Policy and its words."""
    output = ALTERNATE.sub("", output)
    # after the theme's <meta charset>: a browser looks for it in the first 1024 bytes only, and
    # the words' JSON block is larger than that (before it, Chinese was read as windows-1252)
    charset = re.search(r'<meta charset="utf-8">', output, re.I)
    head = charset.end() if charset else output.index("<head>") + len("<head>")
    content = html.escape(policy(output), quote=False)  # the policy has no double quote
    meta = f'<meta http-equiv="Content-Security-Policy" content="{content}">'
    return output[:head] + meta + page_words(output) + output[head:]
