"""main.py's real loop, with a real tcod context (dummy video driver), real events."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
import tcod
from conftest import key
from tcod.event import KeySym

import actions
import input_handlers
import keys
import main
import savefile
import setup_game
from engine import Engine

Frame = Iterable[tcod.event.Event] | Callable[[], Iterable[tcod.event.Event]]


class Script:
    """An event source for `main.main_loop`: one batch of events per frame.

    A batch may be a callable, run when its frame comes, so it can look at
    the game before choosing its events.  Each call is one presented frame.
    """

    def __init__(self, *frames: Frame) -> None:
        self.frames = list(frames)
        self.calls = 0

    def __call__(self) -> Iterable[tcod.event.Event]:
        if self.calls >= len(self.frames):
            raise AssertionError("the loop asked for events after the script's end")
        frame = self.frames[self.calls]
        self.calls += 1
        return list(frame() if callable(frame) else frame)


@pytest.fixture
def root_console() -> tcod.console.Console:
    return tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")


@pytest.fixture
def presents(context: tcod.context.Context, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every frame `context.present` shows: its keep_aspect flag, in order."""
    shown: list[bool] = []
    real_present = context.present

    def present(console: tcod.console.Console, **kwargs: object) -> None:
        shown.append(bool(kwargs.get("keep_aspect")))
        real_present(console, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "present", present)
    return shown


def open_step(engine: Engine) -> tuple[KeySym, tuple[int, int]]:
    """A vi key that moves the player onto an empty floor tile, and where to."""
    player = engine.player
    for sym in (KeySym.H, KeySym.J, KeySym.K, KeySym.L, KeySym.Y, KeySym.U, KeySym.B, KeySym.N):
        dx, dy = keys.MOVE_KEYS[sym]
        x, y = player.x + dx, player.y + dy
        walkable = engine.game_map.tiles["walkable"][x, y]
        if walkable and engine.game_map.get_blocking_entity_at_location(x, y) is None:
            return sym, (x, y)
    raise AssertionError("the player is walled in")


def test_menu_new_game_moves_and_quit_saves(
    in_tmp: Path,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[Engine] = []
    real_new_game = setup_game.new_game

    def new_game(seed: int | None = None) -> Engine:
        started.append(real_new_game(seed))
        return started[-1]

    monkeypatch.setattr(setup_game, "new_game", new_game)
    moves: list[tuple[int, int]] = []

    def step() -> list[tcod.event.Event]:
        sym, destination = open_step(started[0])
        moves.append(destination)
        return [key(sym)]

    script = Script([key(KeySym.N)], step, step, step, [tcod.event.Quit()])

    main.main_loop(context, root_console, setup_game.MainMenu(seed=1234), script)  # Returns.

    assert len(started) == 1  # N started one game.
    assert script.calls == 5
    assert presents == [True] * 5  # One frame before each batch, keeping the aspect.
    saved = savefile.load(savefile.SAVE_FILENAME)
    assert (saved.player.x, saved.player.y) == moves[-1]
    assert (started[0].player.x, started[0].player.y) == moves[-1]


def test_an_exception_in_a_turn_is_reported_and_play_goes_on(
    in_tmp: Path,
    engine: Engine,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    real_perform = actions.WaitAction.perform
    performed: list[str] = []

    def perform(self: actions.WaitAction) -> None:
        if self.entity is not engine.player:  # Monsters wait too.
            real_perform(self)
            return
        if not performed:
            performed.append("raised")
            raise RuntimeError("the floor gave way")
        performed.append("waited")
        real_perform(self)

    monkeypatch.setattr(actions.WaitAction, "perform", perform)
    script = Script([key(KeySym.PERIOD)], [key(KeySym.PERIOD)], [tcod.event.Quit()])

    main.main_loop(context, root_console, input_handlers.MainGameEventHandler(engine), script)

    assert performed == ["raised", "waited"]  # The second turn was played.
    assert script.calls == 3
    assert len(presents) == 3
    err = capsys.readouterr().err
    assert "Traceback" in err
    assert "RuntimeError: the floor gave way" in err
    assert any("the floor gave way" in m.plain_text for m in engine.message_log.messages)
    assert Path(savefile.SAVE_FILENAME).is_file()  # The game went on, and was saved.


def test_escape_after_death_deletes_the_save_and_ends_the_loop(
    in_tmp: Path,
    engine: Engine,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
    capsys: pytest.CaptureFixture[str],
) -> None:
    engine.save_as(savefile.SAVE_FILENAME)
    assert Path(savefile.SAVE_FILENAME).is_file()
    engine.player.fighter.hp = 0  # Dies at once; the next turn finds out.
    # Escape on the game-over screen, not the game's "save and quit": that
    # would leave the save alone (a dead player's game is not saved).
    script = Script([key(KeySym.PERIOD)], [key(KeySym.ESCAPE)])

    main.main_loop(context, root_console, input_handlers.MainGameEventHandler(engine), script)

    assert script.calls == 2
    assert presents == [True, True]
    assert not Path(savefile.SAVE_FILENAME).exists()
    assert "Game saved." not in capsys.readouterr().out
