"""The README and the pages under docs/: the key list in docs/playing.md is exactly the one
the game's key tables give, the set-up commands are the README's, and every relative link
and anchor resolves."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import readme_keys  # noqa: E402
from readme_keys import keys_markdown  # noqa: E402

PLAYING = ROOT / "docs" / "playing.md"


def test_the_guides_key_list_matches_the_key_tables() -> None:
    page = PLAYING.read_text(encoding="utf-8")
    start = page.index("<!-- keys:start -->\n") + len("<!-- keys:start -->\n")
    end = page.index("<!-- keys:end -->")
    assert page[start:end] == keys_markdown(), "run: python tools/readme_keys.py --write"
    assert readme_keys.PAGE == PLAYING
    # The README gives the keys in brief, and links the full list.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "<!-- keys:start -->" not in readme and "](docs/playing.md#keys)" in readme


def test_readme_keys_write_puts_todays_list_between_the_markers(tmp_path: Path) -> None:
    """What `--write` makes of a page whose key list is out of date is the page of today."""
    page = PLAYING.read_text(encoding="utf-8")
    stale = tmp_path / "playing.md"
    stale.write_text(page.replace("| Keys | What they do |", "| Old | List |"), encoding="utf-8")
    assert readme_keys.main(["--write", "--page", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == page


def test_readme_gives_the_two_set_up_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -r requirements.txt && python main.py" in readme
    assert "pip install -r requirements-dev.txt && python -m pytest" in readme


TEST_COMMAND = "pip install -r requirements-dev.txt && python -m pytest"


def required(name: str) -> set[str]:
    """The requirement files `name` installs: itself and those its `-r` lines name, in turn."""
    found = {name}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("-r "):
            found |= required(line.split(maxsplit=1)[1])
    return found


def test_the_readmes_test_command_installs_what_every_test_needs_and_ci_runs_it() -> None:
    """Every requirements file is installed by the README's test command (the browser's
    tests skip without requirements-web.txt), and CI runs that command as written."""
    files = {path.name for path in ROOT.glob("requirements*.txt")}
    assert required("requirements-dev.txt") == files
    assert f'run bash -c "{TEST_COMMAND}"' in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = " ".join(readme[readme.index(TEST_COMMAND) :].split("bash .ci/run")[0].split())
    for package in ("Xvfb", "xdotool", "ImageMagick", "x11-utils", "tmux", "Chromium", "chromium-driver",
                    "Orca", "speech-dispatcher", "espeak-ng", "at-spi2-core", "dbus-x11", "xfce4-terminal",
                    "PostgreSQL", "Redis", "nginx"):
        assert package in said, package  # Beside the command, not only in .ci/run.


def readme_shell(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`script` in bash, as a player's shell runs it: their pip settings and package index
    (environment and config files), but no virtual environment or path of the one running the
    tests, and pip's cache under `tmp_path`."""
    inherited = {name: value for name, value in os.environ.items() if name not in NOT_INHERITED}
    return subprocess.run(
        ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**inherited, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_CACHE_DIR": str(tmp_path / "pip-cache"),
             "SDL_VIDEODRIVER": "dummy"},
    )  # fmt: skip


# What would let the new environment see packages that are not its own.
NOT_INHERITED = frozenset(
    {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PIP_NO_INDEX"}
)


@pytest.mark.slow  # Fetches tcod and numpy.
def test_the_readmes_set_up_works_in_a_fresh_virtual_environment(tmp_path: Path) -> None:
    """The README's venv line, then its install line, as written, in bash; then the game
    starts (`--help`: no window).  tcod comes from the package index the player's pip uses, into
    the environment's own folder, whatever the Python running the tests has installed.  Skipped
    only where no index gives tcod, said so in pip's own words."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    venv_line = "python3 -m venv .venv && . .venv/bin/activate"
    install = "pip install -r requirements.txt && python main.py"
    assert venv_line in readme and readme.index(venv_line) < readme.index(install)
    venv = tmp_path / "venv"
    activate = venv_line.replace(".venv", str(venv))
    fetch = f"pip download --no-deps -d {tmp_path / 'probe'} tcod"
    probe = readme_shell(f"{activate} && {fetch}", tmp_path)
    if probe.returncode != 0:
        why = (probe.stderr.strip().splitlines() or ["?"])[-1]
        pytest.skip(f"tcod comes from no package index pip reaches: {why}")
    result = readme_shell(f"{activate} && {install} --help", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "\nusage: main.py " in result.stdout
    own = subprocess.run(
        [venv / "bin" / "python", "-c", "import tcod, sys; print(tcod.__file__, sys.prefix)"],
        capture_output=True, text=True, check=True, env={"PATH": os.environ["PATH"]},
    )  # fmt: skip
    tcod_file, prefix = own.stdout.split()
    assert Path(tcod_file).is_relative_to(venv) and Path(prefix) == venv  # Its own tcod.


def test_the_guide_names_every_command_a_key_file_takes() -> None:
    from controls import key_file

    page = PLAYING.read_text(encoding="utf-8")
    listed = page[page.index("The commands are") :].split("(as the help", 1)[0]
    assert readme_keys.commands_markdown() in listed, "run: python tools/readme_keys.py --write"
    for name in key_file.COMMAND_NAMES:
        if not name.startswith("move_") or name in ("move_north", "move_southeast"):
            assert f"`{name}`" in listed, name


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors_of(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (outside code blocks), as GitHub numbers repeats."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    in_code = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (heading := re.match(r"#{1,6} (.+)", line)):
            anchor = github_anchor(heading[1])
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def relative_links(page: Path) -> list[str]:
    """The targets of a page's Markdown links and images that are not web addresses."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    return [target for target in targets if not re.match(r"[a-z]+:", target)]


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def broken_links(page: Path) -> list[str]:
    """Each relative link of a page whose file, or heading in it, is not there."""
    broken = []
    for link in relative_links(page):
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.is_file():
            broken.append(f"{link}: no such file")
        elif anchor and anchor not in anchors_of(target):
            broken.append(f"{link}: no such heading in {target.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    assert not broken_links(page)


def test_the_readme_links_each_page_under_docs() -> None:
    links = {link.partition("#")[0] for link in relative_links(ROOT / "README.md")}
    assert {f"docs/{page.name}" for page in PAGES[1:]} <= links


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A heading, with `code`\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[fine](other.md#a-heading-with-code) [fine](#page) ![fine](other.md)\n"
        "[web](https://example.com/x#y) [gone](gone.md) [no heading](other.md#nothing) [here](#nowhere)\n"
        "```\n[in code](ignored.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "gone.md: no such file",
        "other.md#nothing: no such heading in other.md",
        "#nowhere: no such heading in page.md",
    ]


def test_the_anchors_are_githubs() -> None:
    assert github_anchor("Playing in a terminal, over SSH too") == "playing-in-a-terminal-over-ssh-too"
    assert github_anchor("Fewer key presses: exploring, travelling, running") == (
        "fewer-key-presses-exploring-travelling-running"
    )
    assert github_anchor("Watching a game as it is played") == "watching-a-game-as-it-is-played"
