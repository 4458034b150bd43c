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
import hashlib
import hmac
import json
import re
import sys
import threading
import webbrowser
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NoReturn
from urllib.parse import parse_qs, urlsplit

from micrograd.app.runs import BadRequest, Playground
from micrograd.teach.messages import MESSAGES
from micrograd.teach.messages import text as say

MAX_BODY = 10_000  # bytes
MAX_STEPS = 100  # per request
MAX_CONNECTIONS = 64  # open at once; beyond, new ones are closed at once (never out of files)
IDLE_SECONDS = 30  # a connection that sends nothing for this long is closed


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
            print(say("pg_serving", server.playground.lang, url=url), flush=True)
            if open_browser:
                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
            server.serve_forever()
        except KeyboardInterrupt:
            print(say("pg_stopped", server.playground.lang), flush=True)
    return 0
