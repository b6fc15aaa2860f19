"""Every screen: a window that fits the display (issue 24).

The first window is the largest whole-number scale of the 80x50-tile screen
(800x500 at 1x with 10x10 tiles) that fits the display with `display.MARGIN`
pixels to spare on each axis, centred; after that it opens where the player
left it.  Here `python main.py` runs on Xvfb screens the size of a 4K, a
1080p and a small laptop display, and the window's size and place are read
from the X server (`xwininfo`), not from the game, so that what is checked is
what the player would see.  A bare Xvfb has no window manager: the usable area
is the whole screen, and nothing frames, moves or resizes the window.

Needs Xvfb, xdotool, ImageMagick and x11-utils; skipped without them.

Run alone:  python -m pytest tests/test_first_window.py
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
import test_window
from test_window import MAIN, Window, explained, virtual_screen, wait_for

from saving import paths

MISSING = [tool for tool in ("xwininfo", "xprop") if shutil.which(tool) is None]
NEEDS = f"needs {', '.join(MISSING)} (apt-get install x11-utils)"

pytestmark = [*test_window.pytestmark, pytest.mark.skipif(bool(MISSING), reason=NEEDS)]

Geometry = tuple[int, int, int, int]  # x, y, width, height in pixels.

# Each screen and the first window on it: the scale is
# min((W - 32) // 800, (H - 32) // 500), and the window is centred.
FIRST_WINDOWS: dict[str, Geometry] = {
    "3840x2160": (320, 80, 3200, 2000),  # 4x.
    "1920x1080": (160, 40, 1600, 1000),  # 2x.
    "1366x768": (283, 134, 800, 500),  # 1x: 2x would be 1600 wide.
}


def start(display: str, folder: Path, run: int) -> Window:
    """The game on `display`, its data folder `folder`/data: apart from the
    run's logs, so that options.txt is found only if --data-dir is obeyed."""
    program = (sys.executable, str(MAIN), "--data-dir", str(folder / "data"))
    return Window(display, folder, run, program)


def geometry(window: Window) -> Geometry:
    """The window's place and size as the X server has them."""
    info = window.x("xwininfo", "-id", window.id)
    pattern = r"^\s*(Absolute upper-left [XY]|Width|Height):\s*(-?\d+)$"
    fields = dict(re.findall(pattern, info, re.MULTILINE))
    x, y = int(fields["Absolute upper-left X"]), int(fields["Absolute upper-left Y"])
    return x, y, int(fields["Width"]), int(fields["Height"])


def close(window: Window) -> None:
    """Close the window as its close button does: the game saves its options and exits 0."""
    window.close()
    assert window.wait_exit() == 0, window.output()


def remembered(folder: Path) -> list[str]:
    """The `window = ...` lines of the options file in the data folder."""
    text = (folder / "data" / paths.OPTIONS_NAME).read_text()
    return [line for line in text.splitlines() if line.startswith("window")]


@pytest.mark.parametrize("screen", FIRST_WINDOWS)
def test_the_first_window_is_the_largest_whole_scale_that_fits(screen: str, tmp_path: Path) -> None:
    x, y, width, height = FIRST_WINDOWS[screen]
    with virtual_screen(f"{screen}x24") as display, explained(tmp_path):
        window = start(display, tmp_path, 1)
        try:
            assert geometry(window) == (x, y, width, height), f"on a {screen} screen"
            # No window manager here to hold it to 1x, but one is asked to.
            hints = window.x("xprop", "-id", window.id, "WM_NORMAL_HINTS")
            assert "minimum size: 800 by 500" in hints, hints
            close(window)
        finally:
            window.stop()
        assert remembered(tmp_path) == [f"window = {width}x{height}+{x}+{y}"]


def test_a_resized_and_moved_window_opens_again_as_it_was_left(tmp_path: Path) -> None:
    # Neither a whole scale nor centred: only remembering puts it here again.
    left: Geometry = (100, 60, 1234, 777)
    with virtual_screen("1920x1080x24") as display, explained(tmp_path):
        window = start(display, tmp_path, 1)
        try:
            assert geometry(window) == FIRST_WINDOWS["1920x1080"]
            window.x("xdotool", "windowsize", window.id, "1234", "777")
            window.x("xdotool", "windowmove", window.id, "100", "60")
            wait_for("the window to be resized and moved", lambda: geometry(window) == left or None)
            close(window)
        finally:
            window.stop()
        assert remembered(tmp_path) == ["window = 1234x777+100+60"]

        window = start(display, tmp_path, 2)
        try:
            assert geometry(window) == left, "the second start did not open where the first left"
            close(window)
        finally:
            window.stop()
        assert remembered(tmp_path) == ["window = 1234x777+100+60"]
