"""Build site/: the documentation site whose Python runs in the page. Run by `python3 tasks.py site`
(which installs the tools first: `npm ci` for Pyodide, the "site" dependency group for MkDocs).

    python site_src/build.py --wheel PATH [--out DIR]   # PATH: this package's wheel, built by
                                                         # tasks.py; DIR: site/ unless said

1. Stage the pages into build/site-docs/, the docs_dir of mkdocs.yml: the READMEs as the home page,
   docs/tutorial*.md, docs/bugs*.md, the pages of docs/site/, the pictures and notebooks, with
   mkdocs-static-i18n's names (X.md in English, X.zh.md in Chinese; the sources say .zh-CN.md),
   links rewritten to the staged pages, and each python block that runs in the browser marked
   `.mg-run` (site_src/assets/site.js gives it a Run button).
2. `mkdocs build --strict` into a new folder beside site/ (or --out), which replaces it only once
   the whole build has succeeded: a build that fails leaves the site that was there.
3. Copy the runtime in: Pyodide's files from node_modules/pyodide (its notice beside them), the
   wheel, the files the documents' code opens (examples/newton.py ...), and a manifest naming them;
   bundle the practice page's editor (site_src/assets/editor.js: CodeMirror 6) with esbuild.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGE = os.path.join(ROOT, "build", "site-docs")
SITE = os.path.join(ROOT, "site")
PYODIDE = os.path.join(ROOT, "node_modules", "pyodide")
# the files Pyodide loads (the .d.ts, maps and console pages of the npm package are left out)
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
    "README.md",
]

# repository path -> staged path (English X.md, Chinese X.zh.md)
PAGES = {
    "README.md": "index.md",
    "README.zh-CN.md": "index.zh.md",
    "docs/tutorial.md": "tutorial.md",
    "docs/tutorial.zh-CN.md": "tutorial.zh.md",
    "docs/bugs.md": "bugs.md",
    "docs/bugs.zh-CN.md": "bugs.zh.md",
    "docs/gpt.md": "gpt.md",
    "docs/gpt.zh-CN.md": "gpt.zh.md",
    "docs/tensors.md": "tensors.md",
    "docs/tensors.zh-CN.md": "tensors.zh.md",
    "docs/guide.md": "guide.md",
    "docs/guide.zh-CN.md": "guide.zh.md",
    "docs/performance.md": "performance.md",
    "docs/performance.zh-CN.md": "performance.zh.md",
    "docs/development.md": "development.md",
    "docs/development.zh-CN.md": "development.zh.md",
}
RUNNABLE = set(PAGES)  # pages whose python blocks get a Run button
COPIED = {"docs/img": "img", "docs/notebooks": "notebooks"}  # folders copied as they are
# blocks that cannot run in the page: PyTorch is not in Pyodide
NOT_IN_BROWSER = ("micrograd.export", "import torch")
README_SECTION = "<!-- the README's section: "  # docs/site/differences*.md include one

FENCE = re.compile(r"^```[^\n]*\n.*?^```[ \t]*$", re.S | re.M)
# a code span (left alone), or a link or picture whose text may hold code spans
LINK = re.compile(r"(`[^`\n]*`)|(!?)\[((?:`[^`\n]*`|[^\]\n])*)\]\(([^)\s]+)\)")


def lang_of(staged: str) -> str:
    return "zh" if staged.endswith(".zh.md") else "en"


def url_of(staged: str) -> str:
    """The folder a staged page is served from (use_directory_urls), e.g. "zh/tutorial/"."""
    base = staged[: -len(".zh.md")] if staged.endswith(".zh.md") else staged[: -len(".md")]
    path = "" if base == "index" else base + "/"
    return ("zh/" if lang_of(staged) == "zh" else "") + path


def outside_fences(text: str, fn):
    """Apply fn to the text between fenced code blocks."""
    out, last = [], 0
    for m in FENCE.finditer(text):
        out.append(fn(text[last : m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(fn(text[last:]))
    return "".join(out)


def unlocalized(name: str) -> str:
    """x.zh-CN.png -> x-zh-CN.png: mkdocs-static-i18n would take the .zh-CN. of a picture or a
    notebook for a language suffix and leave the file out of the Chinese pages."""
    return name.replace(".zh-CN.", "-zh-CN.")


def staged_target(repo_path: str) -> str | None:
    """Where a repository file is in the staged docs, if it is there."""
    if repo_path in PAGES:
        return PAGES[repo_path]
    for folder, staged in COPIED.items():
        if repo_path.startswith(folder + "/"):
            return staged + unlocalized(repo_path[len(folder) :])
    if repo_path.startswith("docs/site/"):  # docs/site/X.md links to X.md: any staged page
        return repo_path[len("docs/site/") :]
    return None


def rewrite_links(text: str, source: str, staged: str) -> str:
    """Links to repository files, made to work in the site: a page or picture that is staged is
    linked to where it is staged (a page in the other language by its URL); a file that is not
    in the site (benchmarks/RESULTS.md, a source file) keeps its text without the link. A link to
    a file that does not exist is left as it is, so that the strict build fails on it."""

    def one(m: re.Match) -> str:
        span, bang, label, target = m.groups()
        if span or re.match(r"^[a-z]+:|^#|^/", target):
            return m.group(0)
        path, _, anchor = target.partition("#")
        repo = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
        where = staged_target(repo)
        if where is None:
            if os.path.exists(os.path.join(ROOT, repo)):
                return label  # not in the site: the text stays, the link goes
            return m.group(0)
        anchor = "#" + anchor if anchor else ""
        # docs/site/ pages use the plugin's names: X.md is the page in their own language
        explicit = not source.startswith("docs/site/")
        if explicit and where.endswith(".md") and lang_of(where) != lang_of(staged):
            rel = posixpath.relpath(url_of(where) or ".", url_of(staged) or ".")
            return f"{bang}[{label}]({rel.rstrip('/')}/{anchor})"
        if where.endswith(".zh.md"):  # a page in its own language: the default language's name
            where = where[: -len(".zh.md")] + ".md"
        return f"{bang}[{label}]({where}{anchor})"

    return outside_fences(text, lambda chunk: LINK.sub(one, chunk))


def mark_runnable(text: str) -> tuple[str, list[str]]:
    """```python blocks -> ```{.python .mg-run} where they can run in the page, and the ```text
    block after one (what it prints, as the tests read it) -> ```{.text .mg-expected}, which
    site.js labels once the block's own output is shown above it; the code of each marked
    block."""
    codes: list[str] = []
    after_runnable = False

    def one(m: re.Match) -> str:
        nonlocal after_runnable
        block = m.group(0)
        follows, after_runnable = after_runnable, False
        if follows and block.startswith("```text\n"):
            return "```{.text .mg-expected}\n" + block[len("```text\n") :]
        if not block.startswith("```python\n"):
            return block
        code = block[len("```python\n") : block.rindex("```")]
        if any(s in code for s in NOT_IN_BROWSER):
            return block
        codes.append(code)
        after_runnable = True
        return "```{.python .mg-run}\n" + block[len("```python\n") :]

    return FENCE.sub(one, text), codes


def readme_section(readme: str, heading: str) -> str:
    """The body of the README section whose `## ` heading starts with `heading`."""
    with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
        text = f.read()
    for part in text.split("\n## ")[1:]:
        title, _, body = part.partition("\n")
        if title.startswith(heading):
            return body.strip() + "\n"
    sys.exit(f"{readme} has no section '## {heading}...' (docs/site/ includes it)")


FILE_NAMED = re.compile(r"""["']([\w./-]+\.(?:py|csv|json|txt))["']""")


def stage() -> dict[str, str]:
    """Write build/site-docs; return the repository files the runnable blocks open."""
    shutil.rmtree(STAGE, ignore_errors=True)
    os.makedirs(STAGE)
    needed: dict[str, str] = {}
    for source, staged in PAGES.items():
        with open(os.path.join(ROOT, source), encoding="utf-8") as f:
            text = f.read()
        text = rewrite_links(text, source, staged)
        if source in RUNNABLE:
            text, codes = mark_runnable(text)
            for code in codes:
                for name in FILE_NAMED.findall(code):
                    if os.path.isfile(os.path.join(ROOT, name)):
                        with open(os.path.join(ROOT, name), encoding="utf-8") as f:
                            needed[name] = f.read()
        with open(os.path.join(STAGE, staged), "w", encoding="utf-8") as f:
            f.write(text)
    for name in sorted(os.listdir(os.path.join(ROOT, "docs", "site"))):
        if not name.endswith(".md"):
            continue
        source = "docs/site/" + name
        with open(os.path.join(ROOT, source), encoding="utf-8") as f:
            text = f.read()
        text = rewrite_links(text, source, name)
        for m in re.finditer(re.escape(README_SECTION) + r"(\S+) ## (.+?) -->", text):
            section = rewrite_links(readme_section(m.group(1), m.group(2)), m.group(1), name)
            text = text.replace(m.group(0), section)
        with open(os.path.join(STAGE, name), "w", encoding="utf-8") as f:
            f.write(text)
    for folder, staged in COPIED.items():
        for name in os.listdir(os.path.join(ROOT, folder)):
            os.makedirs(os.path.join(STAGE, staged), exist_ok=True)
            shutil.copy(
                os.path.join(ROOT, folder, name), os.path.join(STAGE, staged, unlocalized(name))
            )
    assets = os.path.join(STAGE, "assets", "site")
    os.makedirs(assets)
    for name in ("site.js", "site.css", "worker.js", "mg_site.py"):
        shutil.copy(os.path.join(ROOT, "site_src", "assets", name), assets)
    # the drawings the site's playground shares with the local one (micrograd.app's page)
    shutil.copy(
        os.path.join(ROOT, "src", "micrograd", "app", "pages", "playground_draw.js"), assets
    )
    return needed


def runtime(wheel: str, files: dict[str, str], site: str) -> None:
    """Pyodide, the wheel and the documents' files into the site, and the manifest naming them."""
    with open(os.path.join(PYODIDE, "package.json"), encoding="utf-8") as f:
        meta = json.load(f)
    out = os.path.join(site, "pyodide")
    os.makedirs(out, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy(os.path.join(PYODIDE, name), out)
    with open(os.path.join(out, "NOTICE.txt"), "w", encoding="utf-8") as f:
        f.write(
            f"Pyodide {meta['version']}: CPython compiled to WebAssembly, "
            f"licensed under the {meta['license']} (https://mozilla.org/MPL/2.0/).\n"
            "These files are unmodified copies from the npm package "
            f"pyodide@{meta['version']} (package-lock.json pins it); its source is at "
            "https://github.com/pyodide/pyodide.\n"
            "CPython itself is under the PSF License (https://docs.python.org/3/license.html).\n"
        )
    wheels = os.path.join(site, "wheels")
    os.makedirs(wheels, exist_ok=True)
    shutil.copy(wheel, wheels)
    assets = os.path.join(site, "assets", "site")
    with open(os.path.join(assets, "files.json"), "w", encoding="utf-8") as f:
        json.dump(files, f)
    manifest = {
        "pyodide": meta["version"],
        "wheel": "wheels/" + os.path.basename(wheel),
        "files": "assets/site/files.json",
    }
    with open(os.path.join(assets, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)


EDITOR_PACKAGES = [
    "codemirror",
    *("@codemirror/lang-python", "@codemirror/commands", "@codemirror/language"),
    *("@codemirror/state", "@codemirror/view"),
]


def editor(site: str) -> None:
    """site_src/assets/editor.js and the CodeMirror packages it imports, bundled into one script of
    the site (assets/site/editor.js), with their licenses beside it."""
    esbuild = os.path.join(ROOT, "node_modules", ".bin", "esbuild")
    out = os.path.join(site, "assets", "site", "editor.js")
    source = os.path.join(ROOT, "site_src", "assets", "editor.js")
    cmd = [esbuild, source, "--bundle", "--format=iife", "--minify", "--legal-comments=none"]
    code = subprocess.call([*cmd, f"--outfile={out}", "--log-level=warning"], cwd=ROOT)
    if code:
        sys.exit(code)
    lines = []
    for name in EDITOR_PACKAGES:
        with open(os.path.join(ROOT, "node_modules", name, "package.json"), encoding="utf-8") as f:
            meta = json.load(f)
        lines.append(f"{meta['name']} {meta['version']}: {meta['license']} license")
    with open(
        os.path.join(site, "assets", "site", "editor.NOTICE.txt"), "w", encoding="utf-8"
    ) as f:
        f.write(
            "editor.js bundles CodeMirror 6 (https://codemirror.net, by Marijn Haverbeke and others),\n"
            "unmodified, from the npm packages that package-lock.json pins:\n"
            + "\n".join(lines)
            + "\n"
        )


def build(wheel: str, site: str) -> None:
    """The whole site into the folder `site`, which exists and is empty."""
    files = stage()
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "mkdocs.yml", "-d", site]
    print("+", " ".join(cmd), flush=True)
    code = subprocess.call(cmd, cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    if code:
        sys.exit(code)
    runtime(wheel, files, site)
    editor(site)


def publish(built: str, out: str) -> None:
    """Put the folder `built` where `out` is, in place of what was there (two renames: `out` is
    missing only between them)."""
    old = None
    if os.path.exists(out):
        old = tempfile.mkdtemp(prefix=f".{os.path.basename(out)}-old-", dir=os.path.dirname(out))
        os.replace(out, os.path.join(old, "site"))
    os.replace(built, out)
    if old:
        shutil.rmtree(old)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--wheel", required=True, help="this package's wheel")
    p.add_argument("--out", default=SITE, help="the folder to build (default: site/)")
    args = p.parse_args()
    if not os.path.isfile(os.path.join(PYODIDE, "pyodide.asm.wasm")):
        sys.exit("node_modules/pyodide is missing: run `npm ci` (python3 tasks.py site does)")
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # built beside `out` (one file system, so that a rename moves it), under a name git ignores
    name, parent = os.path.basename(out), os.path.dirname(out)
    building = tempfile.mkdtemp(prefix=f".{name}-building-", dir=parent)
    try:
        build(args.wheel, building)
        publish(building, out)
    finally:
        shutil.rmtree(building, ignore_errors=True)  # what a failed build left
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, names in os.walk(out) for f in names)
    serve = "; serve it with: python3 tasks.py site --serve" if out == SITE else ""
    print(f"{os.path.relpath(out, ROOT)}/ built: {total / 1e6:.1f} MB{serve}")


if __name__ == "__main__":
    main()
