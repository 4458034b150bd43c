"""What a release needs: one version number everywhere, a changelog, GitHub workflows that a
schema and zizmor accept, and an sdist and a wheel that twine accepts and that hold what they should.

The built files are made once for the module (`python -m build`, a few seconds; it fetches
hatchling from PyPI into its isolated environment). `python3 tasks.py release` goes further: the
wheel alone, in a fresh venv, runs the demo and the core tests.
"""

import datetime
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

import micrograd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOWS = os.path.join(ROOT, ".github", "workflows")
PACKAGE = os.path.join(ROOT, "src", "micrograd")


def pyproject_version() -> str:
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        return re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1)


def tool(name: str) -> str:
    """The path of a command-line tool of the test environment, or a skip saying it is missing."""
    path = os.path.join(os.path.dirname(sys.executable), name)
    path = path if os.path.exists(path) else shutil.which(name)
    if not path:
        pytest.skip(f"{name} is not installed (the test dependency group installs it)")
    return path


def workflow(name: str) -> dict:
    """A workflow as YAML 1.2 reads it (the key `on` stays "on")."""
    yaml = pytest.importorskip("ruamel.yaml", reason="ruamel.yaml comes with the test group")
    with open(os.path.join(WORKFLOWS, name), encoding="utf-8") as f:
        return yaml.YAML(typ="safe").load(f)


def load_tasks():
    """tasks.py as a module (it runs a job only as a script)."""
    spec = importlib.util.spec_from_file_location("tasks", os.path.join(ROOT, "tasks.py"))
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    return tasks


def steps(job: dict) -> list[str]:
    """Each step of a job as one line: what it uses, or what it runs."""
    return [step.get("uses") or step["run"] for step in job["steps"]]


# ---------------------------------------------------------------------------- the version
def test_one_version_number_everywhere():
    """pyproject.toml, micrograd.__version__ and the installed metadata say the same version."""
    version = pyproject_version()
    assert micrograd.__version__ == version
    assert importlib.metadata.version("micrograd-plus") == version


def test_the_changelog_keeps_a_changelog_up_to_this_version():
    """CHANGELOG.md in Keep a Changelog's form: its header, Unreleased on top, then releases
    newest first with their dates, from this version down to micrograd 0.1.0's API."""
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
        text = f.read()
    assert text.startswith("# Changelog\n")
    assert "https://keepachangelog.com/" in text and "https://semver.org/" in text
    headings = re.findall(r"^## (.*)$", text, re.M)
    assert headings[0] == "[Unreleased]"
    releases = [re.fullmatch(r"\[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})", h) for h in headings[1:]]
    assert all(releases), headings
    versions = [tuple(map(int, m.group(1).split("."))) for m in releases]
    dates = [datetime.date.fromisoformat(m.group(2)) for m in releases]
    assert releases[0].group(1) == pyproject_version() and releases[-1].group(1) == "0.1.0"
    assert versions == sorted(versions, reverse=True) and dates == sorted(dates, reverse=True)
    kinds = set(re.findall(r"^### (.*)$", text, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds


# ---------------------------------------------------------------------------- the workflows
def test_the_workflows_validate_against_githubs_schema():
    """Every file of .github/workflows/ passes check-jsonschema's vendored workflow schema."""
    names = sorted(os.listdir(WORKFLOWS))
    assert {"tests.yml", "pages.yml", "release.yml"} <= set(names)
    check = tool("check-jsonschema")
    for name in names:
        done = subprocess.run(
            [check, "--builtin-schema", "vendor.github-workflows", os.path.join(WORKFLOWS, name)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"{name}: {done.stdout}{done.stderr}"


def test_zizmor_finds_nothing_in_the_workflows():
    """zizmor, offline (no GitHub token, no network), at its default persona and severity."""
    done = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", "--color=never", ".github"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "No findings to report" in done.stdout, done.stdout


def test_every_action_is_pinned_and_every_job_asks_for_its_own_permissions():
    """Actions pinned to a commit (a tag can be moved to other code), checkouts that keep no token
    on disk, no permissions at the top, and each job's stated: zizmor's rules, also checked here
    where zizmor is missing."""
    for name in os.listdir(WORKFLOWS):
        flow = workflow(name)
        assert flow["permissions"] == {}, name
        for job_name, job in flow["jobs"].items():
            assert "permissions" in job, (name, job_name)
            for step in job["steps"]:
                uses = step.get("uses")
                if uses:
                    assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", uses), (name, uses)
                if uses and uses.startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False, (name, job_name)


def test_the_tests_workflow_runs_ci_as_ci_runs():
    flow = workflow("tests.yml")
    assert set(flow["on"]) == {"push", "pull_request"}
    (job,) = flow["jobs"].values()
    assert "bash .ci/run" in steps(job)
    setup = {step["uses"].split("@")[0]: step["with"] for step in job["steps"] if "with" in step}
    assert setup["actions/setup-python"]["python-version"] == "3.11"
    assert setup["actions/setup-node"]["node-version"] == "20"


def test_the_pages_workflow_builds_the_site_and_only_its_deploy_job_may_publish():
    jobs = workflow("pages.yml")["jobs"]
    assert "python3 tasks.py site" in steps(jobs["build"])
    (upload,) = [s for s in jobs["build"]["steps"] if "upload-pages-artifact" in s.get("uses", "")]
    assert upload["with"]["path"] == "site"
    assert jobs["build"]["permissions"] == {"contents": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert any(s.startswith("actions/deploy-pages@") for s in steps(jobs["deploy"]))


def test_the_release_workflow_publishes_a_tag_by_trusted_publishing():
    """On a tag v*, the files `tasks.py release` built and checked go to PyPI; only the publish
    job gets an OIDC token, in the environment "pypi", and no password or secret is used."""
    flow = workflow("release.yml")
    assert flow["on"] == {"push": {"tags": ["v*"]}}
    build, publish = flow["jobs"]["build"], flow["jobs"]["publish"]
    assert "python3 tasks.py release --outdir dist" in steps(build)
    assert build["permissions"] == {"contents": "read"}
    assert publish["needs"] == "build" and publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}
    assert any(s.startswith("pypa/gh-action-pypi-publish@") for s in steps(publish))
    with open(os.path.join(WORKFLOWS, "release.yml"), encoding="utf-8") as f:
        text = f.read()
    assert "password" not in text and "secrets." not in text


def test_ci_runs_the_release_check_and_the_site_build_and_fails_with_them():
    """`python3 tasks.py release` is a job of tasks.py, listed in its docstring, and a step of
    .ci/run, in the background from the start beside the site's build: .ci/run waits for each, and
    ends with the first failing status; the site's browser tests run only on a site that built."""
    tasks = load_tasks()
    assert "release" in tasks.JOBS and "python3 tasks.py release" in tasks.__doc__
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
        commands = [line.strip() for line in f.read().splitlines()]
    commands = [c for c in commands if c and not c.startswith("#")]
    started = commands.index('python3 tasks.py release >"$logs/release" 2>&1 &')
    building = commands.index('python3 tasks.py site --out build/ci-site >"$logs/site" 2>&1 &')
    tested = commands.index("MICROGRAD_BROWSER=required python3 tasks.py test")
    assert started < building < tested
    assert 'wait "$site" || built=$?' in commands and "status=$built" in commands
    assert (
        'wait "$release" || code=$?' in commands and '[ "$code" = 0 ] || status=$code' in commands
    )
    assert commands[-1] == 'exit "$status"'


def test_the_release_check_refuses_an_outdir_with_files_in_it(tmp_path):
    tasks = load_tasks()
    (tmp_path / "old.whl").write_bytes(b"")
    with pytest.raises(SystemExit, match="is not empty"):
        tasks.release(["--outdir", str(tmp_path)])


# ---------------------------------------------------------------------------- the built files
@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The sdist and the wheel, built once for this module."""
    if importlib.util.find_spec("build") is None:
        pytest.skip("build is not installed (the test dependency group installs it)")
    out = tmp_path_factory.mktemp("dist")
    cmd = [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), ROOT]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel


def package_files() -> set[str]:
    """The files of src/micrograd, as paths from src/ (no bytecode)."""
    found = set()
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            found.add(os.path.relpath(os.path.join(folder, name), os.path.dirname(PACKAGE)))
    return {path.replace(os.sep, "/") for path in found}


def test_twine_accepts_both_files(built):
    twine = tool("twine")
    done = subprocess.run([twine, "check", "--strict", *map(str, built)], capture_output=True)
    said = done.stdout.decode(errors="replace")
    assert done.returncode == 0 and said.count("PASSED") == 2, said


def test_the_wheel_holds_the_package_with_its_data_files_and_metadata(built):
    """Every file of src/micrograd, the .py files and the ones it opens at run time (the digits
    data set, the stepper's and the playground's pages, py.typed), and the command."""
    _, wheel = built
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        info = f"micrograd_plus-{pyproject_version()}.dist-info"
        metadata = z.read(f"{info}/METADATA").decode()
        entry_points = z.read(f"{info}/entry_points.txt").decode()
    package = {name for name in names if name.startswith("micrograd/")}
    assert package == package_files()
    for needed in (
        "engine.py",
        "datasets/digits.csv.gz",
        "datasets/names.txt.gz",
        "teach/pages/stepper.html",
    ):
        assert f"micrograd/{needed}" in package
    assert "Name: micrograd-plus\n" in metadata
    assert f"Version: {pyproject_version()}\n" in metadata
    assert "micrograd = micrograd.app.cli:main" in entry_points


def test_the_sdist_holds_the_sources_and_no_local_folders(built):
    """The sources, the tests, the READMEs, LICENSE and CHANGELOG.md; no virtual environment,
    built site, node_modules or bytecode (hatchling leaves out what .gitignore names)."""
    sdist, _ = built
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for needed in ("PKG-INFO", "pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md"):
        assert needed in names
    assert {name[len("src/") :] for name in names if name.startswith("src/")} >= package_files()
    assert "tests/conftest.py" in names and "tests/test_engine.py" in names
    junk = (".venv", ".original-venv", "site/", "node_modules/", "build/", "dist/", ".git/")
    assert not [n for n in names if n.startswith(junk) or "__pycache__" in n or n.endswith(".pyc")]
