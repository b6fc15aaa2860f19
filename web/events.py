"""What the canvas page may send its game: one JSON event object a message, checked here
before it goes to the game's stdin as a line (`main.py --browser` reads them).

Only these shapes pass, with values of their type and in bounds; anything else is dropped:

    {"key": KeyboardEvent.key, "code": KeyboardEvent.code, "mod": bits}  (code and mod optional)
    {"move": [x, y]}    {"click": [x, y, button]}    {"look": [x, y]}    {"command": name}

A passed event is written again by the server (ASCII JSON, one line), not sent as it came.
"""

from __future__ import annotations

import json
import re
from typing import Final

MAX_EVENT: Final = 256  # Bytes of a message, at most.
MAX_KEY: Final = 32  # Characters of a key's or a code's name.
COLUMNS: Final = 80
ROWS: Final = 50
COMMAND: Final = re.compile(r"[a-z_ ]{1,32}")


def _whole(value: object, low: int, high: int) -> bool:
    """Whether `value` is an int (not a bool) from `low` to `high`."""
    return type(value) is int and low <= value <= high


def _tile(value: object, button: bool = False) -> bool:
    """Whether `value` is [x, y] on the console (and a button 1 to 3, if `button`)."""
    if not isinstance(value, list) or len(value) != 2 + button:
        return False
    inside = _whole(value[0], 0, COLUMNS - 1) and _whole(value[1], 0, ROWS - 1)
    return inside and (not button or _whole(value[2], 1, 3))


def _name(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_KEY


def checked(message: str | bytes) -> bytes | None:
    """The line to send the game for `message`, or None if it is not an event it takes."""
    data = message.encode("utf-8") if isinstance(message, str) else message
    if len(data) > MAX_EVENT:
        return None
    try:
        event = json.loads(data)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(event, dict) or not event:
        return None
    keys = set(event)
    if "key" in keys:
        good = (
            keys <= {"key", "code", "mod"}
            and _name(event["key"])
            and ("code" not in event or _name(event["code"]) or event["code"] == "")
            and ("mod" not in event or _whole(event["mod"], 0, 15))
        )
    elif keys == {"move"}:
        good = _tile(event["move"])
    elif keys == {"look"}:
        good = _tile(event["look"])
    elif keys == {"click"}:
        good = _tile(event["click"], button=True)
    elif keys == {"command"}:
        command = event["command"]
        good = isinstance(command, str) and COMMAND.fullmatch(command) is not None
    else:
        good = False
    if not good:
        return None
    return json.dumps(event, separators=(",", ":")).encode("ascii") + b"\n"
