"""Debian's nginx for the tests: in front of the given nodes, on a free loopback port, from a
temporary prefix (`-p`: its configuration, pid, logs and temporary files there), in the
foreground (`daemon off`), stopped when the test is done.  Skips, saying so, where nginx is
missing (`apt-get install nginx`)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from loopback import free_port, stop

from web import nginx

NGINX_PATHS = ("/usr/sbin/nginx", "/usr/bin/nginx")


def nginx_binary() -> str:
    """nginx's program, or the test skips saying it is missing."""
    found = shutil.which("nginx") or next((p for p in NGINX_PATHS if Path(p).exists()), None)
    if found is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    return found


@dataclass
class Nginx:
    """A running nginx: its address and its folder."""

    url: str
    port: int
    prefix: Path
    process: subprocess.Popen[bytes]

    def error_log(self) -> str:
        return (self.prefix / "logs" / "error.log").read_text(errors="replace")


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@contextmanager
def running(nodes: Mapping[str, str]) -> Iterator[Nginx]:
    """nginx in front of `nodes` (name: host:port) until the block ends."""
    binary = nginx_binary()
    prefix = Path(tempfile.mkdtemp(prefix="nginx-"))
    for folder in ("logs", "tmp", "conf"):
        (prefix / folder).mkdir()
    prefix.chmod(0o755)
    if os.geteuid() == 0:  # Its workers run as nobody then: their logs and temporary files.
        for folder in ("logs", "tmp"):
            shutil.chown(prefix / folder, "nobody")
    port = free_port()
    config = prefix / "conf" / "nginx.conf"
    config.write_text(nginx.configuration(nodes, f"127.0.0.1:{port}"))
    process = subprocess.Popen(
        [binary, "-p", str(prefix), "-c", str(config), "-e", str(prefix / "logs" / "error.log"),
         "-g", "daemon off;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while not _answers(port):
            assert process.poll() is None, (prefix / "logs" / "error.log").read_text(
                errors="replace"
            )
            assert time.monotonic() < deadline, "nginx did not answer in 20 s"
            time.sleep(0.05)
        yield Nginx(f"http://127.0.0.1:{port}", port, prefix, process)
    finally:
        stop(process, 10)
        shutil.rmtree(prefix, ignore_errors=True)
