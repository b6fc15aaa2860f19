"""The screen reader's output (`main.py --screen-reader`) as plain lines for a page.

The game ends each line with `\\r\\n` (`terminal.screen_reader`); a last line left with
the cursor back at its start by a `\\r` (as older games wrote) is read too.  Escape
sequences (keypad mode, colours if any) are dropped here, and so is any control
character, so that a page gets text only.
"""

from __future__ import annotations

import codecs
import re
from typing import Final

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and two-byte escapes (ESC =, ESC >, ...).
ESCAPES: Final = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?")
CONTROLS: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# A line longer than this is cut: the game's are under 80.
MAX_LINE: Final = 400
# What is held waiting for a line's end, at most.
MAX_PARTIAL: Final = 4096


def plain(text: str) -> str:
    """`text` with no escape sequence and no control character."""
    return CONTROLS.sub("", ESCAPES.sub("", text))


class LineSplitter:
    """Bytes from the terminal in, whole plain lines out."""

    def __init__(self) -> None:
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.partial = ""

    def feed(self, data: bytes) -> list[str]:
        """The lines `data` completes (blank ones dropped)."""
        self.partial += self.decoder.decode(data)
        *whole, rest = self.partial.split("\n")
        # The newest line ends with the `\r` that leaves the cursor at its start.
        if rest.endswith("\r") or len(rest) > MAX_PARTIAL:
            whole.append(rest)
            rest = ""
        self.partial = rest
        lines = (plain(line)[:MAX_LINE].rstrip() for line in whole)
        return [line for line in lines if line]
