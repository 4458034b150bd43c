"""The stepper and the playground in a real headless browser: Debian's chromium driven by Selenium.

Skipped where chromium, chromedriver or selenium is missing, except under MICROGRAD_BROWSER=required
(set by .ci/run, which installs them): there a missing browser fails the run. Screenshots go to
$MICROGRAD_SCREENSHOTS when set (`python3 tasks.py screenshots` points it at docs/img), else to a
temporary folder; the time to the first frame is printed in the test summary."""

import os
import re
import subprocess
import sys
import time

import pytest

from micrograd import Value
from micrograd.practice.lecture import graph
from micrograd.viz import explain, stepper
from serving import serve_in_thread

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def browser(chromium):
    """One browser for the module (conftest's chromium: skipped or required as it says)."""
    with chromium(window="1300,760") as driver:
        yield driver


def screenshot(driver, name, tmp_path):
    folder = os.environ.get("MICROGRAD_SCREENSHOTS") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    driver.save_screenshot(path)
    assert os.path.getsize(path) > 5000  # a picture, not a blank
    return path


def seed_question():
    """The Stack Exchange question's graph (practice's predict-shared): a.grad 25 and b.grad 19."""
    return graph("predict-shared")


def expected_frames(root):
    """The grads explain() says each Value holds after each step of the stepper: the order
    (all 0), the output's 1, then one `+=` at a time."""
    ex = explain(root)
    grads = dict.fromkeys(ex.order, 0.0)
    frames = [dict(grads)]
    grads[ex.root] = 1.0
    frames.append(dict(grads))
    for s in ex.steps:
        for c in s.contributions:
            grads[c.input] = c.total
            frames.append(dict(grads))
    return frames


def grads_shown(driver):
    """{name: grad} of every Value the page shows (its data-name and data-grad), read in one
    script: through the driver, each element costs two round trips, most of a test's time."""
    shown = driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-name]'),"
        " e => [e.getAttribute('data-name'), e.getAttribute('data-grad')])"
    )
    return {name: float(grad) for name, grad in shown}


def test_the_stepper_walks_the_seed_question_as_explain_does(browser, tmp_path, record_property):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    f = seed_question()
    page = tmp_path / "backward.html"
    stepper(f).save(str(page))
    start = time.perf_counter()
    browser.get(page.as_uri())
    assert browser.execute_script("return window.micrograd.current") == 0
    record_property("stepper first frame", f"{time.perf_counter() - start:.2f} s")
    frames = expected_frames(f)
    assert browser.execute_script("return window.micrograd.steps") == len(frames) - 1
    nxt = browser.find_element(By.CSS_SELECTOR, '[data-action="next"]')
    for k, want in enumerate(frames):  # the next button, one step at a time
        assert grads_shown(browser) == want, f"step {k}"
        if k < len(frames) - 1:
            nxt.click()
    assert grads_shown(browser)["a"] == 25.0 and grads_shown(browser)["b"] == 19.0
    assert not nxt.is_enabled()
    for k in (3, 0, len(frames) - 1, 6):  # jumping with window.micrograd.step(k)
        browser.execute_script("window.micrograd.step(arguments[0])", k)
        assert grads_shown(browser) == frames[k]
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    assert grads_shown(browser) == frames[5]
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert grads_shown(browser) == frames[7]
    browser.find_element(By.CSS_SELECTOR, '[data-action="prev"]').click()
    assert browser.execute_script("return window.micrograd.current") == 6
    text = browser.find_element(By.ID, "say").text
    assert "e._backward()" in text and "c.grad += 1 * 1 = 1" in text
    # play steps every 0.7 s, and stops at the last step: from three steps before it
    browser.execute_script("window.micrograd.step(arguments[0])", len(frames) - 4)
    browser.find_element(By.CSS_SELECTOR, '[data-action="play"]').click()
    deadline = time.time() + 30
    while browser.execute_script("return window.micrograd.current") < len(frames) - 1:
        assert time.time() < deadline, "play did not reach the last step"
        time.sleep(0.1)
    assert grads_shown(browser) == frames[-1]
    assert browser.find_element(By.CSS_SELECTOR, '[data-action="play"]').text == "play"  # stopped
    browser.execute_script("window.micrograd.step(9)")
    screenshot(browser, "stepper.png", tmp_path)


def test_the_stepper_matches_backward_on_a_neuron_and_speaks_chinese(browser, tmp_path):
    from selenium.webdriver.common.by import By

    x1, x2 = Value(2.0, label="x1"), Value(0.0, label="x2")
    w1, w2 = Value(-3.0, label="w1"), Value(1.0, label="w2")
    b = Value(6.8813735870195432, label="b")
    o = (x1 * w1 + x2 * w2 + b).tanh()
    o.label = "o"
    page = tmp_path / "neuron.html"
    stepper(o, lang="zh").save(str(page))
    browser.get(page.as_uri())
    assert browser.find_element(By.CSS_SELECTOR, '[data-action="next"]').text == "下一步 ▶"
    browser.execute_script("window.micrograd.step(window.micrograd.steps)")
    shown = grads_shown(browser)
    o.backward()
    for v in (x1, x2, w1, w2, b):
        assert shown[v.label] == pytest.approx(v.grad, rel=1e-12)
    assert shown["x1"] == pytest.approx(-1.5) and shown["w1"] == pytest.approx(1.0)
    assert "梯度" in browser.find_element(By.ID, "say").text
    browser.execute_script("window.micrograd.step(window.micrograd.steps - 1)")
    label = browser.find_element(By.CSS_SELECTOR, '[data-role="local"]').text
    assert label.startswith("×")  # the local derivative on the edge it scales
    screenshot(browser, "stepper.zh-CN.png", tmp_path)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_quiz_stepper_waits_for_each_answer(browser, tmp_path, lang):
    """Issue 21 section 3: with quiz=True each += stays hidden until the learner types its number;
    a right answer turns green and applies it, a wrong one shows the local derivative and the
    upstream grad; stepping (next, the slider, the keys, play) stops at the open question."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    f = seed_question()
    page = tmp_path / "quiz.html"
    stepper(f, quiz=True, lang=lang).save(str(page))
    browser.get(page.as_uri())
    frames = expected_frames(f)
    ex = explain(f)
    added = [c for s in ex.steps for c in s.contributions]  # frame 2 + i asks added[i]
    css = browser.find_element
    nxt, answer = css(By.CSS_SELECTOR, '[data-action="next"]'), css(By.ID, "answer")
    nxt.click()
    nxt.click()
    assert browser.execute_script("return window.micrograd.current") == 2
    assert not nxt.is_enabled() and answer.is_displayed()
    assert grads_shown(browser) == frames[1]  # the first += is not applied yet
    assert css(By.ID, "say").text.endswith(f"{added[0].input}.grad += ?")
    browser.execute_script("window.micrograd.step(9)")  # seeking past the question stops there
    assert browser.execute_script("return window.micrograd.current") == 2
    css(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert browser.execute_script("return window.micrograd.current") == 2

    answer.send_keys("abc", Keys.ENTER)
    assert css(By.ID, "feedback").get_attribute("data-state") == "invalid"
    answer.clear()
    answer.send_keys(str(added[0].added + 5), Keys.ENTER)  # wrong: the two factors are shown
    feedback = css(By.ID, "feedback")
    assert feedback.get_attribute("data-state") == "wrong"
    assert f"{added[0].local:g}" in feedback.text and f"{added[0].upstream:g}" in feedback.text
    assert grads_shown(browser) == frames[1] and not nxt.is_enabled()
    screenshot(browser, "stepper-quiz.zh-CN.png" if lang == "zh" else "stepper-quiz.png", tmp_path)
    answer.clear()
    answer.send_keys(f"{added[0].added:g}", Keys.ENTER)
    assert feedback.get_attribute("data-state") == "right"
    assert "right" in css(By.ID, "say").get_attribute("class").split()
    assert grads_shown(browser) == frames[2] and nxt.is_enabled()
    for i in range(1, len(added)):  # each next question, answered right at the first try
        nxt.click()
        k = 2 + i
        assert grads_shown(browser) == frames[k - 1], f"step {k}"
        if i == 3:  # one shown instead of answered
            css(By.CSS_SELECTOR, '[data-action="show"]').click()
        else:
            answer.send_keys(str(added[i].added), Keys.ENTER)
        assert grads_shown(browser) == frames[k], f"step {k}"
    assert grads_shown(browser)["a"] == 25.0 and grads_shown(browser)["b"] == 19.0
    score = css(By.ID, "score")
    asked = len(added)
    assert (score.get_attribute("data-right"), score.get_attribute("data-asked")) == (
        str(asked - 2),
        str(asked),
    )
    browser.execute_script("window.micrograd.step(2)")  # answered questions stay answered
    assert grads_shown(browser) == frames[2] and not answer.is_displayed()
    if lang == "zh":
        assert css(By.CSS_SELECTOR, '[data-action="check"]').get_attribute("textContent") == "核对"
        assert "预测每一次 +=" in css(By.ID, "quiz-intro").text


def test_the_cli_writes_the_stepper_page(browser, tmp_path):
    out = tmp_path / "backward.html"
    expr = "c = a + b; d = a * b; e = c + d; g = c * d; f = e + g"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "micrograd",
            "explain",
            expr,
            "--set",
            "a=2",
            "--set",
            "b=3",
            "-o",
            str(out),
        ],
        check=True,
    )
    browser.get(out.as_uri())
    browser.execute_script("window.micrograd.step(window.micrograd.steps)")
    assert grads_shown(browser) == expected_frames(seed_question())[-1]


@pytest.fixture
def playground():
    pytest.importorskip("numpy")
    from micrograd.app.playground import Server

    srv = Server(0)
    serve_in_thread(srv)
    yield f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


def metric(driver, name):
    from selenium.webdriver.common.by import By

    value = driver.find_element(By.CSS_SELECTOR, f'[data-metric="{name}"]').get_attribute(
        "data-value"
    )
    return float(value) if value else None


def test_play_on_moons_reaches_90_percent(browser, playground, tmp_path, record_property):
    from selenium.webdriver.common.by import By

    start = time.perf_counter()
    browser.get(playground)
    ready = "return !!(window.micrograd.run && window.micrograd.run.grid)"
    while not browser.execute_script(ready):
        assert time.perf_counter() - start < 30
        time.sleep(0.05)
    first_frame = time.perf_counter() - start
    record_property("playground first frame", f"{first_frame:.2f} s")
    assert browser.find_element(By.ID, "data").get_attribute("value") == "moons"
    browser.find_element(By.CSS_SELECTOR, '[data-action="play"]').click()
    deadline = time.time() + 90
    while True:
        step = int(browser.find_element(By.CSS_SELECTOR, '[data-metric="step"]').text)
        acc = metric(browser, "accuracy")
        if acc is not None and acc > 0.9:
            break
        assert step <= 300, f"accuracy {acc} after {step} steps"
        assert time.time() < deadline
        time.sleep(0.1)
    record_property("playground steps to 90%", str(step))
    browser.find_element(By.CSS_SELECTOR, '[data-action="pause"]').click()
    deadline = time.time() + 30
    while not browser.execute_script("return window.micrograd.idle"):  # the last request done
        assert time.time() < deadline
        time.sleep(0.05)
    paused_at = int(browser.find_element(By.CSS_SELECTOR, '[data-metric="step"]').text)
    # the whole loss curve, as the page holds it, not the values a poll happened to see
    losses = browser.execute_script("return window.micrograd.losses")
    assert len(losses) == paused_at >= 2 and losses[-1] < losses[0]
    browser.find_element(By.CSS_SELECTOR, '[data-action="step"]').click()
    deadline = time.time() + 10
    while int(browser.find_element(By.CSS_SELECTOR, '[data-metric="step"]').text) != paused_at + 1:
        assert time.time() < deadline
        time.sleep(0.05)
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-param]")
    assert len(rows) == 2 * 8 + 8 + 8 * 8 + 8 + 8 + 1
    screenshot(browser, "playground.png", tmp_path)
    browser.find_element(By.CSS_SELECTOR, '[data-action="reset"]').click()
    deadline = time.time() + 10
    while browser.find_element(By.CSS_SELECTOR, '[data-metric="step"]').text != "0":
        assert time.time() < deadline
        time.sleep(0.05)


def train_in_page(browser, url, steps):
    """Open the playground at `url` and take `steps` steps; back when the page is idle again."""
    browser.get(url)
    while not browser.execute_script(
        "return !!(window.micrograd && window.micrograd.run && window.micrograd.run.grid)"
    ):
        time.sleep(0.05)
    browser.execute_script("window.micrograd.step(arguments[0])", steps)
    while not browser.execute_script(
        "return window.micrograd.idle && Number(document.getElementById('m-step').textContent) >= arguments[0]",
        steps,
    ):
        time.sleep(0.05)


def open_point_stepper(browser, i):
    """Click sample i on the playground's canvas; the stepper window it opens (switched to)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    point = browser.execute_script(
        "const r = window.micrograd.run; const [x0, x1, y0, y1] = r.grid.box;"
        "const [x, y] = r.points[arguments[0]];"
        "return [(x - x0) / (x1 - x0) * 400, 400 - (y - y0) / (y1 - y0) * 400];",
        i,
    )
    before = set(browser.window_handles)
    canvas = browser.find_element(By.ID, "boundary")
    ActionChains(browser).move_to_element_with_offset(
        canvas, point[0] - 200, point[1] - 200
    ).click().perform()
    deadline = time.time() + 20
    while len(browser.window_handles) == len(before):
        assert time.time() < deadline
        time.sleep(0.05)
    (new,) = set(browser.window_handles) - before
    browser.switch_to.window(new)
    return new


def test_the_playground_marks_the_points_that_teach_and_says_why(browser, playground, tmp_path):
    """After some training the points whose loss is > 0 are ringed and counted;
    a ringed point's stepper says its loss is > 0 and sends grads back; an unringed one's says
    why it sends nothing (max(0, 1 - y*score) = 0), and every grad it shows is 0."""
    from selenium.webdriver.common.by import By

    train_in_page(browser, playground, 40)
    active = browser.execute_script("return window.micrograd.run.active")
    count = int(browser.find_element(By.ID, "active").get_attribute("data-count"))
    assert 0 < count == len(active) < 200
    assert (
        "loss >"
        in browser.find_element(By.ID, "formula").text + browser.find_element(By.ID, "active").text
    )
    assert browser.find_element(By.ID, "adam-note").is_displayed()
    screenshot(browser, "playground-teaching.png", tmp_path)
    quiet = next(i for i in range(200) if i not in set(active))
    main = browser.current_window_handle
    for i, sends in ((active[0], True), (quiet, False)):
        open_point_stepper(browser, i)
        try:
            intro = browser.find_element(By.ID, "intro").text
            assert re.match(r"loss = max\(0, 1 - y·score\) = max\(0, 1 - (1|\(-1\))·", intro)
            browser.execute_script("window.micrograd.step(window.micrograd.steps)")
            grads = grads_shown(browser)
            inner = {n: g for n, g in grads.items() if n.startswith("layers.")}
            if sends:
                assert "> 0: this point is inside the margin" in intro
                assert any(g != 0 for g in inner.values())
            else:
                assert "= 0: this point is on its side with a margin" in intro
                assert all(g == 0 for g in inner.values())
        finally:
            browser.close()
            browser.switch_to.window(main)


def test_nudging_an_input_gives_the_slope_backward_gives(browser, tmp_path):
    """Click an input's box and nudge: the page recomputes the forward pass with it moved by
    h, and (L(x+h) - L(x)) / h sits beside the grad backward() gives. Home and End step to the
    first and the last frame."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    L = (a * b + a.tanh()) * b.sigmoid() + (a / b).exp() + (a**3).log() + b.sin() * a.cos()
    L.label = "L"
    page = tmp_path / "nudge.html"
    stepper(L, intro="why this loss").save(str(page))
    browser.get(page.as_uri())
    assert browser.find_element(By.ID, "intro").text == "why this loss"
    L.backward()
    for leaf in (a, b):
        browser.find_element(By.CSS_SELECTOR, f'[data-name="{leaf.label}"]').click()
        out = browser.find_element(By.ID, "nudge-out")
        slope, grad = float(out.get_attribute("data-slope")), float(out.get_attribute("data-grad"))
        assert grad == pytest.approx(leaf.grad, rel=1e-12)
        assert slope == pytest.approx(leaf.grad, rel=1e-3)  # a forward difference with h = 1e-4
        assert f"{leaf.label}.grad from backward()" in out.text
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    assert browser.execute_script("return window.micrograd.current") == browser.execute_script(
        "return window.micrograd.steps"
    )
    body.send_keys(Keys.HOME)
    assert browser.execute_script("return window.micrograd.current") == 0


@pytest.mark.parametrize("quiz", [False, True])
def test_clicking_a_point_opens_its_stepper(browser, playground, quiz):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(playground)
    while not browser.execute_script(
        "return !!(window.micrograd.run && window.micrograd.run.grid)"
    ):
        time.sleep(0.05)
    if quiz:
        browser.find_element(By.ID, "quiz").click()
    main = browser.current_window_handle
    open_point_stepper(browser, 0)
    try:
        assert "/stepper?i=0" in browser.current_url
        assert ("quiz=1" in browser.current_url) == quiz
        if quiz:  # the sample's first += is asked; answered, stepping goes on
            browser.execute_script("window.micrograd.step(9)")
            k = browser.execute_script("return window.micrograd.current")
            added = browser.execute_script(
                "return window.micrograd.frames[arguments[0]].quiz.added", k
            )
            browser.find_element(By.ID, "answer").send_keys(repr(added), Keys.ENTER)
            assert browser.find_element(By.ID, "feedback").get_attribute("data-state") == "right"
            assert browser.find_element(By.CSS_SELECTOR, '[data-action="next"]').is_enabled()
            return
        browser.execute_script("window.micrograd.step(window.micrograd.steps)")
        shown = grads_shown(browser)
        assert (
            shown["loss"] == 1.0 and "x1" in shown and any(n.startswith("layers.") for n in shown)
        )
    finally:
        browser.close()
        browser.switch_to.window(main)


def test_screenshots_are_pictures(tmp_path):
    """The README's screenshots exist (made by this file under `python3 tasks.py screenshots`)."""
    names = ("stepper.png", "playground.png", "stepper-quiz.png", "stepper-quiz.zh-CN.png")
    for name in (*names, "playground-teaching.png", "stepper.zh-CN.png", "playground.zh-CN.png"):
        path = os.path.join(ROOT, "docs", "img", name)
        with open(path, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
        assert os.path.getsize(path) > 10_000


HOSTILE_PAGE = """<!DOCTYPE html><html><head><title>hostile</title></head><body><script>
(async () => {
  let sent = 0;
  for (let i = 0; i < 20; i++) {
    for (const type of ["text/plain", "application/json"]) {
      try {
        await fetch("TARGET" + "api/runs", {method: "POST", mode: "no-cors",
                                            headers: {"Content-Type": type}, body: '{"hidden": [2]}'});
      } catch (e) {}
      sent++;
    }
  }
  document.title = "done " + sent;
})();
</script><iframe id="framed" src="TARGET"></iframe></body></html>"""


def test_other_pages_cannot_make_runs_or_frame_the_playground(browser, tmp_path):
    """A page on another local port and a file:// page send 40 POSTs each to the
    playground (simple text/plain ones and JSON ones); none makes a run. Neither can show the
    playground in a frame."""
    import http.server

    pytest.importorskip("numpy")
    from micrograd.app.playground import Server

    srv = Server(0)
    serve_in_thread(srv)
    target = f"http://127.0.0.1:{srv.server_address[1]}/"
    (tmp_path / "hostile.html").write_text(HOSTILE_PAGE.replace("TARGET", target))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, *args):
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    serve_in_thread(other)
    try:
        for page in (
            f"http://127.0.0.1:{other.server_address[1]}/hostile.html",
            (tmp_path / "hostile.html").as_uri(),
        ):
            browser.get(page)
            deadline = time.time() + 60
            while browser.title != "done 40":
                assert time.time() < deadline, browser.title
                time.sleep(0.05)
            assert srv.playground.runs == {}, page
            browser.switch_to.frame(browser.find_element("id", "framed"))
            try:
                assert browser.execute_script("return window.micrograd === undefined")
            finally:
                browser.switch_to.default_content()
    finally:
        other.shutdown()
        other.server_close()
        srv.shutdown()
        srv.server_close()


def test_hostile_names_are_shown_not_run(browser, tmp_path):
    """A label, a parameter name and an op name holding </script> and markup are shown as
    text in the stepper, saved and in a notebook's iframe; no script of theirs runs, and the
    notebook page around the iframe is out of its reach."""
    hostile = "</script><script>window.pwned = 1; parent.document.title = 'pwned'</script><!--"
    x = Value(2.0, label=hostile)
    w = Value(-1.0)
    made = Value(x.data + 1.0, (x,), "<img src=x onerror=window.pwned=2>")
    made._backward = lambda: None
    s = stepper(x * w + made, params=[(hostile + "w", w)])
    saved = tmp_path / "s.html"
    s.save(str(saved))
    browser.get(saved.as_uri())
    browser.execute_script("window.micrograd.step(window.micrograd.steps)")
    assert browser.execute_script("return window.pwned") is None
    assert hostile in grads_shown(browser)
    notebook = tmp_path / "notebook.html"
    notebook.write_text(
        "<!DOCTYPE html><html><head><title>notebook</title></head><body>"
        + s._repr_html_()
        + "</body></html>"
    )
    browser.get(notebook.as_uri())
    frame = browser.find_element("tag name", "iframe")
    browser.switch_to.frame(frame)
    try:
        deadline = time.time() + 30
        while not browser.execute_script("return !!window.micrograd"):  # the page's own script
            assert time.time() < deadline
            time.sleep(0.05)
        assert browser.execute_script("return window.pwned") is None
    finally:
        browser.switch_to.default_content()
    assert browser.title == "notebook"


def test_a_long_play_keeps_the_page_alive(browser, playground):
    """After 150,000 steps of history (about 40 minutes of play) the page still steps and
    draws: the curve keeps at most 2,000 points and the largest loss is kept as it comes."""
    browser.get(playground)
    deadline = time.time() + 30
    while not browser.execute_script(
        "return !!(window.micrograd.run && window.micrograd.run.grid)"
    ):
        assert time.time() < deadline
        time.sleep(0.05)
    browser.execute_script(
        "const n = 150000; record(Array.from({length: n}, (_, i) => 1 + 1 / (i + 1)),"
        " Array.from({length: n}, () => 0.5));"
    )
    browser.execute_script("window.micrograd.step(1)")
    deadline = time.time() + 30
    while browser.find_element("css selector", '[data-metric="step"]').text != "1":
        assert time.time() < deadline
        time.sleep(0.05)
    assert browser.find_element("id", "error").text == ""
    assert 1000 <= len(browser.execute_script("return window.micrograd.losses")) <= 2000


def test_the_chinese_playground_speaks_chinese(browser, tmp_path):
    """The playground's page in Chinese, as the Chinese README shows it."""
    pytest.importorskip("numpy")
    from selenium.webdriver.common.by import By

    from micrograd.app.playground import Server

    srv = Server(0, lang="zh")
    serve_in_thread(srv)
    try:
        train_in_page(browser, f"http://127.0.0.1:{srv.server_address[1]}/", 40)
        assert "带圈的点" in browser.find_element(By.ID, "active").text
        assert browser.find_element(By.CSS_SELECTOR, '[data-action="play"]').text == "播放"
        screenshot(browser, "playground.zh-CN.png", tmp_path)
    finally:
        srv.shutdown()
        srv.server_close()


def test_skipping_the_steps_that_add_nothing(browser, tmp_path):
    """With "skip += 0" checked, next and the arrow keys pass over the steps that add 0 (a
    dead relu stops everything below it); unchecked, every step is visited."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    dead = (a * b).relu()  # relu of -6: its slope is 0, so a and b get += 0
    dead.label = "dead"
    out = dead + b
    out.label = "out"
    page = tmp_path / "skip.html"
    stepper(out).save(str(page))
    browser.get(page.as_uri())
    frames = browser.execute_script("return window.micrograd.frames")
    zero = [i for i, f in enumerate(frames) if f.get("zero")]
    assert zero  # the relu's step and the product's two steps add 0
    browser.find_element(By.ID, "skip-zero").click()
    visited = [0]
    body = browser.find_element(By.TAG_NAME, "body")
    while visited[-1] < len(frames) - 1:
        body.send_keys(Keys.ARROW_RIGHT)
        now = browser.execute_script("return window.micrograd.current")
        assert now > visited[-1]
        visited.append(now)
    assert not set(visited[:-1]) & set(zero)  # the last frame may be a zero one: it is the end
    assert grads_shown(browser) == expected_frames(out)[-1]


def small_mlp_with_a_dead_relu():
    """MLP(2, [3, 1]) and the hinge loss of one sample at x = (0.5, -1): the first hidden neuron's
    relu is dead (0.5 - 1 - 10 < 0), the others are not, and the loss is 1.1, so gradient flows."""
    from micrograd.nn import MLP

    model = MLP(2, [3, 1])
    weights = [[1.0, 1.0, -10.0], [1.0, -1.0, 0.5], [-1.0, -0.5, 1.0], [0.5, -1.0, 2.0, 0.1]]
    neurons = [*model.layers[0].neurons, *model.layers[1].neurons]
    for n, numbers in zip(neurons, weights):
        for p, number in zip(n.parameters(), numbers):
            p.data = number
    x = [Value(0.5, label="x1"), Value(-1.0, label="x2")]
    loss = (1 + -Value(-1.0, label="y") * model(x)).relu()
    loss.label = "loss"
    return model, loss


def neuron_frames(browser, name):
    """The frames whose step runs inside the neuron `name` (its node is one of its ops)."""
    return browser.execute_script(
        "const m = window.micrograd, n = m.neurons.find((x) => x.name === arguments[0]);"
        "return m.frames.map((f, k) => (n.members.includes(f.node) ? k : -1)).filter((k) => k >= 0);",
        name,
    )


def drawn(browser, element):
    """Whether the element is drawn in the view shown (it may be out of the frame)."""
    return browser.execute_script("return !arguments[0].closest('.off')", element)


def view_transform(browser):
    return browser.find_element("css selector", '[data-role="view"]').get_attribute("transform")


def test_the_neuron_view_draws_each_neuron_as_one_box(browser, tmp_path):
    """An MLP's stepper opens on its neurons, one box each, named as named_parameters() names
    them; the step's neuron is marked, a click shows its ops (and folds them back), the picture
    zooms, and a dead ReLU is hatched and says so, in the whole graph too."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    model, loss = small_mlp_with_a_dead_relu()
    page = tmp_path / "mlp.html"
    stepper(loss, params=model).save(str(page))
    browser.get(page.as_uri())
    css = browser.find_element
    css(By.CSS_SELECTOR, '[data-action="fit"]').click()  # all of it, to click on
    boxes = {
        e.get_attribute("data-neuron"): e
        for e in browser.find_elements(By.CSS_SELECTOR, "[data-neuron]")
    }
    names = [f"layers.0.neurons.{j}" for j in range(3)] + ["layers.1.neurons.0"]
    assert list(boxes) == names and all(b.is_displayed() for b in boxes.values())
    assert "w·x+b → relu" in boxes["layers.0.neurons.1"].text
    linear = boxes["layers.1.neurons.0"].text  # the output neuron has no relu
    assert "w·x+b" in linear and "relu" not in linear
    dead = boxes["layers.0.neurons.0"]
    assert dead.get_attribute("data-dead") == "1" and "dead: relu = 0" in dead.text
    assert [n for n, b in boxes.items() if b.get_attribute("data-dead")] == ["layers.0.neurons.0"]
    weight = css(By.CSS_SELECTOR, '[data-name="layers.0.neurons.1.w.0"]')
    assert not weight.is_displayed()  # inside its neuron's box
    assert css(By.CSS_SELECTOR, '[data-name="x1"]').is_displayed()  # the inputs are not

    inside = neuron_frames(browser, "layers.0.neurons.1")
    browser.execute_script("window.micrograd.step(arguments[0])", inside[-1])
    box = boxes["layers.0.neurons.1"]
    assert "active" in box.get_attribute("class").split()
    assert sum("active" in b.get_attribute("class").split() for b in boxes.values()) == 1
    said = css(By.CSS_SELECTOR, '[data-role="inside"]').text
    assert said.startswith("inside the neuron: ") and (".grad → " in said or "._backward()" in said)
    out = browser.execute_script(
        "return window.micrograd.neurons.find((n) => n.name === 'layers.0.neurons.1').out"
    )
    assert box.get_attribute("data-grad") == css(By.ID, f"v{out}").get_attribute("data-grad")
    browser.execute_script("window.micrograd.step(0)")
    assert "active" not in box.get_attribute("class").split()
    assert css(By.CSS_SELECTOR, '[data-role="inside"]').text == ""

    before = view_transform(browser)
    css(By.CSS_SELECTOR, '[data-action="zoom-in"]').click()
    assert view_transform(browser) != before
    zoomed = view_transform(browser)
    css(By.CSS_SELECTOR, '[data-action="zoom-out"]').click()
    assert view_transform(browser) != zoomed
    css(By.CSS_SELECTOR, '[data-action="fit"]').click()
    frame = css(By.ID, "graph").rect
    for b in boxes.values():  # fit: every box in the frame
        r = b.rect
        assert frame["x"] <= r["x"] and r["x"] + r["width"] <= frame["x"] + frame["width"]
        assert frame["y"] <= r["y"] and r["y"] + r["height"] <= frame["y"] + frame["height"]

    box.click()  # its ops, and the weights it hides
    members = browser.execute_script(
        "const n = window.micrograd.neurons.find((n) => n.name === 'layers.0.neurons.1');"
        "return n.members.concat(n.params).map((j) => 'v' + j);"
    )
    shown = [css(By.ID, m) for m in members]
    assert all(drawn(browser, e) and e.get_attribute("data-name") for e in shown)
    assert all("focus" in e.get_attribute("class").split() for e in shown)
    assert css(By.ID, f"v{out}").is_displayed()  # in the frame: the zoom goes to the neuron
    assert drawn(browser, weight) and not drawn(browser, box)
    collapse = css(By.CSS_SELECTOR, '[data-action="collapse"]')
    assert collapse.is_displayed()
    collapse.click()
    assert box.is_displayed() and not drawn(browser, weight) and not collapse.is_displayed()
    box.click()
    css(By.CSS_SELECTOR, '.outline [data-role="collapse"]').click()  # a click on its frame folds it
    assert box.is_displayed() and not drawn(browser, weight)
    box.click()
    css(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)  # and so does Escape
    assert box.is_displayed() and not drawn(browser, weight)

    expand = css(By.CSS_SELECTOR, '[data-action="expand-all"]')
    assert expand.text == "expand all"
    expand.click()
    assert expand.text == "collapse all"
    assert all(drawn(browser, e) for e in browser.find_elements(By.CSS_SELECTOR, "[data-name]"))
    assert not any(drawn(browser, b) for b in boxes.values())
    relu = css(By.CSS_SELECTOR, '[data-name][data-dead="1"]')  # the dead neuron's output
    dead_out = browser.execute_script("return window.micrograd.neurons[0].out")
    assert relu.get_attribute("id") == f"v{dead_out}"
    assert "dead" in relu.get_attribute("class").split()
    labels = browser.find_elements(By.CSS_SELECTOR, "text.dead-label")
    assert [e.get_attribute("textContent") for e in labels] == ["dead: relu = 0"]
    browser.execute_script("window.micrograd.step(window.micrograd.steps)")
    grads = grads_shown(browser)
    loss.backward()
    for name, p in model.named_parameters():
        assert grads[name] == pytest.approx(p.grad, rel=1e-12), name
    expand.click()
    assert expand.text == "expand all" and drawn(browser, box)
    screenshot(browser, "stepper-neurons-small.png", tmp_path)


def test_the_neuron_view_speaks_chinese(browser, tmp_path):
    from selenium.webdriver.common.by import By

    model, loss = small_mlp_with_a_dead_relu()
    page = tmp_path / "mlp.zh.html"
    stepper(loss, params=model, lang="zh").save(str(page))
    browser.get(page.as_uri())
    css = browser.find_element
    assert "神经元" in css(By.ID, "neuron-help").text
    dead = css(By.CSS_SELECTOR, '[data-neuron][data-dead="1"]')
    assert "ReLU 输出 0，梯度传不回去" in dead.get_attribute("textContent")
    assert css(By.CSS_SELECTOR, '[data-action="fit"]').text == "全图"
    assert css(By.CSS_SELECTOR, '[data-action="expand-all"]').text == "全部展开"
    assert css(By.ID, "l-follow").text == "跟随当前步骤"
    assert css(By.CSS_SELECTOR, '[data-action="zoom-in"]').get_attribute("title") == "放大"
    k = neuron_frames(browser, "layers.0.neurons.2")[0]
    browser.execute_script("window.micrograd.step(arguments[0])", k)
    inside = css(By.CSS_SELECTOR, '[data-role="inside"]').get_attribute("textContent")
    assert inside.startswith("神经元内部：")
    css(By.CSS_SELECTOR, '[data-action="expand-all"]').click()
    assert css(By.CSS_SELECTOR, '[data-action="expand-all"]').text == "全部收起"


def test_the_playgrounds_sample_stepper_shows_its_neurons_readably(browser, playground, tmp_path):
    """The playground's MLP(2, [8, 8, 1]): 17 neuron boxes whose words are readable at the zoom the
    page opens with, and stepping keeps the step's neuron in view."""
    from selenium.webdriver.common.by import By

    train_in_page(browser, playground, 40)
    active = browser.execute_script("return window.micrograd.run.active")
    main = browser.current_window_handle
    open_point_stepper(browser, active[0])
    try:
        boxes = browser.find_elements(By.CSS_SELECTOR, "[data-neuron]")
        assert len(boxes) == 8 + 8 + 1
        name = boxes[0].find_element(By.CSS_SELECTOR, "text.name")
        assert name.rect["height"] >= 9  # 12px words at no less than 3/4 of their size
        frame = browser.find_element(By.ID, "graph").rect
        for target in ("layers.1.neurons.6", "layers.0.neurons.0", "layers.2.neurons.0"):
            k = neuron_frames(browser, target)[0]
            browser.execute_script("window.micrograd.step(arguments[0])", k)
            box = browser.find_element(By.CSS_SELECTOR, f'[data-neuron="{target}"]')
            assert "active" in box.get_attribute("class").split()
            r = box.rect  # followed: the step's neuron is in the frame
            assert frame["x"] <= r["x"] and r["x"] + r["width"] <= frame["x"] + frame["width"]
            assert frame["y"] <= r["y"] and r["y"] + r["height"] <= frame["y"] + frame["height"]
        # a step from a neuron of layer 1 back into one of layer 0: that one is the += 's target,
        # and the gradient flows along the edge between the two boxes
        k, into = browser.execute_script(
            "const m = window.micrograd, at = [];"
            "m.neurons.forEach((n, i) => n.members.forEach((j) => { at[j] = i; }));"
            "const k = m.frames.findIndex((f) => at[f.node] !== undefined && at[f.input] !== undefined"
            "  && m.neurons[at[f.node]].name.startsWith('layers.1.') && at[f.node] !== at[f.input]);"
            "return [k, m.neurons[at[m.frames[k].input]].name];"
        )
        browser.execute_script("window.micrograd.step(arguments[0])", k)
        target = browser.find_element(By.CSS_SELECTOR, f'[data-neuron="{into}"]')
        assert "target" in target.get_attribute("class").split()
        assert len(browser.find_elements(By.CSS_SELECTOR, "path.edge.flow")) == 1
        assert browser.find_element(By.CSS_SELECTOR, '[data-role="local"]').text.startswith("×")
        screenshot(browser, "stepper-neurons.png", tmp_path)
    finally:
        browser.close()
        browser.switch_to.window(main)


def test_graphs_without_neurons_keep_the_plain_picture(browser, tmp_path):
    """No neurons (a*b+c, the seed question): no neuron view, no zoom buttons, the picture as it
    was, sized by its viewBox."""
    from selenium.webdriver.common.by import By

    page = tmp_path / "plain.html"
    stepper(seed_question()).save(str(page))
    browser.get(page.as_uri())
    assert browser.find_elements(By.CSS_SELECTOR, "[data-neuron], [data-role='view']") == []
    assert not browser.find_element(By.ID, "tools").is_displayed()
    assert not browser.find_element(By.ID, "neuron-help").is_displayed()
    assert browser.find_element(By.CSS_SELECTOR, "#graph svg").get_dom_attribute("viewBox")
    assert browser.execute_script("return window.micrograd.neurons") == []


def test_hostile_neuron_names_are_shown_not_run(browser, tmp_path):
    """A neuron named with markup (its parameters' prefix) is shown as text in its box, its frame
    and the step's line; no script of its runs."""
    from selenium.webdriver.common.by import By

    hostile = "<img src=x onerror=window.pwned=1></script><script>window.pwned=2</script>"
    w0, w1, b = Value(0.5), Value(-1.0), Value(0.25)
    out = (b + w0 * Value(2.0) + w1 * Value(0.5)).relu()
    named = [(f"{hostile}.w.0", w0), (f"{hostile}.w.1", w1), (f"{hostile}.b", b)]
    page = tmp_path / "hostile-neuron.html"
    stepper(out * 2, params=named).save(str(page))
    browser.get(page.as_uri())
    box = browser.find_element(By.CSS_SELECTOR, "[data-neuron]")
    assert box.get_attribute("data-neuron") == hostile
    assert hostile in box.get_attribute("textContent")
    browser.execute_script("window.micrograd.step(window.micrograd.steps)")
    box.click()
    frame = browser.find_element(By.CSS_SELECTOR, '.outline [data-role="collapse"]')
    assert hostile in frame.get_attribute("textContent")
    assert browser.execute_script("return window.pwned") is None
