"""How the game names itself, and paths, in what it prints: as the player runs
it (`python main.py` from the source, the build's own program in a download),
with paths quoted as the player's shell takes them."""

from __future__ import annotations

import os
import sys
from pathlib import Path

SOURCE_PROGRAM = "main.py"


def frozen() -> bool:
    """Whether this is a packaged build (tools/build.py), not the source."""
    return bool(getattr(sys, "frozen", False))


def name() -> str:
    """What the game's printed lines begin with: `main.py`, or the build's program."""
    return Path(sys.executable).name if frozen() else SOURCE_PROGRAM


def quoted(path: str | os.PathLike[str]) -> str:
    """`path` as the player's shell takes it whole: quoted if it holds spaces or the like."""
    import shlex  # Imported when first needed: not at start-up (a message's quoting).
    import subprocess

    text = os.fspath(path)
    return subprocess.list2cmdline([text]) if os.name == "nt" else shlex.quote(text)


def command(*words: str) -> str:
    """The command that runs the game with `words` (already quoted), to copy and paste."""
    program = quoted(sys.executable) if frozen() else f"python {SOURCE_PROGRAM}"
    return " ".join([program, *words])


def readme() -> Path:
    """The README: beside the build's program (tools/build.py puts it there), or the source's."""
    folder = Path(sys.executable).parent if frozen() else Path(__file__).resolve().parent.parent
    return folder / "README.md"
