"""A real window: `python main.py` under Xvfb, played with real X key presses.

No dummy video driver here: the game opens an X11 window on a virtual screen
(Xvfb), xdotool types into it, ImageMagick's `import` takes screenshots, and
the window is closed the way a window manager closes it when the player
clicks the close button (a WM_DELETE_WINDOW message), which SDL turns into
the quit event that makes the game save.

Needs Xvfb, xdotool and ImageMagick (`.ci/run` installs them:
apt-get install xvfb xdotool imagemagick); skipped without them.

Run alone:  python -m pytest tests/test_window.py
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np
import pytest
import tcod
from numpy.typing import NDArray

import main
import setup_game
from saving import paths
from window import title

TOOLS = ("Xvfb", "xdotool", "import")
MISSING = [tool for tool in TOOLS if shutil.which(tool) is None]
LIBX11 = ctypes.util.find_library("X11")

pytestmark = [
    pytest.mark.skipif(
        bool(MISSING),
        reason=f"needs {', '.join(MISSING)} (apt-get install xvfb xdotool imagemagick)",
    ),
    pytest.mark.skipif(LIBX11 is None, reason="needs libX11 to close the window as a window manager does"),
]

MAIN = Path(main.__file__).resolve()
# The same floor on every run of the test.
SEED = 2020
# How long to wait for anything: Xvfb to start, the window to appear or to change.
TIMEOUT = 20.0
# Between key presses, as a person types.
KEY_GAP = 0.3

T = TypeVar("T")


def wait_for(what: str, check: Callable[[], T | None], timeout: float = TIMEOUT) -> T:
    """Poll `check` until it returns something other than None."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result is not None:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


@contextlib.contextmanager
def virtual_screen(size: str = "1024x768x24") -> Iterator[str]:
    """An Xvfb server on a free display, one screen of `size` (WxHxDEPTH);
    its DISPLAY name ("`:N`").

    `-noreset`: else the server resets whenever its last client leaves (an
    xdotool call while the game starts, or a killed game), and a game
    connecting meanwhile finds "no available video device".
    """
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [
            "Xvfb", "-displayfd", str(write_end), "-screen", "0", size,
            "-nolisten", "tcp", "-noreset",
        ],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    try:
        # Xvfb picks a free display number and writes it once it accepts clients.
        ready, _, _ = select.select([read_end], [], [], TIMEOUT)
        assert ready, "Xvfb did not start"
        number = os.read(read_end, 32).decode().strip()
        assert number.isdigit(), f"Xvfb did not say which display it took: {number!r}"
        yield f":{number}"
    finally:
        os.close(read_end)
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


class Window:
    """`python main.py --seed SEED` running on `display`, in `folder`; run number `run`.

    Or `program --seed SEED`, such as the packaged build (tests/test_build.py).
    """

    TITLE = title.GAME_TITLE

    def __init__(
        self,
        display: str,
        folder: Path,
        run: int,
        program: Sequence[str] = (sys.executable, str(MAIN)),
        arguments: Sequence[str] | None = None,  # By default `--seed SEED`.
    ) -> None:
        self.display = display
        self.folder = folder
        self.run = run
        self.env = {**os.environ, "DISPLAY": display}
        # conftest.py asks for the dummy driver, which would open no window.
        self.env.pop("SDL_VIDEODRIVER", None)
        self.out, self.err = folder / f"run{run}.out", folder / f"run{run}.err"
        self.log = self.out.open("w"), self.err.open("w")
        self.process = subprocess.Popen(
            [*program, *(("--seed", str(SEED)) if arguments is None else arguments)],
            cwd=folder,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self.log[0],
            stderr=self.log[1],
        )
        self.shots = 0
        self.id, self.geometry = "", (0, 0, 0, 0)
        wait_for(f"the window {self.TITLE!r} to show its first frame", self.ready)

    def ready(self) -> bool | None:
        """True once the window shows a frame and keeps its id.

        SDL may replace the first window it maps with another (to change its
        visual for the renderer): a window found before the first frame may
        be gone by the first key press.
        """
        found = self.find()
        if found is None:
            return None
        self.id, self.geometry = found
        first = self.screenshot("first-frame", keep=False)
        if not first.any() or self.find() != found:
            return None
        return True if np.array_equal(self.screenshot("first-frame", keep=False), first) else None

    def output(self) -> str:
        for file in self.log:
            file.flush()
        return f"the game's stdout:\n{self.out.read_text()}\nits stderr:\n{self.err.read_text()}"

    def x(self, *command: str, check: bool = True) -> str:
        """Run an X client on the display and return what it prints."""
        result = subprocess.run(
            command, env=self.env, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
        if check and result.returncode:
            raise AssertionError(
                f"{' '.join(command)} exited with {result.returncode}: {result.stderr.strip()}"
            )
        return result.stdout

    def find(self) -> tuple[str, tuple[int, int, int, int]] | None:
        """The game window's id and (x, y, width, height), once it is mapped.

        `xdotool search --name` finds nothing under SDL3, which sets the
        title only as _NET_WM_NAME; the window is found by the game's process
        id instead, and its name checked.
        """
        if self.process.poll() is not None:
            raise AssertionError(f"the game exited with {self.process.returncode}\n{self.output()}")
        # Each may fail while the window is still being made: then try again.
        search = self.x("xdotool", "search", "--onlyvisible", "--pid", str(self.process.pid), check=False)
        for window in search.split():
            if self.x("xdotool", "getwindowname", window, check=False).strip() != self.TITLE:
                continue
            shell = self.x("xdotool", "getwindowgeometry", "--shell", window, check=False)
            values = dict(line.split("=", 1) for line in shell.split() if "=" in line)
            if not {"X", "Y", "WIDTH", "HEIGHT"} <= values.keys():
                continue
            return window, tuple(int(values[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))  # type: ignore[return-value]
        return None

    def press(self, *keys: str) -> None:
        """Type `keys` (X key names) into the window, one at a time."""
        for name in keys:
            self.x("xdotool", "key", "--window", self.id, name)
            time.sleep(KEY_GAP)

    def press_to_quit(self, name: str) -> None:
        """Type the key that ends the game, then `wait_exit`: the window may be gone
        before xdotool sends the key's release, a BadWindow error that is no failure."""
        self.x("xdotool", "key", "--window", self.id, name, check=False)

    def screenshot(self, name: str, keep: bool = True) -> NDArray[np.uint8]:
        """The window's pixels, (height, width, 3); also kept as `name`.png."""
        if keep:
            self.shots += 1
            path = self.folder / f"run{self.run}-{self.shots:02d}-{name}.png"
        else:
            path = self.folder / f"run{self.run}-{name}.png"
        self.x("import", "-window", "root", f"png:{path}")
        image = np.asarray(tcod.image.Image.from_file(path))[:, :, :3]
        left, top, width, height = self.geometry
        return image[top : top + height, left : left + width]

    def screen_after(self, name: str, before: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """The next screenshot that differs from `before`: the game has drawn a
        new frame; taken again until two in a row agree, so never half drawn."""
        last = before

        def changed() -> NDArray[np.uint8] | None:
            nonlocal last
            shot = self.screenshot(name)
            settled = np.array_equal(shot, last) and not np.array_equal(shot, before)
            last = shot
            return shot if settled else None

        return wait_for(f"the screen to change ({name})", changed, timeout=5)

    def close(self) -> None:
        """Close the window as a window manager does when its close button is clicked.

        `xdotool windowclose` destroys the window under SDL's feet instead (the
        game dies of an X error, unsaved), and this xdotool has no `windowquit`:
        send the WM_DELETE_WINDOW client message ourselves, with Xlib.
        """
        send_wm_delete_window(self.display, int(self.id))

    def wait_exit(self) -> int:
        try:
            return self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the game did not exit\n{self.output()}") from None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        for file in self.log:
            file.close()


class _ClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class _XEvent(ctypes.Union):
    _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]


def send_wm_delete_window(display_name: str, window: int) -> None:
    """Ask `window` to close: the ICCCM WM_DELETE_WINDOW message a window manager sends."""
    assert LIBX11 is not None
    xlib = ctypes.CDLL(LIBX11)
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XInternAtom.restype = ctypes.c_ulong
    xlib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    xlib.XSendEvent.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(_XEvent),
    ]
    xlib.XFlush.argtypes = [ctypes.c_void_p]
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = xlib.XOpenDisplay(display_name.encode())
    assert display, f"cannot open the X display {display_name}"
    try:
        event = _XEvent()
        event.xclient.type = 33  # ClientMessage
        event.xclient.window = window
        event.xclient.message_type = xlib.XInternAtom(display, b"WM_PROTOCOLS", False)
        event.xclient.format = 32
        event.xclient.data[0] = xlib.XInternAtom(display, b"WM_DELETE_WINDOW", False)
        event.xclient.data[1] = 0  # CurrentTime
        assert xlib.XSendEvent(display, window, False, 0, ctypes.byref(event))
        xlib.XFlush(display)
    finally:
        xlib.XCloseDisplay(display)


def assert_not_blank(shot: NDArray[np.uint8], what: str) -> None:
    """Something is drawn: many colours, not one flat fill."""
    assert shot.size, f"the {what} screenshot is empty"
    colours = len(np.unique(shot.reshape(-1, 3), axis=0))
    assert shot.std() > 5 and colours > 8, f"the {what} is blank ({colours} colours, std {shot.std():.1f})"


@pytest.fixture
def display() -> Iterator[str]:
    with virtual_screen() as name:
        yield name


@pytest.fixture
def game_folder(tmp_path: Path) -> Path:
    return tmp_path


@contextlib.contextmanager
def explained(folder: Path) -> Iterator[None]:
    """Add to a failure where to look and what to run to see it again."""
    try:
        yield
    except AssertionError as exc:
        test = os.environ.get("PYTEST_CURRENT_TEST", "tests/test_window.py").rsplit(" ", 1)[0]
        raise AssertionError(
            f"{exc}\nscreenshots and the game's output are in {folder}\n"
            f"to see it again: python -m pytest '{test}'"
        ) from exc


def test_a_real_window_under_xvfb(display: str, game_folder: Path) -> None:
    with explained(game_folder):
        play_in_a_real_window(display, game_folder)


def play_in_a_real_window(display: str, game_folder: Path) -> None:
    save = game_folder / paths.SAVE_NAME

    # First run: menu, N, a few moves, the inventory and out, then close the window.
    window = Window(display, game_folder, 1)
    try:
        assert window.geometry[2:] == (800, 500), "the window is not 80x50 tiles of 10 pixels"
        blank = np.zeros((500, 800, 3), np.uint8)  # Any frame differs from this.
        menu = window.screenshot("menu")
        assert_not_blank(menu, "menu")

        window.press("n")
        game = window.screen_after("map", menu)
        assert_not_blank(game, "map")
        # The map is mostly black, the menu mostly art.
        assert (game == 0).all(axis=2).mean() > (menu == 0).all(axis=2).mean() + 0.2

        window.press("l", "j", "h", "k", "period")
        moved = window.screen_after("moved", blank)  # Settled.
        window.press("i")
        inventory = window.screen_after("inventory", moved)
        window.press("Escape")
        back = window.screen_after("map-again", inventory)
        assert np.array_equal(back, moved), "Escape did not bring the map back as it was"

        # Saved as it started (`autosave`), before the moves.
        started = save.read_bytes()
        window.close()
        assert window.wait_exit() == 0, window.output()
        assert save.read_bytes() != started, f"closing the window did not save\n{window.output()}"
        assert "Game saved." in window.output()
    finally:
        window.stop()

    # Second run: C brings back the same map, and Escape, y in the game saves and quits.
    saved_at = save.stat().st_mtime_ns
    window = Window(display, game_folder, 2)
    try:
        menu_again = window.screenshot("menu")
        # The same menu, but for Continue, shown now that there is a save.
        rows = np.flatnonzero((menu_again != menu).any(axis=(1, 2)))
        assert rows.size and rows.min() >= 23 * 10 and rows.max() < 32 * 10  # The menu's lines.
        window.press("c")
        continued = window.screen_after("continued", menu_again)
        assert np.array_equal(continued, moved), "the continued game does not look as it was left"
        time.sleep(0.05)  # So the new save's time differs from the old.
        window.press("Escape")  # Asks first.
        window.screen_after("save and quit?", continued)
        assert window.process.poll() is None, "Escape quit without asking"
        window.press_to_quit("y")
        assert window.wait_exit() == 0, window.output()
        assert save.stat().st_mtime_ns != saved_at, "Escape, y in the game did not save"
        setup_game.load_game(str(save))  # Whole and loadable.
    finally:
        window.stop()
