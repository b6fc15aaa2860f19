"""Saves survive updates: a save of every released format loads into the same game.

`tests/saves/format-N/` holds saves that the game of format N wrote
(`tools/make_save_fixtures.py`), each beside a description of the game it
held.  Today's game must load every one of them, through the steps that
read each older format into the next, and find the same player, floor,
position, HP, level, inventory and monsters.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from saving import save_data

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from make_save_fixtures import FOLDER, describe

SAVES = sorted(FOLDER.glob("format-*/*.sav"))


def format_of(path: Path) -> int:
    return int(path.parent.name.removeprefix("format-"))


def test_a_save_of_every_format_up_to_today_is_kept() -> None:
    kept = {format_of(path) for path in SAVES}
    assert kept >= {3, save_data.FORMAT_VERSION}, "run python tools/make_save_fixtures.py"


@pytest.mark.parametrize("path", SAVES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_an_old_save_loads_into_the_same_game(path: Path) -> None:
    expected: dict[str, Any] = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert expected.pop("format") == format_of(path)
    expected.pop("about")
    engine = save_data.load(path)
    assert describe(engine) == expected


@pytest.mark.parametrize("path", SAVES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_an_old_save_loaded_saves_again_as_today_s_format(path: Path, in_tmp: Path) -> None:
    engine = save_data.load(path)
    save_data.save(engine, in_tmp / "again.sav")
    assert describe(save_data.load(in_tmp / "again.sav")) == describe(engine)
