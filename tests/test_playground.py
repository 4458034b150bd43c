"""The playground's server without a browser: its API, hostile requests, runs side by side,
slow and idle connections, Ctrl-C."""

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("numpy")
from micrograd.app.playground import MAX_BODY, Server  # noqa: E402
from micrograd.app.runs import Run  # noqa: E402
from micrograd.engine import Value  # noqa: E402
from serving import serve_in_thread  # noqa: E402


@pytest.fixture
def server():
    srv = Server(0)
    serve_in_thread(srv)
    yield srv
    srv.shutdown()
    srv.server_close()


def page_headers(srv):
    """What the playground's own page sends with a POST."""
    return {
        "Content-Type": "application/json",
        "X-Micrograd-Token": srv.playground.token,
        "Origin": f"http://127.0.0.1:{srv.server_address[1]}",
    }


def request(srv, method, path, body=None, headers=None, raw=None):
    """(status, decoded JSON or text) of one request to the server; a POST is sent as the page
    sends it, with `headers` added (None removes one)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=60)
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    sent = {**(page_headers(srv) if method == "POST" else {}), **(headers or {})}
    conn.request(method, path, body=data, headers={k: v for k, v in sent.items() if v is not None})
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
        ("DELETE", "/", None, 405, "not allowed"),
        ("OPTIONS", "/api/runs", None, 405, "not allowed"),
        ("PATCH", "/api/runs", None, 405, "not allowed"),
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
    status, answer = request(server, "GET", f"/api/runs/{s['id']}/stepper?i=0&quiz=yes")
    assert status == 400 and "quiz must be 0 or 1" in answer["error"]
    # nothing changed: the run is still at step 0 and still trains
    assert request(server, "GET", f"/api/runs/{s['id']}")[1]["step"] == 0
    assert request(server, "POST", f"/api/runs/{s['id']}/step", {"steps": 1})[1]["step"] == 1


def test_training_steps_copy_no_parameters_between_values_and_arrays(monkeypatch):
    """One Trainer owns the parameters: a playground step trains the array in place; only a
    request that reads the model (its state) writes the numbers into the Values, once."""
    pytest.importorskip("numpy")
    from micrograd.replay.program import Program

    copies = {"values to array": 0, "array to values": 0}
    pull, push = Program.pull, Program.push

    def counted_pull(self):
        copies["values to array"] += 1
        return pull(self)

    def counted_push(self, grads=None):
        copies["array to values"] += 1
        return push(self, grads)

    monkeypatch.setattr(Program, "pull", counted_pull)
    monkeypatch.setattr(Program, "push", counted_push)
    run = Run({"hidden": [4], "optimizer": "adam", "batch": 32})
    assert run.trainer.theta is not None and copies["values to array"] == 1  # made once
    run.train(5)
    assert copies == {"values to array": 1, "array to values": 0}
    state = run.state()
    assert copies == {"values to array": 1, "array to values": 1} and state["step"] == 5
    run.state()  # nothing trained since: nothing to copy
    assert copies["array to values"] == 1
    table = {p["name"]: p for p in state["params"]}
    w = run.model.named_parameters()[0]
    assert table[w[0]]["data"] == w[1].data == float(run.trainer.theta[0])


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
    assert '"name": "loss"' in page and '"lang": "zh"' in page and '"quiz": false' in page
    status, page = request(server, "GET", f"/api/runs/{s['id']}/stepper?i=7&quiz=1")
    assert status == 200 and '"quiz": true' in page and '"added": ' in page


def test_a_samples_stepper_names_the_hinges_values_and_brackets_negative_factors():
    """The hinge's inner Values are named as the line above the stepper writes them (not n302 and
    (n302+1)), and a negative factor of y·score is in brackets: 1 - (-1)·(-1.744)."""
    from micrograd.app.runs import _why_this_loss
    from micrograd.teach.stepper import page_data

    run = Run({"hidden": [2], "seed": 5})
    data = page_data(run.sample_stepper(7, "en", run.snapshot()))
    names = {n["name"] for n in data["nodes"] if n["kind"] != "op"}
    assert {"score", "-y", "-y·score", "1 - y·score", "loss"} <= names
    assert not [name for name in names if name.startswith(("n", "(n"))]
    said = _why_this_loss(True, [-1.0], [-1.744], 0.0, "zh")
    assert said.startswith("损失 = max(0, 1 - y·score) = max(0, 1 - (-1)·(-1.744)) = 0：")
    said = _why_this_loss(True, [1.0], [0.5], 0.5, "en")
    assert said.startswith("loss = max(0, 1 - y·score) = max(0, 1 - 1·0.5) = 0.5 > 0: ")


def test_the_page_is_served_in_both_languages(server):
    status, page = request(server, "GET", "/")
    assert status == 200 and 'data-action="play"' in page and 'data-metric="loss"' in page
    zh = Server(0, lang="zh")
    assert "训练游乐场" in zh.playground.page()
    zh.server_close()


# The command as a terminal runs it, where Ctrl-C interrupts Python: a child started by a job
# that ignores SIGINT (a non-interactive shell's `cmd &`) would inherit that, and Python then
# installs no KeyboardInterrupt handler; this puts Python's back before the command runs.
AS_IN_A_TERMINAL = (
    "import signal, runpy; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('micrograd', run_name='__main__')"
)


def test_ctrl_c_stops_the_command_cleanly():
    proc = subprocess.Popen(
        [sys.executable, "-c", AS_IN_A_TERMINAL, "playground", "--port", "0", "--no-browser"],
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


def test_requests_from_other_pages_are_refused_and_change_nothing(server):
    """A POST from another origin (another local port, a file:// page), a cross-site fetch, a
    text/plain "simple" request or one without the page's token is a 403, and makes no run."""
    own = page_headers(server)
    for headers in (
        {"Origin": "http://127.0.0.1:1"},
        {"Origin": "null"},  # a file:// page or a sandboxed frame
        {"Origin": "http://evil.example"},
        {"Origin": None, "Sec-Fetch-Site": "cross-site"},
        {"Origin": None, "Sec-Fetch-Site": "same-site"},
        {"Content-Type": "text/plain"},
        {"Content-Type": None},
        {"X-Micrograd-Token": None},
        {"X-Micrograd-Token": own["X-Micrograd-Token"][:-1] + "x"},
    ):
        status, answer = request(server, "POST", "/api/runs", {"hidden": [2]}, headers)
        assert status == 403, headers
        assert server.playground.runs == {}
    _, s = request(server, "POST", "/api/runs", {"hidden": [2]})
    status, _ = request(server, "POST", f"/api/runs/{s['id']}/step", {}, {"Origin": "null"})
    assert status == 403 and request(server, "GET", f"/api/runs/{s['id']}")[1]["step"] == 0
    # the page itself (same origin, or no Origin as some browsers send) is let in
    assert request(server, "POST", f"/api/runs/{s['id']}/step", {}, {"Origin": None})[0] == 200


def test_pages_cannot_be_framed_and_run_only_their_own_script(server):
    """Every answer forbids framing; the HTML pages allow only their own inline script."""
    import base64
    import hashlib
    import re

    _, s = request(server, "POST", "/api/runs", {"hidden": [2]})
    for path in ("/", f"/api/runs/{s['id']}/stepper?i=0", f"/api/runs/{s['id']}"):
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=60)
        conn.request("GET", path)
        r = conn.getresponse()
        page = r.read()
        conn.close()
        policy = r.getheader("Content-Security-Policy")
        assert r.status == 200 and r.getheader("X-Frame-Options") == "DENY"
        assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
        scripts = re.findall(rb"<script>(.*?)</script>", page, re.DOTALL)
        allowed = re.search(r"script-src ([^;]*)", policy).group(1).split()
        expected = [
            "'sha256-" + base64.b64encode(hashlib.sha256(x).digest()).decode() + "'"
            for x in scripts
        ]
        assert allowed == (expected or ["'none'"])


def test_a_diverging_run_is_a_409_and_stays_readable(server):
    """A run whose loss becomes nan or inf answers 409 with a sentence, not a 500, and its
    state can still be read (nan parameters as null)."""
    config = {"optimizer": "sgd", "lr": 10, "activation": "linear", "hidden": [32, 32, 32, 32]}
    _, s = request(server, "POST", "/api/runs", config)
    status, answer = request(server, "POST", f"/api/runs/{s['id']}/step", {"steps": 20})
    assert status == 409 and "training diverged at step" in answer["error"]
    assert "smaller learning rate" in answer["error"] and "Error(" not in answer["error"]
    for _ in range(2):
        status, state = request(server, "GET", f"/api/runs/{s['id']}")
        assert status == 200 and state["step"] >= 1
    status, answer = request(server, "POST", f"/api/runs/{s['id']}/step", {"steps": 1})
    assert status == 409


def test_deeply_nested_bodies_and_head_are_4xx(server):
    """4,000 nested arrays are a 400 (not a RecursionError's 500); HEAD is a 405 without a
    body (not http.server's 501 page)."""
    status, answer = request(server, "POST", "/api/runs", raw=b"[" * 4000 + b"]" * 4000)
    assert status == 400 and "nested too deeply" in answer["error"]
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=60)
    conn.request("HEAD", "/")
    r = conn.getresponse()
    assert r.status == 405 and r.getheader("Allow") == "GET, POST" and r.read() == b""
    conn.close()


def test_a_client_that_goes_away_prints_nothing(server, capfd, monkeypatch):
    """A tab closed while its request trains, or a browser resetting a kept-alive
    connection, leaves no traceback in the terminal."""
    import socket
    import struct

    _, s = request(server, "POST", "/api/runs", {"hidden": [2]})
    training, gone = threading.Event(), threading.Event()
    real_train = Run.train

    def train(run, steps):
        training.set()
        assert gone.wait(60)
        real_train(run, steps)

    monkeypatch.setattr(Run, "train", train)
    finished = threading.Semaphore(0)
    real_shutdown = server.shutdown_request

    def shutdown_request(req):  # the last thing done with a connection, after any error
        real_shutdown(req)
        finished.release()

    monkeypatch.setattr(server, "shutdown_request", shutdown_request)
    body = json.dumps({"steps": 5}).encode()
    head = "".join(f"{k}: {v}\r\n" for k, v in page_headers(server).items())
    port = server.server_address[1]

    def reset(sock):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()

    sock = socket.create_connection(("127.0.0.1", port))  # a tab closed while it trains
    sock.sendall(
        f"POST /api/runs/{s['id']}/step HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{head}"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    assert training.wait(60)
    reset(sock)
    gone.set()
    sock = socket.create_connection(("127.0.0.1", port))  # a kept-alive connection reset
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    sock.recv(1)
    reset(sock)
    for _ in range(2):
        assert finished.acquire(timeout=60)
    assert "Traceback" not in capfd.readouterr().err


@contextlib.contextmanager
def running():
    """A server made now (after any monkeypatching), serving from a thread until the block ends."""
    srv = Server(0)
    serve_in_thread(srv)
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def connect(srv):
    return socket.create_connection(("127.0.0.1", srv.server_address[1]), timeout=30)


def wait_until(condition, seconds=30.0):
    """Whether `condition()` became true within `seconds` (polled)."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def closed_by_server(sock, seconds=10.0):
    """Whether the server closes `sock` within `seconds` (anything it sends first is read)."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def still_open(sock):
    """Whether `sock` is open on the server's side now (nothing sent to it, not closed)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except ConnectionResetError:
        return False
    finally:
        sock.settimeout(30)


@contextlib.contextmanager
def open_files(n):
    """Room for `n` open files in this process (both ends of every connection are in it)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit on sockets
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= n:
        yield
        return
    if hard != resource.RLIM_INFINITY and hard < n:
        pytest.skip(f"this test needs {n} open files; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# A valid start of a request head that never ends (no blank line): a client that trickles it
# never completes a request.
SLOW_HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200


@pytest.mark.parametrize("bound", [None, 100], ids=["room-for-all", "bound-100"])
def test_the_user_is_served_past_hundreds_of_idle_and_trickling_connections(monkeypatch, bound):
    """With 300 connections open that send nothing and 64 that send a byte of a request head
    every half second, a new client loads the page, makes a run and steps it within 2 s. The
    server drops none of them on its own here (long deadlines): with room for all it holds all
    364; at a bound of 100, the ones that waited longest make room for the newer ones."""
    from micrograd.app import playground

    monkeypatch.setattr(playground, "REQUEST_SECONDS", 60.0)
    monkeypatch.setattr(playground, "IDLE_SECONDS", 60.0)
    if bound is not None:
        monkeypatch.setattr(playground, "MAX_CONNECTIONS", bound)
    idle, slow, rounds = [], [], []
    stop = threading.Event()

    def trickle():  # one more byte of the head to each slow connection every half second
        for i in range(1, len(SLOW_HEAD)):
            if stop.wait(0.5):
                return
            for sock in slow:
                try:
                    sock.send(SLOW_HEAD[i : i + 1])
                except OSError:  # closed by the server to make room
                    pass
            rounds.append(i)

    trickler = threading.Thread(target=trickle, daemon=True)
    with open_files(2 * 364 + 200), running() as srv:
        try:
            for _ in range(300):
                idle.append(connect(srv))
            for _ in range(64):
                slow.append(connect(srv))
                slow[-1].sendall(SLOW_HEAD[:1])
            trickler.start()
            if bound is None:  # the server has accepted all 364
                assert wait_until(lambda: len(srv.connections) == 364)
            else:  # ... and closed the 264 that waited longest, the oldest idle ones
                assert closed_by_server(idle[363 - bound])
                assert wait_until(lambda: len(srv.connections) == bound)
                assert still_open(idle[364 - bound])
            assert wait_until(lambda: len(rounds) >= 2)  # the slow ones are trickling
            start = time.monotonic()
            status, page = request(srv, "GET", "/")
            assert status == 200 and 'data-action="play"' in page
            status, run = request(srv, "POST", "/api/runs", {"hidden": [4], "seed": 1})
            assert status == 201
            status, state = request(srv, "POST", f"/api/runs/{run['id']}/step", {"steps": 1})
            assert status == 200 and state["step"] == 1
            took = time.monotonic() - start
            print(f"\nserved the user in {took:.3f} s past 300 idle and 64 trickling connections")
            assert took < 2.0
            # still held by the server, all of them or the newest `bound`
            held = idle + slow if bound is None else (idle + slow)[-bound + 3 :]
            assert all(still_open(sock) for sock in held)
        finally:
            stop.set()
            if trickler.is_alive():
                trickler.join(10)
            for sock in idle + slow:
                sock.close()


@pytest.mark.parametrize("part", ["head", "body"])
def test_a_trickling_request_is_closed_at_its_deadline(monkeypatch, part):
    """A client that keeps sending a byte of its request every 0.1 s, head or body, is closed
    at the request's deadline (1 s here), not kept as long as it sends: a body gets a 408."""
    from micrograd.app import playground

    monkeypatch.setattr(playground, "REQUEST_SECONDS", 1.0)
    with running() as srv:
        if part == "head":
            first, rest = SLOW_HEAD[:1], SLOW_HEAD[1:]
        else:
            port = srv.server_address[1]
            head = "".join(f"{k}: {v}\r\n" for k, v in page_headers(srv).items())
            head = f"POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{head}"
            first, rest = f"{head}Content-Length: 1000\r\n\r\n".encode(), b" " * 200
        start = time.monotonic()
        sock = connect(srv)
        try:
            sock.sendall(first)
            sock.settimeout(0.1)
            sent, got = 0, b""
            for byte in rest[:100]:  # 10 s at most
                try:
                    data = sock.recv(65536)
                except TimeoutError:  # nothing from the server yet: one more byte
                    try:
                        sock.sendall(bytes([byte]))
                    except OSError:
                        break
                    sent += 1
                    continue
                except ConnectionResetError:
                    break
                if not data:
                    break
                got += data
            else:
                pytest.fail(f"still open after trickling for {time.monotonic() - start:.1f} s")
            took = time.monotonic() - start
            assert sent >= 5 and 0.9 <= took < 8.0, (sent, took)
            assert got.startswith(b"HTTP/1.1 408 ") if part == "body" else got == b""
        finally:
            sock.close()


def test_an_idle_kept_alive_connection_is_closed(monkeypatch):
    """A connection is kept alive between requests that follow each other, and closed once it
    has been idle for IDLE_SECONDS (1 s here) after an answer."""
    from micrograd.app import playground

    monkeypatch.setattr(playground, "IDLE_SECONDS", 1.0)
    with running() as srv:
        conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=30)
        try:
            socks = []
            for _ in range(2):
                conn.request("GET", "/api/runs/0123456789abcdef")
                r = conn.getresponse()
                r.read()
                assert r.status == 404 and not r.will_close
                socks.append(conn.sock)
            assert socks[0] is socks[1] is not None  # one connection for both
            start = time.monotonic()
            assert closed_by_server(socks[0])
            assert 0.9 <= time.monotonic() - start < 8.0
        finally:
            conn.close()


def test_at_the_bound_the_longest_waiting_connection_makes_room(monkeypatch):
    """With MAX_CONNECTIONS (8 here) open, a new connection is served and the one that has
    waited longest for a request is closed in its place; one whose request is being answered
    is never closed for that, however old."""
    from micrograd.app import playground

    monkeypatch.setattr(playground, "MAX_CONNECTIONS", 8)
    monkeypatch.setattr(playground, "REQUEST_SECONDS", 60.0)
    monkeypatch.setattr(playground, "IDLE_SECONDS", 60.0)
    with running() as srv:
        _, s = request(srv, "POST", "/api/runs", {"hidden": [2]})
        assert wait_until(lambda: len(srv.connections) == 0)
        training, release = threading.Event(), threading.Event()
        real_train = Run.train

        def train(run, steps):
            training.set()
            assert release.wait(60)
            real_train(run, steps)

        monkeypatch.setattr(Run, "train", train)
        body = json.dumps({"steps": 1}).encode()
        head = "".join(f"{k}: {v}\r\n" for k, v in page_headers(srv).items())
        port = srv.server_address[1]
        socks = []
        try:
            busy = connect(srv)  # the oldest, its request being answered
            socks.append(busy)
            busy.sendall(
                f"POST /api/runs/{s['id']}/step HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{head}"
                f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            assert training.wait(30)
            idle = [connect(srv) for _ in range(7)]
            socks += idle
            assert wait_until(lambda: len(srv.connections) == 8)
            assert request(srv, "GET", "/")[0] == 200  # the newest is served
            assert closed_by_server(idle[0])  # in place of the one that waited longest
            assert all(still_open(sock) for sock in idle[1:])  # and only that one
            release.set()
            answer = http.client.HTTPResponse(busy)
            answer.begin()
            assert answer.status == 200 and json.loads(answer.read())["step"] == 1
        finally:
            release.set()
            for sock in socks:
                sock.close()


def test_the_stepper_never_holds_the_run(server, monkeypatch):
    """While a sample's stepper page is built, the run keeps training (the page is built on a
    copy of the model, outside the run's lock); a model too large to step through is a 422."""
    from micrograd.app import runs

    building, release = threading.Event(), threading.Event()
    real = runs.stepper

    def slow_stepper(*args, **kwargs):
        building.set()
        assert release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(runs, "stepper", slow_stepper)
    _, s = request(server, "POST", "/api/runs", {"hidden": [2], "seed": 5})
    got = {}
    t = threading.Thread(
        target=lambda: got.update(page=request(server, "GET", f"/api/runs/{s['id']}/stepper?i=1"))
    )
    t.start()
    assert building.wait(60)
    assert request(server, "POST", f"/api/runs/{s['id']}/step", {"steps": 3})[1]["step"] == 3
    release.set()
    t.join(60)
    assert got["page"][0] == 200 and '"name": "loss"' in got["page"][1]
    big = {"data": "spiral", "hidden": [32, 32, 32, 32]}
    _, s = request(server, "POST", "/api/runs", big)
    status, answer = request(server, "GET", f"/api/runs/{s['id']}/stepper?i=0")
    assert status == 422 and "fewer or narrower layers" in answer["error"]
