"""The game in a real terminal for the tests: `python main.py --terminal` in a tmux
pane, keys sent with `send-keys`, the screen read with `capture-pane`.

Also `next_key`: the keys a simple player presses to get down the stairs, read from
the screen alone, so that a test can play on to floor 3 as a person would.
"""

from __future__ import annotations

import itertools
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

from game_map import MAP_HEIGHT

ROOT: Final = Path(__file__).resolve().parent.parent

# How long to wait for the screen to show what a test expects before failing:
# a bound on a hang, never a measure (the machine may be busy).
PATIENCE: Final = 30.0
# Lines kept of what scrolled off the pane's top.
HISTORY: Final = 100_000
# A screen unchanged this long has settled: a walk under way changes it every step.
SETTLED: Final = 0.4

_names = itertools.count()


def have_tmux() -> bool:
    return shutil.which("tmux") is not None


class Pane:
    """A tmux server of its own with one pane of `columns` x `rows` running `command`
    in `folder`; after the command ends, the pane's shell records its exit status and
    the terminal's modes, and waits."""

    def __init__(self, folder: Path, columns: int = 80, rows: int = 50) -> None:
        self.folder = folder
        self.server = ""
        self.columns, self.rows = columns, rows

    def start(
        self,
        *args: str,
        colorterm: str = "truecolor",
        front: str = "--terminal",
        unset: tuple[str, ...] = (),
        shell_says: str = "",
    ) -> None:
        """Run the game with `args` (after `front`, `--terminal` or `--screen-reader`),
        the variables `unset` taken out of its environment, once the pane's shell has
        written the line `shell_says` (if any); `status` will hold its exit status."""
        without = [f"-u {name}" for name in unset]
        game = " ".join(["env", *without, sys.executable, str(ROOT / "main.py"), front, *args])
        said = f"echo {shlex.quote(shell_says)}; " if shell_says else ""
        # The terminal's settings after the game are kept before its status is: a test that
        # sees the status may read them at once (the other way round, it once read them empty).
        script = f"{said}stty -g > stty-before; {game}; s=$?; stty -g > stty-after; echo $s > status; sleep 600"
        for name in ("status", "stty-before", "stty-after"):
            (self.folder / name).unlink(missing_ok=True)
        self.server = f"game-{os.getpid()}-{next(_names)}"  # A server of its own each time.
        self.tmux(
            # Lines a screen reader reads scroll: all of a game's are kept.
            "start-server", ";", "set-option", "-g", "history-limit", str(HISTORY), ";",
            "new-session", "-d", "-s", "game", "-c", str(self.folder),
            "-x", str(self.columns), "-y", str(self.rows),
            "-e", f"COLORTERM={colorterm}", "sh", "-c", script,
        )  # fmt: skip

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.server, *args], capture_output=True, text=True)
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def send(self, *keys: str) -> None:
        """Send tmux key names (`Escape`, `Up`, `F1`), one at a time, as a player types them."""
        for key in keys:
            self.tmux("send-keys", "-t", "game", key)

    def type(self, text: str) -> None:
        """Type `text` literally (`>` and `?` are no key names to tmux)."""
        # A `;` that ends an argument ends a tmux command, unless escaped.
        self.tmux("send-keys", "-t", "game", "-l", text[:-1] + "\\;" if text.endswith(";") else text)

    def screen(self) -> list[str]:
        """The pane's lines as shown now, trailing blanks cut."""
        return [line.rstrip() for line in self.tmux("capture-pane", "-p", "-t", "game").split("\n")][: self.rows]

    def history(self) -> list[str]:
        """Every line the pane has shown, those scrolled off the top first, trailing blanks cut."""
        text = self.tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", "game")
        return [line.rstrip() for line in text.split("\n")]

    def text(self) -> str:
        return "\n".join(self.screen())

    def wait_for(self, wanted: str, gone: bool = False) -> list[str]:
        """The screen once it shows `wanted` (or once it no longer does); AssertionError,
        with the screen, if it does not in `PATIENCE` seconds."""
        deadline = time.monotonic() + PATIENCE
        while True:
            screen = self.screen()
            if (wanted in "\n".join(screen)) != gone:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{wanted!r} {'stayed' if gone else 'never came'}:\n" + "\n".join(screen))
            time.sleep(0.05)

    def wait_for_screen(self, wanted: list[str]) -> None:
        """Until the pane shows exactly `wanted`; AssertionError, with both, if it does
        not in `PATIENCE` seconds."""
        deadline = time.monotonic() + PATIENCE
        while (screen := self.screen()) != wanted:
            if time.monotonic() > deadline:
                raise AssertionError(
                    "the pane shows:\n" + "\n".join(screen) + "\nnot:\n" + "\n".join(wanted)
                )
            time.sleep(0.02)

    def wait_for_change(self, screen: list[str]) -> None:
        """Until the pane shows something other than `screen` (within `PATIENCE` seconds)."""
        deadline = time.monotonic() + PATIENCE
        while self.screen() == screen:
            if time.monotonic() > deadline:
                raise AssertionError("the screen never changed:\n" + "\n".join(screen))
            time.sleep(0.02)

    def settled(self) -> list[str]:
        """The screen once it stopped changing (a walk ended)."""
        deadline = time.monotonic() + PATIENCE
        last = self.screen()
        while time.monotonic() < deadline:
            time.sleep(SETTLED)
            now = self.screen()
            if now == last:
                return now
            last = now
        raise AssertionError("the screen never settled:\n" + "\n".join(last))

    def exit_status(self) -> int:
        """The game's exit status, once it has ended."""
        path = self.folder / "status"
        deadline = time.monotonic() + PATIENCE
        while not (path.exists() and path.read_text().strip()):
            if time.monotonic() > deadline:
                raise AssertionError("the game did not end:\n" + self.text())
            time.sleep(0.05)
        return int(path.read_text())

    def game_pid(self) -> int:
        """The game's process: the child of the pane's shell."""
        shell = int(self.tmux("display-message", "-p", "-t", "game", "#{pane_pid}").strip())
        children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
        return int(children[0])

    def resize(self, columns: int, rows: int) -> None:
        self.tmux("resize-window", "-t", "game", "-x", str(columns), "-y", str(rows))
        self.columns, self.rows = columns, rows

    def shows(self, variable: str) -> str:
        """A tmux format variable of the pane (`alternate_on`, `cursor_flag`)."""
        return self.tmux("display-message", "-p", "-t", "game", f"#{{{variable}}}").strip()

    def close(self) -> None:
        if self.server:
            subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True, check=False)


def find(screen: list[str], wanted: str) -> tuple[int, int] | None:
    """Where `wanted` is first drawn on the map, as (x, y)."""
    for y, line in enumerate(screen[:MAP_HEIGHT]):
        if wanted in line:
            return (line.index(wanted), y)
    return None


def monsters(screen: list[str]) -> list[tuple[int, int]]:
    """Where the map shows a monster (a letter: only monsters in view are drawn)."""
    return [
        (x, y)
        for y, line in enumerate(screen[:MAP_HEIGHT])
        for x, char in enumerate(line)
        if char.isalpha()
    ]


# The vi key of each step, by (dx, dy).
STEP_KEYS: Final = {
    (-1, 0): "h", (1, 0): "l", (0, -1): "k", (0, 1): "j",
    (-1, -1): "y", (1, -1): "u", (-1, 1): "b", (1, 1): "n",
}  # fmt: skip


def next_key(screen: list[str], waited: int) -> str:
    """What a simple player presses next to get down the stairs: a level-up's first
    choice; at a monster next to them, a blow; a monster in view, wait for it to come
    (`waited` times so far; after 5, walk at it); else down the stairs once seen
    (`>` walks there; the player may stand on them, where explore ends), else explore."""
    if any("Level Up" in line for line in screen):
        return "a"
    player = find(screen, "@")
    seen = monsters(screen)
    if player is not None and seen:
        nearest = min(seen, key=lambda at: max(abs(at[0] - player[0]), abs(at[1] - player[1])))
        dx, dy = nearest[0] - player[0], nearest[1] - player[1]
        if max(abs(dx), abs(dy)) == 1 or waited >= 5:
            return STEP_KEYS[((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))]
        return "."
    latest = next((line for line in reversed(screen) if line.strip()), "")
    return ">" if find(screen, ">") is not None or "Nothing left" in latest else "x"
