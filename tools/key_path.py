#!/usr/bin/env python3
"""Trace one key press through this game, and through the tutorial's, the same way.

    python tools/key_path.py                    # this game: one line
    python tools/key_path.py --tutorial PATH    # and the 2020 tutorial's final code (part 13)
    python tools/key_path.py --list ...         # and the modules and functions crossed

One key press is a wait on the numpad (KP_5, the tutorial's WAIT key) in the dungeon of a new,
seeded game: from the moment the main loop has the event to the moment it asks for the next
one.  That is the handler's answer (the wait, the enemies' turns, the field of view), the
recording and the after-frame work this game's loop does (the recording's new lines, the
autosave's check), and the next frame drawn and presented.

Each game is run whole, by its own `main()`, in a window under SDL's dummy video driver (nothing
shows) with a real tcod console; only `tcod.event.wait` is replaced, by the key presses: N on the
main menu, a first KP_5 that warms up what a game's first turn loads once, then the traced KP_5.
Tracing starts when `wait` returns that press and stops when the loop calls `wait` again, so the
tool knows nothing of either loop's insides (`run_this_game` and `run_tutorial` are the only
functions that know how a game starts).

`sys.setprofile` counts each 'call' of a Python function whose code is the game's own (its
`.py` files; not `tests/` nor `tools/`): the standard library, tcod and numpy are left out,
and calls into C are not counted at all.  A generator resumed counts once, as its first
call; comprehensions and generator expressions are not counted (they are expressions, and
Python 3.12 inlines the first).  Modules are the code files entered.

Each game runs in a child process of its own (both have modules named `engine`,
`actions`...), with PYTHONHASHSEED fixed.  The tutorial runs unchanged on today's tcod: its
deprecation warnings are silenced, and it runs in its own folder, where it loads its images.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import types
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

# Before tcod is first imported: a window of SDL's dummy driver shows nothing.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import tcod

ROOT = Path(__file__).resolve().parent.parent
SEED = 1234
NOT_THE_GAME = ("tests", "tools")
# Code that is an expression, not a function: 3.12 inlines the first three.
EXPRESSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})
RESUMABLE = 0x20 | 0x80 | 0x200  # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR.
PAGE = Path("docs") / "house.md"
START = "<!-- key path: made by tools/key_path.py; do not edit -->\n"
END = "<!-- end key path -->"


@dataclass
class KeyPath:
    """What one key press crossed: calls by module (code file) and by function; and the
    part of them made before the next frame began to be drawn (`handled`: the first
    call of an `on_render`), the handling of the press alone."""

    modules: Counter[str] = field(default_factory=Counter)
    functions: Counter[str] = field(default_factory=Counter)
    handled: Counter[str] = field(default_factory=Counter)  # By function.
    reaching: Counter[str] = field(default_factory=Counter)  # By function, before `ev_keydown`.

    @property
    def calls(self) -> int:
        return self.functions.total()

    def until_drawn(self) -> KeyPath:
        """The part of the path before the frame is drawn, as a path of its own."""
        return self.part(self.handled)

    def to_the_handler(self) -> KeyPath:
        """The part of the path from the loop to the screen that handles the key (before its
        `ev_keydown` is called): what carries a press to its handler."""
        return self.part(self.reaching)

    @staticmethod
    def part(functions: Counter[str]) -> KeyPath:
        """A path of its own made of some of the `functions` crossed."""
        modules: Counter[str] = Counter()
        for name, calls in functions.items():
            modules[name.split(":")[0]] += calls
        return KeyPath(modules, Counter(functions))

    def to_json(self) -> str:
        parts = {"modules": self.modules, "functions": self.functions}
        return json.dumps({**parts, "handled": self.handled, "reaching": self.reaching})

    @classmethod
    def from_json(cls, text: str) -> KeyPath:
        data = json.loads(text)
        counts = (Counter(data[name]) for name in ("modules", "functions", "handled", "reaching"))
        return cls(*counts)


class Tracer:
    """Counts the calls into one game's code between `start` and `stop` (`sys.setprofile`)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.path = KeyPath()
        self.files: dict[str, str | None] = {}  # A code file's name in the game, or None.
        self.resumable: list[types.FrameType] = []  # Kept alive, so no id is used twice.
        self.entered: set[int] = set()
        self.drawing = False  # Whether the next frame has begun to be drawn.
        self.handling = False  # Whether the press has reached its handler (`ev_keydown`).

    def start(self) -> None:
        sys.setprofile(self.profile)

    def stop(self) -> None:
        sys.setprofile(None)
        self.resumable.clear()
        self.entered.clear()

    def module(self, filename: str) -> str | None:
        """The game's name for a code file (its path from the root), or None if not the game's."""
        if filename not in self.files:
            path = Path(filename).resolve()
            inside = path.is_relative_to(self.root) and path.suffix == ".py"
            relative = path.relative_to(self.root).as_posix() if inside else ""
            self.files[filename] = relative if inside and relative.split("/")[0] not in NOT_THE_GAME else None
        return self.files[filename]

    def profile(self, frame: types.FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        code = frame.f_code
        module = self.module(code.co_filename)
        if module is None or code.co_name in EXPRESSIONS:
            return
        if code.co_flags & RESUMABLE:
            if id(frame) in self.entered:
                return  # Resumed, not called.
            self.entered.add(id(frame))
            self.resumable.append(frame)
        self.drawing = self.drawing or code.co_name == "on_render"
        self.handling = self.handling or code.co_name == "ev_keydown"
        name = f"{module}:{code.co_qualname}"
        self.path.modules[module] += 1
        self.path.functions[name] += 1
        if not self.drawing:
            self.path.handled[name] += 1
        if not self.handling:
            self.path.reaching[name] += 1


class Presses:
    """The key presses, as `tcod.event.wait` gives them: one batch a call.  Tracing starts
    as the last batch is handed over and stops when the loop asks for more; `then` is
    called for what follows (it ends the game)."""

    def __init__(
        self,
        tracer: Tracer,
        batches: list[list[tcod.event.Event]],
        then: Callable[[], list[tcod.event.Event]],
    ) -> None:
        self.tracer, self.batches, self.then = tracer, batches, then

    def __call__(self, timeout: float | None = None) -> Iterable[tcod.event.Event]:
        if not self.batches:
            self.tracer.stop()
            return self.then()
        batch = self.batches.pop(0)
        if not self.batches:
            self.tracer.start()
        return batch


def key(sym: tcod.event.KeySym) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=tcod.event.Modifier.NONE)


def presses() -> list[list[tcod.event.Event]]:
    """N on the main menu, a first wait (what a first turn loads once), the traced wait."""
    return [[key(tcod.event.KeySym.N)], [key(tcod.event.KeySym.KP_5)], [key(tcod.event.KeySym.KP_5)]]


def run_this_game(root: Path = ROOT) -> KeyPath:
    """This game's key path: `main.main` with a new game's seed and a data folder of its own,
    ended by a Quit (which saves there) after the traced press.

    The only function that knows how this game starts; the loop it runs is its own.
    """
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    import main
    from saving import paths

    tracer = Tracer(root)
    wait = Presses(tracer, presses(), lambda: [tcod.event.Quit()])
    real_wait, data_dir = tcod.event.wait, paths.data_dir()
    tcod.event.wait = wait  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            status = main.main(["--seed", str(SEED), "--data-dir", folder])
    finally:
        tracer.stop()
        tcod.event.wait = real_wait
        paths.use_data_dir(data_dir)
    if status != 0 or wait.batches:
        raise RuntimeError(f"the game ended before the traced key press was handled (status {status})")
    return tracer.path


def run_tutorial(folder: Path) -> KeyPath:
    """The tutorial's key path: its `main.main`, in its folder, its `random` seeded; ended
    by its own `QuitWithoutSaving` after the traced press, so that it saves nothing.

    The only function that knows how the tutorial starts.  Run it in a process of its own:
    the tutorial's modules have this game's names.
    """
    warnings.simplefilter("ignore")  # Today's tcod deprecates much of what it uses.
    folder = folder.resolve()
    os.chdir(folder)  # It loads its tile sheet and menu picture from the working directory.
    sys.path.insert(0, str(folder))
    tutorial_main = importlib.import_module("main")
    exceptions = importlib.import_module("exceptions")

    def quit_without_saving() -> list[tcod.event.Event]:
        raise exceptions.QuitWithoutSaving()

    tracer = Tracer(folder)
    wait = Presses(tracer, presses(), quit_without_saving)
    tcod.event.wait = wait  # type: ignore[assignment]
    random.seed(SEED)
    try:
        tutorial_main.main()
    except exceptions.QuitWithoutSaving:
        pass
    finally:
        tracer.stop()
    if wait.batches:
        raise RuntimeError("the tutorial ended before the traced key press was handled")
    return tracer.path


def in_child(game: str) -> KeyPath:
    """`game` ("this" or the tutorial's folder) traced in a process of its own."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with tempfile.TemporaryDirectory() as folder:  # The working directory: nothing lands in ours.
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", game],
            cwd=folder, env=env, capture_output=True, text=True, check=False,
        )
    if done.returncode != 0:
        raise SystemExit(f"tracing {game} failed:\n{done.stderr}")
    return KeyPath.from_json(done.stdout.splitlines()[-1])


@dataclass
class Runs:
    """The same key press traced several times: its figures, and whether they held."""

    name: str
    paths: list[KeyPath]

    def figures(self) -> dict[str, list[int]]:
        """Each figure's value in each run."""
        return {
            "modules": [len(path.modules) for path in self.paths],
            "functions": [len(path.functions) for path in self.paths],
            "calls": [path.calls for path in self.paths],
        }

    @property
    def stable(self) -> bool:
        return all(path == self.paths[0] for path in self.paths)

    def summary(self) -> str:
        """One line: each figure, or its range where the runs differ."""
        said = ", ".join(f"{spread(values)} {name}" for name, values in self.figures().items())
        held = "the same in every run" if self.stable else "not the same in every run"
        return f"{self.name}: {said} ({held}; {len(self.paths)} runs)"

    def listing(self) -> Iterator[str]:
        """The modules, then the functions, each with its calls (a range where runs differ)."""
        for title, counts in (("modules", [p.modules for p in self.paths]), ("functions", [p.functions for p in self.paths])):
            yield f"  {title}:"
            names = sorted(set().union(*counts), key=lambda name: (-counts[0][name], name))
            yield from (f"    {spread([c[name] for c in counts]):>7} {name}" for name in names)


def spread(values: list[int]) -> str:
    low, high = min(values), max(values)
    return f"{low:,}" if low == high else f"{low:,} to {high:,}"


def commit(folder: Path) -> str:
    """The commit a folder's tree is at (with "-dirty" for changes not committed), if git says."""
    done = subprocess.run(
        ["git", "-C", str(folder), "describe", "--always", "--dirty", "--abbrev=7"],
        capture_output=True, text=True, check=False,
    )
    return done.stdout.strip() if done.returncode == 0 else "not known"


def section(traced: list[Runs], tutorial_folder: Path) -> str:
    """The page's key path section, markers included: only figures that held in every run."""
    rows = "".join(
        f"| {runs.name} | "
        + " | ".join(
            spread(values) if len(set(values)) == 1 else "varies from run to run"
            for values in runs.figures().values()
        )
        + " |\n"
        for runs in traced
    )
    return (
        f"{START}### One key press, traced\n\n"
        + textwrap.fill(
            f"A wait (KP_5) in the dungeon of a new game (seed {SEED}), from the moment the main loop "
            "has the event to the moment it asks for the next: the handler's answer, recording, the "
            "after-frame work and the frame drawn; and of those, the calls made before the next frame "
            "begins to be drawn (the first `on_render`): the press handled and recorded; and of "
            "those, the calls that carry it from the loop to its handler (before its `ev_keydown`). Measured by `python tools/key_path.py --tutorial "
            f"PATH --write` on {datetime.date.today().isoformat()}, this game at commit "
            f"{commit(ROOT)}, the tutorial's part 13 at {commit(tutorial_folder)}, each run "
            f"{len(traced[0].paths)} times; what differed between runs is not written. Calls are the calls "
            "of Python functions in the game's own files (a generator's once); C calls, the standard "
            "library, tcod and numpy are not counted. Not checked by the tests: the loop changes.",
            100, break_long_words=False, break_on_hyphens=False,
        )
        + f"\n\n| | modules | functions | calls |\n| --- | --- | --- | --- |\n{rows}{END}"
    )


def write(page: Path, text: str) -> None:
    """Put `text` in place of the page's key path section (its markers must be there)."""
    old = page.read_text(encoding="utf-8")
    start, end = old.find(START), old.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{page}: no {START.strip()} ... {END} section to write in")
    page.write_text(old[:start] + text + old[end + len(END) :], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tutorial", type=Path, help="a checkout of the tutorial's part 13")
    parser.add_argument("--list", action="store_true", help="list the modules and functions crossed")
    parser.add_argument("--runs", type=int, default=3, help="traces of each game, to see they agree (3)")
    parser.add_argument("--write", action="store_true", help="write the figures that held into docs/house.md")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # "this" or a tutorial's folder.
    args = parser.parse_args(argv)
    if args.child is not None:
        path = run_this_game() if args.child == "this" else run_tutorial(Path(args.child))
        print(path.to_json())
        return 0
    if args.write and args.tutorial is None:
        parser.error("--write needs --tutorial: the page shows both games")
    games = [("this game", "this")]
    if args.tutorial is not None:
        games.append(("the tutorial", str(args.tutorial)))
    traced = []
    for name, game in games:
        whole = Runs(name, [in_child(game) for _ in range(args.runs)])
        handled = Runs(f"{name}, until the frame is drawn", [path.until_drawn() for path in whole.paths])
        reaching = Runs(f"{name}, to the key's handler", [path.to_the_handler() for path in whole.paths])
        for runs in (whole, handled, reaching):
            traced.append(runs)
            print(runs.summary())
            if args.list:
                print("\n".join(runs.listing()))
    if args.write:
        write(ROOT / PAGE, section(traced, args.tutorial))
    return 0


if __name__ == "__main__":
    sys.exit(main())
