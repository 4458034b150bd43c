"""The package's shape: no import circle between its modules, and `import micrograd` imports no
numpy (the engine and nn are pure standard library)."""

import ast
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")


def modules() -> dict[str, str]:
    """Every module of the package: dotted name -> file."""
    found = {}
    for folder, _, files in os.walk(os.path.join(SRC, "micrograd")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, SRC)[: -len(".py")].replace(os.sep, ".")
                found[dotted.removesuffix(".__init__")] = path
    return found


def imports(name: str, path: str, known: set[str]) -> set[str]:
    """The package's modules that `name` imports anywhere in its file, at the top or inside a
    function (a function-level import closes a circle as surely, only later)."""
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for a in node.names:  # `from micrograd import modes` imports the module micrograd.modes
                out.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
    return {m for m in out if m in known and m != name}


def test_no_module_imports_itself_through_others():
    found = modules()
    graph = {name: imports(name, path, set(found)) for name, path in found.items()}
    # the package's __init__ gathers the public names: importing it from inside is a lookup of a
    # name that is already there, so its edges out are left out of the walk
    graph["micrograd"] = set()
    circles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                walk(nxt, path + [nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [name])
    assert circles == [], "\n".join(" -> ".join(c) for c in circles)


def test_importing_micrograd_imports_no_numpy():
    code = "import sys, micrograd, micrograd.nn, micrograd.text; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_file_table_shows_the_layout_as_it_is():
    """docs/development.md's table of files names every module and folder of the package, and
    only ones that exist."""
    import re

    with open(os.path.join(ROOT, "docs", "development.md"), encoding="utf-8") as f:
        rows = [line.split("|")[1] for line in f if line.startswith("| `src/micrograd/")]
    cells = [path for row in rows for path in re.findall(r"`(src/micrograd/[^`]*)`", row)]
    named = set()
    for cell in cells:
        braces = re.fullmatch(r"(.*)\{(.*)\}(.*)", cell)
        for path in [braces[1] + p + braces[3] for p in braces[2].split(",")] if braces else [cell]:
            assert os.path.exists(os.path.join(ROOT, path)), path
            named.add(path.rstrip("/"))
    package = os.path.join(SRC, "micrograd")
    present = {
        f"src/micrograd/{name}"
        for name in os.listdir(package)
        if not name.startswith(("_", "."))
        and name not in ("py.typed",)
        and (name.endswith(".py") or os.path.isdir(os.path.join(package, name)))
    }
    assert present - named == set(), "not in docs/development.md's table"
