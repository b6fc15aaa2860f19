"""What the game prints names it as the player runs it: `python main.py` from the
source, the download's own program in a build, with paths quoted."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from saving import morgue
from window import command_line
from words import program

BUILT = "/opt/Tombs of the Ancient Kings/tombs-of-the-ancient-kings"


def as_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", BUILT)
    monkeypatch.setattr(os, "name", "posix")


def test_from_the_source_it_is_main_py() -> None:
    assert program.name() == "main.py"
    assert program.command("--replay", program.quoted("a b.rec")) == "python main.py --replay 'a b.rec'"
    assert program.readme() == Path(__file__).resolve().parent.parent / "README.md"


def test_in_a_build_it_is_the_program_quoted(monkeypatch: pytest.MonkeyPatch) -> None:
    as_built(monkeypatch)
    assert program.name() == "tombs-of-the-ancient-kings"
    assert program.command("--replay", program.quoted("/home/me/My games/x.rec")) == (
        f"'{BUILT}' --replay '/home/me/My games/x.rec'"
    )
    assert program.readme() == Path(BUILT).parent / "README.md"
    # --help names the program and the README beside it.
    text = command_line._parser().format_help()
    assert text.startswith("usage: tombs-of-the-ancient-kings ")
    assert f"'{Path(BUILT).parent / 'README.md'}'" in text


def test_windows_quotes_as_its_shell_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "name", "nt")
    assert program.quoted(r"C:\Users\Me\My games\x.rec") == r'"C:\Users\Me\My games\x.rec"'
    assert program.quoted(r"C:\x.rec") == r"C:\x.rec"


def test_the_morgue_line_is_a_command_to_paste(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    as_built(monkeypatch)
    kept = tmp_path / "with space" / "game.rec"
    note = morgue.replay_note(kept, kept.with_suffix(".txt"))
    assert note.startswith(f"'{BUILT}' --replay '{kept}' replays it; --verify '{kept.with_suffix('.txt')}'")
