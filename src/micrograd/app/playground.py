"""`micrograd playground`: a page on 127.0.0.1 that trains an MLP live, in this engine.

The browser holds no model: it asks the server to make a run (data set, layers, optimizer...) and
then to take steps, and draws what comes back (the decision boundary, loss and accuracy, each
parameter's data, grad and Adam's m and v). Training is micrograd's own Classifier on the fast
path, so every number is this library's. Clicking a point opens the backward stepper of that
sample's loss (micrograd.viz.stepper).

The server is the standard library's ThreadingHTTPServer: one local user, a few small JSON
requests a second, and nothing to install. It binds to loopback only and refuses other Host
headers (a web page elsewhere cannot reach it by DNS rebinding). Each run has its own lock, so two
tabs train two runs side by side without touching each other.

    POST /api/runs                {"data": "moons", "hidden": [8, 8], ...} -> the new run's state
    POST /api/runs/ID/step        {"steps": 5}                              -> its state after them
    GET  /api/runs/ID                                                       -> its state
    GET  /api/runs/ID/stepper?i=N[&quiz=1]                               -> the stepper page
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import json
import math
import random
import re
import secrets
import sys
import threading
import webbrowser
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NoReturn
from urllib.parse import parse_qs, urlsplit

from micrograd.app.defaults import DEFAULTS
from micrograd.app.train import Classifier, Trainer
from micrograd.data import DATASETS
from micrograd.engine import Value, topo_order
from micrograd.nn import ACTIVATIONS, MLP
from micrograd.optim import SGD, Adam
from micrograd.teach.messages import MESSAGES, language
from micrograd.teach.stepper import page_with_data, stepper
from micrograd.tuning import tuned

POINTS = 200  # per data set
GRID = 40  # the decision boundary is drawn from GRID x GRID predictions
MAX_RUNS = 16  # the oldest run is forgotten beyond this
MAX_BODY = 10_000  # bytes
MAX_STEPS = 100  # per request
MAX_STEPPER_NODES = 3000  # a sample's backward pass larger than this is not stepped through
MAX_CONNECTIONS = 64  # open at once; beyond, new ones are closed at once (never out of files)
IDLE_SECONDS = 30  # a connection that sends nothing for this long is closed
LIMITS = {"layers": 4, "width": 32}
_weights = threading.Lock()  # runs made at once by two requests draw their weights in turn


class BadRequest(ValueError):
    """A request the server refuses, with the status and the message it answers with."""

    def __init__(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
        super().__init__(message)
        self.status = status


class Run:
    """One training run: its data, model, optimizer and history. Used under its lock only."""

    def __init__(self, config: dict[str, Any]) -> None:
        c = checked_config(config)
        self.config = c
        self.X, self.y = DATASETS[c["data"]](n=POINTS, seed=c["seed"])
        classes = max(self.y) + 1
        with _weights:  # the weights come from Python's random, seeded, as in the original
            random.seed(c["seed"])
            self.model = MLP(2, [*c["hidden"], 1 if classes == 2 else classes], c["activation"])
        self.clf = Classifier(self.model, classes)
        params = self.model.parameters()
        self.optimizer: SGD | Adam = (
            Adam(params, lr=c["lr"]) if c["optimizer"] == "adam" else SGD(params, lr=c["lr"])
        )
        self.trainer = Trainer(self.clf, self.X, self.y, self.optimizer, c["batch"], c["seed"])
        self.step = 0
        self.losses: list[float] = []
        self.accuracies: list[float] = []
        self.lock = threading.Lock()
        x0 = [p[0] for p in self.X]
        x1 = [p[1] for p in self.X]
        pad = 0.5
        self.box = (min(x0) - pad, max(x0) + pad, min(x1) - pad, max(x1) + pad)

    def train(self, steps: int) -> None:
        """Take `steps` optimizer steps on minibatches (or the whole set); a 409 if the loss stops
        being a number (the run stays readable: its state shows where it went)."""
        with tuned():
            for _ in range(steps):
                try:
                    loss = self.trainer.step()
                except FloatingPointError as e:  # a nan or inf loss: no parameter moved
                    raise _diverged(self.step + 1, str(e).split(";")[0]) from None
                self.step += 1
                self.losses.append(loss)
                try:
                    self.accuracies.append(self.trainer.accuracy())
                except FloatingPointError:  # the step made the parameters inf or nan
                    self.accuracies.append(math.nan)
                    raise _diverged(
                        self.step, "the model's outputs are no longer numbers"
                    ) from None

    def state(self, since: int = 0) -> dict[str, Any]:
        """What the page draws: the step, the curves from step `since`, the boundary and the
        parameters."""
        x0, x1, y0, y1 = self.box
        grid = [
            [x0 + (x1 - x0) * (i + 0.5) / GRID, y0 + (y1 - y0) * (j + 0.5) / GRID]
            for j in range(GRID)
            for i in range(GRID)
        ]
        try:
            scores = self.trainer.scores(grid)
        except FloatingPointError:  # parameters that are no longer numbers: nothing to draw
            scores = []
        if self.clf.binary:
            cells = [[int(s[0] > 0), min(1.0, abs(s[0]))] for s in scores]
        else:
            cells = [[max(range(len(s)), key=s.__getitem__), 1.0] for s in scores]
        self.trainer.sync()  # the table reads the model's Values and the optimizer's lists
        opt = self.optimizer
        adam = opt if isinstance(opt, Adam) else None
        m, v = (adam.m, adam.v) if adam else ([], [])
        params = [
            {
                "name": name,
                "data": _number(p.data),
                "grad": _number(p.grad),
                **({"m": _number(m[i]), "v": _number(v[i])} if adam else {}),
            }
            for i, (name, p) in enumerate(self.model.named_parameters())
        ]
        return {
            "step": self.step,
            "loss": _number(self.losses[-1]) if self.losses else None,
            "accuracy": _number(self.accuracies[-1]) if self.accuracies else None,
            "since": since,
            "losses": [_number(x) for x in self.losses[since:]],
            "accuracies": [_number(x) for x in self.accuracies[since:]],
            "grid": {"n": GRID, "box": self.box, "cells": cells},
            "params": params,
        }

    def snapshot(self) -> Classifier:
        """A copy of the model as it is now, to read without holding the run's lock."""
        self.trainer.sync()
        return Classifier(copy.deepcopy(self.model), self.clf.classes)

    def sample_stepper(self, i: int, lang: str, clf: Classifier, quiz: bool = False) -> str:
        """The stepper page of sample i's loss under the model `clf` (a snapshot), built with
        Values (the eager engine), asking each += when `quiz`; a 422 for a graph too large to
        step through."""
        if not 0 <= i < len(self.X):
            raise BadRequest(
                f"no sample {i}: the data set has {len(self.X)} points (0..{len(self.X) - 1})"
            )
        row = clf.rows([self.X[i]], [self.y[i]])[0]
        names = ["x1", "x2"] + (["y"] if clf.binary else [f"y{k}" for k in range(len(row) - 2)])
        loss = clf.sample_loss(*(Value(v, label=n) for v, n in zip(row, names)))
        loss.label = "loss"
        size = len(topo_order(loss))
        if size > MAX_STEPPER_NODES:
            raise BadRequest(
                f"the backward pass of one sample of this model has {size} Values, more than the "
                f"stepper shows ({MAX_STEPPER_NODES}): reset with fewer or narrower layers",
                HTTPStatus.UNPROCESSABLE_ENTITY,
            )
        return stepper(loss, params=clf.model, lang=lang, max_nodes=None, quiz=quiz).page


def _diverged(step: int, why: str) -> BadRequest:
    return BadRequest(
        f"training diverged at step {step} ({why}); reset with a smaller learning rate",
        HTTPStatus.CONFLICT,
    )


def checked_config(config: Any) -> dict[str, Any]:
    """The run's settings, each checked, with defaults for those not given."""
    if not isinstance(config, dict):
        raise BadRequest("the body must be a JSON object")
    known = {"data", "hidden", "activation", "optimizer", "lr", "batch", "seed"}
    unknown = sorted(set(config) - known)
    if unknown:
        raise BadRequest(f"unknown settings {unknown}; known: {sorted(known)}")
    given = DEFAULTS["playground"]
    c: dict[str, Any] = {
        "data": "moons",
        "hidden": given["hidden"],
        "activation": "relu",
        "optimizer": given["optimizer"],
        "lr": given["lr"],
        "batch": given["batch_size"] or 0,  # 0: the whole set
        "seed": 0,
    }
    c.update(config)
    if c["data"] not in DATASETS:
        raise BadRequest(f"data must be one of {sorted(DATASETS)}, got {c['data']!r}")
    hidden = c["hidden"]
    if (
        not isinstance(hidden, list)
        or not 1 <= len(hidden) <= LIMITS["layers"]
        or not all(type(h) is int and 1 <= h <= LIMITS["width"] for h in hidden)
    ):
        raise BadRequest(
            f"hidden must be a list of 1 to {LIMITS['layers']} widths from 1 to {LIMITS['width']}, got {hidden!r}"
        )
    if c["activation"] not in ACTIVATIONS:
        raise BadRequest(f"activation must be one of {list(ACTIVATIONS)}, got {c['activation']!r}")
    if c["optimizer"] not in ("sgd", "adam"):
        raise BadRequest(f"optimizer must be 'sgd' or 'adam', got {c['optimizer']!r}")
    lr = c["lr"]
    if type(lr) not in (int, float) or not 0 < lr <= 10:
        raise BadRequest(f"lr must be a number in (0, 10], got {lr!r}")
    for key, top in (("batch", POINTS), ("seed", 2**32 - 1)):
        if type(c[key]) is not int or not 0 <= c[key] <= top:
            raise BadRequest(f"{key} must be an integer from 0 to {top}, got {c[key]!r}")
    return c


class Playground:
    """The runs of one server, by id; the oldest are forgotten beyond MAX_RUNS."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = language(lang)
        self.runs: OrderedDict[str, Run] = OrderedDict()
        self.lock = threading.Lock()
        # Sent back by the page with every request that changes something: only a page this
        # server gave out knows it (another page cannot read this one: same-origin policy).
        self.token = secrets.token_urlsafe(16)

    def create(self, config: Any) -> tuple[str, Run]:
        """A new run and its id."""
        run = Run(config)
        key = secrets.token_hex(8)
        with self.lock:
            self.runs[key] = run
            while len(self.runs) > MAX_RUNS:
                self.runs.popitem(last=False)
        return key, run

    def get(self, key: str) -> Run:
        """The run `key`, or a 404."""
        with self.lock:
            run = self.runs.get(key)
        if run is None:
            raise BadRequest(
                f"no run {key!r} (runs are forgotten when the server restarts)",
                HTTPStatus.NOT_FOUND,
            )
        return run

    def page(self) -> str:
        """The playground page, its words in the server's language."""
        words = {k: v for k, v in MESSAGES[self.lang].items() if k.startswith("pg_")}
        data = {
            "words": words,
            "datasets": sorted(DATASETS),
            "activations": list(ACTIVATIONS),
            "lang": self.lang,
            "limits": LIMITS,
            "points": POINTS,
            "token": self.token,
            "defaults": checked_config({}),  # micrograd.defaults, as the server fills them in
        }
        return page_with_data("playground.html", data, "micrograd.app")


RUN_PATH = re.compile(r"^/api/runs/([0-9a-f]{16})(/step|/stepper)?$")


class Handler(BaseHTTPRequestHandler):
    """The playground's HTTP requests; every failure is a 4xx with a JSON message."""

    server: Server
    protocol_version = "HTTP/1.1"
    timeout = IDLE_SECONDS  # a half-sent request does not hold a thread and a socket forever

    def log_message(self, format: str, *args: Any) -> None:  # quiet: no line per request
        return

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        self._answer("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._answer("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._answer("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._answer("DELETE")

    def do_PATCH(self) -> None:  # noqa: N802
        self._answer("PATCH")

    def do_OPTIONS(self) -> None:  # noqa: N802 - a CORS preflight: no other origin is let in
        self._answer("OPTIONS")

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer("HEAD")

    def _answer(self, method: str) -> None:
        try:
            self._check_host()
            if method not in ("GET", "POST"):
                raise BadRequest(
                    f"{method} is not allowed: this server answers GET and POST",
                    HTTPStatus.METHOD_NOT_ALLOWED,
                )
            body = None
            if method == "POST":
                self._check_sender()
                body = self._body()
            status, kind, payload = self._route(method, body)
        except BadRequest as e:
            status, kind, payload = e.status, "json", {"error": str(e)}
        except Exception as e:  # a bug: say so, and keep serving
            status, kind, payload = HTTPStatus.INTERNAL_SERVER_ERROR, "json", {"error": repr(e)}
        if kind == "json":
            data = json.dumps(payload, allow_nan=False).encode()
            self._send(status, "application/json", data, head=method == "HEAD")
        else:
            self._send(status, "text/html; charset=utf-8", payload.encode())

    def _route(self, method: str, body: Any) -> tuple[HTTPStatus, str, Any]:
        url = urlsplit(self.path)
        pg = self.server.playground
        if url.path in ("/", "/index.html"):
            self._only(method, "GET")
            return HTTPStatus.OK, "html", pg.page()
        if url.path == "/api/runs":
            self._only(method, "POST")
            key, run = pg.create(body)
            with run.lock:
                return (
                    HTTPStatus.CREATED,
                    "json",
                    {"id": key, "points": run.X, "labels": run.y, **run.state()},
                )
        m = RUN_PATH.match(url.path)
        if not m:
            raise BadRequest(f"no such page: {url.path}", HTTPStatus.NOT_FOUND)
        run = pg.get(m.group(1))
        query = parse_qs(url.query)
        if m.group(2) == "/step":
            self._only(method, "POST")
            steps = body.get("steps", 1) if isinstance(body, dict) else None
            if type(steps) is not int or not 1 <= steps <= MAX_STEPS:
                raise BadRequest(f"steps must be an integer from 1 to {MAX_STEPS}, got {steps!r}")
            with run.lock:
                since = run.step
                run.train(steps)
                return HTTPStatus.OK, "json", run.state(since)
        self._only(method, "GET")
        if m.group(2) == "/stepper":
            i = _int(query.get("i", [""])[0], "i")
            lang = query.get("lang", [pg.lang])[0]
            if lang not in MESSAGES:
                raise BadRequest(f"lang must be one of {sorted(MESSAGES)}, got {lang!r}")
            quiz = query.get("quiz", ["0"])[0]
            if quiz not in ("0", "1"):
                raise BadRequest(f"quiz must be 0 or 1, got {quiz!r}")
            with run.lock:  # a copy: the page is built while the run goes on training
                clf = run.snapshot()
            return HTTPStatus.OK, "html", run.sample_stepper(i, lang, clf, quiz == "1")
        with run.lock:
            return (
                HTTPStatus.OK,
                "json",
                {"id": m.group(1), "points": run.X, "labels": run.y, **run.state()},
            )

    def _only(self, method: str, allowed: str) -> None:
        if method != allowed:
            raise BadRequest(
                f"{method} is not allowed here; use {allowed}", HTTPStatus.METHOD_NOT_ALLOWED
            )

    def _check_host(self) -> None:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        if host not in ("127.0.0.1", "localhost"):
            raise BadRequest(
                f"this server answers only to 127.0.0.1 and localhost, not {host!r}",
                HTTPStatus.FORBIDDEN,
            )

    def _check_sender(self) -> None:
        """Refuse (403) a request that changes something unless it comes from this server's own
        page: a page elsewhere (another local port, a file://) can send a "simple" cross-origin
        POST that the browser does not ask about first. JSON bodies and the page's token make
        the browser ask (a preflight), and this server never says yes."""
        origin = self.headers.get("Origin")
        own = f"http://{self.headers.get('Host')}"
        if origin is not None and origin != own:
            self._refuse(f"requests from {origin!r} are refused: only this server's page")
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            self._refuse("cross-site requests are refused: only this server's page")
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            self._refuse(f"the body must be sent as application/json, not {kind or 'nothing'!r}")
        token = self.headers.get("X-Micrograd-Token") or ""
        if not hmac.compare_digest(token.encode(), self.server.playground.token.encode()):
            self._refuse("the page's token is missing or wrong: reload the playground page")

    def _refuse(self, message: str) -> NoReturn:
        self.close_connection = True  # the body is not read: do not reuse the connection
        raise BadRequest(message, HTTPStatus.FORBIDDEN)

    def _body(self) -> Any:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise BadRequest("Content-Length is not a number") from None
        if length > MAX_BODY:
            self.close_connection = True  # the body is not read: do not reuse the connection
            raise BadRequest(
                f"the body is larger than {MAX_BODY} bytes", HTTPStatus.REQUEST_ENTITY_TOO_LARGE
            )
        raw = self.rfile.read(length) if length > 0 else b"{}"
        try:
            return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError) as e:
            raise BadRequest(f"the body is not valid JSON: {e}") from None
        except RecursionError:
            raise BadRequest("the body is not valid JSON: nested too deeply") from None

    def _send(self, status: HTTPStatus, kind: str, data: bytes, head: bool = False) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            # no other page may frame these pages (clickjacking) or run other scripts in them
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("Content-Security-Policy", _policy(data if kind != "json" else b""))
            if status == HTTPStatus.METHOD_NOT_ALLOWED:
                self.send_header("Allow", "GET, POST")
            self.end_headers()
            if not head:
                self.wfile.write(data)
        except ConnectionError:  # the tab went away before the answer: nothing to tell it
            self.close_connection = True


_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def _policy(page: bytes) -> str:
    """The Content-Security-Policy of an answer: nothing from elsewhere, no framing, and only
    the page's own inline scripts (by their hashes), so text that slipped into the page as
    markup still could not run."""
    scripts = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(m).digest()).decode() + "'"
        for m in _SCRIPT.findall(page)
    )
    return (
        f"default-src 'none'; script-src {scripts or chr(39) + 'none' + chr(39)}; "
        "style-src 'unsafe-inline'; img-src data:; connect-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _number(x: float) -> float | None:
    """x for JSON, which has no nan or inf: None (null) for those."""
    return x if math.isfinite(x) else None


def _int(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise BadRequest(f"{name} must be an integer, got {text!r}") from None


class Server(ThreadingHTTPServer):
    """The HTTP server, holding the playground's runs."""

    daemon_threads = True

    def __init__(self, port: int, lang: str | None = None) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.playground = Playground(lang)
        self.connections = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request: Any, client_address: Any) -> None:
        # Past MAX_CONNECTIONS open ones, a new connection is closed at once: the process never
        # runs out of file descriptors (where accept() fails in a busy loop).
        if not self.connections.acquire(blocking=False):
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.connections.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that closes a tab or quits resets its connections: not worth a traceback in
        # the user's terminal. Anything else is a bug, and is printed as usual.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def serve(port: int = 8000, open_browser: bool = True, lang: str | None = None) -> int:
    """Serve the playground on 127.0.0.1:port until Ctrl-C; returns the exit status."""
    with Server(port, lang) as server:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        try:  # from before the address is printed: a Ctrl-C right after it still stops cleanly
            print(f"micrograd playground: {url} (Ctrl-C stops it)", flush=True)
            if open_browser:
                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
            server.serve_forever()
        except KeyboardInterrupt:
            print("micrograd playground: stopped", flush=True)
    return 0
