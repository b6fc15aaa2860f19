"""What the player is told about what they see: monsters, items, the stairs.

Every text is made from the components' own numbers, so a new monster or item
is described with no edit here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import tile_types
from components.ai import ConfusedEnemy
from components.inventory import stack_name
from entity import Actor, Item
from saving import paths
from words.grammar import capitalized, counted

if TYPE_CHECKING:
    from components.fighter import Fighter
    from engine import Engine
    from entity import Entity
    from game_map import GameMap

# Health in words, as DCSS tells it: the first whose share of the maximum hit
# points the fighter still has, from the top.
HEALTH_WORDS: Final = (
    (1.0, "uninjured"),
    (0.75, "lightly wounded"),
    (0.5, "wounded"),
    (0.25, "badly wounded"),
    (0.0, "almost dead"),
)

STAIRS: Final = str(tile_types.down_stairs["name"])
CONFUSED: Final = "confused"
EQUIPPED: Final = "(E)"  # After an inventory line's item that is worn or wielded.
FILES_WIDTH: Final = 36  # The character screen's data folder, cut into lines this long.


def health_words(fighter: Fighter) -> str:
    """How hurt a fighter looks: "uninjured" down to "almost dead"."""
    share = fighter.hp / fighter.max_hp
    return next(words for least, words in HEALTH_WORDS if share >= least)


def state_name(actor: Actor) -> str | None:
    """What is out of the ordinary with an actor, in a word ("confused"); None if nothing.
    The news tells a change of it, not each turn of its count."""
    return CONFUSED if isinstance(actor.ai, ConfusedEnemy) else None


def state_words(actor: Actor) -> str | None:
    """What is out of the ordinary with an actor, as "confused, 3 turns"; None if nothing."""
    if isinstance(actor.ai, ConfusedEnemy):
        if actor.ai.turns_remaining <= 0:
            # Its next turn is spent coming to its senses.
            return f"{CONFUSED}, wearing off"
        return f"{CONFUSED}, {counted(actor.ai.turns_remaining, 'turn')}"
    return None


def item_effect(item: Item) -> str:
    """What using or wearing the item does, as "heals 4 HP" or "+4 power"."""
    if item.consumable:
        return item.consumable.describe()
    if item.equippable:
        return item.equippable.describe()
    return ""


def short_description(entity: Entity) -> str:
    """One entity in a few words: "Orc, badly wounded (confused, 3 turns)", "Sword: +4 power"."""
    if isinstance(entity, Actor) and entity.is_alive:
        text = f"{entity.name}, {health_words(entity.fighter)}"
        state = state_words(entity)
        return f"{text} ({state})" if state else text
    if isinstance(entity, Item) and item_effect(entity):
        return f"{entity.name}: {item_effect(entity)}"
    return entity.name


def entities_at(x: int, y: int, game_map: GameMap) -> list[Entity]:
    """The entities at (x, y), the one drawn on top first."""
    here = [entity for entity in game_map.entities if (entity.x, entity.y) == (x, y)]
    return sorted(here, key=lambda entity: entity.render_order.value, reverse=True)


def names_at(x: int, y: int, game_map: GameMap) -> str:
    """What the player sees at (x, y), each thing in a few words, the top one first.

    Empty for a tile out of sight: what stood there may have gone.
    """
    if not game_map.in_bounds(x, y) or not game_map.visible[x, y]:
        return ""
    parts = [short_description(entity) for entity in entities_at(x, y, game_map)]
    if (x, y) == game_map.downstairs_location:
        parts.append(STAIRS)
    return capitalized("; ".join(parts))


def actor_lines(actor: Actor, engine: Engine) -> list[str]:
    """The look window's lines on a living actor: health, state, and its fight with the player."""
    fighter = actor.fighter
    lines = [capitalized(health_words(fighter)) + "."]
    state = state_words(actor)
    if state:
        lines.append(capitalized(state) + ".")
    lines.append(f"Attack {fighter.power}, defense {fighter.defense}.")
    player = engine.player
    if actor is player:
        lines.append(f"HP {fighter.hp} of {fighter.max_hp}.")
    else:
        lines.append(
            f"Hits you for {fighter.damage_to(player.fighter)}; "
            f"you hit it for {player.fighter.damage_to(fighter)}."
        )
    return lines


def entity_details(entity: Entity, engine: Engine) -> list[str]:
    """What one entity is like, for the look window: health and fight, or effect."""
    if isinstance(entity, Actor) and entity.is_alive:
        return actor_lines(entity, engine)
    if isinstance(entity, Item) and item_effect(entity):
        return [capitalized(item_effect(entity)) + "."]
    return []


def entity_lines(entity: Entity, engine: Engine) -> list[str]:
    """The look window's lines on one entity: its name, then what it is like."""
    return [capitalized(entity.name), *(f"  {line}" for line in entity_details(entity, engine))]


def tile_title(x: int, y: int, game_map: GameMap) -> str:
    """What the ground at (x, y) is, by its tile's name: "Floor", "Stairs down"."""
    return capitalized(str(game_map.tiles["name"][x, y]))


def describe_tile(x: int, y: int, engine: Engine) -> tuple[str, list[str]]:
    """The look window at (x, y): a title and its lines.

    On a tile in view, the title names what stands on top (the ground when
    nothing does), its details follow, then the rest with theirs; on a tile
    out of sight only the ground, as remembered.
    """
    game_map = engine.game_map
    title = tile_title(x, y, game_map)
    if not game_map.explored[x, y]:
        return "Unknown", ["You have not seen this place."]
    if not game_map.visible[x, y]:
        return title, ["Out of sight: you remember the ground only."]
    lines: list[str] = []
    here = entities_at(x, y, game_map)
    if here:
        top, *rest = here
        title = capitalized(top.name)
        lines = entity_details(top, engine)
        lines += [line for entity in rest for line in entity_lines(entity, engine)]
    if (x, y) == game_map.downstairs_location:
        lines.append(f"Stairs down to floor {engine.game_world.current_floor + 1}.")
    return title, lines or ["Nothing here."]


def character_sheet(engine: Engine) -> list[str]:
    """The character screen's lines, one a fact: stats, the seed, where the files are kept."""
    player = engine.player
    files = paths.shown(paths.data_dir().resolve())  # The save, morgue files, ...
    fighter = player.fighter
    world = engine.game_world
    return [
        # Differs from the tutorial: HP, depth and turns too.
        f"HP: {fighter.hp}/{fighter.max_hp}",
        f"Dungeon level: {world.current_floor}",
        f"Turns: {engine.turns}",
        f"Level: {player.level.current_level}",
        # Differs from the tutorial: XP counts from the game's start.
        f"XP: {player.level.total_xp}",
        f"XP for next Level: {player.level.next_level_total_xp}",
        f"Attack: {fighter.power}",
        f"Defense: {fighter.defense}",
        f"Seed: {world.seed}",
        # A daily game's date (and try), under its seed.
        *([] if world.daily is None else [daily_name(world.daily, world.daily_try)]),
        "Files kept in:",
        *(files[i : i + FILES_WIDTH] for i in range(0, len(files), FILES_WIDTH)),
    ]


def inventory_lines(player: Actor, fits: Callable[[Item], bool]) -> list[str]:
    """One line per stack the player carries that `fits`: its letter, name and count,
    `(E)` if worn, and its effect; letters stay the inventory's (`q` then `c` acts on `i`'s (c))."""
    lines = []
    for letter, stack in player.inventory.listing():
        item = stack[0]
        if not fits(item):
            continue
        line = f"({letter}) {stack_name(stack)}"
        if player.equipment.item_is_equipped(item):
            line = f"{line} {EQUIPPED}"
        effect = item_effect(item)
        lines.append(f"{line}: {effect}" if effect else line)
    return lines or ["(Empty)"]


def daily_name(date: str, attempt: int) -> str:
    """"Daily 2026-11-25", and ", try 2" from the second game of that date on."""
    return f"Daily {date}" + (f", try {attempt}" if attempt > 1 else "")
