"""The real main loop (`window.loop`), with a real tcod context (dummy video driver), real events."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
import tcod
from conftest import dungeon, key, typed
from tcod.event import KeySym

import actions
import input_handlers
import main
import setup_game
from controls import keys
from engine import Engine
from saving import paths, save_data
from screens.base import BaseEventHandler
from screens.hall_of_fame_screen import HallOfFameScreen
from screens.save_failed import SaveFailedPopup
from screens.stack import Screens
from window import loop, options

Frame = Iterable[tcod.event.Event] | Callable[[], Iterable[tcod.event.Event]]


class ScriptEnded(BaseException):
    """The loop asked for more events than the script has.

    Not an `Exception`: the loop logs those and goes on, so the test would hang.
    """


class Script:
    """An event source for `loop.main_loop`: one batch of events per frame.

    A batch may be a callable, run when its frame comes, so it can look at
    the game before choosing its events.  Each call is one presented frame.
    """

    def __init__(self, *frames: Frame) -> None:
        self.frames = list(frames)
        self.calls = 0
        self.timeouts: list[float | None] = []  # How long the loop would wait, each time.

    def __call__(self, timeout: float | None = None) -> Iterable[tcod.event.Event]:
        self.timeouts.append(timeout)
        if self.calls >= len(self.frames):
            raise ScriptEnded("the loop asked for events after the script's end")
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
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[Engine] = []
    real_new_game = setup_game.new_game

    def new_game(seed: int | None = None, settings: options.Settings | None = None) -> Engine:
        started.append(real_new_game(seed, settings))
        return started[-1]

    monkeypatch.setattr(setup_game, "new_game", new_game)
    moves: list[tuple[int, int]] = []

    def step() -> list[tcod.event.Event]:
        sym, destination = open_step(started[0])
        moves.append(destination)
        return [key(sym)]

    script = Script([key(KeySym.N)], step, step, step, [tcod.event.Quit()])

    loop.main_loop(context, root_console, Screens(setup_game.MainMenu(seed=1234)), script)  # Returns.

    assert len(started) == 1  # N started one game.
    assert script.calls == 5
    assert presents == [True] * 5  # One frame before each batch, keeping the aspect.
    saved = save_data.load(paths.SAVE_NAME)
    assert (saved.player.x, saved.player.y) == moves[-1]
    assert (started[0].player.x, started[0].player.y) == moves[-1]


def test_an_exception_in_a_turn_is_reported_and_play_goes_on(
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
    script = Script([typed(".")], [typed(".")], [tcod.event.Quit()])

    loop.main_loop(context, root_console, dungeon(engine), script)

    assert performed == ["raised", "waited"]  # The second turn was played.
    assert script.calls == 3
    assert len(presents) == 3
    err = capsys.readouterr().err
    assert "Traceback" in err
    assert "RuntimeError: the floor gave way" in err
    assert any("the floor gave way" in m.plain_text for m in engine.message_log.messages)
    assert Path(paths.SAVE_NAME).is_file()  # The game went on, and was saved.


def test_escape_after_death_deletes_the_save_and_goes_back_to_the_menu(
    in_tmp: Path,
    engine: Engine,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
    capsys: pytest.CaptureFixture[str],
) -> None:
    save_data.save(engine, paths.SAVE_NAME)
    assert Path(paths.SAVE_NAME).is_file()
    engine.player.fighter.hp = 0  # Dies at once; the next turn finds out.
    seen: list[str] = []

    def menu_shown() -> list[tcod.event.Event]:
        seen.append("".join(chr(c) for c in root_console.rgb["ch"].T.ravel()))
        return [tcod.event.Quit()]

    # Escape on the game-over screen, not the game's "save and quit": that
    # would leave the save alone (a dead player's game is not saved).
    script = Script([typed(".")], [key(KeySym.ESCAPE)], menu_shown)

    loop.main_loop(context, root_console, dungeon(engine), script)

    assert script.calls == 3
    # The death's frame is shown again once its morgue file is written: four frames.
    assert presents == [True, True, True, True]
    assert "Play a new game" in seen[0]  # The main menu, not the end of the program.
    assert not Path(paths.SAVE_NAME).exists()
    assert "Game saved." not in capsys.readouterr().out


def test_a_save_that_fails_on_quitting_keeps_the_game_open(
    in_tmp: Path,
    engine: Engine,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths.save_path().mkdir()  # A folder named savegame.sav: no save can go there.
    (paths.save_path() / "keep").write_bytes(b"")
    seen: list[SaveFailedPopup] = []
    below: list[BaseEventHandler] = []  # The screen under each popup drawn.
    shown_at_once: list[int] = []  # How many popups the screens held, each time one is drawn.
    game = dungeon(engine)
    sym, destination = open_step(engine)

    def fix_the_folder() -> list[tcod.event.Event]:
        (paths.save_path() / "keep").unlink()
        paths.save_path().rmdir()
        return [key(KeySym.R)]

    script = Script(
        [tcod.event.Quit()],  # Closing the window: the save fails, a popup says so.
        [key(KeySym.X)],  # A key that means nothing there does nothing.
        [key(KeySym.ESCAPE)],  # Back to the game...
        [key(sym)],  # ...which goes on.
        [key(KeySym.ESCAPE), key(KeySym.Y)],  # Save and quit? Yes: fails again.
        [key(KeySym.R)],  # Retry: fails again.
        fix_the_folder,  # Retry once the folder is gone: saved, and the loop ends.
    )
    real_render = SaveFailedPopup.on_render

    def on_render(self: SaveFailedPopup, console: tcod.console.Console) -> None:
        seen.append(self)
        below.append(game.stack[game.stack.index(self) - 1])
        shown_at_once.append(sum(isinstance(screen, SaveFailedPopup) for screen in game.stack))
        real_render(self, console)

    monkeypatch.setattr(SaveFailedPopup, "on_render", on_render)
    loop.main_loop(context, root_console, game, script)

    assert script.calls == 7
    # The popup's frames: after the close, X, the quit, the retry; never two at once.
    assert len(seen) == 4
    assert all(type(screen) is input_handlers.MainGameEventHandler for screen in below)
    assert shown_at_once == [1, 1, 1, 1]
    assert "The game could not be saved:" in seen[0].text
    assert "Is a directory (savegame.sav)." in seen[0].text
    assert "[r] Try saving again" in seen[0].text and "[q] Quit without saving" in seen[0].text
    assert (engine.player.x, engine.player.y) == destination
    saved = save_data.load(paths.save_path())
    assert (saved.player.x, saved.player.y) == destination


def test_quit_without_saving_from_the_popup_quits(
    in_tmp: Path,
    engine: Engine,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
) -> None:
    paths.save_path().mkdir()
    (paths.save_path() / "keep").write_bytes(b"")
    script = Script([tcod.event.Quit()], [key(KeySym.Q)])
    loop.main_loop(context, root_console, dungeon(engine), script)
    assert script.calls == 2
    assert paths.save_path().is_dir()


def test_a_crash_never_overwrites_the_last_good_save(
    in_tmp: Path,
    engine: Engine,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
) -> None:
    engine.save_as(paths.save_path())
    good = paths.save_path().read_bytes()
    sym, destination = open_step(engine)

    def crash() -> list[tcod.event.Event]:
        raise KeyboardInterrupt()  # Escapes the loop, as a crash in drawing would.

    script = Script([key(sym)], crash)
    with pytest.raises(KeyboardInterrupt):
        loop.main_loop(context, root_console, dungeon(engine), script)

    assert paths.save_path().read_bytes() == good
    beside = save_data.load(in_tmp / "savegame.sav.crash")
    assert (beside.player.x, beside.player.y) == destination
    assert sorted(p.name for p in in_tmp.iterdir()) == ["recordings", "savegame.sav", "savegame.sav.crash"]


def test_a_dead_player_cannot_act_when_the_save_cannot_be_deleted(
    in_tmp: Path,
    engine: Engine,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths.save_path().mkdir()  # Can't be deleted as a file.
    (paths.save_path() / "keep").write_bytes(b"")
    engine.player.fighter.hp = 0
    sym, _ = open_step(engine)
    where = (engine.player.x, engine.player.y)
    handlers: list[input_handlers.BaseEventHandler] = []

    def note() -> list[tcod.event.Event]:
        return [key(sym), key(sym)]

    # Escape leaves the game-over screen for the menu, where the window is closed.
    script = Script([typed(".")], note, [key(KeySym.ESCAPE)], [tcod.event.Quit()])
    real_handle = loop.handle_event

    def handle(context: tcod.context.Context | None, screens: Screens, event: tcod.event.Event) -> None:
        real_handle(context, screens, event)
        if screens.quitting is None:  # Closing the window, at the end, shows no screen after it.
            handlers.append(screens.top)

    monkeypatch.setattr(loop, "handle_event", handle)
    loop.main_loop(context, root_console, dungeon(engine), script)

    *over, menu = handlers
    # Keys that move a living player do nothing, or show the hall of fame (`h`).
    screens = input_handlers.GameOverEventHandler | HallOfFameScreen
    assert all(isinstance(h, screens) for h in over), handlers
    assert isinstance(menu, setup_game.MainMenu)
    assert (engine.player.x, engine.player.y) == where
    texts = [m.plain_text for m in engine.message_log.messages]
    assert any("The save could not be deleted (Is a directory)" in text for text in texts)
    assert paths.save_path().is_dir()


def test_a_walk_is_drawn_step_by_step_and_a_key_stops_it(
    in_tmp: Path,
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    presents: list[bool],
) -> None:
    """Each step of a walk is a frame, at the walk's pace; idle, the loop waits
    without end (no busy wait); a key press stops the walk."""
    engine = setup_game.new_game(seed=1234)
    for actor in list(engine.game_map.actors):
        if actor is not engine.player:
            engine.game_map.entities.remove(actor)
    seen: list[tuple[int, int]] = []

    def nothing_yet() -> list[tcod.event.Event]:
        seen.append((engine.player.x, engine.player.y))
        return []  # The wait ran out: the next step is due.

    script = Script(
        [key(KeySym.X)], nothing_yet, nothing_yet, nothing_yet, [key(KeySym.Z)], [tcod.event.Quit()]
    )
    loop.main_loop(context, root_console, dungeon(engine), script)

    assert len(presents) == script.calls == 6  # A frame before each wait.
    assert len(set(seen)) == 3  # Each frame showed the player a step further.
    assert script.timeouts[0] is None  # Idle: waits for input, however long.
    for timeout in script.timeouts[1:5]:  # Walking: never longer than one step.
        assert timeout is not None and 0 <= timeout <= 1 / options.STEPS_PER_SECOND
    assert script.timeouts[5] is None  # Stopped by the key: idle again.
    assert options.STEPS_PER_SECOND >= 30


def test_a_walk_started_soon_after_another_ended_steps_at_once(
    in_tmp: Path, context: tcod.context.Context, root_console: tcod.console.Console
) -> None:
    """The last walk's next step was due later; a new walk's first step is not held to it."""
    engine = setup_game.new_game(seed=1234)
    for actor in list(engine.game_map.actors):
        if actor is not engine.player:
            engine.game_map.entities.remove(actor)
    start = engine.player.x, engine.player.y
    the_loop = loop.Loop(loop.front_end_of(context), root_console, dungeon(engine), Script([key(KeySym.X)]), None)
    the_loop.next_step_at = time.monotonic() + 3600  # As a walk that just ended leaves it.
    the_loop.take_input()
    assert the_loop.screens.walking
    assert (engine.player.x, engine.player.y) != start  # The first step, in the same frame.
