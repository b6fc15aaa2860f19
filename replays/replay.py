"""Playing a recording back, in the window or headless, and the headless report.

Each line is pressed as the player's events are (`Screens.press`), so the real
handlers do what they did in play.  In the
window the pace only decides when the next line is played, never what it does,
so a replay ends in the same state at any speed, or with no window at all.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

import tcod

import input_handlers
import setup_game
from controls import keys
from engine import Engine
from entity import Actor
from replays import daily, record_format, record_reader, recording, replay_lines, rules
from replays.record_format import Recorded, Steps
from replays.record_reader import Script
from saving import paths, safe_io
from screens.base import Quit
from screens.stack import Screens
from window import display_area, error_report
from window.options import Settings
from words import program

# Events a second in the window; + and - double and halve it within these bounds.
DEFAULT_SPEED: Final = 8.0
SLOWEST: Final = 0.5
FASTEST: Final = 512.0

TAKEN_OVER: Final = "The replay is over: a key of the game asks to play on from here as your own."
OVER: Final = "The replay is over, and so was its game: there is nothing to play on."

# How many of the last messages the headless report lists.
REPORT_MESSAGES: Final = 5


def start(script: Script, viewer: Settings | None = None) -> input_handlers.MainGameEventHandler:
    """The screen a recording's events start on: the dungeon of a new game with its seed,
    played by the keys and options its header names (`rules`), whatever the `viewer`'s.

    The new game's recording gets the same header, so that the replayed
    events, recorded again as they are played, rebuild it.  Its settings are
    its own: an option changed in it is never written to the player's file.
    """
    settings = rules.settings_of(script.version, script.rules, viewer or Settings())
    engine = setup_game.new_game(script.seed, settings, daily_of(script))
    if not record_format.letters_by_kind(script.version):
        engine.player.inventory.by_kind = False
    if script.version < rules.SINCE_VERSION:
        engine.recording = recording.Lines.of(
            record_format.header(script.seed, script.version, daily=daily_of(script))
        )
    return input_handlers.MainGameEventHandler(engine)


def daily_of(script: Script) -> str | None:
    """The date of the daily game a recording says it is, if its seed is that date's."""
    date = None if script.daily is None else daily.date_of(script.daily)
    return script.daily if date is not None and daily.seed_of(date) == script.seed else None


def over_menu(first: input_handlers.BaseEventHandler, settings: Settings) -> Screens:
    """The screens of a replay: its first screen, over a main menu of `settings`, where
    the replayed game goes back to when it is left finished."""
    return Screens(setup_game.MainMenu(settings), first)


def summary(screens: Screens, engine: Engine | None = None) -> dict[str, Any]:
    """Where the game stands, as `--replay FILE --headless` prints it (plain data).

    `engine` is the game played, for when the screen no longer shows it (after a death).
    """
    report: dict[str, Any] = {"screen": type(screens.top).__name__}
    engine = engine or screens.engine
    if engine is None:
        return report
    player = engine.player
    game_map = engine.game_map
    monsters = sorted(game_map.monsters_in_view, key=lambda actor: (actor.y, actor.x))
    report.update(
        seed=engine.game_world.seed,
        floor=engine.game_world.current_floor,
        turns=engine.turns,
        player={
            "x": player.x,
            "y": player.y,
            "hp": player.fighter.hp,
            "max_hp": player.fighter.max_hp,
            "level": player.level.current_level,
            "xp": player.level.current_xp,
            "power": player.fighter.power,
            "defense": player.fighter.defense,
        },
        explored=int(game_map.explored.sum()),
        walkable=int(game_map.tiles["walkable"].sum()),
        inventory=[item.name for item in player.inventory.items],
        kills=dict(sorted(engine.kills.items())),
        messages=[m.full_text for m in engine.message_log.messages[-REPORT_MESSAGES:]],
        in_view=[_monster(actor) for actor in monsters],
    )
    return report


def _monster(actor: Actor) -> dict[str, Any]:
    return {"name": actor.name, "x": actor.x, "y": actor.y, "hp": actor.fighter.hp}


def screen_text(console: tcod.console.Console) -> str:
    """A frame's characters as text, one line per console row, trailing blanks cut."""
    rows = console.ch.T if console.ch.shape == (console.width, console.height) else console.ch
    lines = ["".join(chr(code) if code else " " for code in row.tolist()).rstrip() for row in rows]
    return "\n".join(lines) + "\n"


class Playback:
    """Sends a recording's events one by one at a watchable pace, in the window.

    While it plays, nothing else the player does reaches the game (or it
    would be recorded too); only the playback keys and closing the window act.
    The events are read one ahead as they play (`recording.Checked.events`), so
    a recording of any length takes no more memory; `total` of them.
    """

    def __init__(self, events: Iterable[Recorded], speed: float = DEFAULT_SPEED, total: int | None = None) -> None:
        self.events = iter(events)
        self.total = len(events) if total is None and isinstance(events, list) else total
        self.problem: str | None = None  # Why the replay stopped before the end, if it did.
        self.upcoming = self._read()
        self.played = 0
        self.speed = speed
        self.paused = False
        self.stopped = False
        # Whether the player has pressed anything since the replay ended (`status`).
        self.handed_over = False
        self.due = time.monotonic()

    @property
    def finished(self) -> bool:
        return self.stopped or self.upcoming is None

    def _read(self) -> Recorded | None:
        """The next event, None at the end, or at a line that can't be played (a file
        changed since it was checked): `problem` says which."""
        try:
            return next(self.events, None)
        except record_reader.RecordingError as exc:
            self.problem = str(exc)
            return None

    def timeout(self) -> float | None:
        """How long to wait for the player before the next event is due (None: until input)."""
        if self.paused:
            return None
        return max(0.0, self.due - time.monotonic())

    def control(self, event: tcod.event.Event) -> None:
        """Act on a live event: the playback keys."""
        if not isinstance(event, tcod.event.KeyDown | tcod.event.TextInput) or keys.does_nothing(
            event
        ):
            return
        match keys.PLAYBACK_KEYS.get(keys.key_of(event)):
            case keys.Command.PAUSE_REPLAY:
                self.paused = not self.paused
                self.due = time.monotonic()
            case keys.Command.FASTER:
                self.speed = min(FASTEST, self.speed * 2)
            case keys.Command.SLOWER:
                self.speed = max(SLOWEST, self.speed / 2)
            case keys.Command.STOP_REPLAY:
                self.stopped = True

    def walk_goes_on(self, steps: int) -> bool:
        """Whether a walk that has taken `steps` steps takes another before the next line.

        Not when that line is the `steps N` that stops it here, nor a pointer
        move, which came during the walk.
        """
        if self.finished:
            return False
        upcoming = self.upcoming
        if isinstance(upcoming, tcod.event.MouseMotion):
            return False
        return not (isinstance(upcoming, Steps) and steps >= upcoming.count)

    def next_event(self) -> Recorded | None:
        """The next recorded event if its time has come, else None."""
        if self.finished or self.paused or time.monotonic() < self.due:
            return None
        event = self.upcoming
        self.upcoming = self._read()
        self.played += 1
        self.due = max(self.due + 1 / self.speed, time.monotonic() - 1 / self.speed)
        return event

    def status(self) -> str | None:
        """The line the window shows while a recording plays; once it is over,
        that the player has the keys, until they use them; then none."""
        if self.finished:
            if self.handed_over:
                return None
            return TAKEN_OVER if self.problem is None else f"Replay stopped: {self.problem}"
        state = "paused" if self.paused else f"{self.speed:g} events/s"
        of = "" if self.total is None else f"/{self.total}"
        # Served, the replay's page takes Space, + and - alone (docs/browser.md).
        stop = "" if paths.served() else ", Esc: stop"
        return f"Replay {self.played}{of}, {state}. Space: pause, +/-: speed{stop}"


def play_frame(
    screens: Screens,
    playback: Playback,
    events: Callable[..., Iterable[tcod.event.Event]] | None = None,
) -> None:
    """One frame of a replay in the window: the playback keys, then the next
    recorded event when due.

    A walk the event starts is taken with it, to where the recording has it
    stop, as one event at the replay's speed (drawn step by step, 497 events
    at 512 a second took two minutes).

    `events` waits for the player's keys, as `tcod.event.wait` (the default) does.
    """
    source, timeout = events or tcod.event.wait, playback.timeout()
    for event in source() if timeout is None else source(timeout):
        if isinstance(event, tcod.event.Quit):  # Closing the window quits.
            screens.apply(Quit())
            return
        playback.control(event)
    steps = screens.walk_steps()
    if playback.stopped and steps is not None:
        # Escape stops the replay and a walk it left under way, as a key stops
        # a walk in play (and is recorded so): the player's next key is theirs.
        replay_lines.play_steps(screens, steps)
        return
    recorded = playback.next_event()
    if recorded is None:
        return
    replay_lines.replay_line(screens, recorded)
    while (steps := screens.walk_steps()) is not None and playback.walk_goes_on(steps):
        screens.step()


def replay_headless(path: Path, screen: Path | None, settings: Settings | None = None) -> int:
    """`--replay FILE --headless`: one line of JSON about where the game ended."""
    if screen is not None and paths.is_players_file(screen):
        print(f"main.py: --screen will not write over {screen}, a file of the game's "
              "in the data folder: name another file", file=sys.stderr)
        return 1
    try:
        reader = record_reader.stream(path)
        # Nothing is written while it plays: the main loop, which writes play's files, never runs;
        # the game's own recording keeps no line (`Lines.keep`), so memory does not grow with it.
        first = start(reader.script, settings)
        first.engine.recording.forget()
        screens = play_recording(first, reader.events())
    except record_reader.RecordingError as exc:
        print(f"{program.name()}: {exc}", file=sys.stderr)
        return 1
    return report(screens, first, screen)


def report(
    screens: Screens | None,
    first: input_handlers.MainGameEventHandler | None,
    screen: Path | None,
) -> int:
    """Print where a headless replay ended (and write its last frame to `screen`); 0 if done."""
    if screens is None or first is None:
        print(f"{program.name()}: the recording holds no game yet", file=sys.stderr)
        return 1
    console = tcod.console.Console(display_area.COLUMNS, display_area.ROWS, order="F")
    screens.draw(console)
    import json  # Only a headless replay prints it: the window's start-up pays nothing for it.

    print(json.dumps(summary(screens, first.engine)))
    if screen is not None:
        try:
            safe_io.write_atomic(screen, screen_text(console).encode("utf-8"))
        except OSError as exc:
            print(
                f"{program.name()}: cannot write the screen to {screen}: {error_report.reason(exc)}",
                file=sys.stderr,
            )
            return 1
    return 0


def play_recording(first: input_handlers.MainGameEventHandler, events: Iterable[Recorded]) -> Screens:
    """Play recorded events from `first` as fast as they go (`replay_lines.play_lines`);
    a game left when finished ends on the main menu, as in the window."""
    screens = over_menu(first, first.engine.settings)
    replay_lines.play_lines(screens, events)
    return screens
