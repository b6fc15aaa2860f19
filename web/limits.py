"""What one browser may cost the server: sizes of what it sends, and rates of what it does.

The rates of a socket's messages are counted in the process; the sign-in and sign-up limits
are counted in the store (`web.store.Store.take`), shared by every node (docs/browser.md).
"""

from __future__ import annotations

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
# Sign-in failures one name may have in a window, from any address, before every sign-in as
# it is refused for the rest of the window; and failures one address may make for any names.
SIGN_IN_FAILURES: Final = 10
SIGN_IN_FAILURES_FROM: Final = 5 * SIGN_IN_FAILURES
WINDOW_SECONDS: Final = 600.0  # The window of the sign-in and sign-up limits.


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
