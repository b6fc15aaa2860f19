"""Shared test set-up: a headless video driver, the project on the path, fixtures."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Must be set before tcod is first imported, or no context can be made.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
