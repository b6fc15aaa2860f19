"""What the tests that start servers on this machine share: a free loopback port for each, and
a server process stopped (politely first)."""

from __future__ import annotations

import socket
import subprocess


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def stop(process: subprocess.Popen[bytes], seconds: float) -> None:
    """SIGTERM, then SIGKILL if it has not ended in `seconds`; waited for either way."""
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
