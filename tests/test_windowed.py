"""The windowed downloads' way of speaking (windowed.py): what the game prints
goes to a bounded log in the data folder, and a failure to start shows in
SDL's message box.  Tried on Linux with --windowed, as the Windows and macOS
builds run by default."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod
from conftest import key
from tcod.event import KeySym
from test_window import LIBX11, MISSING, TIMEOUT, virtual_screen, wait_for

import main
from window import assets, title, windowed


@pytest.fixture
def boxes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the message box was asked to show (SDL's dummy driver has no boxes)."""
    shown: list[str] = []

    def show_error(text: str) -> bool:
        shown.append(text)
        return True

    monkeypatch.setattr(windowed, "show_error", show_error)
    return shown


def test_the_log_moves_aside_as_it_grows_and_keeps_the_latest_lines(tmp_path: Path) -> None:
    log = windowed.LogFile(tmp_path / "game.log", max_bytes=100, backups=2)
    lines = [f"line {number:03d}" for number in range(60)]
    for line in lines:
        print(line, file=log)
    log.close()
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == ["game.log", "game.log.1", "game.log.2"]
    assert all((tmp_path / name).stat().st_size <= 100 for name in names)
    kept = "".join((tmp_path / name).read_text() for name in ["game.log.2", "game.log.1", "game.log"])
    assert "\n".join(lines).endswith(kept.strip()), "the files are not the last lines, in order"
    assert kept.strip().endswith("line 059") and len(kept) > 200
    assert log.last_line == "line 059"


def test_the_log_says_it_is_a_writable_stream_until_closed(tmp_path: Path) -> None:
    """It stands in for stdout and stderr: code that asks a stream whether it may write
    (io's `writable()`, False for a bare `TextIOBase`) must hear yes."""
    log = windowed.LogFile(tmp_path / "game.log")
    assert log.writable() and not log.closed
    log.close()
    assert log.closed


@pytest.mark.parametrize("in_the_way", ["game.log.1", "game.log.2"])
def test_a_folder_in_the_way_of_rotation_keeps_the_log_bounded(tmp_path: Path, in_the_way: str) -> None:
    (tmp_path / in_the_way).mkdir()
    (tmp_path / in_the_way / "mine.txt").write_text("the player's")
    log = windowed.LogFile(tmp_path / "game.log", max_bytes=200, backups=2)
    for number in range(200):
        print(f"line {number:03d}", file=log)
    log.close()
    assert (tmp_path / "game.log").stat().st_size <= 200
    assert (tmp_path / in_the_way / "mine.txt").read_text() == "the player's"  # Left as it is.
    text = (tmp_path / "game.log").read_text()
    assert "line 199" in text
    assert f"main.py: log rotation: {in_the_way} is in the way" in "".join(
        path.read_text() for path in tmp_path.glob("game.log*") if path.is_file()
    )


def test_the_log_goes_on_from_the_last_run(tmp_path: Path) -> None:
    for text in ("first run", "second run"):
        log = windowed.LogFile(tmp_path / "game.log")
        print(text, file=log)
        log.close()
    assert (tmp_path / "game.log").read_text() == "first run\nsecond run\n"


def test_the_log_is_never_written_through_a_link(tmp_path: Path) -> None:
    mine = tmp_path / "the player's file.txt"
    mine.write_text("mine\n")
    (tmp_path / "game.log").symlink_to(mine)
    log = windowed.LogFile(tmp_path / "game.log")
    print("Game saved.", file=log)
    log.close()
    assert mine.read_text() == "mine\n"
    assert log.problem is not None and str(tmp_path / "game.log") in log.problem
    assert log.last_line == "Game saved."


def test_the_log_is_made_readable_by_all_and_writable_by_its_owner(tmp_path: Path) -> None:
    mask = os.umask(0)  # The mode the game asks for, untouched by the tester's umask.
    try:
        log = windowed.LogFile(tmp_path / "game.log")
    finally:
        os.umask(mask)
    log.close()
    assert stat.S_IMODE((tmp_path / "game.log").stat().st_mode) == 0o644


@pytest.mark.parametrize(
    "kind",
    ["folder", pytest.param("fifo", marks=pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here"))],
)
def test_anything_but_a_plain_file_leaves_the_game_without_a_log(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "game.log"
    if kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)  # Opening it to write would wait for a reader.
    log = windowed.LogFile(path)
    print("Game saved.", file=log)
    log.close()
    assert log.problem is not None


def test_a_windowed_game_prints_nothing_and_logs_what_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], boxes: list[str]
) -> None:
    # A new game, then the player closes the window: the game is saved.
    batches = iter([[key(KeySym.N)], [tcod.event.Quit()]])
    monkeypatch.setattr(tcod.event, "wait", lambda *timeout: next(batches))
    assert main.main(["--windowed", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr() == ("", "")
    log = (tmp_path / windowed.LOG_NAME).read_text()
    assert log.endswith("Game saved.\n") and "starts" in log.splitlines()[0]
    assert boxes == []
    assert sys.stdout is not None and not isinstance(sys.stdout, windowed.LogFile)


def test_a_failure_to_start_shows_its_line_in_the_box_and_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], boxes: list[str]
) -> None:
    sheet = tmp_path / "broken.png"
    sheet.write_bytes(b"not a PNG")
    monkeypatch.setitem(assets.TILESET_PATHS, 10, sheet)
    data = tmp_path / "data"
    assert main.main(["--windowed", "--data-dir", str(data)]) == 1
    assert capsys.readouterr() == ("", "")
    [line] = boxes
    assert line.startswith(f"main.py: cannot read the tile sheet {sheet}")
    assert (data / windowed.LOG_NAME).read_text().endswith(line + "\n")


def test_a_data_folder_that_cannot_be_used_still_shows_in_the_box(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], boxes: list[str]
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    assert main.main(["--windowed", "--data-dir", str(blocker / "saves")]) == 1
    assert capsys.readouterr() == ("", "")
    [line] = boxes
    assert line.startswith(f"main.py: cannot use {blocker / 'saves'} as the data folder: ")


def test_a_failure_to_start_without_a_log_shows_why_there_is_none(tmp_path: Path, boxes: list[str]) -> None:
    """The game's words went nowhere: the box at least says why the log is missing."""
    (tmp_path / windowed.LOG_NAME).mkdir()
    assert windowed.run(lambda: 1, tmp_path) == 1
    [line] = boxes
    assert line.startswith(f"main.py: cannot write the log {tmp_path / windowed.LOG_NAME}: "), line


def test_a_crash_goes_to_the_log_and_the_box_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], boxes: list[str]
) -> None:
    def crash() -> int:
        raise ZeroDivisionError("a bug")

    assert windowed.run(crash, tmp_path) == 1
    assert capsys.readouterr() == ("", "")
    log = tmp_path / windowed.LOG_NAME
    assert "Traceback" in log.read_text() and "ZeroDivisionError: a bug" in log.read_text()
    assert boxes == [f"ZeroDivisionError: a bug\n\nThe log {log} says more."]


def test_headless_replays_print_their_answer_even_when_windowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = Path(__file__).parent / "recordings" / "scroll.rec"
    assert main.main(["--windowed", "--replay", str(recording), "--headless"]) == 0
    assert capsys.readouterr().out.startswith('{"screen": ')


@pytest.fixture
def display_name() -> Iterator[str]:
    with virtual_screen() as name:
        yield name


@pytest.mark.skipif(
    bool(MISSING) or LIBX11 is None or shutil.which("xwininfo") is None,
    reason="needs Xvfb, xdotool, xwininfo and libX11 (apt-get install xvfb xdotool x11-utils)",
)
def test_the_message_box_shows_on_a_real_screen_until_the_player_says_ok(tmp_path: Path, display_name: str) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    env = {name: value for name, value in os.environ.items() if name != "SDL_VIDEODRIVER"}
    game = subprocess.Popen(
        [sys.executable, str(Path(main.__file__)), "--windowed", "--data-dir", str(blocker / "saves")],
        env={**env, "DISPLAY": display_name},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        def box() -> str | None:
            """The box's window id, from the window tree (xdotool can't find SDL's by name)."""
            tree = subprocess.run(
                ["xwininfo", "-root", "-tree"],
                env={**os.environ, "DISPLAY": display_name}, capture_output=True, text=True, check=False,
            ).stdout
            named = f'"{title.GAME_TITLE}"'
            return next((line.split()[0] for line in tree.splitlines() if named in line), None)

        window = wait_for("the message box", box)
        assert game.poll() is None, "the game did not wait for the player's OK"
        # Not checked: the box may close on the key's press, before xdotool sends its release.
        subprocess.run(["xdotool", "key", "--window", window, "Return"], env={**os.environ, "DISPLAY": display_name}, check=False)
        out, err = game.communicate(timeout=TIMEOUT)
        assert (game.returncode, out, err) == (1, "", "")
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate()
