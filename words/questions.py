"""The questions a player who can't see the map asks: what is in view, what is
around me, where am I, how am I; and the map itself, as text.  Each answer is a few short lines, made from
the game's state alone; the window (`AnswerScreen`) and the screen reader
(`terminal.screen_reader`) both show these, so they can't say different things.

Places are told from the player as a direction and a count of steps,
"2 north 1 west", north first, as a player counts them off a map.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import tile_types
from controls.keys import Command
from controls.targeting import enemies_in_view
from controls.travel import stairs_known
from entity import Actor
from words.descriptions import STAIRS, entities_at, health_words, short_description, state_words
from words.grammar import capitalized

if TYPE_CHECKING:
    from engine import Engine
    from entity import Entity, Item
    from game_map import GameMap

# The eight neighbours, clockwise from north, with their names.
COMPASS: Final = (
    ("north", (0, -1)),
    ("northeast", (1, -1)),
    ("east", (1, 0)),
    ("southeast", (1, 1)),
    ("south", (0, 1)),
    ("southwest", (-1, 1)),
    ("west", (-1, 0)),
    ("northwest", (-1, -1)),
)

FLOOR: Final = str(tile_types.floor["name"])

# What the ground is called where the player stands.
STANDING: Final = {FLOOR: "in a room", "doorway": "in a doorway", "corridor": "in a corridor"}


def offset_words(dx: int, dy: int) -> str:
    """A step count from the player: "2 north 1 west", "5 east", "here"."""
    parts = []
    if dy:
        parts.append(f"{abs(dy)} {'north' if dy < 0 else 'south'}")
    if dx:
        parts.append(f"{abs(dx)} {'west' if dx < 0 else 'east'}")
    return " ".join(parts) or "here"


def offset_from_player(entity_or_place: Entity | tuple[int, int], engine: Engine) -> str:
    """Where an entity, or a place (x, y), is from the player, in steps."""
    if isinstance(entity_or_place, tuple):
        x, y = entity_or_place
    else:
        x, y = entity_or_place.x, entity_or_place.y
    return offset_words(x - engine.player.x, y - engine.player.y)


def monster_line(actor: Actor, engine: Engine) -> str:
    """"Troll, 2 north 1 west, uninjured", and its state if any ("confused, 3 turns")."""
    line = f"{actor.name}, {offset_from_player(actor, engine)}, {health_words(actor.fighter)}"
    state = state_words(actor)
    return f"{line}, {state}" if state else line


def items_in_view(engine: Engine) -> list[Item]:
    """The items the player sees, nearest first (then the upper, then the left one)."""
    game_map, player = engine.game_map, engine.player
    seen = [item for item in game_map.items if game_map.visible[item.x, item.y]]
    return sorted(seen, key=lambda item: (player.distance(item.x, item.y), item.y, item.x))


def in_view(engine: Engine) -> list[str]:
    """What is in view: the monsters, then the items, then the stairs, nearest first."""
    game_map = engine.game_map
    lines = [monster_line(actor, engine) for actor in enemies_in_view(engine)]
    lines += [f"{item.name}, {offset_from_player(item, engine)}" for item in items_in_view(engine)]
    if game_map.visible[game_map.downstairs_location]:
        lines.append(f"{capitalized(STAIRS)}, {offset_from_player(game_map.downstairs_location, engine)}")
    return lines or ["Nothing in view."]


def known_floor(game_map: GameMap, x: int, y: int) -> bool:
    """Whether (x, y) is ground the player has seen and can walk on: a room's
    shape and the open ways are told by it, whatever the tile is called."""
    return (
        game_map.in_bounds(x, y)
        and bool(game_map.explored[x, y])
        and bool(game_map.tiles["walkable"][x, y])
    )


def in_open_space(game_map: GameMap, x: int, y: int) -> bool:
    """Whether (x, y) is part of a room's floor: of some 2x2 square of floor
    (a corridor is one tile wide)."""
    return any(
        all(known_floor(game_map, x + dx + i, y + dy + j) for i in (0, 1) for j in (0, 1))
        for dx in (-1, 0)
        for dy in (-1, 0)
    )


def ground_words(game_map: GameMap, x: int, y: int) -> str:
    """The ground at (x, y) as a player names it: unknown, its tile's name
    ("wall", "stairs down"), or for floor: floor (of a room), doorway (a
    corridor's end at a room) or corridor."""
    if not game_map.in_bounds(x, y) or not game_map.explored[x, y]:
        return "unknown"
    name = str(game_map.tiles["name"][x, y])
    if name != FLOOR:
        return name
    if in_open_space(game_map, x, y):
        return FLOOR
    beside_room = any(
        in_open_space(game_map, x + dx, y + dy) for _, (dx, dy) in COMPASS if dx == 0 or dy == 0
    )
    return "doorway" if beside_room else "corridor"


def standing_words(game_map: GameMap, x: int, y: int) -> str:
    """Where someone standing at (x, y) is: "in a room", "on the stairs down"."""
    ground = ground_words(game_map, x, y)
    return STANDING.get(ground, f"on the {ground}")


def seen_here(engine: Engine, x: int, y: int) -> list[str]:
    """What the player sees standing or lying at (x, y), the top one first; not the player."""
    game_map = engine.game_map
    if not game_map.in_bounds(x, y) or not game_map.visible[x, y]:
        return []
    here = [entity for entity in entities_at(x, y, game_map) if entity is not engine.player]
    return [short_description(entity) for entity in here]


def around(engine: Engine) -> list[str]:
    """The eight neighbours: each kind of ground with its directions, clockwise from
    north ("Wall: north, west.", "Floor: all around."), so that a room is one line
    to hear, not eight; then what stands next to the player, each with its
    direction; then which ways are open."""
    player, game_map = engine.player, engine.game_map
    grounds: dict[str, list[str]] = {}
    things = []
    open_ways = []
    for name, (dx, dy) in COMPASS:
        x, y = player.x + dx, player.y + dy
        grounds.setdefault(ground_words(game_map, x, y), []).append(name)
        things += [f"{capitalized(name)}: {thing}." for thing in seen_here(engine, x, y)]
        if known_floor(game_map, x, y):
            open_ways.append(name)
    lines = [f"{capitalized(ground)}: {ways_words(names)}." for ground, names in grounds.items()]
    lines += things
    lines.append(f"Open: {ways_words(open_ways)}." if open_ways else "No way is open.")
    return lines


def ways_words(names: list[str]) -> str:
    """Directions of the compass, "north, east", or "all around" for the eight."""
    return "all around" if len(names) == len(COMPASS) else ", ".join(names)


def where(engine: Engine) -> list[str]:
    """The floor, the place on it, the stairs if seen, and what is here."""
    player, game_map = engine.player, engine.game_map
    lines = [
        f"Floor {engine.game_world.current_floor}, "
        f"column {player.x + 1} of {game_map.width}, row {player.y + 1} of {game_map.height}.",
        f"You are {standing_words(game_map, player.x, player.y)}.",
    ]
    if (player.x, player.y) == game_map.downstairs_location:
        lines.append(f"The {STAIRS} are here: > takes them.")
    elif stairs_known(game_map):
        lines.append(f"The {STAIRS}: {offset_from_player(game_map.downstairs_location, engine)}.")
    else:
        lines.append(f"The {STAIRS}: not found yet.")
    here = seen_here(engine, player.x, player.y)
    lines.append(f"Here: {'; '.join(here)}." if here else "Nothing here.")
    return lines


def status(engine: Engine) -> list[str]:
    """Hit points, level and experience, attack and defence, what is worn."""
    player = engine.player
    fighter, level, equipment = player.fighter, player.level, player.equipment
    weapon = equipment.weapon.name if equipment.weapon else "nothing"
    armor = equipment.armor.name if equipment.armor else "nothing"
    return [
        f"HP {fighter.hp} of {fighter.max_hp}.",
        f"Level {level.level_reached}, {level.xp_to_go} XP to the next.",
        f"Attack {fighter.power}, defense {fighter.defense}.",
        f"Wielding {weapon}; wearing {armor}.",
    ]


# The longest line of an answer made to fit: its window, frame included, fits
# 80 columns, and a reader's terminal may be that narrow.
ANSWER_WIDTH: Final = 78

# How far the text map reaches from the player: columns, then rows, each side.
MAP_REACH: Final = (15, 5)


def map_key() -> str:
    """The key to the map as text: "@ you (on the middle row), # wall, . floor, ..."."""
    grounds = ", ".join(f"{tile['sign']} {tile['name']}" for tile in tile_types.TILE_TYPES)
    return f"@ you (on the middle row), {grounds}."


def ground_sign(game_map: GameMap, x: int, y: int) -> str:
    """The ground at (x, y) as one character: blank where nothing is known yet."""
    if not game_map.in_bounds(x, y) or not game_map.explored[x, y]:
        return " "
    return str(game_map.tiles["sign"][x, y])


def on_top(engine: Engine) -> dict[tuple[int, int], Entity]:
    """What is in view, by place: the one the map draws on top (an actor over an
    item over a corpse)."""
    game_map = engine.game_map
    return {
        (entity.x, entity.y): entity
        for entity in sorted(game_map.entities, key=lambda entity: entity.render_order.value)
        if game_map.visible[entity.x, entity.y]
    }


def map_rows(engine: Engine) -> list[str]:
    """The map around the player as rows of signs, for a braille display (the
    window draws walls and floors as coloured blanks): the ground as `ground_sign`
    says, and what is in view by its own sign, as the map draws it."""
    player = engine.player
    signs = {place: entity.char for place, entity in on_top(engine).items()}
    reach_x, reach_y = MAP_REACH
    rows = [
        "".join(
            signs.get((x, y)) or ground_sign(engine.game_map, x, y)
            for x in range(player.x - reach_x, player.x + reach_x + 1)
        ).rstrip()
        for y in range(player.y - reach_y, player.y + reach_y + 1)
    ]
    return [map_key(), *rows]


def ground_name(game_map: GameMap, x: int, y: int) -> str:
    """The ground at (x, y) by its tile's name, as the map of signs shows it."""
    if not game_map.in_bounds(x, y) or not game_map.explored[x, y]:
        return "unknown"
    return str(game_map.tiles["name"][x, y])


def run_words(names: list[str]) -> list[str]:
    """Names in a row, each run of one counted: "7 wall", "Orc", "3 floor"."""
    runs: list[tuple[str, int]] = []
    for name in names:
        if runs and runs[-1][0] == name:
            runs[-1] = (name, runs[-1][1] + 1)
        else:
            runs.append((name, 1))
    return [name if count == 1 else f"{count} {name}" for name, count in runs]


def listed_lines(head: str, parts: list[str]) -> list[str]:
    """ "Head: a, b, c." cut into lines of `ANSWER_WIDTH` between parts, never inside one."""
    lines = [f"{head}:"]
    for index, part in enumerate(parts):
        piece = part + ("." if index == len(parts) - 1 else ",")
        if len(lines[-1]) + 1 + len(piece) > ANSWER_WIDTH:
            lines.append(piece)
        else:
            lines[-1] += f" {piece}"
    return lines


def map_counts(engine: Engine) -> list[str]:
    """The map of signs (`map_rows`) to hear: each row west to east as counts and
    names ("2 north: 7 wall, Orc, 3 floor, Health Potion"), rows where nothing is
    known left out, and what is unknown at a row's east end."""
    player, game_map = engine.player, engine.game_map
    here = {place: entity.name for place, entity in on_top(engine).items()}
    here[player.x, player.y] = "you"
    reach_x, reach_y = MAP_REACH
    lines = [f"Each row west to east, {reach_x} steps either side of you."]
    for dy in range(-reach_y, reach_y + 1):
        y = player.y + dy
        names = [
            here.get((x, y)) or ground_name(game_map, x, y)
            for x in range(player.x - reach_x, player.x + reach_x + 1)
        ]
        while names and names[-1] == "unknown":
            names.pop()
        if names:
            row = "Your row" if dy == 0 else offset_words(0, dy)
            lines += listed_lines(capitalized(row), run_words(names))
    return lines


def at_cursor(engine: Engine, x: int, y: int) -> str:
    """What a look or aiming cursor at (x, y) is on, then the ground, then where from
    the player: "Orc, uninjured; floor; 3 east 2 north", "Wall; 1 north"."""
    player = engine.player
    things = ["you"] if (x, y) == (player.x, player.y) else seen_here(engine, x, y)
    parts = [*things, ground_words(engine.game_map, x, y), offset_words(x - player.x, y - player.y)]
    return capitalized("; ".join(parts))


Answer = Callable[["Engine"], list[str]]

# Each question: its command, the title of its answer, and the answer.
QUESTIONS: Final[dict[Command, tuple[str, Answer]]] = {
    Command.IN_VIEW: ("In view", in_view),
    Command.AROUND: ("Around you", around),
    Command.WHERE: ("Where you are", where),
    Command.STATUS: ("Status", status),
    Command.MAP: ("Map", map_counts),
    Command.SIGN_MAP: ("Map in signs", map_rows),
}
