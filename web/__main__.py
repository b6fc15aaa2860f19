"""`python -m web --port 8000 --data-dir DIR`: serve the game in the browser (see docs/browser.md)."""

import sys

from web.cli import main

if __name__ == "__main__":
    sys.exit(main())
