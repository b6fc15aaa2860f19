"""The game's palette: every colour the interface uses, named once."""

from typing import Final

Color = tuple[int, int, int]

white: Final[Color] = (0xFF, 0xFF, 0xFF)
black: Final[Color] = (0x0, 0x0, 0x0)
red: Final[Color] = (0xFF, 0x0, 0x0)
# Blended into the tiles a blast would hit while aiming it.
blast_area: Final[Color] = (0xFF, 0x50, 0x28)

player_atk: Final[Color] = (0xE0, 0xE0, 0xE0)
enemy_atk: Final[Color] = (0xFF, 0xC0, 0xC0)
needs_target: Final[Color] = (0x3F, 0xFF, 0xFF)
status_effect_applied: Final[Color] = (0x3F, 0xFF, 0x3F)
descend: Final[Color] = (0x9F, 0x3F, 0xFF)

player_die: Final[Color] = (0xFF, 0x30, 0x30)
enemy_die: Final[Color] = (0xFF, 0xA0, 0x30)

invalid: Final[Color] = (0xFF, 0xFF, 0x00)
impossible: Final[Color] = (0x80, 0x80, 0x80)
error: Final[Color] = (0xFF, 0x40, 0x40)

welcome_text: Final[Color] = (0x20, 0xA0, 0xFF)
health_recovered: Final[Color] = (0x0, 0xFF, 0x0)

bar_text: Final[Color] = white
bar_filled: Final[Color] = (0x0, 0x60, 0x0)
bar_empty: Final[Color] = (0x40, 0x10, 0x10)

menu_title: Final[Color] = (255, 255, 63)
menu_text: Final[Color] = white

# The things in the dungeon, as the tutorial coloured them (`entity_factories`);
# a palette may draw them in others (`palettes`).
player: Final[Color] = white
orc: Final[Color] = (63, 127, 63)
troll: Final[Color] = (0, 127, 0)
corpse: Final[Color] = (191, 0, 0)
health_potion: Final[Color] = (127, 0, 255)
confusion_scroll: Final[Color] = (207, 63, 255)
fireball_scroll: Final[Color] = (255, 0, 0)
lightning_scroll: Final[Color] = (255, 255, 0)
blade: Final[Color] = (0, 191, 255)
armor: Final[Color] = (139, 69, 19)
