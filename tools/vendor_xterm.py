#!/usr/bin/env python3
"""Vendor xterm.js into web/static/vendor/xterm/, from the npm package `@xterm/xterm`.

Why: the browser front end (`python -m web`) serves every script its pages load
itself, so that no page loads anything from another host; xterm.js (MIT) is
the terminal those pages draw the game in.  Committed, so the server needs no
npm and no network.

How: `npm pack @xterm/xterm@VERSION` fetches the package's tarball (npm checks
it against the registry's integrity hash); of it only `lib/xterm.js`,
`css/xterm.css` and `LICENSE` are kept, with a `VERSION` file naming the
package, its version and the tarball's SHA-512.

Usage::

    python tools/vendor_xterm.py [--version 6.0.0]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Final

PACKAGE: Final = "@xterm/xterm"
DEFAULT_VERSION: Final = "6.0.0"
# The tarball's members kept, and the names they are kept under.
KEPT: Final = {
    "package/lib/xterm.js": "xterm.js",
    "package/css/xterm.css": "xterm.css",
    "package/LICENSE": "LICENSE",
}
TARGET: Final = Path(__file__).resolve().parent.parent / "web" / "static" / "vendor" / "xterm"


def pack(version: str, work: Path) -> Path:
    """Fetch the package's tarball into `work` with npm; its path."""
    done = subprocess.run(
        ["npm", "pack", "--silent", f"{PACKAGE}@{version}"],
        cwd=work,
        check=True,
        capture_output=True,
        text=True,
    )
    name = done.stdout.strip().splitlines()[-1]
    return work / name


def extract(tarball: Path, target: Path, version: str) -> None:
    """Copy the kept members of `tarball` into `target`, and write its VERSION file."""
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball, "r:gz") as archive:
        for member, kept in KEPT.items():
            info = archive.getmember(member)
            if not info.isfile():
                raise SystemExit(f"{member} is not a regular file in {tarball.name}")
            source = archive.extractfile(info)
            assert source is not None
            (target / kept).write_bytes(source.read())
    digest = base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode("ascii")
    (target / "VERSION").write_text(
        f"{PACKAGE} {version}\nsha512-{digest}\n"
        "made by tools/vendor_xterm.py: lib/xterm.js, css/xterm.css and LICENSE of the package\n",
        encoding="utf-8",
    )


def main(argv: list[str] | None = None) -> int:
    """Vendor the version asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default=DEFAULT_VERSION, help="the package's version")
    parser.add_argument("--target", type=Path, default=TARGET, help="the folder to write")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        tarball = pack(args.version, Path(work))
        extract(tarball, args.target, args.version)
    print(f"{PACKAGE} {args.version} written to {args.target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
