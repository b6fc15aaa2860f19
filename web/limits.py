"""What one browser may cost the server: sizes of what it sends, and rates of what it does.

The counts are per server process and forgotten when it restarts (docs/browser.md).
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable
from typing import Final

MAX_BODY: Final = 16 << 10  # A form is a name and a password.
MAX_MESSAGE: Final = 1024  # A socket's message: keys, or a paste.
# What a page may type: a bucket of bytes, refilled at this rate, that holds this many.
INPUT_BYTES_PER_SECOND: Final = 200.0
INPUT_BURST: Final = 1000.0
# What the canvas page may send, in events: its pointer's moves apart, so that a sweep of the
# mouse over the map never costs a key its place (a move dropped is made good by the next).
EVENTS_PER_SECOND: Final = 20.0
EVENTS_BURST: Final = 100.0
MOVES_PER_SECOND: Final = 30.0
MOVES_BURST: Final = 60.0
MAX_LOBBY_SOCKETS: Final = 1000  # The lobby's public sockets open at once, at most.
# Sign-in failures an address may make for one name in a window before it is refused for
# that window (and five times as many for all names).
SIGN_IN_FAILURES: Final = 10
MAX_TRACKED: Final = 10000  # Addresses and names whose failures are counted, before a sweep.
WINDOW_SECONDS: Final = 600.0

Counts = dict[str, collections.deque[float]]
"""The moments of each address's (or address and name's) recent events."""


def new_counts() -> Counts:
    """Counts that start empty for any key."""
    return collections.defaultdict(collections.deque)


def too_many(events: collections.deque[float], limit: int, now: float) -> bool:
    """Whether `limit` events fall in the window before `now` (older ones forgotten)."""
    while events and events[0] < now - WINDOW_SECONDS:
        events.popleft()
    return len(events) >= limit


def forget_quiet(counts: Counts, now: float) -> None:
    """Forget the counts with no event left in the window."""
    for key in [key for key, events in counts.items() if not too_many(events, 1, now)]:
        del counts[key]


class Bucket:
    """A rate: `take(n)` is allowed while the bucket holds `n`; it refills at `rate` a second
    up to `burst`."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.held = burst
        self.filled = clock()

    def take(self, amount: float) -> bool:
        now = self.clock()
        self.held = min(self.burst, self.held + (now - self.filled) * self.rate)
        self.filled = now
        if amount > self.held:
            return False
        self.held -= amount
        return True
