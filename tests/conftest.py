"""Test settings shared by every test file.

Hypothesis runs the same examples on every machine (derandomized, no database, no deadline for a
slow shared machine to trip), so a newcomer's first `python3 tasks.py test` is CI's run.
`python3 tasks.py fuzz` explores instead: the "fuzz" profile draws random examples, 15x as many.
"""

import contextlib
import os
import random
import shutil
import sys
import zlib

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))  # the helpers next to the tests (programs.py ...)

# explain() and the CLI speak Chinese under a zh_* locale: the expected texts are English unless a
# test asks for lang="zh", so the suite runs in a neutral locale (subprocesses inherit it)
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

_COMMON = {
    "database": None,
    "deadline": None,
    "print_blob": True,
    "suppress_health_check": [HealthCheck.too_slow],
}
settings.register_profile("micrograd", derandomize=True, **_COMMON)  # every run the same
settings.register_profile("fuzz", derandomize=False, **_COMMON)  # random: `tasks.py fuzz`
settings.load_profile(os.environ.get("MICROGRAD_HYPOTHESIS_PROFILE", "micrograd"))
EXPLORING = os.environ.get("MICROGRAD_HYPOTHESIS_PROFILE") == "fuzz"


@pytest.fixture(autouse=True)
def practice_seeds(request, monkeypatch):
    """Practice checks draw their random points from a new seed each time; in the suite each
    test's seeds are fixed by its name (still a different one per check), so every run checks the
    same points. `tasks.py fuzz` lets them vary."""
    if EXPLORING or "practice" not in request.node.nodeid:
        return
    from micrograd.practice import checker

    seeds = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(checker, "new_seed", lambda: seeds.randrange(1, 10**9))


@pytest.fixture(scope="session")
def chromium():
    """Debian's headless chromium driven by Selenium (tests/test_browser.py, tests/test_site.py):
    `with chromium(*args, window="W,H", required=...) as driver:` starts one, with the common
    flags, the extra `args`, and a 60 s page-load limit, and quits it on leaving. Where chromium,
    chromedriver or selenium is missing it skips the test, or fails it under
    MICROGRAD_BROWSER=required or where the caller says the browser is `required` (a string
    naming why, as MICROGRAD_SITE=required). The callers keep their own scope: a module's browser
    (test_browser.py) or a new profile per test (test_site.py)."""

    @contextlib.contextmanager
    def start(*args, window, required=""):
        found = shutil.which("chromium") or shutil.which("chromium-browser")
        driver_path = shutil.which("chromedriver")
        missing = [n for n, p in [("chromium", found), ("chromedriver", driver_path)] if not p]
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError:
            missing.append("selenium")
        if missing:
            if os.environ.get("MICROGRAD_BROWSER") == "required":
                required = required or "MICROGRAD_BROWSER=required"
            if required:
                pytest.fail(f"{required} but {missing} missing")
            pytest.skip(f"no headless browser here ({', '.join(missing)} missing)")
        options = webdriver.ChromeOptions()
        common = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]
        for arg in [*common, f"--window-size={window}", *args]:
            options.add_argument(arg)
        options.binary_location = found
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        driver.set_page_load_timeout(60)
        try:
            yield driver
        finally:
            driver.quit()

    return start


def pytest_terminal_summary(terminalreporter):
    """Print what the differential tests counted (recorded with record_property)."""
    lines = {}  # the last value each test recorded (a hypothesis test records once per example)
    for report in terminalreporter.stats.get("passed", []) + terminalreporter.stats.get(
        "failed", []
    ):
        for name, value in getattr(report, "user_properties", []):
            if name == "differential":
                lines[report.nodeid] = value
    if lines:
        terminalreporter.write_sep("-", "differential tests against micrograd 0.1.0")
        for line in lines.values():
            terminalreporter.write_line(line)
    timings = [  # what the browser tests measured (tests/test_browser.py)
        f"{name}: {value}"
        for report in terminalreporter.stats.get("passed", [])
        for name, value in getattr(report, "user_properties", [])
        if name.startswith(("stepper ", "playground ", "gpt "))
    ]
    if timings:
        terminalreporter.write_sep("-", "in the browser")
        for line in timings:
            terminalreporter.write_line(line)


_skipped: list[str] = []


def pytest_collection_modifyitems(items):
    """Tests marked `slow` (5 s or more) run first: pytest-xdist hands tests out in this order, and
    one that started last would keep its worker busy after the other has run out of tests."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # a stable sort


def pytest_runtest_logreport(report):
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    """Under MICROGRAD_NO_SKIPS=1 (`python3 tasks.py core`) a skipped test fails the run."""
    if os.environ.get("MICROGRAD_NO_SKIPS") == "1" and _skipped and exitstatus == 0:
        print(f"\nMICROGRAD_NO_SKIPS: {len(_skipped)} tests were skipped: {_skipped}")
        session.exitstatus = 1
