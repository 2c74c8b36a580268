"""Where each tile of a hand lies on the table, as the seeds draw it: the lead in the middle,
end 0's arm growing left and end 1's right, each turning at the table's edge and coming back a row
further out (end 0 upwards, end 1 downwards), so that the line always fits; doubles lie across
the line, except at a turn. In allfives the spinner's short sides (ends 2 and 3) grow in bands
of their own above and below the line, joined to the spinner by a connector.

Units: a tile is 2 long and 1 wide; x grows rightwards, y downwards. The layout of a hand is made
once from all its plays, so that a tile never moves while the hand is stepped through."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Half the width of a row, in tile widths: a row holds about nine tiles lying along it.
HALF_WIDTH = 9.0
#: From one row of the line to the next.
ROW_PITCH = 2.0
#: A spinner's branch starts this far beyond the line's outermost row.
BRANCH_GAP = 2.5


@dataclass(frozen=True)
class Placed:
    """A tile on the table: its box, the number drawn in its left (or top) half and in its right
    (or bottom) half, and the action (its index in the hand) that laid it."""

    x: float
    y: float
    w: float
    h: float
    first: int
    second: int
    step: int


@dataclass
class _Arm:
    """The growing end of one arm: the edge a new tile touches, its row and its direction."""

    edge: float
    row: float
    direction: int  # +1 rightwards, -1 leftwards
    vertical: int  # +1 the arm turns downwards at an edge, -1 upwards
    after_turn: bool = False


@dataclass
class Layout:
    tiles: list[Placed] = field(default_factory=list)
    connectors: list[tuple[float, float, float, float, int]] = field(default_factory=list)

    def bounds(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of everything laid."""
        if not self.tiles:
            return (-1.0, -1.0, 1.0, 1.0)
        return (min(t.x for t in self.tiles), min(t.y for t in self.tiles),
                max(t.x + t.w for t in self.tiles), max(t.y + t.h for t in self.tiles))

    def table(self) -> tuple[float, float, float, float]:
        """The part of the table to draw: the whole width of the rows and three rows at least,
        the lead in the middle, so that tiles keep their size from hand to hand."""
        left, top, right, bottom = self.bounds()
        width = max(HALF_WIDTH + 1.0, -left, right)
        height = max(3 * ROW_PITCH / 2, -top, bottom)
        return (-width, -height, width, height)


def lay_out(plays: list[tuple[int, int, int, int, int]]) -> Layout:
    """The layout of a hand's plays: (step, end, inward, outward, is_double) each, the lead first
    with end -1 and its numbers as written (end 0 shows `inward`, end 1 `outward`). A play on end
    2 or 3 (allfives) grows from the spinner, the first double on the table."""
    layout = Layout()
    if not plays:
        return layout
    step, _, a, b, _ = plays[0]
    arms = {0: _Arm(0.0, 0.0, -1, -1), 1: _Arm(0.0, 0.0, +1, +1)}
    if a == b:
        layout.tiles.append(Placed(-0.5, -1.0, 1.0, 2.0, a, b, step))
        arms[0].edge, arms[1].edge = -0.5, 0.5
    else:
        layout.tiles.append(Placed(-1.0, -0.5, 2.0, 1.0, a, b, step))
        arms[0].edge, arms[1].edge = -1.0, 1.0
    spinner = layout.tiles[0] if a == b else None
    branches: list[tuple[int, int, int, int]] = []
    for step, end, inward, outward, _ in plays[1:]:
        if end >= 2:
            branches.append((step, end, inward, outward))
            continue
        placed = _lay(arms[end], inward, outward, step)
        layout.tiles.append(placed)
        if spinner is None and inward == outward:
            spinner = placed
    if branches and spinner is not None:
        _lay_branches(layout, spinner, branches)
    return layout


def _lay(arm: _Arm, inward: int, outward: int, step: int) -> Placed:
    """The next tile of `arm`, which moves on past it."""
    double = inward == outward
    across = double and not arm.after_turn
    width = 1.0 if across else 2.0
    # A double across the line needs room for a tile beyond it: a corner beside it would touch
    # it with both halves. Without that room, the double is the corner.
    room = width + 2.0 if across else width
    if abs(arm.edge + arm.direction * room) > HALF_WIDTH + 1e-9:
        return _turn(arm, inward, outward, step)
    arm.after_turn = False
    left = arm.edge if arm.direction > 0 else arm.edge - width
    arm.edge += arm.direction * width
    if across:
        return Placed(left, arm.row - 1.0, 1.0, 2.0, inward, outward, step)
    first, second = (inward, outward) if arm.direction > 0 else (outward, inward)
    return Placed(left, arm.row - 0.5, 2.0, 1.0, first, second, step)


def _turn(arm: _Arm, inward: int, outward: int, step: int) -> Placed:
    """The tile at a row's end, lying across to the next row, which runs back the other way."""
    left = arm.edge if arm.direction > 0 else arm.edge - 1.0
    if arm.vertical > 0:
        placed = Placed(left, arm.row - 0.5, 1.0, 2.0, inward, outward, step)
    else:
        placed = Placed(left, arm.row - 1.5, 1.0, 2.0, outward, inward, step)
    arm.edge += arm.direction * 1.0
    arm.direction = -arm.direction
    arm.row += arm.vertical * ROW_PITCH
    arm.after_turn = True
    return placed


def _lay_branches(layout: Layout, spinner: Placed,
                  branches: list[tuple[int, int, int, int]]) -> None:
    """Ends 2 (above the line) and 3 (below), each a row of its own that snakes on outwards,
    starting over the spinner and joined to it by a connector."""
    _, top, _, bottom = layout.bounds()
    centre = spinner.x + spinner.w / 2
    for end, vertical in ((2, -1), (3, +1)):
        plays = [(step, inward, outward) for step, e, inward, outward in branches if e == end]
        if not plays:
            continue
        row = (top - BRANCH_GAP) if vertical < 0 else (bottom + BRANCH_GAP)
        arm = _Arm(centre - 1.0, row, +1, vertical)
        joined = spinner.y if vertical < 0 else spinner.y + spinner.h
        layout.connectors.append((centre, joined, centre, row - vertical * 0.5, plays[0][0]))
        for step, inward, outward in plays:
            layout.tiles.append(_lay(arm, inward, outward, step))
