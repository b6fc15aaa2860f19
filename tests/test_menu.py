"""The main menu: its keys, Continue with and without a save, and what a bad save gets."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod
from conftest import key, screen_rows
from tcod.event import KeySym, Modifier

import input_handlers
import savefile
import setup_game
from engine import Engine


def screen_text(handler: input_handlers.BaseEventHandler) -> str:
    return "\n".join(screen_rows(handler))


def test_menu_shows_title_choices_credit_and_help_hint() -> None:
    text = screen_text(setup_game.MainMenu())
    for line in (
        "TOMBS OF THE ANCIENT KINGS",
        "[N] Play a new game",
        "[C] Continue last game",
        "[Q] Quit",
        "Press ? for help",
        setup_game.CREDIT,
    ):
        assert line in text


def test_background_is_160_by_100_pixels() -> None:
    assert setup_game.background_image().shape == (100, 160, 3)


def test_n_starts_a_new_game_with_the_menus_seed(in_tmp: Path) -> None:
    handler = setup_game.MainMenu(seed=77).handle_events(key(KeySym.N))
    assert isinstance(handler, input_handlers.MainGameEventHandler)
    assert handler.engine.game_world.seed == 77
    assert handler.engine.game_world.current_floor == 1
    # Its recording begins: in its own file, in the data folder.
    assert handler.engine.recording_file is not None
    assert (in_tmp / "recordings" / handler.engine.recording_file).read_text() == "recording 1\nseed 77\n"


@pytest.mark.parametrize("sym", [KeySym.Q, KeySym.ESCAPE])
def test_q_and_escape_quit(sym: KeySym) -> None:
    with pytest.raises(SystemExit):
        setup_game.MainMenu().handle_events(key(sym))


@pytest.mark.parametrize(
    "event", [key(KeySym.SLASH, Modifier.LSHIFT), key(KeySym.QUESTION), key(KeySym.F1)]
)
def test_help_opens_from_the_menu(event: tcod.event.KeyDown) -> None:
    menu = setup_game.MainMenu()
    handler = menu.handle_events(event)
    assert isinstance(handler, input_handlers.HelpScreen)
    assert handler.handle_events(key(KeySym.A)) is menu


def test_unbound_key_does_nothing() -> None:
    menu = setup_game.MainMenu()
    assert menu.handle_events(key(KeySym.X)) is menu


def test_continue_without_a_save_says_so(in_tmp: object) -> None:
    menu = setup_game.MainMenu()
    handler = menu.handle_events(key(KeySym.C))
    assert isinstance(handler, input_handlers.PopupMessage)
    assert handler.text == "No saved game to load."
    assert "No saved game to load." in screen_text(handler)
    assert handler.handle_events(key(KeySym.SPACE)) is menu


def test_continue_loads_the_saved_game(in_tmp: object) -> None:
    engine = setup_game.new_game(seed=3)
    engine.player.fighter.hp = 17
    engine.save_as(savefile.SAVE_FILENAME)

    handler = setup_game.MainMenu().handle_events(key(KeySym.C))

    assert isinstance(handler, input_handlers.MainGameEventHandler)
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
    with open(savefile.SAVE_FILENAME, "wb") as f:
        f.write(content)
    menu = setup_game.MainMenu()

    handler = menu.handle_events(key(KeySym.C))

    assert isinstance(handler, input_handlers.PopupMessage)
    assert reason in handler.text.lower()
    assert "savegame.sav.bad" in handler.text
    assert (in_tmp / "savegame.sav.bad").read_bytes() == content
    # The new game the player starts next can't overwrite the bad file.
    assert not (in_tmp / "savegame.sav").exists()
    assert handler.handle_events(key(KeySym.RETURN)) is menu


def test_a_popup_keeps_a_game_in_play_savable(engine: Engine) -> None:
    game = input_handlers.MainGameEventHandler(engine)
    assert input_handlers.PopupMessage(game, "hi").engine_in_play() is engine
    assert input_handlers.HelpScreen(game).engine_in_play() is engine
    assert setup_game.MainMenu().engine_in_play() is None


def test_continue_offers_a_level_up_owed_when_saved(in_tmp: object) -> None:
    engine = setup_game.new_game(seed=3)
    engine.player.level.current_xp = 351
    engine.save_as(savefile.SAVE_FILENAME)

    handler = setup_game.MainMenu().handle_events(key(KeySym.C))

    assert isinstance(handler, input_handlers.LevelUpEventHandler)
