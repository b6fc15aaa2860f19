"""The tile sheets that tools/make_tileset.py draws at the repository root.

The committed sheets must be exactly what the script makes (so they can be
remade, and any change to them shows up as a change to the script), load as
square tiles of their size, and have box-drawing glyphs whose lines meet
their neighbours' at the cell edges, so that frames join at every size.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import tcod
from numpy.typing import NDArray
from test_build import load_module

ROOT = Path(__file__).resolve().parent.parent
make_tileset = load_module("make_tileset")

SIZES: tuple[int, ...] = make_tileset.SIZES


def sheet_path(size: int) -> Path:
    return ROOT / f"dejavu{size}x{size}_gs_tc.png"


def load_sheet(size: int) -> tcod.tileset.Tileset:
    return tcod.tileset.load_tilesheet(sheet_path(size), 32, 8, tcod.tileset.CHARMAP_TCOD)


def alpha(tileset: tcod.tileset.Tileset, char: str) -> NDArray[np.uint8]:
    return tileset.get_tile(ord(char))[:, :, 3]


def test_the_shipped_sizes_are_committed_at_the_root() -> None:
    assert SIZES == (10, 16, 24)
    for size in SIZES:
        assert make_tileset.default_output(size) == sheet_path(size)
        assert sheet_path(size).is_file(), f"run python tools/make_tileset.py --size {size}"


@pytest.mark.parametrize("size", SIZES)
def test_the_script_draws_the_committed_sheet_byte_for_byte(
    size: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Also shows that the output is deterministic: it was committed from another run."""
    output = tmp_path / "sheet.png"
    # Without --size the script draws the 10-pixel sheet.
    make_tileset.main([str(output)] if size == 10 else ["--size", str(size), str(output)])
    assert capsys.readouterr().out == f"Wrote {output}\n"
    assert output.read_bytes() == sheet_path(size).read_bytes(), (
        f"{sheet_path(size).name} is not what tools/make_tileset.py --size {size} draws"
    )


@pytest.mark.parametrize("size", SIZES)
def test_each_sheet_loads_as_square_tiles_of_its_size(size: int) -> None:
    tileset = load_sheet(size)
    assert (tileset.tile_width, tileset.tile_height) == (size, size)
    for char in "@oT#.!?>":
        assert alpha(tileset, char).max() == 255, f"{char!r} has no solid pixel"
    assert not alpha(tileset, " ").any()


def edges(tile: NDArray[np.uint8]) -> list[NDArray[np.uint8]]:
    """The outermost pixels on each side of a tile, in `Arms` order: up, down, left, right."""
    return [tile[0], tile[-1], tile[:, 0], tile[:, -1]]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("double", [False, True], ids=["single", "double"])
def test_box_drawing_lines_reach_the_cell_edges_and_join(size: int, double: bool) -> None:
    """Every arm crosses its edge as the same solid, centred lines, whichever side it
    is on, so it meets the arm of the neighbour it points at pixel for pixel."""
    tileset = load_sheet(size)
    width = make_tileset.metrics_for(size).line_width
    straight = alpha(tileset, "═" if double else "─")
    crossing = straight[:, 0]
    assert set(np.unique(crossing)) == {0, 255}, "the lines are not solid"
    solid = np.flatnonzero(crossing)
    if double:
        assert len(solid) == 2 * width and solid[0] + solid[-1] == size - 1, "not centred"
        assert solid[width] - solid[width - 1] > 1, "the two lines touch"
    else:
        assert len(solid) == width and abs(solid[0] + solid[-1] - (size - 1)) <= 1
    glyphs = make_tileset.DOUBLE_BOX if double else make_tileset.SINGLE_BOX
    for char, arms in glyphs.items():
        for side, edge, has_arm in zip("UDLR", edges(alpha(tileset, char)), arms, strict=True):
            expected = crossing if has_arm else np.zeros_like(crossing)
            assert (edge == expected).all(), f"{char!r} at {size} px, edge {side}"


@pytest.mark.parametrize("size", SIZES)
def test_shades_tile_seamlessly(size: int) -> None:
    tileset = load_sheet(size)
    for char in "░▒▓":
        tile = alpha(tileset, char)
        twice = np.tile(tile, (2, 2))
        assert (twice[1 : size + 1, 1 : size + 1] == np.roll(tile, -1, axis=(0, 1))).all()


def test_the_lattice_drawn_above_10_pixels_is_the_10_pixel_art_at_10() -> None:
    """'#' at 16 and 24 pixels is the same drawing as the hand-made one, scaled."""
    ten = make_tileset.metrics_for(10)
    art = make_tileset.pixel_art_glyph(make_tileset.PIXEL_ART["#"])
    assert (make_tileset.lattice_glyph(ten) == art).all()


@pytest.mark.parametrize("size", ["11", "8", "ten"])
def test_sizes_it_cannot_draw_are_refused(
    size: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "sheet.png"
    with pytest.raises(SystemExit) as exited:
        make_tileset.main(["--size", size, str(output)])
    assert not output.exists()
    assert exited.value.code == 2
    assert "--size" in capsys.readouterr().err
