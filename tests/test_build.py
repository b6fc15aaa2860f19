"""The packaged build: `python tools/build.py` makes a folder and an archive,
and the program in them plays in a real window without Python.

Builds once for the module, into a temporary folder (PyInstaller from
requirements-dev.txt; about half a minute on 2 cores).  The window test
needs Xvfb, xdotool and ImageMagick, as tests/test_window.py does.

Run alone:  python -m pytest tests/test_build.py
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from test_window import (
    LIBX11,
    MISSING,
    TIMEOUT,
    Window,
    assert_not_blank,
    explained,
    virtual_screen,
)

from saving import paths
from window import assets, loop, title, windowed

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "tools" / "build.py"
GAME = title.GAME_TITLE

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("PyInstaller") is None,
        reason="needs PyInstaller (pip install -r requirements-dev.txt)",
    ),
]
needs_a_screen = pytest.mark.skipif(
    bool(MISSING) or LIBX11 is None,
    reason="needs Xvfb, xdotool, ImageMagick (apt-get install xvfb xdotool imagemagick) and libX11",
)


def load_module(name: str) -> ModuleType:
    """tools/`name`.py as a module (tools/ is not a package)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # Dataclasses look their module up here.
        spec.loader.exec_module(module)
    return sys.modules[name]


build = load_module("build")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh build's dist folder, made by the README's command."""
    folder = tmp_path_factory.mktemp("build")
    result = subprocess.run(
        [sys.executable, str(BUILD), "--dist", str(folder / "dist"), "--work", str(folder / "work")],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, f"the build failed:\n{result.stdout}\n{result.stderr}"
    return folder / "dist"


@pytest.fixture
def player_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of the player's, under tmp_path, for the programs started here."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    return home


@pytest.fixture
def display() -> Iterator[str]:
    with virtual_screen() as name:
        yield name


def run_built(dist: Path, *arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(build.program_path(dist)), *arguments],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def test_the_build_is_one_folder_with_the_assets_and_an_archive_of_it(dist: Path) -> None:
    program = build.program_path(dist)
    assert os.access(program, os.X_OK), f"{program} is not a program"
    inside = {path.name for path in program.parent.rglob("*")}
    assert {path.name for path in build.ASSETS} == {path.name for path in assets.TILESET_PATHS.values()} | {
        "menu_background.png"
    }
    assert {path.name for path in build.ASSETS} <= inside

    archive = build.archive_path(dist)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as packed:
            names = set(packed.namelist())
    else:
        with tarfile.open(archive) as packed:
            names = set(packed.getnames())
    folder = program.parent
    assert names == {
        path.relative_to(dist).as_posix() for path in [folder, *folder.rglob("*")]
    } - ({folder.name} if archive.suffix == ".zip" else set())


def test_the_built_game_says_where_the_players_files_go(dist: Path, player_home: Path, tmp_path: Path) -> None:
    result = run_built(dist, "--help")
    assert result.returncode == 0, result.stderr
    data = player_home / ".local" / "share" / GAME
    assert result.stdout.endswith(f"screenshots go in:\n  {data}\n")
    # It names itself and the README the download carries beside it.
    assert result.stdout.startswith(f"usage: {build.NAME} ")
    readme = build.program_path(dist).parent / "README.md"
    assert readme.is_file() and f"(see {readme})" in result.stdout
    assert (readme.parent / "docs" / "playing.md").is_file()  # The pages the README links.

    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    result = run_built(dist, "--data-dir", str(blocker / "saves"), SDL_VIDEODRIVER="dummy")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"{build.NAME}: cannot use {blocker / 'saves'} as the data folder: Not a directory\n"


@needs_a_screen
def test_the_built_game_plays_in_a_real_window(dist: Path, display: str, player_home: Path, tmp_path: Path) -> None:
    with explained(tmp_path):
        play_the_built_game(dist, display, player_home, tmp_path)


@needs_a_screen
def test_the_built_game_opens_its_window_as_players_start_it(dist: Path, display: str, tmp_path: Path) -> None:
    """As the release workflow starts each download: no stdin, stdout or stderr, --windowed;
    quitting after its first frame (`loop.FIRST_FRAME_ONLY`), which it says in game.log."""
    data = tmp_path / "data"
    started = '"$0" --windowed --data-dir "$1" 0<&- 1>&- 2>&-'
    env = {**os.environ, "DISPLAY": display, loop.FIRST_FRAME_ONLY: "1"}
    env.pop("SDL_VIDEODRIVER", None)  # The tests' dummy driver: this one is on the screen.
    done = subprocess.run(
        ["sh", "-c", started, str(build.program_path(dist)), str(data)],
        env=env,
        timeout=TIMEOUT,
        check=False,
    )
    log = (data / windowed.LOG_NAME).read_text(encoding="utf-8")
    assert done.returncode == 0, log
    assert loop.FIRST_FRAME_SHOWN in log


def play_the_built_game(dist: Path, display: str, home: Path, folder: Path) -> None:
    """The menu, a new game, a screenshot, then close the window: files go to the data folder."""
    data = home / ".local" / "share" / GAME
    window = Window(display, folder, 1, program=[str(build.program_path(dist))])
    try:
        assert window.geometry[2:] == (800, 500), "the window is not 80x50 tiles of 10 pixels"
        menu = window.screenshot("menu")
        assert_not_blank(menu, "menu")

        window.press("n")
        game = window.screen_after("map", menu)
        assert_not_blank(game, "map")
        # The map is mostly black, the menu mostly art.
        assert (game == 0).all(axis=2).mean() > (menu == 0).all(axis=2).mean() + 0.2

        window.press("F12")
        window.screen_after("screenshot-said", game)  # "Screenshot saved as ..." in the log.
        assert (data / "screenshot-001.png").is_file(), "the screenshot is not in the data folder"
        assert not list(folder.glob("screenshot-*.png")), "a screenshot went to the working directory"

        window.close()
        assert window.wait_exit() == 0, window.output()
        assert "Game saved." in window.output()
        assert (data / paths.SAVE_NAME).is_file(), "the save is not in the data folder"
        assert not (folder / paths.SAVE_NAME).exists(), "the save went to the working directory"
    finally:
        window.stop()


@needs_a_screen
def test_the_bench_times_the_built_games_start_up(dist: Path, tmp_path: Path) -> None:
    bench = load_module("bench")
    with bench.virtual_display() as display:
        source = bench.time_startup(display, tmp_path, 1)
        row = bench.packaged_startup(display, tmp_path, 1, source, dist)
    assert re.fullmatch(r"\d+\.\d{3} s, \d+\.\d\dx python main\.py", row.values), row
    assert not list(tmp_path.iterdir()), "the bench left files behind"


# A walk about the first floor: moves in every direction, waits, the
# inventory, the stairs tried off them, a look and a click.
RECORDING = """recording 1
seed 2020
""" + "".join(f"key {name}\n" for name in "llllkkkkhhhhjjjjyyyubbbnnn") + (
    "key period\nkey period\nkey i\nkey escape\nkey period shift\n"
    "key slash\nkey l\nkey escape\nmove 10 10\nclick 40 25\n"
) + "".join(f"key {name}\n" for name in "jjjjjjllllllkkkkkkhhhhhh")


def test_the_built_game_replays_a_recording_as_python_main_py_does(dist: Path, player_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "walk.rec"
    path.write_text(RECORDING)
    runs = {
        "built": [str(build.program_path(dist))],
        "source": [sys.executable, str(ROOT / "main.py")],
    }
    out = {}
    for name, program in runs.items():
        screen = tmp_path / f"{name}-screen.txt"
        result = subprocess.run(
            [*program, "--replay", str(path), "--headless", "--screen", str(screen)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        assert (result.returncode, result.stderr) == (0, ""), name
        out[name] = result.stdout, screen.read_text()
    assert out["built"] == out["source"]
    report = json.loads(out["built"][0])
    assert report["seed"] == 2020 and report["turns"] > 0
