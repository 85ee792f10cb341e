"""A server that hangs: it accepts TCP connections on 127.0.0.1 and never answers (issue #12 item 5).

Real sockets, no mocks: a client sees its connection accepted and its request sent, then
silence, exactly like a provider whose worker is stuck. ``refused_url()`` gives the other
failure, a port where nothing listens.

>>> with HungServer() as hung:
...     hung.base_url.startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import socket
import threading
from typing import Self


class HungServer:
    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self._sock.settimeout(0.2)
        self.port = self._sock.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.accepted = 0
        self._held: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="hung-server", daemon=True)

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for conn in self._held:
            conn.close()
        self._sock.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            self._held.append(conn)  # read nothing, answer nothing, keep it open


def refused_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (the port was just freed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
