"""Autofight (DCSS's Tab): attack the nearest monster in view if it is next to
the player, else take one step toward it by the path walks take (`travel`).

A press is one ordinary turn, a bump the player's own move keys could make; it
does nothing, at no cost, with no monster in view or below a share of HP (the
option `autofight_stop`, DCSS's; a quarter by default, as the game has no
regeneration), and then names the option and the key that opens the options.  A recording keeps what the press did (the
bump's direction, or that it was refused), not the key, so that a game replays
as it was played whatever the options of whoever replays it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import color
from actions import Action, BumpAction
from controls import key_help, keys, travel
from replays.record_format import Autofight
from window import options
from words.grammar import with_article

if TYPE_CHECKING:
    from engine import Engine
    from entity import Actor
    from window.options import Settings

NO_TARGET: Final = "You see no monster to fight."
TOO_HURT: Final = "You are too injured to fight blindly!"  # DCSS's words, near enough.


def nearest_monster(engine: Engine) -> Actor | None:
    """The monster in view fewest steps away (diagonals count one), first in the map's order."""
    player = engine.player
    monsters = engine.game_map.monsters_in_view
    if not monsters:
        return None
    return min(monsters, key=lambda m: max(abs(m.x - player.x), abs(m.y - player.y)))


def too_hurt(engine: Engine, stop_share: int) -> bool:
    """Whether the player's HP are below `stop_share` per cent of their maximum."""
    fighter = engine.player.fighter
    return fighter.hp * 100 < fighter.max_hp * stop_share


def direction_to(engine: Engine, target: Actor) -> tuple[int, int] | None:
    """The bump toward `target`: at it when next to the player, else the first step of the path."""
    player, game_map = engine.player, engine.game_map
    dx, dy = target.x - player.x, target.y - player.y
    if max(abs(dx), abs(dy)) == 1:
        return dx, dy
    return travel.step_toward(game_map, travel.only(game_map, target.x, target.y), player.x, player.y)


def decide(engine: Engine, stop_share: int) -> Autofight:
    """What a press of autofight does now."""
    target = nearest_monster(engine)
    if target is None or too_hurt(engine, stop_share):
        return Autofight()
    return Autofight(direction_to(engine, target))


def refusal(engine: Engine) -> str:
    """Why a press did nothing: no monster in view, no way to it, or else the
    player's HP (a recording keeps the share and keys in force, so a replay
    tells a refused press as it was told)."""
    target = nearest_monster(engine)
    if target is None:
        return NO_TARGET
    if direction_to(engine, target) is None:
        return f"There is no way to {with_article(target.name)}."
    return f"{TOO_HURT} {where_to_change(engine.settings)}"


def where_to_change(settings: Settings) -> str:
    """The option that made autofight refuse, its value, and the key that opens
    the options: a player who finds the share too cautious sees where to change it."""
    choice = options.choices()["autofight_stop"]
    said = f"({choice.label} {choice.format(settings.options.autofight_stop)}"
    opening = [key for key, command in settings.keys.main.items() if command is keys.Command.OPTIONS]
    if not opening:
        return f"{said}: see the options.)"
    return f"{said}: {key_help.key_name(opening[0])} opens the options.)"


def action(engine: Engine, press: Autofight) -> Action | None:
    """The bump a press makes, or None: the log says why, and no turn passes."""
    if press.direction is None:
        engine.message_log.add_message(refusal(engine), color.impossible)
        return None
    return BumpAction(engine.player, *press.direction)
