"""`q`, `r` and `w`: the inventory with only what the verb fits, letters as `i` gives them."""

from __future__ import annotations

import pytest
from conftest import arena, give, item_key, key, press, pressing, texts
from tcod.event import KeySym

import entity_factories
import input_handlers
from controls import keys
from controls.keys import Command


def verb_key(command: Command) -> KeySym:
    (bound,) = [k for k, c in keys.MAIN_KEYS.items() if c is command and isinstance(k, KeySym)]
    return bound


@pytest.mark.parametrize(
    ("command", "fits"),
    [
        (Command.QUAFF, lambda item: item.consumable is not None and item.consumable.quaffed),
        (Command.READ, lambda item: item.consumable is not None and not item.consumable.quaffed),
        (Command.WEAR, lambda item: item.equippable is not None),
    ],
)
def test_a_verb_lists_only_what_it_fits_under_the_inventorys_letters(command: Command, fits: object) -> None:
    engine = arena()
    for template in (entity_factories.health_potion, entity_factories.confusion_scroll, entity_factories.sword):
        give(engine, template)
    screens = press(engine, verb_key(command))
    screen = screens.top
    assert isinstance(screen, input_handlers.VerbHandler)
    inventory = engine.player.inventory
    expected = [f"({letter}) {stack[0].name}" for letter, stack in inventory.listing() if fits(stack[0])]  # type: ignore[operator]
    assert [line.split(":")[0].removesuffix(" (E)") for line in screen.item_lines()] == expected
    assert expected, "each verb fits one of the items given"
    # A letter of an item the verb does not fit does nothing but say so.
    other = next(item for item in inventory.items if not fits(item))  # type: ignore[operator]
    screens.press(key(item_key(engine, other)))
    assert screens.top is screen
    assert texts(engine)[-1] == "Invalid entry."


def test_quaffing_by_its_letter_drinks_the_potion_and_takes_a_turn() -> None:
    engine = arena()
    engine.player.fighter.hp = 10
    potion = give(engine, entity_factories.health_potion)
    letter = item_key(engine, potion)
    turns = engine.turns
    screens = pressing(press(engine, verb_key(Command.QUAFF)), key(letter))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler)
    assert len(screens.stack) == 2
    assert engine.player.fighter.hp > 10 and potion not in engine.player.inventory.items
    assert engine.turns == turns + 1


@pytest.mark.parametrize(
    ("command", "said"),
    [(Command.QUAFF, "You have nothing to quaff."), (Command.READ, "You have nothing to read.")],
)
def test_a_verb_with_nothing_to_act_on_says_so_and_costs_no_turn(command: Command, said: str) -> None:
    engine = arena()  # The starting gear: a dagger and leather armour, no potion nor scroll.
    turns = engine.turns
    screens = press(engine, verb_key(command))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler)
    assert len(screens.stack) == 2
    assert texts(engine)[-1] == said and engine.turns == turns
