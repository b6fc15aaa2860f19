"""Print the player's guide's key list, made from the game's key tables, or write it there.

The guide is docs/playing.md.  The help screen and its list both come from `key_help.help_sections`,
so neither can disagree with the handlers; tests/test_readme.py checks that
the page holds exactly this text.  After changing a binding or adding a command, run
`python tools/readme_keys.py --write`: it puts the list between the page's
`keys:start` and `keys:end` markers, and the names a key file takes (`key_file.COMMAND_NAMES`)
between `commands:start` and `commands:end`.  Without `--write` it prints the list.
(The README itself gives only the keys in brief, and links the full list.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controls import key_file, key_help, keys
from saving import safe_io

PAGE = Path(__file__).resolve().parent.parent / "docs" / "playing.md"
START = "<!-- keys:start -->\n"
END = "<!-- keys:end -->"
COMMANDS_START = "<!-- commands:start -->"
COMMANDS_END = "<!-- commands:end -->"


def keys_markdown() -> str:
    """The key list as Markdown: one table per screen."""
    parts = []
    for section, rows in key_help.help_sections(keys.KeyTables()):
        parts.append(f"**{section}**\n\n| Keys | What they do |\n| --- | --- |")
        parts.extend(f"| {keys} | {meaning} |" for keys, meaning in rows)
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def commands_markdown() -> str:
    """The names a key file binds, the eight moves shortened to the first and last."""
    names = [name for name in key_file.COMMAND_NAMES if not name.startswith("move_")]
    moves = [name for name in key_file.COMMAND_NAMES if name.startswith("move_")]
    return ", ".join(f"`{name}`" for name in names) + f", and `{moves[0]}` ... `{moves[-1]}`"


def between(page: str, start_marker: str, end_marker: str, text: str) -> str:
    """The page's text with `text` between its two markers."""
    start = page.index(start_marker) + len(start_marker)
    end = page.index(end_marker, start)
    return page[:start] + text + page[end:]


def with_keys(page: str) -> str:
    """The page's text with today's key list and command names between their markers."""
    page = between(page, START, END, keys_markdown())
    return between(page, COMMANDS_START, COMMANDS_END, commands_markdown())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update the page instead of printing")
    parser.add_argument("--page", type=Path, default=PAGE, help="the page to update (docs/playing.md)")
    args = parser.parse_args(argv)
    if not args.write:
        sys.stdout.write(keys_markdown())
        return 0
    text = args.page.read_text(encoding="utf-8")
    safe_io.write_atomic(args.page, with_keys(text).encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
