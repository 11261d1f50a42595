"""The one data contract every front end uses (rules section 8, docs/rules.md).

Typed records for the four tables (players, history, games, results), the event that groups
them, its array form (what the period engines compute on, and what the fast CSV reader builds
directly), the results table, and the input errors that name where a bad value was found.
The engines take an :class:`Event` and return :class:`Results`; CSV files, workbooks, TRF
files, the spreadsheet functions and the Python API all build the same records.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, ClassVar, Final, TypeVar

from xl_elo import schema
from xl_elo.compat import need_numpy, np
from xl_elo.core import Result, parse_result

# --------------------------------------------------------------------------- errors


@dataclass(frozen=True, slots=True)
class Problem:
    """One bad value in the input: where it is, what was found, what was expected."""

    source: str
    """File or sheet name (``players.csv``, ``games`` sheet, ``argument players``)."""
    row: int | None
    """Row as a spreadsheet shows it (the header is row 1), or None for the whole table."""
    column: str | None
    """Column name, or None when the problem is the row or the table."""
    message: str
    """What was found and what was expected, one sentence."""

    def __str__(self) -> str:
        where = [self.source]
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column '{self.column}'")
        return f"{', '.join(where)}: {self.message}"


class InputError(ValueError):
    """Every problem found in the input, reported together before any rating is computed."""

    def __init__(self, problems: Sequence[Problem], partial: Sequence[Any] = (), warnings: Sequence[str] = ()):
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.partial: tuple[Any, ...] = tuple(partial)
        """The records that could be read, so later checks can still report their problems."""
        self.warnings: tuple[str, ...] = tuple(warnings)
        """What was worth saying of the input beside its problems (a heading not read: maybe the
        column a problem misses)."""
        super().__init__(self._text())

    def _text(self) -> str:
        if len(self.problems) == 1:
            return str(self.problems[0])
        lines = [f"{len(self.problems)} problems in the input:"]
        lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


class ProblemList:
    """Collects problems while reading; raises them all at once."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, source: str, row: int | None, column: str | None, message: str) -> None:
        self.items.append(Problem(source, row, column, message))

    def raise_if_any(self, partial: Sequence[Any] = ()) -> None:
        if self.items:
            raise InputError(self.items, partial)


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Player:
    """A row of the players table (rules 8): what every rating system knows of a player.

    Each system's own facts (FIDE's year of birth, FESA's grade, Glicko's deviation) are the
    fields of its own ``Player``, a subclass made of :func:`fact` fields (:func:`facts` lists them).
    """

    RATING: ClassVar[schema.Reading] = schema.RATING
    """How the system's ratings read (whole numbers, rules 1.4); a system whose ratings carry
    decimals (Glicko-2 from one period to the next, US Chess as it stores them) declares its own reading."""
    HEADINGS: ClassVar[dict[str, str]] = schema.ELO_HEADINGS
    """Other headings of the common columns, as clubs head them for this system: ``Elo`` and
    ``cote`` for an Elo rating; a national system its own (``DWZ``; ``USCF ID``), and never
    another system's rating (a DWZ is not read from a column headed ``Elo``)."""

    id: str
    """Unique id (required); ids are compared exactly, case included (rules 8)."""
    name: str = ""
    """Display name."""
    rating: float | None = None
    """Rating before the event or period; None (or 0) = unrated (rules 1.4)."""
    row: int | None = field(default=None, compare=False, kw_only=True)
    """Row of the input this record came from (for messages)."""

    def __post_init__(self) -> None:
        if self.rating == 0:  # 0 is unrated (rules 1.4), as the readers read it
            object.__setattr__(self, "rating", None)


@dataclass(frozen=True)
class Fact:
    """A fact a rating system needs about each player: a column of its players table (rules 8).

    A system declares its facts as the fields of its own ``Player`` (a subclass of
    :class:`xl_elo.model.Player`), each made with :func:`fact`; every front end asks them: the
    readers read these columns (and only these), the command line's ``calc`` offers their flags,
    the spreadsheet functions their arguments, a tournament report fills them as it can, and the
    help and the documents list them.
    """

    name: str
    reading: schema.Reading
    """How a cell of the column is read (the one validation of its values)."""
    doc: str
    """What it holds, one line (the README, the help)."""
    rules: str = ""
    """The rules section that uses it."""
    default: Any = None
    """The value of a blank cell."""
    array: str = "number"
    """How the array form holds it: ``number`` (float, NaN blank), ``flag`` (bool) or ``text``."""
    rated_needs: str | None = None
    """When a rated player's cell may not be blank: the words of the refusal (never guessed)."""
    unrated_refuses: str | None = None
    """When an unrated player's cell must be blank (his start is the rules'): the words of the refusal."""
    aliases: tuple[str, ...] = ()
    """Other headings read as this column (``games_after``: a results table read back)."""
    calc: str | None = None
    """The flag of ``xl-elo calc`` that gives it (``--rated-games``)."""
    calc_help: str = ""
    switch: Any = None
    """When the flag takes no value: the value it gives (``--ever-2400`` gives True)."""
    function: str | None = None
    """The argument of ``ELO_CHANGE`` that gives it (``games``; ``age`` gives a year of birth)."""
    function_doc: tuple[str, str] = ("", "")
    """That argument's help for this system, in English and French."""
    k_argument: bool = False
    """Whether ``ELO_K``'s argument of the same name gives it too: K hangs on it (the games before, the DWZ index)."""
    one_player: Any = None
    """Its value for a rated player when ``calc`` or ``ELO_CHANGE`` is not given it (None: ``default``)."""
    report: str | Callable[..., Any] | None = None
    """The field of a tournament report's player that gives it (:class:`Entrant`), or a function of him; for a
    game's fact, a function of the game's two players as the report lists them (``.rating``, ``.title`` ...)."""
    unreported: tuple[Any, str] | None = None
    """When a report does not give it: the value a rated player gets and the warning that says so."""
    one_game: bool = True
    """A game's fact that one player's games take too (``calc``'s words after a result, an ``ELO_CHANGE`` range):
    False for one they already give otherwise (FIDE's opponent's rating at the event's start is the opponent's)."""
    sided: bool = False
    """A game's fact that belongs to one of its two players (FESA's handicap, given by one): the first player's in
    the games table; in one player's games (``calc``, :class:`xl_elo.federations.contract.OpponentGame`) ``gives``
    says whether it is his."""

    def blank_for(self, rated: bool) -> Any:
        """The value calc and ELO_CHANGE take when not given it."""
        return self.one_player if rated and self.one_player is not None else self.default


def fact(reading: schema.Reading, doc: str, *, default: Any = None, **declared: Any) -> Any:
    """A field of a system's ``Player``: a fact of its players table (:class:`Fact`'s fields by name)."""
    return field(default=default, metadata={"fact": (reading, doc, default, declared)})


def facts(player: type) -> tuple[Fact, ...]:
    """The facts a system's ``Player`` declares, in order."""
    out = []
    for f in fields(player):
        spec = f.metadata.get("fact")
        if spec is not None:
            reading, doc, default, declared = spec
            out.append(Fact(f.name, reading, doc, default=default, **declared))
    return tuple(out)


#: The words of a rated player's blank count of games, where the rules hang on it (rules 8).
GAMES_NEEDED: Final = ("blank for a rated player: give his rated games before this event (0 only for a player "
                       "never rated)")
class NotGiven(int):
    """A rated player's count of games that calc or ELO_CHANGE was not given: it counts as this many (not new,
    permanent), and an engine that shows the count can tell it from one typed (``isinstance``)."""


#: What calc and ELO_CHANGE take for a rated player whose games are not given: not new, permanent.
UNKNOWN_GAMES: Final = NotGiven(1000)


#: Other headings of the rated games before: a results table read back, and the words federations and clubs
#: head the column with (English, French, German).
GAMES_ALIASES: Final = ("games_after", "rated_games", "games_played", "number_of_games", "nb_games", "parties",
                        "partien")
#: Other headings of the year of birth, the same way (FIDE's rating list heads it ``B-day``).
BIRTH_YEAR_ALIASES: Final = ("year_of_birth", "yob", "born", "b_day", "dob", "date_of_birth", "birth_date",
                             "né_en", "année_de_naissance", "naissance", "geburtsjahr", "jahrgang")


def games_fact(rules: str, doc: str = "rated games played before", **declared: Any) -> Any:
    """The rated games before (rules 8): required for a rated player, never guessed."""
    declared = {"rated_needs": GAMES_NEEDED, "aliases": GAMES_ALIASES, "calc": "--rated-games",
                "calc_help": doc, "function": "games", "k_argument": True, "one_player": UNKNOWN_GAMES, "rules": rules,
                **declared}
    return fact(schema.GAMES, doc, default=0, **declared)


def birth_year_fact(rules: str, doc: str = "year of birth (the age counts in the period's year)",
                    **declared: Any) -> Any:
    """The year of birth: the age is the period's year minus it."""
    declared = {"calc": "--birth-year", "calc_help": doc, "function": "age", "report": "birth_year",
                "aliases": BIRTH_YEAR_ALIASES, "rules": rules, **declared}
    return fact(schema.BIRTH_YEAR, doc, **declared)


P = TypeVar("P", bound="Player")


def as_player(cls: type[P], p: Player) -> P:
    """``p`` as a ``cls``: the same id, name, rating and row, and each fact of ``cls`` that ``p`` has
    (a blank one where it has none)."""
    if type(p) is cls:
        return p  # type: ignore[return-value]
    values = {f.name: getattr(p, f.name) for f in facts(cls) if hasattr(p, f.name)}
    return cls(p.id, p.name, p.rating, row=p.row, **values)


@dataclass(frozen=True, slots=True)
class NationalRating:
    """A player's rating on a national federation's list, as a tournament report gives it (TRF-26's
    national-rating records, opened by the federation's three-letter code)."""

    federation: str
    """The federation's three-letter code (``GER``, ``USA``, ``CAN``, ``FRA``)."""
    rating: float | None
    """None for unrated."""
    id: str | None = None
    """The player's national id."""
    birth_year: int | None = None


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as a tournament report lists him (a TRF report's player line): what a rating
    system may take from it (a fact's ``report``)."""

    name: str = ""
    rating: float | None = None
    """The rating the report gives (FIDE's, in a TRF report); None for unrated."""
    fide_id: str | None = None
    title: str = ""
    """The title as the report writes it (``GM``, ``IM`` ... upper case)."""
    birth_year: int | None = None
    national: tuple[NationalRating, ...] = ()
    """His national ratings, where the report has them (TRF-26)."""

    def national_rating(self, federation: str) -> NationalRating | None:
        """His rating on one national list (``GER``), or None."""
        return next((r for r in self.national if r.federation == federation.upper()), None)


@dataclass(frozen=True, slots=True)
class HistoryGame:
    """A row of the FESA history table: one earlier game of a performance-mode player."""

    id: str
    """The player's id."""
    opponent_rating: float
    """The opponent's rating as used when the game was rated."""
    result: float
    """1, 0.5 or 0, from the player's side."""
    row: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Game:
    """A row of the games table (rules 8): one game, entered once.

    A system's own facts of a game (FESA's handicap) are the fields of its own ``Game``, a subclass made
    of :func:`fact` fields, as a player's are (:func:`facts` lists them; :func:`as_game` gives a game of
    another kind the system's)."""

    player: str
    """Id of the first player (the one a system's one-sided game facts belong to: the giver of a handicap)."""
    opponent: str | None
    """Id of the opponent; None for a bye."""
    result: Result
    """The parsed result from ``player``'s side (rules 1.1)."""
    round: int | None = None
    """Round number; games are taken in round order, then input order."""
    rated: bool = True
    """False when the organiser did not rate the game (rules 8; FESA 6.8)."""
    row: int | None = field(default=None, compare=False, kw_only=True)
    period: str | None = field(default=None, kw_only=True)
    """The rating period the game is rated in (``YYYY-MM``), or the day it was played, where a season gives it
    (rules 14; a Glicko-2 ladder's periods)."""
    event: str | None = field(default=None, kw_only=True)
    """The event the game belongs to, where a season gives it (rules 14)."""

    def __post_init__(self) -> None:
        # from Python a result may be given as it is typed ("1-0", 0.5, "+"): read as a cell is
        if not isinstance(self.result, Result):
            object.__setattr__(self, "result", parse_result(self.result, has_opponent=self.opponent is not None))

    @property
    def counts(self) -> bool:
        """True when this game is rated: played, flagged rated, and not a bye."""
        return self.rated and self.result.rated and self.opponent is not None


G = TypeVar("G", bound="Game")


def as_game(cls: type[G], g: Game) -> G:
    """``g`` as a ``cls``: the same common columns, and each fact of ``cls`` that ``g`` has (its default
    where it has none: a game read from a file that does not give it)."""
    if type(g) is cls:
        return g  # type: ignore[return-value]
    values = {f.name: getattr(g, f.name) for f in facts(cls) if hasattr(g, f.name)}
    return cls(g.player, g.opponent, g.result, g.round, g.rated, row=g.row, period=g.period, event=g.event, **values)


_PERIOD = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")


def period_year(period: str | None) -> int | None:
    """The year of a period ``YYYY-MM`` (or a date ``YYYY-MM-DD``), None when blank or malformed."""
    m = _PERIOD.match(period or "")
    return int(m.group(1)) if m else None


@dataclass(frozen=True)
class Event:
    """One event or period: the players, games and (FESA) history tables."""

    players: tuple[Player, ...]
    games: tuple[Game, ...]
    history: tuple[HistoryGame, ...] = ()
    period: str | None = None
    """``YYYY-MM`` (FIDE, FSE: gives the year for ages) or a date (``YYYY-MM-DD``)."""
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "games", tuple(self.games))
        object.__setattr__(self, "history", tuple(self.history))

    @property
    def year(self) -> int | None:
        """The period's year, or None."""
        return period_year(self.period)

    def index(self) -> dict[str, int]:
        """Player id -> position in the players table."""
        return {p.id: i for i, p in enumerate(self.players)}

    def arrays(self) -> EventArrays:
        """The event as arrays over player positions (what the period engines compute on)."""
        return EventArrays.from_event(self)


# --------------------------------------------------------------------------- the array form


@dataclass(frozen=True)
class EventArrays:
    """An event as columns: one array per players column, the counting games as position arrays.

    Built from an :class:`Event` (:meth:`from_event`) or directly by the reader
    (:mod:`xl_elo.formats.reader`) for a federation-size period and the spreadsheet function
    ``ELO_RATE``. NaN is a blank number. The system's own facts are in :attr:`facts`, and read
    as attributes too (``ev.games``, ``ev.birth_year``).
    """

    ids: Any
    """Player ids: a list of str, or UTF-8 bytes (numpy ``S``) from the reader."""
    names: Any
    rating: Any
    """Ratings before, NaN = unrated."""
    player: Any
    """Games that count (rules 1.1, 8): the first player's position ..."""
    opponent: Any
    """... the opponent's position ..."""
    score: Any
    """... and the first player's score."""
    period: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    """The system's facts by name (:class:`Fact`): float arrays (NaN blank), bool arrays or object arrays."""
    game_facts: dict[str, Any] = field(default_factory=dict)
    """The system's own facts of each counting game (its ``Game``'s), in the order of :attr:`player`."""

    def __getattr__(self, name: str) -> Any:
        facts_ = self.__dict__.get("facts")
        if facts_ is not None and name in facts_:
            return facts_[name]
        raise AttributeError(name)

    @property
    def n_players(self) -> int:
        return len(self.rating)

    @property
    def year(self) -> int | None:
        return period_year(self.period)

    @property
    def rated(self) -> Any:
        return ~np.isnan(self.rating)

    @property
    def age(self) -> Any:
        """Period year - birth year; NaN when either is unknown (rules 2.3, 3.2)."""
        year = self.year
        born = self.facts.get("birth_year")
        if year is None or born is None:
            return np.full(self.n_players, np.nan)
        return year - born

    def sides(self) -> Sides:
        """Every counting game seen from both players."""
        who = np.concatenate([self.player, self.opponent])
        against = np.concatenate([self.opponent, self.player])
        score = np.concatenate([self.score, 1.0 - self.score])
        return Sides(who, against, score, self.n_players)

    @classmethod
    def from_event(cls, event: Event) -> EventArrays:
        need_numpy("rating a whole event")
        players = event.players
        n = len(players)

        def column(values: Iterable[float | None]) -> Any:
            return np.fromiter((np.nan if v is None else v for v in values), np.float64, n)

        index = event.index()
        rows = [g for g in event.games if g.counts]
        m = len(rows)
        declared = facts(type(players[0])) if players else ()
        own = facts(type(rows[0])) if rows else ()
        return cls(
            ids=[p.id for p in players], names=[p.name for p in players],
            rating=column(p.rating for p in players),
            player=np.fromiter((index[g.player] for g in rows), np.int64, m),
            opponent=np.fromiter((index[g.opponent] for g in rows), np.int64, m),  # type: ignore[index]
            score=np.fromiter((g.result.score for g in rows), np.float64, m),  # type: ignore[misc]
            period=event.period,
            facts={f.name: fact_array(f, [getattr(p, f.name, f.default) for p in players]) for f in declared},
            game_facts={f.name: fact_array(f, [getattr(g, f.name, f.default) for g in rows]) for f in own},
        )


def fact_array(f: Fact, values: Sequence[Any]) -> Any:
    """A fact's values as its array form (:attr:`Fact.array`)."""
    if f.array == "flag":
        return np.fromiter((bool(v) for v in values), np.bool_, len(values))
    if f.array == "text":
        out = np.empty(len(values), dtype=object)
        out[:] = list(values)
        return out
    return np.fromiter((np.nan if v is None else v for v in values), np.float64, len(values))


@dataclass(frozen=True)
class Sides:
    """Every counting game seen from both players: ``who`` met ``against`` and scored ``score``."""

    who: Any
    against: Any
    score: Any
    n_players: int

    def select(self, keep: Any) -> Sides:
        return Sides(self.who[keep], self.against[keep], self.score[keep], self.n_players)

    def count(self) -> Any:
        return np.bincount(self.who, minlength=self.n_players).astype(np.int64)

    def total(self, weights: Any) -> Any:
        return np.bincount(self.who, weights=np.asarray(weights, dtype=np.float64), minlength=self.n_players)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a federation's results table (rules 8)."""

    name: str
    kind: str
    """How a cell reads: ``int``, ``float``, ``number`` (int when whole), ``text``, ``bool``
    (yes/no), ``note`` (text on some rows) or ``blank`` (a column of the contract the
    federation leaves empty)."""
    exact: bool = False
    """Compared exactly with a workbook's formulas (ratings, counts), else to 1e-6."""
    doc: str = ""
    """What the column holds, one line."""
    places: int | None = None
    """Decimals a printed table shows, every row alike (None: up to 3, trailing zeros dropped): enough to
    see a change (Glicko-2's volatility moves in its fifth decimal)."""
    precise: bool = False
    """Written at full precision in CSV (every digit of the double, where others get 6 decimals): a value
    the next period starts from (Glicko-2's rating, RD and volatility), so a season rated period by period
    through CSV files is the season rated at once."""
    key: bool = False
    """A column a rating officer reads first: a table for a terminal shows the key columns first, then the
    others as its width allows (the common ones: id, name, status, ratings before and after, games, score,
    change)."""


#: The results columns every federation has (rules 8), in order.
COMMON_COLUMNS: Final = (
    Column("id", "text", True, "the player's id", key=True),
    Column("name", "text", True, "the player's name", key=True),
    Column("status", "text", True, "the federation's word for the player before: unrated, provisional, ...",
           key=True),
    Column("rating_before", "number", True, "rating before the event or period", key=True),
    Column("games_rated", "int", True, "games rated in this event or period", key=True),
    Column("score", "float", False, "points in those games", key=True),
    Column("expected", "float", False, "sum of the expected scores"),
    Column("k", "int", True, "K-factor"),
    Column("performance", "float", False, "performance rating"),
    Column("change", "number", True, "rating change", key=True),
    Column("bonus", "float", False, "bonus points"),
    Column("rating_after", "number", True, "new rating", key=True),
    Column("games_after", "int", True, "rated games after"),
)
RESULT_COLUMNS: Final = tuple(c.name for c in COMMON_COLUMNS)
#: A season's history (rules 14.5): each player's row in each unit he played in, in this order.
SEASON_HISTORY_COLUMNS: Final = ("unit", "period", "start", "end", "id", "name", "rating_before", "games_rated",
                                 "score", "expected", "k", "change", "rating_after")


def results_columns(*own: Column, blank: Iterable[str] = ()) -> tuple[Column, ...]:
    """The common columns (those in ``blank`` left empty by this federation) then its own."""
    empty = set(blank)
    common = tuple(Column(c.name, "blank", c.exact, c.doc, key=c.key) if c.name in empty else c for c in COMMON_COLUMNS)
    return common + tuple(own)


class Results:
    """The results table of an event or period (rules 8), plus warnings and (FESA) the next history.

    Held as columns (``values[name]``: an array or a list; ``kinds[name]`` says how a cell
    reads, see :class:`Column`). ``rows`` gives the same table as one dict per player.
    """

    def __init__(self, federation: str, columns: Sequence[Column], values: dict[str, Any], *,
                 period: str | None = None, warnings: Sequence[str] = (),
                 history: Sequence[HistoryGame] = (),
                 uncounted: Iterable[tuple[str, str]] | Callable[[], Iterable[tuple[str, str]]] = ()) -> None:
        self.federation = federation
        self.spec = tuple(columns)
        self.columns = tuple(c.name for c in self.spec)
        self.kinds = {c.name: c.kind for c in self.spec}
        self.values = values
        self.period = period
        self.warnings = list(warnings)
        self.history = list(history)
        self._uncounted = uncounted

    @property
    def uncounted(self) -> frozenset[tuple[str, str]]:
        """(player id, opponent id): the games, played and rated, that the rules did not count for the player
        (DWZ: against a player who got no DWZ; FIDE: against an unrated player); a report marks them as it marks
        unrated games. An engine may give a function: it runs the first time a report asks."""
        if not isinstance(self._uncounted, frozenset):
            given = self._uncounted
            self._uncounted = frozenset(given() if callable(given) else given)
        return self._uncounted

    @classmethod
    def from_rows(cls, federation: str, columns: Sequence[Column], rows: Sequence[dict[str, Any]],
                  **extra: Any) -> Results:
        """Results given row by row (FESA's engine rates player by player)."""
        values = {c.name: [row.get(c.name) for row in rows] for c in columns}
        out = cls(federation, columns, values, **extra)
        out.__dict__["rows"] = [dict(row) for row in rows]
        return out

    def __len__(self) -> int:
        return len(self.values[self.columns[0]]) if self.columns else 0

    def cells(self, name: str) -> list[Any]:
        """One column as Python values (None for blank)."""
        kind, v = self.kinds.get(name, "blank"), self.values.get(name)
        n = len(self)
        if kind == "blank" or v is None:
            return [None] * n
        if isinstance(v, list) and kind not in ("note", "bool"):
            return [None if (x is None or x != x) else x for x in v]
        if kind == "int":
            return [None if x != x else int(x) for x in np.asarray(v, dtype=np.float64).tolist()]
        if kind == "float":
            return [None if x != x else float(x) for x in np.asarray(v, dtype=np.float64).tolist()]
        if kind == "number":  # whole numbers as int, others as float
            return [None if x != x else (int(x) if x.is_integer() else x)
                    for x in np.asarray(v, dtype=np.float64).tolist()]
        if kind == "bool":
            return [None if x is None else bool(x) for x in (v if isinstance(v, list) else np.asarray(v).tolist())]
        if kind == "note":
            return [v.get(i, "") for i in range(n)] if isinstance(v, dict) else [x or "" for x in v]
        if isinstance(v, list):
            return list(v)
        if v.dtype.kind == "U":
            return [str(x) for x in v.tolist()]
        return [x.decode("utf-8") if isinstance(x, bytes) else x for x in v.tolist()]

    @cached_property
    def rows(self) -> list[dict[str, Any]]:
        """The table as one dict per player, column name -> value (None for blank)."""
        cols = [self.cells(c) for c in self.columns]
        return [dict(zip(self.columns, row, strict=True)) for row in zip(*cols, strict=True)]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def by_id(self) -> dict[str, dict[str, Any]]:
        """Rows keyed by player id."""
        return {row["id"]: row for row in self.rows}

    def column(self, name: str) -> list[Any]:
        """One column as a list."""
        return [row.get(name) for row in self.rows]


# --------------------------------------------------------------------------- cross-table checks


#: More rated games than this for one player in one event or period is a typing mistake, not
#: an event (a pasted column repeated, a game typed a thousand times).
MAX_GAMES_PER_PLAYER: Final = 1000


def _check_player_values(p: Player, source: str, problems: ProblemList) -> None:
    """The values the engines compute on, for an event built in Python (the readers have read
    them already): a rating as rules 1.4 has it, and each fact of the player's system as its
    column reads it (a count of games in range, a grade ...; rules 8)."""
    try:  # a rating with decimals is the engines' to take (rules 1.4); the readers want whole ones
        schema.number(p.rating, what=f"a rating from 0 to {schema.MAX_RATING}", low=0, high=schema.MAX_RATING)
    except schema.ValueProblem as exc:
        problems.add(source, p.row, "rating", f"player {p.id!r}: {exc}")
    for f in facts(type(p)):
        value = getattr(p, f.name)
        if value is None or f.reading.whole is None or f.reading.whole[1] is None:
            continue  # None: not given (a TRF report's games: not new); years are checked with the period
        try:
            f.reading(value)
        except schema.ValueProblem as exc:
            problems.add(source, p.row, f.name, f"player {p.id!r}: {exc}")


def require_games(event: Event) -> None:
    """A rated player's games before, where a federation's rules hang on them and nothing stands
    in for them (FQE's provisional status, FESA's performance mode): never guessed (rules 8)."""
    problems = ProblemList()
    for p in event.players:
        if getattr(p, "games", 0) is None and p.rating is not None:
            problems.add("players", p.row, "games", f"player {p.id!r}: blank for a rated player: give his rated "
                                                    "games before this event (0 only for a player never rated)")
    problems.raise_if_any()


def check_period(period: str | None, birth_year: Any, ids: Any, source: str = "period", playing: Any = None) -> None:
    """A period the rules need (FIDE 2.3, FSE 3.2 count ages in its year): a real month
    ``YYYY-MM``, and no birth year after its year for a player who plays in it (``playing``: who does; a
    season's list holds players born after its first periods, rules 14). :class:`InputError` otherwise."""
    from xl_elo.schema import ValueProblem
    from xl_elo.schema import period as parse_period

    try:
        parse_period(period, what="the period (ages are counted in its year)")
    except ValueProblem as exc:
        raise InputError([Problem(source, None, None, str(exc))]) from None
    year = period_year(period)
    births = np.asarray(birth_year, dtype=np.float64)
    after = np.nan_to_num(births, nan=0.0) > (year or 0)
    late = np.flatnonzero(after if playing is None else after & np.asarray(playing, dtype=bool))
    if len(late):
        raise InputError([
            Problem(source, None, None, f"{id_text(ids[i])!r} was born in {int(births[i])}, after the period "
                                        f"({period}): check the birth year or the period")
            for i in late.tolist()[:20]])


def id_text(value: Any) -> str:
    """An id as text (the fast reader's arrays hold UTF-8 bytes)."""
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


