"""The playground's server without a browser: its API, hostile requests, runs side by side, Ctrl-C."""

import http.client
import json
import os
import signal
import subprocess
import sys
import threading

import pytest

pytest.importorskip("numpy")
from micrograd.engine import Value  # noqa: E402
from micrograd.playground import MAX_BODY, Run, Server  # noqa: E402


@pytest.fixture
def server():
    srv = Server(0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def request(srv, method, path, body=None, headers=None, raw=None):
    """(status, decoded JSON or text) of one request to the server."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=60)
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    conn.request(method, path, body=data, headers=headers or {})
    r = conn.getresponse()
    text = r.read().decode()
    conn.close()
    kind = r.getheader("Content-Type", "")
    return r.status, json.loads(text) if kind.startswith("application/json") else text


def test_it_listens_on_loopback_only(server):
    assert server.server_address[0] == "127.0.0.1"


def test_a_run_trains_and_reports_everything_the_page_draws(server):
    status, s = request(server, "POST", "/api/runs", {"data": "moons", "hidden": [4], "seed": 1})
    assert status == 201 and s["step"] == 0 and s["loss"] is None
    assert len(s["points"]) == len(s["labels"]) == 200
    status, s2 = request(server, "POST", f"/api/runs/{s['id']}/step", {"steps": 3})
    assert status == 200 and s2["step"] == 3 and s2["since"] == 0 and len(s2["losses"]) == 3
    assert len(s2["grid"]["cells"]) == s2["grid"]["n"] ** 2
    assert {"name", "data", "grad", "m", "v"} <= set(s2["params"][0])  # Adam's moments too
    assert len(s2["params"]) == 4 * 3 + 5
    status, s3 = request(server, "GET", f"/api/runs/{s['id']}")
    assert status == 200 and s3["step"] == 3 and s3["losses"] == s2["losses"]


def test_the_numbers_are_micrograds_own():
    """A run's loss and grads are the eager engine's for the same model and data."""
    run = Run({"hidden": [3], "seed": 2, "optimizer": "sgd", "lr": 0.1})
    rows = run.clf.rows(run.X, run.y)
    losses = [run.clf.sample_loss(*map(Value, r)) for r in rows]
    params = run.model.parameters()
    from micrograd.losses import l2

    loss = sum(losses, Value(0.0)) * (1 / len(losses)) + run.clf.reg * l2(params)
    loss.backward()
    eager = [p.grad for p in params]
    run.train(1)
    assert run.losses[0] == pytest.approx(loss.data, rel=1e-12)
    state = run.state()
    for p, g in zip(state["params"], eager):
        assert p["grad"] == pytest.approx(g, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(
    "method, path, body, status, words",
    [
        ("POST", "/api/runs", {"data": "nope"}, 400, "data must be one of"),
        ("POST", "/api/runs", {"hidden": [8, 999]}, 400, "hidden must be"),
        ("POST", "/api/runs", {"hidden": "8,8"}, 400, "hidden must be"),
        ("POST", "/api/runs", {"lr": -1}, 400, "lr must be"),
        ("POST", "/api/runs", {"lr": True}, 400, "lr must be"),
        ("POST", "/api/runs", {"batch": 1.5}, 400, "batch must be"),
        ("POST", "/api/runs", {"evil": 1}, 400, "unknown settings"),
        ("POST", "/api/runs", [1, 2], 400, "JSON object"),
        ("GET", "/api/runs", None, 405, "use POST"),
        ("GET", "/api/runs/0123456789abcdef", None, 404, "no run"),
        ("GET", "/../../etc/passwd", None, 404, "no such page"),
        ("DELETE", "/", None, 405, "use GET"),
    ],
)
def test_bad_requests_get_a_4xx_with_a_message(server, method, path, body, status, words):
    got, answer = request(server, method, path, body)
    assert got == status and words in answer["error"]


def test_hostile_bodies_and_hosts_are_refused(server):
    status, answer = request(server, "POST", "/api/runs", raw=b"{not json")
    assert status == 400 and "not valid JSON" in answer["error"]
    status, answer = request(server, "POST", "/api/runs", raw=b'{"lr": NaN}')
    assert status == 400
    status, answer = request(server, "POST", "/api/runs", raw=b"\xff\xfe")
    assert status == 400
    status, answer = request(server, "POST", "/api/runs", raw=b"x" * (MAX_BODY + 1))
    assert status == 413
    status, answer = request(server, "GET", "/", headers={"Host": "attacker.example"})
    assert status == 403  # a page elsewhere reaching us by DNS rebinding gets nothing
    _, s = request(server, "POST", "/api/runs", {"hidden": [2]})
    for steps in (0, 101, "5", None, 2.5):
        status, answer = request(server, "POST", f"/api/runs/{s['id']}/step", {"steps": steps})
        assert status == 400 and "steps must be" in answer["error"]
    status, answer = request(server, "GET", f"/api/runs/{s['id']}/stepper?i=100000")
    assert status == 400 and "no sample" in answer["error"]
    status, answer = request(server, "GET", f"/api/runs/{s['id']}/stepper?i=x")
    assert status == 400
    # nothing changed: the run is still at step 0 and still trains
    assert request(server, "GET", f"/api/runs/{s['id']}")[1]["step"] == 0
    assert request(server, "POST", f"/api/runs/{s['id']}/step", {"steps": 1})[1]["step"] == 1


def test_two_tabs_train_side_by_side_without_mixing(server):
    """Two runs stepped at once from two threads end exactly as each run alone would."""
    config_a = {"data": "moons", "hidden": [4], "seed": 3, "batch": 16}
    config_b = {"data": "xor", "hidden": [5], "seed": 4, "optimizer": "sgd", "lr": 0.1}
    alone = []
    for config in (config_a, config_b):
        run = Run(config)
        run.train(20)
        alone.append(run.losses)
    ids = [request(server, "POST", "/api/runs", c)[1]["id"] for c in (config_a, config_b)]
    results: dict = {}

    def tab(i):
        results[i] = []
        for _ in range(10):
            results[i] += request(server, "POST", f"/api/runs/{ids[i]}/step", {"steps": 2})[1][
                "losses"
            ]

    threads = [threading.Thread(target=tab, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == alone[0] and results[1] == alone[1]


def test_a_sample_opens_its_backward_stepper(server):
    _, s = request(server, "POST", "/api/runs", {"hidden": [2], "seed": 5})
    status, page = request(server, "GET", f"/api/runs/{s['id']}/stepper?i=7&lang=zh")
    assert status == 200 and page.startswith("<!DOCTYPE html>")
    assert '"name": "loss"' in page and '"lang": "zh"' in page


def test_the_page_is_served_in_both_languages(server):
    status, page = request(server, "GET", "/")
    assert status == 200 and 'data-action="play"' in page and 'data-metric="loss"' in page
    zh = Server(0, lang="zh")
    assert "训练游乐场" in zh.playground.page()
    zh.server_close()


def test_ctrl_c_stops_the_command_cleanly():
    proc = subprocess.Popen(
        [sys.executable, "-m", "micrograd", "playground", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    line = proc.stdout.readline()
    assert line.startswith("micrograd playground: http://127.0.0.1:")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "stopped" in out and "Traceback" not in err
