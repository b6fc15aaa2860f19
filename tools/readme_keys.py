"""Print the README's key list, generated from the game's own key tables.

The help screen and the README both come from `key_help.help_sections`,
so neither can disagree with the handlers; tests/test_readme.py checks that
the README holds exactly this text.  After changing a binding, run
`python tools/readme_keys.py` and paste its output between the README's
`keys:start` and `keys:end` markers.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import key_help


def keys_markdown() -> str:
    """The key list as Markdown: one table per screen."""
    parts = []
    for section, rows in key_help.help_sections():
        parts.append(f"**{section}**\n\n| Keys | What they do |\n| --- | --- |")
        parts.extend(f"| {keys} | {meaning} |" for keys, meaning in rows)
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(keys_markdown())
