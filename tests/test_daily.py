"""The daily dungeon: one game a date, the same for everyone, marked as a daily
(and as another try) wherever the game tells its story; its score verifies."""

from __future__ import annotations

import datetime
import hashlib
from pathlib import Path

import numpy as np
import pytest
from conftest import after_frame, dungeon, key, play_events, pressing, screen_rows, typed
from tcod.event import KeySym
from terminal_pane import Pane, have_tmux

import input_handlers
import main
import setup_game
from engine import Engine
from replays import daily, record_reader, recording, verify
from saving import hall_of_fame, paths
from screens.hall_of_fame_screen import HallOfFameScreen
from screens.stack import Screens

DATE = datetime.date(2026, 11, 25)


def first_floor(engine: Engine) -> tuple[bytes, list[tuple[str, int, int]]]:
    """What a first floor is: its tiles, and what stands where."""
    things = sorted((entity.name, entity.x, entity.y) for entity in engine.game_map.entities)
    return engine.game_map.tiles.tobytes(), things


def test_two_daily_games_of_one_date_share_their_first_floor_and_another_dates_differs() -> None:
    one = setup_game.new_daily_game(DATE)
    two = setup_game.new_daily_game(DATE, tries_before=3)
    other = setup_game.new_daily_game(DATE + datetime.timedelta(days=1))
    assert first_floor(one) == first_floor(two)
    assert first_floor(one) != first_floor(other)
    assert np.array_equal(one.game_map.tiles, two.game_map.tiles)


def test_the_seed_is_the_one_the_players_guide_defines() -> None:
    digest = hashlib.sha256(b"daily 2026-11-25").digest()
    assert daily.seed_of(DATE) == int.from_bytes(digest[:8], "big")
    guide = (Path(__file__).parent.parent / "docs" / "playing.md").read_text(encoding="utf-8")
    section = guide[guide.index("### The daily dungeon") : guide.index("### Scores anyone can")]
    assert "SHA-256" in section and 'b"daily 2026-11-25"' in section


def menu_on(date: datetime.date) -> setup_game.MainMenu:
    return setup_game.MainMenu(today=lambda: date, verifier=verify.entries_verified)


def daily_game(date: datetime.date) -> Screens:
    """The menu of `date`, and D pressed on it: the day's game."""
    return pressing(Screens(menu_on(date)), key(KeySym.D))


def character_screen(screens: Screens) -> str:
    """What the character screen (C) shows; closed again (Escape), back to the dungeon."""
    pressing(screens, key(KeySym.C))
    assert isinstance(screens.top, input_handlers.CharacterScreenEventHandler)
    shown = "\n".join(screen_rows(screens))
    pressing(screens, key(KeySym.ESCAPE))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler)
    return shown


def test_the_menu_starts_the_days_game_and_a_second_is_another_try(in_tmp: Path) -> None:
    screens = daily_game(DATE)
    first = screens.top
    assert isinstance(first, input_handlers.MainGameEventHandler)
    assert first.engine.game_world.seed == daily.seed_of(DATE)
    assert first.engine.recording[2] == "# daily 2026-11-25"
    shown = character_screen(screens)
    assert "Daily 2026-11-25" in shown and "try" not in shown
    assert screens.engine is first.engine
    recording.write_new(first.engine)  # As the main loop does once it shows the game.
    second = daily_game(DATE)
    assert isinstance(second.top, input_handlers.MainGameEventHandler)
    assert "Daily 2026-11-25, try 2" in character_screen(second)
    tomorrow = daily_game(DATE + datetime.timedelta(days=1))
    shown = character_screen(tomorrow)
    assert "Daily 2026-11-26" in shown and "try" not in shown


def date_that_dies_waiting() -> tuple[datetime.date, int]:
    """A date whose daily game kills a player who only waits, and how many waits it takes."""
    return _search()  # Its deaths keep nothing: no main loop writes their files.


def _search() -> tuple[datetime.date, int]:
    for days in range(60):
        date = DATE + datetime.timedelta(days=days)
        screens = dungeon(setup_game.new_daily_game(date))
        for waits in range(1, 200):
            play_events(screens, [typed(".")])
            if not isinstance(screens.top, input_handlers.MainGameEventHandler):
                return date, waits
    raise AssertionError("no daily game dies waiting")


def test_a_daily_death_says_so_everywhere_and_verifies(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    date, waits = date_that_dies_waiting()
    first = daily_game(date).top  # A first try, left.
    assert isinstance(first, input_handlers.MainGameEventHandler)
    recording.write_new(first.engine)  # As the main loop does once it shows the game.
    screens = play_events(daily_game(date), [typed(".")] * waits)
    after_frame(screens)  # The main loop keeps the death.
    assert isinstance(screens.top, input_handlers.GameOverEventHandler)
    story = "\n".join(screen_rows(screens))
    assert f"Daily {date}, try 2." in story
    [morgue_file] = paths.morgue_dir().glob("*.txt")
    assert f"\nDaily {date}, try 2.\n" in morgue_file.read_text()
    [entry] = hall_of_fame.load(paths.scores_path())
    assert (entry.daily, entry.daily_try) == (f"{date}", 2)
    screen = pressing(Screens(menu_on(date)), key(KeySym.H)).top
    assert isinstance(screen, HallOfFameScreen) and screen.marks == [True]
    assert f"Daily {date}" in screen.lines()[1] and "(try 2)" in screen.lines()[1]

    assert main.main(["--verify", str(morgue_file)]) == 0
    assert f"Daily {date}: Killed by" in capsys.readouterr().out


def test_a_recording_claiming_a_daily_of_another_seed_fails(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    date, waits = date_that_dies_waiting()
    screens = play_events(daily_game(date), [typed(".")] * waits)
    after_frame(screens)  # The main loop keeps the death.
    assert isinstance(screens.top, input_handlers.GameOverEventHandler)
    kept = next(paths.morgue_dir().glob("*.rec"))
    other = in_tmp / "other.rec"
    other.write_text(kept.read_text().replace(f"# daily {date}", "# daily 2030-01-01"))
    assert main.main(["--verify", str(other)]) == 1
    assert f"is not the daily game of {date}" in capsys.readouterr().out
    # Not claimed a daily by its header, the replay is no daily: its ending differs.
    other.write_text(kept.read_text().replace(f"# daily {date}\n", ""))
    assert main.main(["--verify", str(other)]) == 1
    assert "not verified" in capsys.readouterr().out


def test_daily_goes_without_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main.main(["--daily", "--seed", "3"])
    assert "--daily goes without --seed" in capsys.readouterr().err


def test_a_daily_game_saves_and_continues_as_one(in_tmp: Path) -> None:
    game = daily_game(DATE).top
    assert isinstance(game, input_handlers.MainGameEventHandler)
    game.engine.save_as(paths.save_path())
    loaded = setup_game.load_game(paths.save_path())
    assert (loaded.game_world.daily, loaded.game_world.daily_try) == ("2026-11-25", 1)
    assert record_reader.parse("\n".join(loaded.recording), "<save>").daily == "2026-11-25"


@pytest.mark.skipif(not have_tmux(), reason="tmux is not installed")
def test_daily_from_the_command_line_asks_before_replacing_a_saved_game(tmp_path: Path) -> None:
    """`--daily` over a saved game asks what `d` on the menu asks: no keeps the save and
    shows the menu, yes plays today's game."""
    data = tmp_path / "data"
    data.mkdir()
    saved = data / paths.SAVE_NAME
    setup_game.new_game(5).save_as(str(saved))
    kept = saved.read_bytes()
    pane = Pane(tmp_path)
    try:
        pane.start("--daily", f"--data-dir={data}")
        pane.wait_for(setup_game.ABANDON)
        pane.type("n")
        pane.wait_for("Continue last game")
        pane.type("q")
        assert pane.exit_status() == 0
        assert saved.read_bytes() == kept
        pane.close()
        pane.start("--daily", f"--data-dir={data}")
        pane.wait_for(setup_game.ABANDON)
        pane.type("y")
        pane.wait_for("Dungeon level: 1")
        pane.type("c")
        pane.wait_for("Daily ")
    finally:
        pane.close()
