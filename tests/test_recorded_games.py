"""Whole recorded games (tests/recordings/, made by tools/make_recordings.py) replay
to the ends they were recorded for.

These pin what the game does over hundreds of turns: a change to the rules
or the data that alters a recorded game fails here.  When the change is
meant, `python tools/make_recordings.py` records the games anew.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import replay_text

import input_handlers
import main
from engine import Engine
from replays import record_format, replay
from screens.stack import Screens

FOLDER = Path(__file__).parent / "recordings"
REMAKE = "if the change is meant: python tools/make_recordings.py"


def replayed(name: str) -> tuple[Screens, Engine, str]:
    text = (FOLDER / f"{name}.rec").read_text()
    screens = replay_text(text)
    engine = screens.engine
    assert engine is not None
    return screens, engine, text


def test_a_death_on_floor_1() -> None:
    screens, engine, _ = replayed("death")
    assert isinstance(screens.top, input_handlers.GameOverEventHandler), REMAKE
    assert engine.game_world.current_floor == 1, REMAKE
    assert engine.player.fighter.hp == 0 and not engine.player.is_alive, REMAKE
    assert engine.message_log.messages[-1].plain_text == "You died!", REMAKE
    # The killing blow was the last event recorded: the screen after it plays no part.
    assert list(engine.recording) == recording_lines("death"), REMAKE


def test_a_descent_to_floor_3_with_a_level_up() -> None:
    screens, engine, text = replayed("descent")
    assert type(screens.top) is input_handlers.MainGameEventHandler, REMAKE
    assert engine.game_world.current_floor == 3, REMAKE
    assert engine.player.level.current_level >= 2, REMAKE
    assert engine.player.is_alive
    assert "text >" in text.splitlines()  # `>` as it was typed.
    assert sum(engine.kills.values()) >= 5, REMAKE


def test_a_scroll_aimed_with_the_mouse() -> None:
    screens, engine, text = replayed("scroll")
    assert type(screens.top) is input_handlers.MainGameEventHandler, REMAKE
    last_click = max(i for i, line in enumerate(text.splitlines()) if line.startswith("click "))
    assert last_click == len(text.splitlines()) - 1, "the click is what ended the game's recording"
    x, y = map(int, text.splitlines()[last_click].split()[1:])
    confused = [a for a in engine.game_map.actors if type(a.ai).__name__ == "ConfusedEnemy"]
    assert len(confused) == 1, REMAKE
    # It stood where the click was; since then it stumbled one step at most.
    assert max(abs(confused[0].x - x), abs(confused[0].y - y)) <= 1, REMAKE
    assert "look vacant" in engine.message_log.messages[-1].plain_text, REMAKE
    assert "Confusion Scroll" not in [item.name for item in engine.player.inventory.items], REMAKE


GAME_COMMENTS = (record_format.DAILY_PREFIX, "# ending ")


def recording_lines(name: str) -> list[str]:
    """A recording's lines as the game keeps them: without blank lines and the
    comments people write (the game writes a daily's date and a death's claim)."""
    return [
        line
        for line in (FOLDER / f"{name}.rec").read_text().splitlines()
        if line and (not line.startswith("#") or line.startswith(GAME_COMMENTS))
    ]


@pytest.mark.parametrize("name", ["death", "descent", "scroll"])
def test_the_command_line_replay_agrees(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--replay FILE --headless` reports the game the handlers played, and leaves
    nothing behind (a death's morgue file and hall of fame go to a folder of their own)."""
    assert main.main(["--replay", str(FOLDER / f"{name}.rec"), "--headless"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(Path().iterdir()) == []
    screens, _, _ = replayed(name)
    assert report == replay.summary(screens), REMAKE


@pytest.mark.parametrize("name", ["death", "descent", "scroll"])
def test_replaying_rebuilds_the_recording(name: str) -> None:
    """Played again, a recording records itself: the same lines, so a replay can be played on."""
    _, engine, _ = replayed(name)
    assert list(engine.recording) == recording_lines(name)


# Recordings of format 2, as the game made them before inventory letters were
# kept by kind: played with the tutorial's letters, by place, they replay with
# them.  tools/make_recordings.py writes them with today's, the same games.
FORMAT_2 = FOLDER / "format-2"


@pytest.mark.parametrize("name", ["death", "descent", "scroll"])
def test_a_recording_of_format_2_replays_with_letters_by_place_and_records_itself_so(name: str) -> None:
    text = (FORMAT_2 / f"{name}.rec").read_text()
    assert text.startswith("recording 2\n")
    screens = replay_text(text)
    engine = screens.engine
    assert engine is not None and not engine.player.inventory.by_kind
    assert engine.recording[0] == "recording 2"  # Replayed again, again by place.
    # These three games never carry two of a kind when a letter is pressed (the
    # tool takes such a seed): they end as today's recordings do.
    today, _, _ = replayed(name)
    assert replay.summary(screens) == replay.summary(today), REMAKE


# Recordings of format 3, as the game made them before recordings kept their
# keys and options: played by the viewer's, as they always were.
FORMAT_3 = FOLDER / "format-3"


@pytest.mark.parametrize("name", ["death", "descent", "scroll"])
def test_a_recording_of_format_3_replays_by_the_viewers_keys_and_records_itself_so(name: str) -> None:
    text = (FORMAT_3 / f"{name}.rec").read_text()
    assert text.startswith("recording 3\n") and "\nbind " not in text
    screens = replay_text(text)
    engine = screens.engine
    assert engine is not None and engine.recording[0] == "recording 3"
    assert not any(line.startswith(("bind ", "option ")) for line in engine.recording)
    today, _, _ = replayed(name)
    assert replay.summary(screens) == replay.summary(today), REMAKE


# Recordings of format 1, as the game made them before symbols were recorded
# as the text typed (`key period shift` for `>`), kept unchanged.  Their
# lines keep their meaning: each replays as the same lines written today.
FORMAT_1 = FOLDER / "format-1"
TODAYS_LINES = {"key period shift": "text >", "key slash shift": "text ?", "key period": "text .",
                "key slash": "text /"}


@pytest.mark.parametrize("name", ["death", "descent", "scroll"])
def test_a_recording_of_format_1_replays_as_the_same_lines_of_today(name: str) -> None:
    old = (FORMAT_1 / f"{name}.rec").read_text()
    assert old.startswith("recording 1\n") and "text " not in old
    today = "\n".join(
        TODAYS_LINES.get(line, line) for line in old.replace("recording 1", "recording 2").splitlines()
    )
    assert today != old.replace("recording 1", "recording 2")
    assert replay.summary(replay_text(old)) == replay.summary(replay_text(today))


def test_key_period_shift_still_takes_the_stairs() -> None:
    """Format 1's `key period shift` goes down the stairs: today's descent,
    written as format 1 wrote it (so a change of the rules, which remakes the
    descent, changes nothing here)."""
    format_1_lines = {today: old for old, today in TODAYS_LINES.items()}
    today = (FOLDER / "descent.rec").read_text().replace("recording 3", "recording 1")
    old = "\n".join(format_1_lines.get(line, line) for line in today.splitlines())
    assert "key period shift" in old.splitlines() and "text >" not in old, REMAKE
    engine = replay_text(old).engine
    assert engine is not None
    said = [message.plain_text for message in engine.message_log.messages]
    assert engine.game_world.current_floor >= 2 and "You descend the staircase." in said, REMAKE


def test_enter_after_a_recorded_death_goes_back_to_the_menu_headless(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every death recorded in the window ends with the key that left it: the
    headless replay goes back to the main menu as the window does, no traceback,
    and still reports the game that ended."""
    ended = in_tmp / "ended.rec"
    ended.write_text((FOLDER / "death.rec").read_text() + "key return\n")
    assert main.main(["--replay", str(ended), "--headless"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["screen"] == "MainMenu"
    assert "Traceback" not in err and "BackToMainMenu" not in err
    assert report["player"]["hp"] == 0, REMAKE
    assert report["messages"][-1] == "You died!", REMAKE
    assert list(in_tmp.iterdir()) == [ended]  # The morgue file went to the replay's own folder.
