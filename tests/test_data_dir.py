"""Where the player's files go: the working directory from the source, the
player's data folder in a packaged build, any folder with --data-dir."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod
from conftest import stroke
from tcod.event import KeySym
from test_level import window_lines

import main
from engine import Engine
from input_handlers import CharacterScreenEventHandler
from replays.replay import screen_text
from saving import paths
from window import command_line, loop, title

GAME = title.GAME_TITLE


@pytest.fixture(autouse=True)
def data_dir_restored() -> Iterator[None]:
    """main() sets the data folder for the whole process: put it back after each test."""
    before = paths.data_dir()
    yield
    paths.use_data_dir(before)


def run_python(code: str, home: Path) -> str:
    """Run `code` in a fresh Python whose home and XDG data folder are under `home`.

    A fresh process, because SDL reads the environment once, when tcod loads.
    """
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "xdg"),
        "PYTHONPATH": str(Path(main.__file__).parent),
    }
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout


def test_each_platform_has_its_own_data_folder(tmp_path: Path) -> None:
    home = Path.home()
    assert paths.player_data_dir(GAME, "win32", {"APPDATA": str(tmp_path)}) == tmp_path / GAME
    assert (
        paths.player_data_dir(GAME, "darwin", {})
        == home / "Library" / "Application Support" / GAME
    )
    assert paths.player_data_dir(GAME, "linux", {}) == home / ".local" / "share" / GAME
    xdg = {"XDG_DATA_HOME": str(tmp_path)}
    assert paths.player_data_dir(GAME, "linux", xdg) == tmp_path / GAME
    # The XDG specification ignores a relative XDG_DATA_HOME.
    relative = {"XDG_DATA_HOME": "data"}
    assert paths.player_data_dir(GAME, "linux", relative) == home / ".local" / "share" / GAME


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks the Linux convention")
def test_the_data_folder_is_sdls_preference_path(tmp_path: Path) -> None:
    code = (
        "from tcod.cffi import ffi, lib; "
        f"print(ffi.string(lib.SDL_GetPrefPath(b'', {GAME!r}.encode())).decode())"
    )
    assert Path(run_python(code, tmp_path).strip()) == tmp_path / "xdg" / GAME
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    assert paths.player_data_dir(GAME, "linux", env) == tmp_path / "xdg" / GAME


def test_from_the_source_files_go_in_the_working_directory() -> None:
    assert paths.default_data_dir(GAME) == Path()


def test_a_packaged_build_keeps_files_in_the_players_data_folder(tmp_path: Path) -> None:
    # PyInstaller sets sys.frozen in the built program.
    code = "import sys; sys.frozen = True; from window import command_line; print(command_line.parse_args([]).data_dir)"
    assert Path(run_python(code, tmp_path).strip()) == tmp_path / "xdg" / GAME


def test_help_says_where_the_files_go(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        command_line.parse_args(["--help"])
    assert capsys.readouterr().out.endswith(
        "screenshots go in:\n  the working directory\n"
    )

    code = "import sys; sys.frozen = True; from window import command_line; command_line.parse_args(['--help'])"
    help_text = run_python(code, tmp_path)
    assert help_text.endswith(f"screenshots go in:\n  {tmp_path / 'xdg' / GAME}\n")
    assert not (tmp_path / "xdg").exists(), "naming the folder made it"


def test_data_dir_is_made_and_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "new" / "folder"
    # The player closes the window at the main menu.
    monkeypatch.setattr(tcod.event, "wait", lambda: [tcod.event.Quit()])
    assert main.main(["--data-dir", str(folder)]) == 0
    assert folder.is_dir()
    assert paths.data_dir() == folder
    assert paths.save_path() == folder / paths.SAVE_NAME


def test_a_data_dir_that_cannot_be_used_is_said_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    before = paths.data_dir()

    assert main.main(["--data-dir", str(blocker / "saves")]) == 1

    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"main.py: cannot use {blocker / 'saves'} as the data folder: Not a directory\n"
    assert blocker.read_text() == "not a folder"
    assert paths.data_dir() == before


def test_the_character_screen_says_where_the_files_are(engine: Engine, tmp_path: Path) -> None:
    folder = tmp_path / ("a-long-folder-name-" * 4)
    paths.use_data_dir(folder)

    lines = window_lines(CharacterScreenEventHandler(engine))

    where = lines.index("Files kept in:")
    assert "".join(lines[where + 1 :]) == str(folder)
    assert all(len(line) <= 36 for line in lines[where + 1 :]), "the window would leave the screen"


@pytest.mark.parametrize("as_", ["--data-dir", "working folder"])
def test_a_folder_whose_name_is_not_utf8_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], as_: str
) -> None:
    """Any name the system gives works: a byte that isn't UTF-8 shows as U+FFFD
    on the options and character screens, where it once crashed the game."""
    folder = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/data\xff"))
    folder.mkdir()
    frames: list[str] = []
    batches = [[stroke(KeySym.O)], [stroke(KeySym.ESCAPE)], [stroke(KeySym.N)], [stroke(KeySym.C)],
               [stroke(KeySym.ESCAPE)], [tcod.event.Quit()]]
    monkeypatch.setattr(tcod.event, "wait", lambda timeout=None: batches.pop(0))
    real_render = loop.Loop.draw

    def draw(loop: loop.Loop) -> None:
        real_render(loop)
        frames.append(screen_text(loop.console))

    monkeypatch.setattr(loop.Loop, "draw", draw)
    if as_ == "--data-dir":
        argv = ["--data-dir", str(folder)]
    else:
        monkeypatch.chdir(folder)
        argv = []
    assert main.main(argv) == 0
    assert "Traceback" not in capsys.readouterr().err
    assert any("Kept in" in frame and "data\ufffd" in frame for frame in frames)  # The options.
    assert any("Files kept in:" in frame and "\ufffd" in frame for frame in frames)  # The character screen.
    assert (folder / paths.SAVE_NAME).exists()
