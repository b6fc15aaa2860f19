"""Print the README's key list, generated from the game's own key tables, or
write it into the README.

The help screen and the README both come from `key_help.help_sections`,
so neither can disagree with the handlers; tests/test_readme.py checks that
the README holds exactly this text.  After changing a binding, run
`python tools/readme_keys.py --write`: it puts the list between the README's
`keys:start` and `keys:end` markers.  Without `--write` it prints the list.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controls import key_help, keys
from saving import safe_io

README = Path(__file__).resolve().parent.parent / "README.md"
START = "<!-- keys:start -->\n"
END = "<!-- keys:end -->"


def keys_markdown() -> str:
    """The key list as Markdown: one table per screen."""
    parts = []
    for section, rows in key_help.help_sections(keys.KeyTables()):
        parts.append(f"**{section}**\n\n| Keys | What they do |\n| --- | --- |")
        parts.extend(f"| {keys} | {meaning} |" for keys, meaning in rows)
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def with_keys(readme: str) -> str:
    """The README's text with today's key list between its markers."""
    start = readme.index(START) + len(START)
    end = readme.index(END, start)
    return readme[:start] + keys_markdown() + readme[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update the README instead of printing")
    parser.add_argument("--readme", type=Path, default=README, help="the README to update")
    args = parser.parse_args(argv)
    if not args.write:
        sys.stdout.write(keys_markdown())
        return 0
    text = args.readme.read_text(encoding="utf-8")
    safe_io.write_atomic(args.readme, with_keys(text).encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
