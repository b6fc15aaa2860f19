"""The main menu: its keys, Continue with and without a save, and what a bad save gets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tcod
from conftest import after_frame, key, new_header, screen_rows, screens_of, typed
from tcod.event import KeySym

import input_handlers
import setup_game
from components.level import Level
from engine import Engine
from saving import paths, save_data, savefile
from screens.base import Quit
from screens.help_screen import HelpScreen
from screens.question import Question
from screens.stack import Screens
from window import title


def screen_text(shown: Screens | input_handlers.BaseEventHandler) -> str:
    return "\n".join(screen_rows(shown))


def menu_screens(menu: setup_game.MainMenu | None = None) -> Screens:
    """The main menu alone, as the program starts on it."""
    return Screens(menu if menu is not None else setup_game.MainMenu())


def test_menu_shows_title_choices_credit_and_help_hint() -> None:
    text = screen_text(setup_game.MainMenu())
    for line in (
        "TOMBS OF THE ANCIENT KINGS",
        "[N] Play a new game",
        "[Q] Quit",
        "Press ? for help",
        title.CREDIT,
    ):
        assert line in text


def test_continue_is_shown_only_with_a_save_or_its_backup(in_tmp: Path) -> None:
    assert "Continue" not in screen_text(setup_game.MainMenu())
    engine = setup_game.new_game(seed=5)
    engine.save_as(paths.save_path())
    assert "[C] Continue last game" in screen_text(setup_game.MainMenu())
    os.replace(paths.save_path(), savefile.backup_path(paths.save_path()))
    assert "[C] Continue last game" in screen_text(setup_game.MainMenu())
    os.remove(savefile.backup_path(paths.save_path()))
    assert "Continue" not in screen_text(setup_game.MainMenu())
    # The key still answers, saying why there is nothing to continue.
    screens = menu_screens()
    screens.press(key(KeySym.C))
    popup = screens.top
    assert isinstance(popup, input_handlers.PopupMessage) and "No saved game" in popup.text


def test_background_is_160_by_100_pixels() -> None:
    assert title.background_image().shape == (100, 160, 3)


def test_n_starts_a_new_game_with_the_menus_seed(in_tmp: Path) -> None:
    screens = menu_screens(setup_game.MainMenu(seed=77))
    screens.press(key(KeySym.N))
    handler = screens.top
    assert isinstance(handler, input_handlers.MainGameEventHandler)
    assert screens.stack == [screens.menu, handler]
    assert handler.engine.game_world.seed == 77
    assert handler.engine.game_world.current_floor == 1
    # Its recording begins, once the main loop has shown the game: in its own file, in the data folder.
    assert handler.engine.recording_file is None
    after_frame(screens)
    assert handler.engine.recording_file is not None
    assert (in_tmp / "recordings" / handler.engine.recording_file).read_text() == "".join(
        line + "\n" for line in new_header(77)
    )


@pytest.mark.parametrize("sym", [KeySym.Q, KeySym.ESCAPE])
def test_q_and_escape_quit(sym: KeySym) -> None:
    screens = menu_screens()
    screens.press(key(sym))
    assert screens.quitting == Quit()
    assert screens.in_menu


@pytest.mark.parametrize(
    "event", [typed("?"), typed("?"), key(KeySym.F1)]
)
def test_help_opens_from_the_menu(event: tcod.event.KeyDown) -> None:
    menu = setup_game.MainMenu()
    screens = menu_screens(menu)
    screens.press(event)
    assert isinstance(screens.top, HelpScreen)
    assert screens.stack[-2] is menu
    screens.press(key(KeySym.A))
    assert screens.stack == [menu]


def test_unbound_key_does_nothing() -> None:
    menu = setup_game.MainMenu()
    screens = menu_screens(menu)
    screens.press(key(KeySym.X))
    assert screens.stack == [menu]
    assert screens.quitting is None


def test_continue_without_a_save_says_so() -> None:
    menu = setup_game.MainMenu()
    screens = menu_screens(menu)
    screens.press(key(KeySym.C))
    handler = screens.top
    assert isinstance(handler, input_handlers.PopupMessage)
    assert handler.text == "No saved game to load."
    assert "No saved game to load." in screen_text(screens)
    screens.press(key(KeySym.SPACE))
    assert screens.stack == [menu]


def test_continue_loads_the_saved_game() -> None:
    engine = setup_game.new_game(seed=3)
    engine.player.fighter.hp = 17
    save_data.save(engine, paths.SAVE_NAME)

    screens = menu_screens()
    screens.press(key(KeySym.C))
    handler = screens.top

    assert isinstance(handler, input_handlers.MainGameEventHandler)
    assert len(screens.stack) == 2
    assert handler.engine.player.fighter.hp == 17
    assert (handler.engine.player.x, handler.engine.player.y) == (engine.player.x, engine.player.y)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty"),
        (b"hello, this is not a save at all", "not a save"),
    ],
)
def test_a_bad_save_gets_a_popup_and_is_kept(in_tmp: Path, content: bytes, reason: str) -> None:
    with open(paths.SAVE_NAME, "wb") as f:
        f.write(content)
    menu = setup_game.MainMenu()
    screens = menu_screens(menu)

    screens.press(key(KeySym.C))
    handler = screens.top

    assert isinstance(handler, input_handlers.PopupMessage)
    assert reason in handler.text.lower()
    assert "savegame.sav.bad" in handler.text
    assert (in_tmp / "savegame.sav.bad").read_bytes() == content
    # The new game the player starts next can't overwrite the bad file.
    assert not (in_tmp / "savegame.sav").exists()
    screens.press(key(KeySym.RETURN))
    assert screens.stack == [menu]


def test_a_popup_keeps_a_game_in_play_savable(engine: Engine) -> None:
    game = input_handlers.MainGameEventHandler(engine)
    assert screens_of(game, input_handlers.PopupMessage("hi")).engine_in_play() is engine
    assert screens_of(game, HelpScreen(engine.settings)).engine_in_play() is engine
    assert menu_screens().engine_in_play() is None


def test_continue_offers_a_level_up_owed_when_saved() -> None:
    engine = setup_game.new_game(seed=3)
    engine.player.level.current_xp = 351
    save_data.save(engine, paths.SAVE_NAME)

    screens = menu_screens()
    screens.press(key(KeySym.C))

    assert isinstance(screens.top, input_handlers.LevelUpEventHandler)
    assert len(screens.stack) == 2


def test_continue_offers_the_save_before_a_bad_one(in_tmp: Path) -> None:
    older, newer = setup_game.new_game(seed=3), setup_game.new_game(seed=4)
    older.player.fighter.hp = 11
    save_data.save(older, paths.save_path())
    save_data.save(newer, paths.save_path())  # The older one is the backup now.
    header = b"YARLSAVE" + save_data.FORMAT_VERSION.to_bytes(2, "big")
    paths.save_path().write_bytes(header + b" and then the disk died")
    menu = setup_game.MainMenu()
    screens = menu_screens(menu)

    screens.press(key(KeySym.C))
    popup = screens.top

    assert isinstance(popup, input_handlers.PopupMessage)
    assert "damaged" in popup.text and "savegame.sav.bad" in popup.text
    assert "savegame.sav.bak" in popup.text and "press C" in popup.text
    screens.press(key(KeySym.RETURN))
    assert screens.stack == [menu]
    screens.press(key(KeySym.C))
    game = screens.top
    assert isinstance(game, input_handlers.MainGameEventHandler)
    assert screens.stack == [menu, game]
    assert game.engine.player.fighter.hp == 11
    assert "Continued from savegame.sav.bak" in game.engine.message_log.messages[-1].plain_text
    assert (in_tmp / "savegame.sav.bad").read_bytes().endswith(b"the disk died")


def test_a_bug_in_loading_is_not_called_damage_and_keeps_the_file(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_data.save(setup_game.new_game(seed=3), paths.save_path())
    saved = paths.save_path().read_bytes()

    def broken(level: Level, what: str) -> None:
        raise TypeError("simulated bug in the loader")

    monkeypatch.setattr(Level, "check_loaded", broken, raising=False)
    screens = menu_screens()
    screens.press(key(KeySym.C))
    handler = screens.top

    assert isinstance(handler, input_handlers.PopupMessage)
    assert "a bug in the game (TypeError)" in handler.text
    assert "damaged" not in handler.text
    assert sorted(p.name for p in in_tmp.iterdir()) == ["savegame.sav"]
    assert paths.save_path().read_bytes() == saved


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_save_that_is_not_a_file_is_refused_at_once(in_tmp: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(paths.save_path())
    elif kind == "device":
        os.symlink("/dev/zero", paths.save_path())
    else:
        paths.save_path().mkdir()
    screens = menu_screens()
    screens.press(key(KeySym.C))
    handler = screens.top
    assert isinstance(handler, input_handlers.PopupMessage)
    assert "not a regular file" in handler.text
    assert os.path.lexists(in_tmp / "savegame.sav.bad")


@pytest.mark.parametrize("answer", [KeySym.N, KeySym.ESCAPE, KeySym.Q])
def test_new_game_asks_before_abandoning_a_saved_game_and_keeps_it_by_default(
    in_tmp: Path, answer: KeySym
) -> None:
    old = setup_game.new_game(5)
    old.save_as(str(paths.save_path()))
    before = paths.save_path().read_bytes()
    menu = setup_game.MainMenu(seed=77)
    screens = menu_screens(menu)
    screens.press(key(KeySym.N))
    asked = screens.top
    assert isinstance(asked, Question) and asked.text == "Abandon your saved game? (y/n)"
    assert screens.stack == [menu, asked]
    assert screens.recorded_game() is None  # No game's keys: none recorded.
    screens.press(key(answer))
    # Only y and n (or Esc) answer.
    assert screens.stack == ([menu, asked] if answer is KeySym.Q else [menu])
    assert screens.quitting is None
    assert paths.save_path().read_bytes() == before
    assert not (in_tmp / "recordings").exists()  # No game started.


def test_yes_abandons_the_saved_game_for_a_new_one(in_tmp: Path) -> None:
    setup_game.new_game(5).save_as(str(paths.save_path()))
    screens = menu_screens(setup_game.MainMenu(seed=77))
    screens.press(key(KeySym.N))
    assert isinstance(screens.top, Question)
    screens.press(key(KeySym.Y))
    game = screens.top
    assert isinstance(game, input_handlers.MainGameEventHandler)
    assert len(screens.stack) == 2
    assert game.engine.game_world.seed == 77


def test_the_daily_game_asks_too(in_tmp: Path) -> None:
    setup_game.new_game(5).save_as(str(paths.save_path()))
    menu = setup_game.MainMenu()
    screens = menu_screens(menu)
    screens.press(key(KeySym.D))
    asked = screens.top
    assert isinstance(asked, Question) and asked.text == setup_game.ABANDON
    screens.press(key(KeySym.N))
    assert screens.stack == [menu]
    screens.press(key(KeySym.D))
    screens.press(key(KeySym.Y))
    game = screens.top
    assert isinstance(game, input_handlers.MainGameEventHandler)
    assert screens.stack == [menu, game]
    assert game.engine.game_world.seed != 5


def test_new_game_asks_nothing_without_a_saved_game(in_tmp: Path) -> None:
    screens = menu_screens(setup_game.MainMenu(seed=77))
    screens.press(key(KeySym.N))
    game = screens.top
    assert isinstance(game, input_handlers.MainGameEventHandler)
    assert len(screens.stack) == 2
