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

Any program on this machine can open connections to it, and a few hundred idle or slow ones must
not keep the user's own page from loading. A timeout on each read does not do that: a client that
sends one byte every few seconds never trips it. So, as nginx's client_header_timeout and Apache's
mod_reqtimeout do, each connection gets a deadline for the whole of its next request, head and
body (REQUEST_SECONDS from when it was accepted or its last answer was sent; the socket's timeout
before each read is the time left, so bytes trickling in do not extend it), and may sit idle for
only IDLE_SECONDS before that request begins. At MAX_CONNECTIONS open, a new connection (most
likely the user's: it is the newest) makes room by closing the one that has waited longest for a
request, where refusing the new one would let whoever opened connections first lock the user
out; a connection whose request is being answered is never closed to make room.

    POST /api/runs                {"data": "moons", "hidden": [8, 8], ...} -> the new run's state
    POST /api/runs/ID/step        {"steps": 5}                              -> its state after them
    GET  /api/runs/ID                                                       -> its state
    GET  /api/runs/ID/stepper?i=N[&quiz=1]                               -> the stepper page
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import re
import socket
import sys
import threading
import time
import webbrowser
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import parse_qs, urlsplit

from micrograd.app.runs import BadRequest, Playground
from micrograd.text import LANGUAGES
from micrograd.text import text as say

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

MAX_BODY = 10_000  # bytes
MAX_STEPS = 100  # per request
# Open at once: a browser opens about six to one server, so this is room for the user and for
# hundreds of other programs' connections. Each holds a thread and a file descriptor; past it,
# the connection that has waited longest for a request is closed (see Connections).
MAX_CONNECTIONS = 512
SPARE_FILES = 64  # file descriptors kept free for everything else the process opens
REQUEST_SECONDS = 10.0  # the most a whole request (head and body) may take to arrive
IDLE_SECONDS = 5.0  # the most a connection may wait before the first byte of its next request
SEND_SECONDS = 10.0  # the most one write of an answer may take (a client that does not read)


RUN_PATH = re.compile(r"^/api/runs/([0-9a-f]{16})(/step|/stepper)?$")


class Handler(BaseHTTPRequestHandler):
    """The playground's HTTP requests; every failure is a 4xx with a JSON message."""

    server: Server
    protocol_version = "HTTP/1.1"
    slot: Slot

    def setup(self) -> None:
        super().setup()
        self.slot = self.server.connections.slot(self.request)
        self.rfile.close()  # http.server's reader: this one keeps the connection's deadlines
        self.rfile = io.BufferedReader(_Reader(self.request, self.slot))

    def handle_one_request(self) -> None:
        self.server.connections.wait(self.slot)  # from the last answer: idle, and may make room
        super().handle_one_request()

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
            if not self._serving():
                return
            status, kind, payload = self._route(method, body)
        except BadRequest as e:
            status, kind, payload = e.status, "json", {"error": str(e)}
        except ConnectionError:  # closed while the body came in (the client left, or made room)
            self.close_connection = True
            return
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
            if lang not in LANGUAGES:
                raise BadRequest(f"lang must be one of {sorted(LANGUAGES)}, got {lang!r}")
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

    def _serving(self) -> bool:
        """Mark the request as read and being answered, so its connection is not closed to make
        room and each write of the answer has SEND_SECONDS; False if it was closed already."""
        if not self.server.connections.serve(self.slot):
            self.close_connection = True
            return False
        self.connection.settimeout(SEND_SECONDS)
        return True

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
        try:
            raw = self.rfile.read(length) if length > 0 else b"{}"
        except TimeoutError:
            self.close_connection = True  # the rest of the body may still come: do not reuse
            raise BadRequest(
                f"the request did not arrive within {REQUEST_SECONDS:g} s",
                HTTPStatus.REQUEST_TIMEOUT,
            ) from None
        try:
            return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError) as e:
            raise BadRequest(f"the body is not valid JSON: {e}") from None
        except RecursionError:
            raise BadRequest("the body is not valid JSON: nested too deeply") from None

    def _send(self, status: HTTPStatus, kind: str, data: bytes, head: bool = False) -> None:
        if not self._serving():  # a refusal before the body is read is an answer too
            return
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
        except (ConnectionError, TimeoutError):  # the tab went away or stopped reading
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


class Slot:
    """One open connection: since when it has waited for its next request, and its state."""

    __slots__ = ("sock", "since", "heard", "closed")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.since = time.monotonic()
        self.heard = False  # a byte of the next request has come
        self.closed = False  # shut to make room for a newer connection

    def time_left(self) -> float:
        """Seconds the next request may still take to arrive; TimeoutError once there are none."""
        limit = REQUEST_SECONDS if self.heard else min(IDLE_SECONDS, REQUEST_SECONDS)
        left = self.since + limit - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no whole request within {limit:g} s")
        return left


class Connections:
    """The open connections, and which of them may be closed to make room for a new one.

    A connection is waiting (for the rest of its request, or idle between requests) or being
    served. Only waiting ones are closed to make room, the one that has waited longest first: a
    client that opens connections and sends nothing, or sends slowly, loses them to the user's
    next one instead of locking it out. Only when every connection is being served is a new one
    refused, and that lasts no longer than the answers in progress."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._lock = threading.Lock()
        self._slots: dict[socket.socket, Slot] = {}  # until its thread has closed it
        self._count = 0  # open and not closed to make room
        self._waiting: OrderedDict[Slot, None] = OrderedDict()  # the longest waiting first

    def __len__(self) -> int:
        """How many connections are open (not counting those closed to make room)."""
        return self._count

    def admit(self, sock: socket.socket) -> bool:
        """Take a new connection, closing the longest-waiting one if at the bound; False (the
        new one is refused) only when every open connection is being served."""
        with self._lock:
            if self._count >= self.bound:
                if not self._waiting:
                    return False
                oldest, _ = self._waiting.popitem(last=False)
                oldest.closed = True
                self._count -= 1
                # Shut, not closed: its own thread may be in recv() on it and closes it after.
                # Its descriptor stays open for that moment, within SPARE_FILES.
                try:
                    oldest.sock.shutdown(socket.SHUT_RDWR)
                except OSError:  # the client had gone already
                    pass
            self._slots[sock] = slot = Slot(sock)
            self._waiting[slot] = None
            self._count += 1
            return True

    def slot(self, sock: socket.socket) -> Slot:
        """The slot of an admitted connection."""
        with self._lock:
            return self._slots[sock]

    def wait(self, slot: Slot) -> None:
        """The connection waits for its next request from now (if it was not waiting already)."""
        with self._lock:
            if not slot.closed and slot not in self._waiting:
                slot.since, slot.heard = time.monotonic(), False
                self._waiting[slot] = None

    def serve(self, slot: Slot) -> bool:
        """The connection's request is read and is being answered: it is no longer closed to
        make room. False if it was closed for that already."""
        with self._lock:
            self._waiting.pop(slot, None)
            return not slot.closed

    def release(self, sock: socket.socket) -> None:
        """Forget a connection its thread has closed."""
        with self._lock:
            slot = self._slots.pop(sock, None)
            if slot is not None and not slot.closed:
                self._waiting.pop(slot, None)
                self._count -= 1


class _Reader(io.RawIOBase):
    """A connection's bytes, each read given only the time its request has left."""

    def __init__(self, sock: socket.socket, slot: Slot) -> None:
        super().__init__()
        self._sock, self._slot = sock, slot

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        self._sock.settimeout(self._slot.time_left())
        try:
            n = self._sock.recv_into(buffer)
        except OSError:
            if self._slot.closed:
                raise ConnectionAbortedError("closed to make room for a newer connection") from None
            raise
        if n == 0 and self._slot.closed:  # the end is the server's, not the client's
            raise ConnectionAbortedError("closed to make room for a newer connection")
        self._slot.heard = self._slot.heard or n > 0
        return n


def _connection_bound() -> int:
    """MAX_CONNECTIONS, or fewer where the process may not have that many files open."""
    try:
        import resource
    except ImportError:  # Windows: sockets are not counted against a limit on open files
        return MAX_CONNECTIONS
    wanted = MAX_CONNECTIONS + SPARE_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        # macOS starts a process with a soft limit of 256 files. Raising it up to the hard limit
        # needs no privilege, and `wanted` stays under 1024, where select() elsewhere breaks.
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):  # not allowed here: live within the soft limit
            pass
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(1, min(MAX_CONNECTIONS, soft - SPARE_FILES))


class Server(ThreadingHTTPServer):
    """The HTTP server, holding the playground's runs."""

    daemon_threads = True
    # The listen backlog (the system may cap it lower): a burst of hundreds of connections
    # waits there to be accepted rather than being dropped, as a dropped connection is retried
    # only a second later, and the user's might be one of them.
    request_queue_size = 1024

    def __init__(self, port: int, lang: str | None = None) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.playground = Playground(lang)
        self.connections = Connections(_connection_bound())

    def process_request(self, request: Any, client_address: Any) -> None:
        # Never more than the bound open (the process never runs out of file descriptors, where
        # accept() fails in a busy loop): the longest-waiting one makes room for the new one.
        if not self.connections.admit(request):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except Exception:  # no thread to serve it (the caller closes it)
            self.connections.release(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.connections.release(request)

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
