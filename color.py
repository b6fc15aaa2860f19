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
