#!/usr/bin/env python3
"""Measure the house's structure figures and keep them in docs/house.md.

    python tools/house_figures.py           # rewrite the page's generated section
    python tools/house_figures.py --check   # exit 1, naming each figure that differs

The figures are read from the source with `ast` alone: nothing of the game is imported or run,
so the whole measure takes a fraction of a second.  The page's section between
`<!-- figures: ... -->` and `<!-- end figures -->` is this tool's output and nothing else;
tests/test_house_figures.py fails when it differs from what the tree measures, so the page
cannot go stale unseen.  The page's other tables are earlier measurements, kept as history.

"The game" is every `.py` file outside `tests/` and `tools/` (and outside hidden, cache and
build folders).  A module is one file, named as Python imports it.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import textwrap
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path("docs") / "house.md"
START = "<!-- figures: made by tools/house_figures.py; do not edit -->\n"
END = "<!-- end figures -->"

NOT_THE_GAME = frozenset({"tests", "tools", "build", "dist", "__pycache__"})
LONG = 40  # Lines a function may span; the tutorial's own two longer ones are allowed.
ALLOWED_LONG = frozenset({"setup_game.new_game", "procgen.generate_dungeon"})
TARGETS = {"replays": 450, "web": 450}  # Lines the biggest module of a package aims at.
VALUE_METHODS = frozenset({"__eq__", "__hash__", "__repr__", "replace"})
SCREEN_BASE = ("screens.base", "BaseEventHandler")
# Where a screen's class may be asked: the screens themselves.
SCREEN_HOMES = ("screens/", "input_handlers.py")

HOW = """\
How each is measured, with `ast` alone: lines are a file's lines (`wc -l`); a function's run \
from its `def` to its last line, nested functions and methods counted on their own. A screen \
class is any class deriving, directly or not, from `screens.base.BaseEventHandler`; a check of \
one is an `isinstance` call, a `case` class pattern or a `type(x) is` (or `==`) comparison \
naming one. An import arrow runs from a module to each game module it imports, by any import \
statement: at the top, under `if TYPE_CHECKING:` or inside a function. Floors are a house's: \
a module stands one floor above the highest module it imports (floor 1: those importing none), \
save that inside an import circle only the imports taken when a module loads hold it up; an \
arrow runs back up when it goes to a higher floor than its own. An import circle is a strongly \
connected component of the arrows (of two modules or more).
"""


Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class Module:
    """One file of the game: its dotted name, its path from the root, its lines, and what one
    walk over its tree found in it."""

    name: str
    path: str
    lines: int
    nodes: list[ast.AST] = field(default_factory=list)  # Every node, in no particular order.
    functions: list[tuple[str, Function, bool]] = field(default_factory=list)  # Name, node, a method?
    imports: list[tuple[ast.Import | ast.ImportFrom, bool]] = field(default_factory=list)  # Run at load?

    @property
    def package(self) -> str:
        """The top folder it is in, or "" for a module at the root."""
        return self.path.split("/")[0] if "/" in self.path else ""

    def walk(self, node: ast.AST, prefix: str, in_class: bool, at_load: bool) -> None:
        """Gather `node`'s descendants: functions by dotted name (`module.Class.method`), and
        imports with whether they run when the module loads (not in a function, not under
        `if TYPE_CHECKING:`)."""
        for child in ast.iter_child_nodes(node):
            self.visit(child, prefix, in_class, at_load)

    def visit(self, node: ast.AST, prefix: str, in_class: bool, at_load: bool) -> None:
        """Gather `node` and its descendants (see `walk`)."""
        self.nodes.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.functions.append((f"{prefix}.{node.name}", node, in_class))
            self.walk(node, f"{prefix}.{node.name}", False, False)
        elif isinstance(node, ast.ClassDef):
            self.walk(node, f"{prefix}.{node.name}", True, at_load)
        elif isinstance(node, ast.Lambda):
            self.walk(node, prefix, False, False)
        elif isinstance(node, ast.If) and is_type_checking(node):
            self.visit(node.test, prefix, False, at_load)
            for statement in node.body:
                self.visit(statement, prefix, False, False)
            for statement in node.orelse:
                self.visit(statement, prefix, False, at_load)
        else:
            if isinstance(node, ast.Import | ast.ImportFrom):
                self.imports.append((node, at_load))
            self.walk(node, prefix, False, at_load)


def is_type_checking(node: ast.If) -> bool:
    """Whether `node` is `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`)."""
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def game_files(root: Path) -> Iterator[Path]:
    """The game's `.py` files, in a fixed order."""
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d not in NOT_THE_GAME
            and not (here / d / "pyvenv.cfg").exists()
        )
        yield from (here / f for f in sorted(files) if f.endswith(".py"))


def read_modules(root: Path) -> dict[str, Module]:
    """Every module of the game by its dotted name."""
    modules = {}
    for file in game_files(root):
        path = file.relative_to(root).as_posix()
        parts = path.removesuffix(".py").split("/")
        if parts[-1] == "__init__" and len(parts) > 1:
            parts.pop()
        text = file.read_text(encoding="utf-8")
        module = Module(".".join(parts), path, len(text.splitlines()))
        module.walk(ast.parse(text, path), module.name, False, True)
        modules[module.name] = module
    return modules


# Functions and methods


def span(node: ast.stmt) -> int:
    """A statement's lines, from its first to its last (decorators not counted)."""
    return (node.end_lineno or node.lineno) - node.lineno + 1


def long_functions(modules: Mapping[str, Module]) -> list[tuple[str, int]]:
    """The functions longer than `LONG` lines, longest first."""
    found = [
        (name, span(node))
        for module in modules.values()
        for name, node, _ in module.functions
        if span(node) > LONG
    ]
    return sorted(found, key=lambda pair: (-pair[1], pair[0]))


def value_methods(modules: Mapping[str, Module]) -> dict[str, list[str]]:
    """Hand-written `__eq__`, `__hash__`, `__repr__` and `replace` methods, by class."""
    found: dict[str, list[str]] = {}
    for module in modules.values():
        for name, node, method in module.functions:
            if method and node.name in VALUE_METHODS:
                found.setdefault(name.rpartition(".")[0], []).append(node.name)
    return found


# Names: what an import or a class statement binds in a module


Symbol = tuple[str, str]  # (module, name): a name defined or bound in a module.


class Names:
    """What each module's names stand for: a game module, or a name in one (a class, say).

    Imports anywhere in a module are taken as binding its names, inside functions too: a
    name imported in a function and used there is the same name for this measure.
    """

    def __init__(self, modules: Mapping[str, Module]) -> None:
        self.modules = modules
        self.bound: dict[str, dict[str, str | Symbol]] = {}
        self.classes: dict[Symbol, ast.ClassDef] = {}
        for module in modules.values():
            names: dict[str, str | Symbol] = {}
            for node in module.nodes:
                if isinstance(node, ast.ClassDef):
                    self.classes.setdefault((module.name, node.name), node)
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.asname:
                            names[alias.asname] = alias.name
                        else:
                            top = alias.name.split(".")[0]
                            names[top] = top
                elif isinstance(node, ast.ImportFrom):
                    base = absolute(module, node)
                    for alias in node.names:
                        whole = f"{base}.{alias.name}"
                        names[alias.asname or alias.name] = (
                            whole if whole in modules else (base, alias.name)
                        )
            self.bound[module.name] = names

    def resolve(self, module: str, expr: ast.expr) -> str | Symbol | None:
        """A module's name or attribute chain as a game module or a symbol; None if neither."""
        if isinstance(expr, ast.Name):
            if (module, expr.id) in self.classes:
                return (module, expr.id)
            return self.follow(self.bound[module].get(expr.id))
        if isinstance(expr, ast.Attribute):
            owner = self.resolve(module, expr.value)
            if isinstance(owner, str):
                whole = f"{owner}.{expr.attr}"
                return whole if whole in self.modules else self.follow((owner, expr.attr))
        return None

    def follow(self, target: str | Symbol | None, depth: int = 0) -> str | Symbol | None:
        """A symbol taken from where a module re-exports it to where it is defined."""
        if not isinstance(target, tuple) or depth > 20 or target in self.classes:
            return target
        module, name = target
        if module not in self.bound or name not in self.bound[module]:
            return target
        return self.follow(self.bound[module][name], depth + 1)


def absolute(module: Module, node: ast.ImportFrom) -> str:
    """The module a `from ... import` takes from, relative imports made absolute."""
    if not node.level:
        return node.module or ""
    package = module.name.split(".")
    if not module.path.endswith("__init__.py"):
        package.pop()
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def screen_classes(names: Names) -> set[Symbol]:
    """Every class deriving, directly or not, from `screens.base.BaseEventHandler`."""
    screens = {SCREEN_BASE}
    grown = True
    while grown:
        grown = False
        for (module, name), node in names.classes.items():
            if (module, name) not in screens and any(
                names.resolve(module, base) in screens for base in node.bases
            ):
                screens.add((module, name))
                grown = True
    return screens


def class_checks(module: Module, names: Names, screens: set[Symbol]) -> Iterator[int]:
    """The line of each check of a screen's class in `module`."""

    def names_a_screen(expr: ast.expr) -> bool:
        if isinstance(expr, ast.Tuple):
            return any(names_a_screen(element) for element in expr.elts)
        return names.resolve(module.name, expr) in screens

    for node in module.nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "isinstance" and len(node.args) == 2 and names_a_screen(node.args[1]):
                yield node.lineno
        elif isinstance(node, ast.MatchClass) and names_a_screen(node.cls):
            yield node.lineno
        elif isinstance(node, ast.Compare) and all(
            isinstance(op, ast.Is | ast.IsNot | ast.Eq | ast.NotEq) for op in node.ops
        ):
            sides = [node.left, *node.comparators]
            if any(is_type_call(side) for side in sides) and any(map(names_a_screen, sides)):
                yield node.lineno


def is_type_call(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "type"


def screen_checks(modules: Mapping[str, Module]) -> Counter[str]:
    """Checks of a screen's class outside the screens, by file."""
    names = Names(modules)
    screens = screen_classes(names)
    found: Counter[str] = Counter()
    for module in modules.values():
        if not module.path.startswith(SCREEN_HOMES):
            found[module.path] += sum(1 for _ in class_checks(module, names, screens))
    return +found


# The import graph


Arrow = tuple[str, str]


def import_arrows(modules: Mapping[str, Module]) -> dict[Arrow, bool]:
    """Each arrow between the game's modules, and whether it is taken when the module loads."""
    arrows: dict[Arrow, bool] = {}
    for module in modules.values():
        for node, at_load in module.imports:
            if isinstance(node, ast.Import):
                targets = [game_module(alias.name, modules) for alias in node.names]
            else:
                base = absolute(module, node)
                targets = [
                    whole if (whole := f"{base}.{alias.name}") in modules else game_module(base, modules)
                    for alias in node.names
                ]
            for target in targets:
                if target and target != module.name:
                    arrows[module.name, target] = arrows.get((module.name, target), False) or at_load
    return arrows


def game_module(dotted: str, modules: Mapping[str, Module]) -> str:
    """The game module an import of `dotted` names (the longest game prefix), or ""."""
    parts = dotted.split(".")
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts)


def circles(nodes: Iterable[str], arrows: Iterable[Arrow]) -> list[list[str]]:
    """The strongly connected components (Tarjan's), each sorted, in a fixed order."""
    after: dict[str, list[str]] = {node: [] for node in nodes}
    for source, target in arrows:
        after[source].append(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(after[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            found.append(sorted(component))

    for node in sorted(after):
        if node not in index:
            connect(node)
    return sorted(found, key=lambda component: (-len(component), component))


def floors(nodes: Iterable[str], arrows: Mapping[Arrow, bool]) -> dict[str, int]:
    """Each module's floor: one above the highest module it imports, floor 1 for those
    importing none.  Inside an import circle, where that cannot hold for every arrow, only the
    imports taken when a module loads count (the others wait: they can run back up); the
    modules of a circle of those share one floor."""
    nodes = list(nodes)
    circle = {member: i for i, members in enumerate(circles(nodes, arrows)) for member in members}
    standing = [
        (source, target)
        for (source, target), at_load in arrows.items()
        if at_load or circle[source] != circle[target]
    ]
    group = {member: i for i, members in enumerate(circles(nodes, standing)) for member in members}
    below: dict[int, set[int]] = {i: set() for i in set(group.values())}
    for source, target in standing:
        if group[source] != group[target]:
            below[group[source]].add(group[target])
    floor: dict[int, int] = {}

    def height(i: int) -> int:
        if i not in floor:
            floor[i] = 1 + max((height(j) for j in below[i]), default=0)
        return floor[i]

    return {node: height(group[node]) for node in nodes}


# The figures


def measure(root: Path) -> dict[str, str]:
    """Each figure's name and its value, as the page shows them."""
    modules = read_modules(root)
    figures = {f"`{path}`": f"{lines_of(modules, path):,} lines" for path in ("input_handlers.py", "main.py")}
    biggest = max(modules.values(), key=lambda module: (module.lines, module.path))
    figures["biggest module"] = f"`{biggest.path}`, {biggest.lines:,} lines"
    for package in sorted({module.package for module in modules.values()}):
        members = [module for module in modules.values() if module.package == package]
        top = max(members, key=lambda module: (module.lines, module.path))
        name = f"biggest of `{package}/`" if package else "biggest at the root"
        value = f"`{top.path}`, {top.lines:,} lines"
        if package in TARGETS:
            target = TARGETS[package]
            name += f" (target ≤{target})"
            value += ": met" if top.lines <= target else f": {top.lines - target:,} over"
        figures[name] = value

    long = long_functions(modules)
    beyond = [name for name, _ in long if name not in ALLOWED_LONG]
    figures[f"functions over {LONG} lines"] = (
        f"{len(long)}: " + ", ".join(f"`{name}` ({lines})" for name, lines in long) if long else "none"
    ) + f"; beyond the tutorial's two (`new_game`, `generate_dungeon`): {len(beyond) or 'none'}"
    methods = value_methods(modules)
    figures["hand-written `__eq__`, `__hash__`, `__repr__`, `replace`"] = (
        f"{sum(map(len, methods.values()))}, in {plural(len(methods), 'class', 'classes')}: "
        + "; ".join(f"`{owner}`: " + ", ".join(f"`{name}`" for name in names) for owner, names in methods.items())
        if methods
        else "none"
    )
    checks = screen_checks(modules)
    figures["checks of a screen's class outside `screens/` and `input_handlers.py`"] = (
        f"{checks.total()}: " + ", ".join(f"`{path}` {n}" for path, n in sorted(checks.items()))
        if checks
        else "none"
    )

    arrows = import_arrows(modules)
    at_load = [arrow for arrow, loaded in arrows.items() if loaded]
    floor = floors(modules, arrows)
    back_up = sorted(arrow for arrow in arrows if floor[arrow[1]] > floor[arrow[0]])
    every = [c for c in circles(modules, arrows) if len(c) > 1]
    loading = [c for c in circles(modules, at_load) if len(c) > 1]
    figures["modules of the game"] = f"{len(modules)}"
    figures["import arrows"] = f"{len(arrows)}, {len(at_load)} of them taken when a module loads"
    figures["floors"] = f"{max(floor.values(), default=0)}"
    figures["arrows that run back up"] = f"{len(back_up)}"
    figures["biggest import circle"] = (
        f"{len(every[0])} modules, of {plural(len(every), 'circle', 'circles')}" if every else "none"
    ) + (
        f"; of the imports taken when a module loads, {len(loading[0])} modules"
        if loading
        else "; none of the imports taken when a module loads"
    )
    return figures


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def lines_of(modules: Mapping[str, Module], path: str) -> int:
    return next((module.lines for module in modules.values() if module.path == path), 0)


def section(figures: Mapping[str, str]) -> str:
    """The page's generated section, markers included."""
    rows = "".join(f"| {name} | {value} |\n" for name, value in figures.items())
    how = textwrap.fill(HOW, 100, break_long_words=False, break_on_hyphens=False)
    return (
        f"{START}## The figures of today's tree\n\n"
        "Written by `python tools/house_figures.py` from the tree as it is; the tests check it.\n\n"
        f"| figure | today |\n| --- | --- |\n{rows}\n{how}\n{END}"
    )


def rows_of(text: str) -> dict[str, str]:
    """A section's table as figure names and values."""
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and len(cells) == 2 and cells[0] not in ("figure", "---"):
            rows[cells[0]] = cells[1]
    return rows


def current_section(page: str) -> str:
    """The page's generated section as it stands, or "" if it has none."""
    start = page.find(START)
    end = page.find(END, start)
    return page[start : end + len(END)] if start >= 0 and end >= 0 else ""


def differences(root: Path) -> list[str]:
    """The names of the page's figures that differ from the tree's (or what else differs)."""
    page = (root / PAGE).read_text(encoding="utf-8")
    written = current_section(page)
    if not written:
        return [f"the section between {START.strip()} and {END} (missing)"]
    figures = measure(root)
    if written == section(figures):
        return []
    shown = rows_of(written)
    names = [name for name in figures.keys() | shown.keys() if figures.get(name) != shown.get(name)]
    return sorted(names) or ["the section's text"]


def rewrite(root: Path) -> None:
    """Put today's figures between the page's markers (they must be there)."""
    page_path = root / PAGE
    page = page_path.read_text(encoding="utf-8")
    written = current_section(page)
    if not written:
        raise SystemExit(f"{PAGE}: no {START.strip()} ... {END} section to write the figures in")
    page_path.write_text(page.replace(written, section(measure(root))), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say which figures differ; exit 1 if any")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree to measure (this one)")
    args = parser.parse_args(argv)
    if not args.check:
        rewrite(args.root)
        return 0
    stale = differences(args.root)
    for name in stale:
        print(f"{PAGE}: differs from the tree: {name}")
    if stale:
        print("run: python tools/house_figures.py")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
