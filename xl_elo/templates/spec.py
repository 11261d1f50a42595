"""A template as data: the declarative parts of a federation's workbook (rules 8).

Every word a spec gives (a column's title, a setting's label, a refusal's reason) is English: the builder says it
in the language of the work through the catalogues (:mod:`xl_elo.words`); words that hold a rule's value are built
with ``xl_elo.words._`` and a placeholder, so the value is never written into a catalogue.

A federation's template spec (``xl_elo/federations/<code>/template.py``, function ``spec(capacity)``)
is built from these classes alone: sheets as columns of formulas over other columns by name,
the input columns with their checks, the settings and the results columns. Nothing here
touches a spreadsheet file; :mod:`xl_elo.templates.builder` turns a :class:`Template` into a
workbook.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

FIRST = 2
"""First data row of every sheet but the results sheet (row 1 is the header)."""
RESULTS_FIRST = 4
"""First data row of the results sheet (banner, title, header above)."""


# --------------------------------------------------------------------------- the spec


@dataclass(frozen=True)
class Capacity:
    """How many players, games and history rows a template has room for."""

    players: int = 300
    games: int = 3000
    history: int = 3000
    periods: int = 12
    """Rating periods laid out, for a system that rates several in order (Glicko-2's ladder)."""

    @property
    def sides(self) -> int:
        return 2 * self.games


@dataclass
class Col:
    """One computed column: its name, titles, the rule it implements and its formula."""

    name: str
    title: str
    formula: str | Callable[[int], str]
    """A template over column names (see :func:`render`), or a function of the row giving one."""
    rule: str = ""
    """The section of docs/rules.md this column implements (``2.3``)."""
    fmt: str | None = None
    """Number format (``0`` whole, ``0.00`` two decimals)."""
    width: float | None = None
    blocks: Sequence[tuple[int, int]] | None = None
    """Row ranges written as separate shared formulas (the two halves of the sides sheet)."""
    shared: bool | None = None
    """None: as its sheet's (:attr:`Sheet.shared`); False: each cell its own formula, rows named absolutely, so no
    spreadsheet computes the column as one group (:mod:`.grouping` sets it where LibreOffice's group calculation
    would read stale cells)."""


@dataclass
class Sheet:
    """A sheet of computed columns over rows ``first`` .. ``last``."""

    name: str
    prefix: str
    """Workbook names of the columns are ``prefix + column name``."""
    first: int
    last: int
    columns: list[Col] = field(default_factory=list)
    links: dict[str, Callable[[int], int]] = field(default_factory=dict)
    """Other sheet -> the row of it that this sheet's row r reads (the same row when absent)."""
    leading: list[tuple[str, Callable[[int], Any]]] = field(default_factory=list)
    """Plain columns first (a row number, a side's game row): title, value of row r."""
    printed: bool = False
    areas: dict[str, tuple[str, str]] = field(default_factory=dict)
    """More workbook names: ``prefix + name`` for the block of columns first .. last over the data rows."""
    shared: bool = True
    """Its columns are written as shared formulas (one formula, repeated down; LibreOffice computes the column as
    one group). False writes each cell's own formula: a sheet whose rows read the rows above it through a column
    that depends on them (FESA's sweeps), which LibreOffice's threaded group calculation would see as a circle."""
    grouped: bool = True
    """Its per-player sums over the sides are rewritten as sums over each player's rows (:mod:`.grouping`);
    False keeps them as written (a sheet whose sums only a few rows compute)."""

    def add(self, *cols: Col) -> Sheet:
        self.columns.extend(cols)
        return self


@dataclass(frozen=True)
class Input:
    """An input column of the players, games or history sheet (rules 8)."""

    name: str
    title: str
    """Its words, in English (the catalogues' message id: xl_elo.words); the sheet's heading is its name's."""
    width: float
    check: str | None = None
    """A formula over ``[x]`` (this cell) giving "" or the reason, in words, it is refused."""
    validation: tuple[str | int | float, ...] | None = None
    """A data validation: ('list', source) or ('whole'|'decimal', low, high)."""
    prompt: str = ""
    fmt: str | None = None
    """The input cells' number format (``@``: text, so a period typed ``2026-10`` is not made a date)."""


@dataclass
class Setting:
    """A setting cell on the instructions sheet (the period, an option of the federation)."""

    name: str
    label: str
    default: Any
    choices: tuple[str, ...] = ()
    check: str | None = None
    """A formula over ``[x]`` giving "" or the reason the value is refused."""
    help: str = ""


@dataclass(frozen=True)
class ResultCol:
    """A column of the results sheet: a results column of the engine (rules 8) shown for people."""

    name: str
    title: str
    fmt: str = "General"
    width: float = 10
    printed: bool = True
    heading: str | None = None
    """A formula for its heading, over workbook names (a season's month, named from its first month); its title
    then says what the column is where a heading is not computed (its width is sized for the title)."""


@dataclass
class Template:
    """Everything the builder needs for one federation's workbook."""

    federation: str
    title: str
    players: list[Input]
    games: list[Input]
    history: list[Input] | None
    settings: list[Setting]
    rules: Sequence[str]
    """What the rules say, in words (each generated from the rules' constants through xl_elo.words)."""
    sheets: list[Sheet]
    results: list[ResultCol]
    results_source: str = "work"
    """The sheet whose ``res_<name>`` columns hold each player's results (in players-sheet order)."""
    lists: list[tuple[str, list[str], Sequence[Sequence[Any]]]] = field(default_factory=list)
    """Published tables on the lists sheet: (title, column names, rows); each column becomes a name."""
    player_checks: list[str] = field(default_factory=list)
    """More formulas for a players row's problem cell (over ``[players:...]`` and ``[work:...]``)."""
    game_checks: list[str] = field(default_factory=list)
    """More formulas for a games row's problem cell (over ``[games:...]`` and ``[sides:...]``)."""
    status: list[tuple[str, str]] = field(default_factory=list)
    """More status lines on the instructions sheet: (label, formula)."""
    capacity: Capacity = field(default_factory=Capacity)
    names: dict[str, str] = field(default_factory=dict)
    """More workbook names: name -> formula (FQE's ``match_event``)."""
    blockers: list[tuple[str, str]] = field(default_factory=list)
    """Conditions that make the results not valid beyond input problems: (formula TRUE when so, the words)."""
    periods: bool = False
    """It lays out rating periods, as many as ``capacity.periods`` (a ladder's season)."""
    carry: dict[str, str] = field(default_factory=dict)
    """The next players table (rules 14.3): each players column -> the results column it is read from
    (:func:`xl_elo.season.carried`, from the system's declarations; a column not carried keeps the players sheet's
    value). Set when the workbook is built (:func:`xl_elo.templates.build_book`); empty: no such block."""
    next_history: str | None = None
    """The computed sheet whose columns ``id``, ``opponent_rating`` and ``result`` hold the history table the next
    event reads (FESA's performance games, the DSB's remaining games: rules 14.3), blank rows between allowed."""
