"""docs/tutorial.md is executed: every python block, in order, in one namespace; the text block that
follows each one is the output it must print. The README's example is checked the same way."""

import ast
import builtins
import contextlib
import io
import linecache
import os
import re
import shutil
import tokenize
from unittest import mock

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(path):
    """(code, expected output) for each python block of a markdown file."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        found = [(m.group(1), m.group(2)) for m in FENCE.finditer(f.read())]
    pairs = []
    for i, (lang, body) in enumerate(found):
        if lang == "python":
            following = found[i + 1] if i + 1 < len(found) else ("", "")
            pairs.append((body, following[1] if following[0] == "text" else ""))
    return pairs


def tokens(code):
    """The code's tokens with their line numbers, comments and blank lines aside: two blocks
    with the same tokens run the same, and a traceback names the same lines."""
    return [
        (t.type, t.string, t.start[0])
        for t in tokenize.generate_tokens(io.StringIO(code).readline)
        if t.type not in (tokenize.COMMENT, tokenize.NL)
    ]


def self_contained(code):
    """Whether a block reads no name that an earlier block defined: every name it loads is a
    builtin, or imported, assigned, or defined in the block itself."""
    tree = ast.parse(code)
    defined = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            defined.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
    loaded = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    return loaded <= defined


def blocks_to_run(path):
    """(n, alone): the document's blocks 1..n run in order, in one namespace, and the blocks in
    `alone` each run by itself. All of an English document's blocks run in order. Of a Chinese
    one, a block whose code (comments aside) or expected output differs from its English twin's
    (a warning in the learner's language, a string translated) must run: up to the last such
    block that reads a name an earlier block defined, in order; a later one that reads none
    (self_contained), by itself. The other blocks are the English blocks and their outputs, which
    the English run checks, so they are compared, not run again (all are run where the twins
    differ in their blocks' number). A Chinese output edited to what the code does not print
    differs, so it is run and fails."""
    if not path.endswith(".zh-CN.md"):
        return len(blocks(path)), []
    english, chinese = blocks(path.removesuffix(".zh-CN.md") + ".md"), blocks(path)
    if len(english) != len(chinese):
        return len(chinese), []
    differ = [
        n
        for n, ((en_code, en_out), (zh_code, zh_out)) in enumerate(zip(english, chinese), 1)
        if tokens(en_code) != tokens(zh_code) or en_out.rstrip() != zh_out.rstrip()
    ]
    needed = max((n for n in differ if not self_contained(chinese[n - 1][0])), default=0)
    return needed, [n for n in differ if n > needed]


def run_document(path, folder):
    """Run the document's blocks in `folder`, as a learner runs them in a folder of their own
    and in a terminal of the document's language (the site's page runs them with its language as
    the locale too: what the package says in the locale's language is the document's); the
    examples they refer to by their path in the repository are linked there. A Chinese document
    runs the blocks blocks_to_run names; the others are compared with the English blocks.
    Returns how many blocks ran."""
    needed, alone = blocks_to_run(path)
    if path.endswith(".zh-CN.md"):
        english = blocks(path.removesuffix(".zh-CN.md") + ".md")
        for n, ((code, expected), (en_code, en_expected)) in enumerate(
            zip(blocks(path)[needed:], english[needed:]), needed + 1
        ):
            if n not in alone:
                assert tokens(code) == tokens(en_code), f"block {n} of {path}"
                assert expected.rstrip() == en_expected.rstrip(), f"block {n} of {path}"
    os.symlink(os.path.join(ROOT, "examples"), os.path.join(folder, "examples"))
    cwd = os.getcwd()
    os.chdir(folder)
    locale = "zh_CN.UTF-8" if path.endswith(".zh-CN.md") else "en_US.UTF-8"
    scope: dict = {"__name__": "__tutorial__"}
    runs = [(n, scope) for n in range(1, needed + 1)]
    runs += [(n, {"__name__": "__tutorial__"}) for n in alone]  # a namespace of its own
    try:
        with mock.patch.dict(os.environ, {"LANG": locale, "LC_ALL": "", "LC_MESSAGES": ""}):
            for n, namespace in runs:
                code, expected = blocks(path)[n - 1]
                # named as the site's page names it, not by the .md file: nothing (a traceback,
                # the practice checker naming a closure's file and line) reads markdown as Python
                name = f"<block {n}>"
                linecache.cache[name] = (len(code), None, code.splitlines(True), name)
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    exec(compile(code, name, "exec"), namespace)
                assert out.getvalue().rstrip() == expected.rstrip(), f"in {path}:\n{code}"
    finally:
        os.chdir(cwd)
    return len(runs)


@pytest.mark.parametrize("tutorial", ["docs/tutorial.md", "docs/tutorial.zh-CN.md"])
def test_tutorial_blocks_print_what_the_tutorial_says(tutorial, tmp_path):
    assert len(blocks(tutorial)) >= 20
    run_document(os.path.join(ROOT, tutorial), tmp_path)
    if shutil.which("dot"):  # the picture is written where the learner runs Python, as it says
        assert "<svg" in (tmp_path / "seed_graph.svg").read_text()
    assert not os.path.exists(os.path.join(ROOT, "seed_graph.svg"))


@pytest.mark.parametrize("lab", ["docs/bugs.md", "docs/bugs.zh-CN.md"])
def test_the_bug_lab_blocks_print_what_the_bug_lab_says(lab, tmp_path):
    run_document(os.path.join(ROOT, lab), tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("chapter", ["docs/gpt.md", "docs/gpt.zh-CN.md"])
def test_the_gpt_chapter_blocks_print_what_the_chapter_says(chapter, tmp_path):
    run_document(os.path.join(ROOT, chapter), tmp_path)


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        ("docs/tutorial.md", "docs/tutorial.zh-CN.md"),
        ("docs/bugs.md", "docs/bugs.zh-CN.md"),
        ("docs/gpt.md", "docs/gpt.zh-CN.md"),
    ],
)
def test_the_chinese_tutorial_runs_the_same_code_as_the_english_one(english, chinese):
    """The translation keeps every example: the same code, up to comments, strings and lang="zh"."""

    def skeleton(code):
        code = re.sub(r"#.*", "", code)
        code = re.sub(r'"""(.|\n)*?"""|"[^"\n]*"', '""', code.replace(', lang=""', ""))
        return [line.rstrip() for line in code.splitlines() if line.strip()]

    en = [skeleton(c) for c, _ in blocks(english)]
    zh = [skeleton(c.replace(', lang="zh"', "")) for c, _ in blocks(chinese)]
    assert zh == en


@pytest.mark.parametrize("chapter", ["docs/gpt.md", "docs/gpt.zh-CN.md"])
def test_the_gpt_chapter_names_each_exercise_of_the_gpt_track_and_no_other(chapter):
    """Each part of the chapter points to its exercise: every exercise of the GPT track is named
    in it (`micrograd practice start ID` or its table's column), and every id named is one."""
    from micrograd.practice import EXERCISES

    text = open(os.path.join(ROOT, chapter), encoding="utf-8").read()
    started = set(re.findall(r"micrograd practice start ([\w-]+)", text))
    assert started <= set(EXERCISES), started - set(EXERCISES)
    for id, ex in EXERCISES.items():
        if ex.track == "gpt":
            assert f"`{id}`" in text, id


def test_the_tutorials_follow_the_seed_chapters_order():
    """The chapter's order: problem, chain rule, three steps, examples,
    the original's source, local rules, +=, sequence diagram, why topological order, questions."""
    for path, words in [
        (
            "docs/tutorial.md",
            [
                "problem",
                "chain rule",
                "three steps",
                "Worked",
                "Inside backward",
                "local rule",
                "+=",
                "sequence diagram",
                "topological order",
                "Questions",
            ],
        ),
        (
            "docs/tutorial.zh-CN.md",
            [
                "问题",
                "链式法则",
                "三步走",
                "手算",
                "原版",
                "局部规则",
                "+=",
                "时序图",
                "拓扑排序",
                "常见疑问",
            ],
        ),
    ]:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            headings = [line for line in f if line.startswith("## ")]
        for heading, word in zip(headings, words):
            assert word in heading, (path, heading, word)


@pytest.mark.parametrize(
    "document",
    [
        *("README.md", "README.zh-CN.md", "docs/guide.md", "docs/guide.zh-CN.md"),
        *("docs/performance.md", "docs/performance.zh-CN.md"),
        *("docs/tensors.md", "docs/tensors.zh-CN.md"),
        *("docs/development.md", "docs/development.zh-CN.md"),
    ],
)
def test_the_front_door_and_reference_blocks_print_what_they_say(document, tmp_path):
    run_document(os.path.join(ROOT, document), tmp_path)


def test_the_readmes_link_each_other():
    for path, other in [("README.md", "README.zh-CN.md"), ("README.zh-CN.md", "README.md")]:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            assert f"({other})" in f.read().split("\n## ")[0]


@pytest.mark.parametrize(
    "picture",
    [
        "docs/img/seed_graph.svg",
        "docs/img/seed_graph.zh-CN.svg",
        "docs/img/decision_boundary.png",
        "docs/img/decision_boundary.zh-CN.png",
    ],
)
def test_pictures_exist(picture):
    assert os.path.getsize(os.path.join(ROOT, picture)) > 1000


@pytest.mark.parametrize(
    ("picture", "legend"),
    [
        ("docs/img/seed_graph.svg", "input or constant"),
        ("docs/img/seed_graph.zh-CN.svg", "输入或常数"),
    ],
)
def test_the_tutorials_picture_is_what_its_code_draws(picture, legend):
    """docs/img/seed_graph(.zh-CN).svg is `dot -Tsvg` of the tutorial's to_dot(L), after
    L.backward(), its legend in the tutorial's language."""
    with open(os.path.join(ROOT, picture), encoding="utf-8") as f:
        svg = f.read()
    for text in ["mul", "data &#45;6.0000", "grad &#45;3.0000", "data 10.0000", legend]:
        assert text in svg, text
