"""The game's command lines as the server runs them, and one-shot runs of it with limits.

Every run is `python main.py ...` from this repository, with a small environment of the
server's making (no variable of the server's own passes on), a data folder the server chose,
an address-space cap (RLIMIT_AS) and, for the runs that print one answer, a time limit.
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


def game_argv(*arguments: str) -> list[str]:
    """`python main.py ARGUMENTS`."""
    return [sys.executable, str(MAIN), *arguments]


def capped(memory_bytes: int) -> Callable[[], None]:
    """Before exec: the address space capped, no core file."""

    def before_exec() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return before_exec


@dataclass(frozen=True)
class Answer:
    """What a one-shot run printed, and how it ended (None: killed at its time limit)."""

    status: int | None
    output: str


async def answer(arguments: list[str], home: Path, limits: Limits) -> Answer:
    """Run the game with `arguments` in a new session, at most `limits.answer_seconds`."""
    process = await asyncio.create_subprocess_exec(
        *game_argv(*arguments),
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
