"""The game's command lines as the server runs them, and one-shot runs of it with limits.

Every run is `python main.py ...` from this repository, with a small environment of the
server's making (no variable of the server's own passes on), a data folder the server chose,
an address-space cap (RLIMIT_AS) and, for the runs that print one answer, a time limit.
A player's game also gets the write end of a pipe as its fd 3, for its frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
MAIN: Final = ROOT / "main.py"
# What an answer may print, at most: --verify prints one line, --headless one line of JSON.
MAX_ANSWER: Final = 64 << 10
# The descriptor a game writes its frames to (`--frames-fd 3`).
FRAMES_FD: Final = 3
# The one-shot runs going now, killed if the server stops before they end.
RUNNING: Final[set[asyncio.subprocess.Process]] = set()


@dataclass(frozen=True)
class Limits:
    """What each run of the game may take."""

    memory_bytes: int = 1 << 30
    answer_seconds: float = 60.0  # --verify and --headless runs


def environment(home: Path) -> dict[str, str]:
    """The environment the game runs in: a terminal with 24-bit colour, UTF-8, and a home."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def game_argv(*arguments: str, main: Path = MAIN) -> list[str]:
    """`python main.py ARGUMENTS` (`main`: another game's file, as the tests' stand-in)."""
    return [sys.executable, str(main), *arguments]


def capped(memory_bytes: int | None, frames: int | None = None) -> Callable[[], None]:
    """Before exec: the address space capped, no core file; and if `frames` is given, that
    pipe's write end made the game's fd 3 (`--frames-fd 3`).

    Popen's own `pass_fds` can't place it: `close_fds` runs after this function and would
    close a descriptor put at 3.  So such a run has `close_fds=False`, and this closes every
    inheritable descriptor above 3 itself (the others close at exec: Python opens them so).
    """

    def before_exec() -> None:
        if frames is not None:
            os.dup2(frames, FRAMES_FD)  # No-op if it is 3 already: then made inheritable.
            os.set_inheritable(FRAMES_FD, True)
            for name in os.listdir("/proc/self/fd"):
                with contextlib.suppress(OSError):  # The listing's own descriptor, gone.
                    if int(name) > FRAMES_FD and os.get_inheritable(int(name)):
                        os.close(int(name))
        if memory_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return before_exec


@dataclass(frozen=True)
class Answer:
    """What a one-shot run printed, and how it ended (None: killed at its time limit)."""

    status: int | None
    output: str


async def answer(arguments: list[str], home: Path, limits: Limits, main: Path = MAIN) -> Answer:
    """Run the game (`main`: another game's file, as the tests' stand-in) with `arguments` in
    a new session, at most `limits.answer_seconds`."""
    process = await asyncio.create_subprocess_exec(
        *game_argv(*arguments, main=main),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        cwd=home,
        env=environment(home),
        start_new_session=True,
        preexec_fn=capped(limits.memory_bytes),
    )
    assert process.stdout is not None
    RUNNING.add(process)
    try:
        output = await asyncio.wait_for(process.stdout.read(MAX_ANSWER), limits.answer_seconds)
        status: int | None = await asyncio.wait_for(process.wait(), limits.answer_seconds)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        return Answer(None, "")
    finally:
        RUNNING.discard(process)
    return Answer(status, output.decode("utf-8", errors="replace"))


def stop_all() -> None:
    """Kill every one-shot run still going (the server is stopping)."""
    for process in RUNNING:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
