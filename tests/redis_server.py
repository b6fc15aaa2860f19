"""A throwaway Redis for the tests: Debian's `redis-server` in a temporary folder, on a free
loopback port, keeping nothing on disk; stopped and its folder removed at the end.

`redis_url` is a session fixture: one server for the whole run (what a test publishes is
gone once heard, and each test's channels are its own players' names).  It skips, saying so,
where `redis-server` or redis-py is missing (`apt-get install redis-server`; `pip install -r
requirements-web.txt`).  The server's log is checked for nothing: it is a tool the tests use.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from loopback import free_port, stop

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A redis-server in `folder`, no persistence, loopback only; and its URL."""
    port = free_port()
    log = (folder / "redis.log").open("wb")
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes",
         "--logfile", ""],
        stdout=log, stderr=subprocess.STDOUT, cwd=folder,
    )  # fmt: skip
    log.close()
    end = time.monotonic() + 20  # A bound on waiting for it, not a measure.
    while not _answers(port):
        if process.poll() is not None or time.monotonic() > end:
            process.kill()
            raise RuntimeError((folder / "redis.log").read_text(errors="replace"))
        time.sleep(0.05)
    return process, f"redis://127.0.0.1:{port}/0"


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A running Redis's URL, for the whole session."""
    pytest.importorskip("redis", reason="redis-py (requirements-web.txt)")
    if not Path(REDIS_SERVER).exists():
        pytest.skip("no redis-server (apt-get install redis-server)")
    folder = Path(tempfile.mkdtemp(prefix="redis-test-"))
    process, url = start(folder)
    try:
        yield url
    finally:
        stop(process, 20)
        shutil.rmtree(folder, ignore_errors=True)
