"""A server of the standard library serving from a thread, for the tests."""

import threading
from socketserver import BaseServer

# How often serve_forever looks for shutdown(): with the default, 0.5 s, each shutdown() waits
# that long, and the playground tests shut down dozens of servers.
POLL_SECONDS = 0.02


def serve_in_thread(server: BaseServer) -> BaseServer:
    """Start `server` serving from a daemon thread; `server.shutdown()` stops it within POLL_SECONDS."""
    threading.Thread(target=server.serve_forever, args=(POLL_SECONDS,), daemon=True).start()
    return server
