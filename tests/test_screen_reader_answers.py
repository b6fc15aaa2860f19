"""`--screen-reader`: nothing but text written from start to exit.

A real run under a pseudo-terminal writes no escape sequence, not even to set a mode
at start or exit.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 8


def test_a_real_run_writes_no_escape_from_start_to_exit(tmp_path: Path) -> None:
    """`main.py --screen-reader` under a pseudo-terminal: the main menu, a new game, a
    turn waited, Escape and y (save and quit): every byte it wrote is text."""
    leader, follower = pty.openpty()
    game = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--screen-reader", "--seed", str(SEED), "--data-dir", str(tmp_path)],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=tmp_path,
        close_fds=True,
    )
    os.close(follower)
    written = b""
    try:
        for keys, wanted in ((b"", b"Play a new game"), (b"n", b"welcome"), (b".", b"\r\n"), (b"\x1b", b"Save and quit")):
            os.write(leader, keys)
            written += read_until(leader, wanted, written)
        os.write(leader, b"y")
        written += read_until(leader, None, written)
        assert game.wait(timeout=30) == 0
    finally:
        game.kill()
        game.wait()
        os.close(leader)
    assert any(tmp_path.glob("*.sav"))  # Saved: the run went to its end.
    assert b"\x1b" not in written, written


def read_until(leader: int, wanted: bytes | None, before: bytes) -> bytes:
    """What the game writes until `wanted` is among it (None: until it ends)."""
    got = b""
    deadline = time.monotonic() + 30
    while wanted is None or wanted not in got:
        assert time.monotonic() < deadline, before + got
        ready, _, _ = select.select([leader], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # The game has ended: its end of the terminal is closed.
            chunk = b""
        if not chunk:
            if wanted is None:
                return got
            raise AssertionError(f"the game ended before {wanted!r}: {before + got!r}")
        got += chunk
    return got
