"""Shared test set-up: a headless video driver, the project on the path, fixtures."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Must be set before tcod is first imported, or no context can be made.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import random  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402
import tcod  # noqa: E402
from tcod.event import KeySym, Modifier  # noqa: E402

import setup_game  # noqa: E402
from engine import Engine  # noqa: E402


def key(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    """A real key press event, as SDL would deliver it."""
    scancode = tcod.event.Scancode.UNKNOWN
    return tcod.event.KeyDown(scancode=scancode, sym=sym, mod=mod)


def click(x: int, y: int, button: tcod.event.MouseButton = tcod.event.MouseButton.LEFT) -> tcod.event.MouseButtonDown:
    """A real mouse click on tile (x, y), as `convert_event` leaves it."""
    return tcod.event.MouseButtonDown(
        position=tcod.event.Point(x + 0.5, y + 0.5), tile=tcod.event.Point(x, y), button=button
    )


def motion(x: int, y: int) -> tcod.event.MouseMotion:
    """A real mouse motion onto tile (x, y), as `convert_event` leaves it."""
    return tcod.event.MouseMotion(
        position=tcod.event.Point(x + 0.5, y + 0.5), tile=tcod.event.Point(x, y)
    )


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Iterator[object]:
    """Run the test in an empty working directory (where saves and screenshots go)."""
    monkeypatch.chdir(tmp_path)
    yield tmp_path


@pytest.fixture
def engine() -> Engine:
    """A new game, as the menu's N starts it, with a fixed seed."""
    random.seed(1234)
    return setup_game.new_game(seed=1234)
