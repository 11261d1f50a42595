"""What every rating system offers and declares, with the same names and the same meaning.

A system is one folder (``xl_elo/federations/<code>/``): its engine (``__init__.py``), its
chapter of the rules document (``rules.md``), its template spec (``template.py``), its worked
example (``example/``) and whatever else is its own (FESA's files, FIDE's norms), named once in
:data:`xl_elo.federations.MODULES`. Its engine declares it as one typed object built once,
``SYSTEM = RatingSystem(...)``: each declaration is a field of :class:`RatingSystem`, with its type
and its default written there once; a name that is no declaration is a ``TypeError`` when the
registry loads the module, and mypy checks each value. What only some systems have (a rating
list, arrays for a federation-size period, a history table, periods rated at once, a performance
rating, conversions, title norms, their own files) are optional fields, typed by the Protocols
and classes here.

A system's tables are its own too: its ``Player`` and its ``Game`` (subclasses of
:class:`xl_elo.model.Player` and :class:`xl_elo.model.Game`) list the facts it needs of each
player and of each game (:func:`xl_elo.model.fact`: the column, how a cell is read, the
default, the rules section; the ``calc`` flag or word, the ``ELO_CHANGE`` argument, what a TRF
report gives), and every front end reads, checks, offers and shows them from there; its
``Options`` are the settings the rules leave to the user (:func:`option`); its ``COLUMNS`` its
results table (rules 8); its ``CADENCE`` how its ratings move over time (rules 14).

The front ends ask these declarations and never test a system's name or look into its module:
``tests/test_contract.py`` checks every registered system, the functions' signatures included
(:data:`SIGNATURES`), and walks a toy system, added as its folder and one registry line, through
every front end.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, Protocol

from xl_elo import schema
from xl_elo.model import (  # noqa: F401 (the facts are declared through the contract)
    GAMES_NEEDED,
    UNKNOWN_GAMES,
    Column,
    Event,
    EventArrays,
    Fact,
    Player,
    Results,
    birth_year_fact,
    fact,
    facts,
    games_fact,
)
from xl_elo.model import Game as BaseGame
from xl_elo.model import Player as BasePlayer


@dataclass(frozen=True, slots=True)
class OpponentGame:
    """One game of a one-player calculation: the opponent's rating and the player's score.

    ``rating`` None is an unrated opponent (FQE counts him at 1100). A system's own facts of a game
    (its ``Game``'s fields: FESA's handicap) are in ``facts`` by name and read as attributes
    (``g.handicap``), a fact not given as its default; ``gives`` says whether the player holds the
    game's one-sided facts (gives the handicap); a system that counts an opponent's rating deviation
    (Glicko) takes it as ``deviation``.
    """

    rating: float | None
    score: float
    deviation: float | None = None
    gives: bool = False
    facts: Mapping[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return object.__getattribute__(self, "facts")[name]
        except KeyError:
            raise AttributeError(name) from None


#: The words after a one-sided fact of a game that say the player holds it (gives the handicap) ...
GIVES: Final = ("gives", "giver", "g", "give")
#: ... or that the opponent does (the default).
RECEIVES: Final = ("receives", "receiver", "r")


def game_words(game: type[BaseGame], words: Sequence[str], system: str = "these",
               whose: Callable[[str], str] = lambda word: "") -> tuple[dict[str, Any], bool]:
    """One game's own facts as one player's games give them (``calc``'s words after the result, an
    ``ELO_CHANGE`` cell): the system's facts of a game in the order its ``Game`` declares them (a blank one its
    default), a one-sided one followed by ``gives`` when the player holds it (``receives``, the default). The
    facts by name, and whether the player holds the one-sided ones; ValueProblem naming a word not read
    (``whose``: what else it may be, from the other systems' declarations)."""
    declared = [f for f in facts(game) if f.one_game]
    values: dict[str, Any] = {f.name: f.default for f in declared}
    gives = False
    words = list(words)
    if any(f.sided for f in declared) and len(words) > len(declared):
        side = words[-1].lower()
        if side not in GIVES and side not in RECEIVES:
            raise schema.ValueProblem(f"{words[-1]!r} is not 'gives' or 'receives'")
        gives, words = side in GIVES, words[:-1]
    if len(words) > len(declared):
        others = [w for w in words if whose(w)]  # another system's fact of a game (a handicap given to FIDE)
        extra = others[0] if others else words[len(declared)]
        raise schema.ValueProblem(f"{extra!r}: {whose(extra)}{system} games have "
                                  + ("none" if not declared else f"only {', '.join(f.name for f in declared)}"))
    for f, word in zip(declared, words, strict=False):
        try:
            values[f.name] = f.reading(word)
        except schema.ValueProblem:
            other = whose(word)  # another system's fact of a game (a handicap given to FIDE): say so
            if not other:
                raise
            raise schema.ValueProblem(f"{word!r}: {other}{system} games have "
                                      f"only {', '.join(g.name for g in declared)}") from None
    return values, gives


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of a :class:`Calculation`, with what a rating officer checks."""

    opponent: float | None
    """The opponent's rating as given."""
    counts_as: float | None
    """The rating the game counts with (after the 400-point rule, a floor, a handicap)."""
    score: float
    difference: float | None
    """Own rating minus the opponent's as the rule uses it."""
    expected: float | None
    change: float | None
    """This game's share of the change, before the rounding (None where the rule is not per game)."""
    note: str = ""


@dataclass(frozen=True)
class Calculation:
    """One player's event or period, step by step (rules section of the federation)."""

    federation: str
    rating_before: float | None
    games: tuple[GameLine, ...]
    score: float
    rating_after: float | None
    change: float | None = None
    """The change of the published rating (new rating minus the old), bonuses and caps included."""
    k: int | None = None
    expected: float | None = None
    performance: float | None = None
    status: str = ""
    steps: tuple[tuple[str, Any], ...] = ()
    """Every other intermediate, in the order the rules apply them: (label, value)."""
    notes: tuple[str, ...] = ()
    bonus: float | None = None
    """Bonus points in the change (FQE, FESA), where the rules give them."""
    own: tuple[tuple[str, Any], ...] = ()
    """The system's own figures by machine name (``index_after``, ``rd_after``): ``calc --format json`` keys."""


@dataclass(frozen=True, slots=True)
class FirstRating:
    """An unrated player's first rating and its intermediates."""

    rating: float | None
    """The first rating, None when the rules give none yet."""
    status: str
    """What happened, in the federation's words (``first rating``, ``below floor``, ``archived`` ...)."""
    performance: float | None = None
    games: int = 0
    score: float = 0.0
    steps: tuple[tuple[str, Any], ...] = ()


class ExpectedFn(Protocol):
    """``expected(rating, opponent, options=None)``: the expected score of one game (element-wise where
    the system vectorises it)."""

    def __call__(self, rating: Any, opponent: Any, options: Any = None) -> Any: ...


class KFactorFn(Protocol):
    """``k_factor(rating, games=None, age=None, ever_2400=False, options=None)``: the K-factor."""

    def __call__(self, rating: Any, games: Any = None, age: Any = None, ever_2400: Any = False,
                 options: Any = None) -> Any: ...


class PerformanceFn(Protocol):
    """``performance(opponent_ratings, scores, rating=None, options=None)``: the performance rating, or None."""

    def __call__(self, opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                 options: Any = None) -> float | None: ...


class FirstRatingFn(Protocol):
    """``first_rating(opponent_ratings, scores, options=None)``: an unrated player's first rating."""

    def __call__(self, opponent_ratings: Sequence[float], scores: Sequence[float],
                 options: Any = None) -> FirstRating | None: ...


class CalculateFn(Protocol):
    """``calculate(player, games, period=None, k=None, options=None)``: one player, game by game."""

    def __call__(self, player: Any, games: Sequence[OpponentGame], period: str | None = None,
                 k: int | None = None, options: Any = None) -> Calculation: ...


class RateFn(Protocol):
    """``rate(event, options=None)``: a whole event or period."""

    def __call__(self, event: Event, options: Any = None) -> Results: ...


class RateArraysFn(Protocol):
    """``rate_arrays(arrays, options=None)``: the same on the array form (a federation-size period)."""

    def __call__(self, arrays: EventArrays, options: Any = None, /) -> Results: ...


class RatingListFn(Protocol):
    """``from_rating_list(players, entries, year, source, *, own, ...)``: what a rating list says of each
    player, applied to the players table (FIDE's list): the players and the warnings."""

    def __call__(self, players: list[Any], entries: Mapping[str, Any], year: int | None, source: str, *,
                 own: str = ..., options: Any = None,
                 where: Callable[[Any], str] | None = None) -> tuple[list[Any], list[str]]: ...


class ConvertFn(Protocol):
    """``convert(value, from_system, to_system)``: a rating converted between scales (the FFE's)."""

    def __call__(self, value: float, from_system: str, to_system: str) -> float: ...


class FileFormat(Protocol):
    """A kind of file people have, read (and written back) whole: a module offering these (``xl_elo.formats.trf``;
    FESA's ``files``)."""

    SYSTEM: str
    """The system its files are rated by when none is named."""
    KIND: str
    """What it reads, in words (``a TRF tournament report (.trf)``)."""
    FORMAT: str
    """The output format that writes a file read back with the new ratings (``trf``); ``""`` where none does (a PGN
    database is read, never rewritten)."""
    FORMAT_HELP: str
    SUFFIXES: tuple[str, ...]
    """The names of its files: the ones it writes back; with no ``FORMAT``, names an output may not take (a
    ``.pgn`` output is refused, never filled with CSV)."""

    def recognises(self, paths: Sequence[Any]) -> bool: ...

    def read(self, paths: Sequence[Any], module: RatingSystem, **given: Any) -> Any: ...


@dataclass(frozen=True)
class Cadence:
    """How a system's ratings move over time (rules 14): what one run of its engine rates, so a season's games are
    rated unit after unit, in time order, each unit from the list the one before left."""

    unit: str
    """In words: ``month``, ``two months``, ``four months``, ``event``, ``rating period``."""
    months: int = 0
    """Its periods' length in months (FIDE 1); 0 where each event (or each period a games table names, a
    ladder's) is a unit of its own."""
    starts: tuple[int, ...] = ()
    """The months its periods start in (the FFE's September, January and May)."""
    start_ratings: tuple[str, str] | None = None
    """Its facts of a game that hold the two players' ratings on the list in force when the game's event
    started (FIDE 2.11): a season fills them from its own lists where the input gives none."""
    as_given: bool = False
    """Each period the games name (a month or a day) is a unit, given to its engine as named (a ladder's
    rating periods); else an event's period is the month it ends in."""

    def period_of(self, day: dt.date) -> str:
        """The period a day falls in, named by its first month (``YYYY-MM``); the day's month where the cadence
        has no fixed periods."""
        if not self.months or not self.starts:
            return f"{day.year:04d}-{day.month:02d}"
        year, month = day.year, day.month
        first = max((s for s in self.starts if s <= month), default=None)
        if first is None:
            year, first = year - 1, max(self.starts)
        return f"{year:04d}-{first:02d}"


#: Event after event: each event rated from the list the one before left.
EVENTS: Final = Cadence("event")


def _no_tables() -> Mapping[str, Callable[[], Any]]:
    return {}


@dataclass(frozen=True, kw_only=True)
class RatingSystem:
    """A rating system as every front end sees it: its declarations, typed, each with its default here.

    Each system's folder builds one (``SYSTEM`` in its ``__init__``), naming what it declares; a name
    that is not a declaration is refused there (a ``TypeError`` when the registry imports it), and a
    declaration left out takes the default written here, once. The capabilities only some systems have
    (a rating list, arrays for a federation-size period, a history table, periods rated in order, a
    performance rating, conversions) are the optional fields, each None (or empty) for a system that
    does not offer it; the functions are typed by the Protocols above. The front ends read these
    attributes and never probe a module.
    """

    # how it is named and where its rules are
    CODE: str
    """``"fse"``: the command line's ``-f``, the functions' ``federation`` argument."""
    NAME: str
    """``"FSE (Swiss chess federation)"``."""
    ALIASES: tuple[str, ...] = ()
    """Other names it is found by (``("ssb", "swiss")``)."""
    RULES: str
    """Its chapter of docs/rules.md (``"3"``)."""
    SOURCE: str
    """Where the federation publishes its rules."""
    UNIT: str
    """What is rated at once: ``period``, ``event``, ``tournament``, ``rating period``."""
    NEEDS_PERIOD: bool = False
    """Whether the rules need the period's month (FIDE and FSE count ages in its year)."""
    PACKAGE: str
    """Its module (``xl_elo.federations.fse``): its ``example/`` folder and its template spec ``template.py``."""

    # its tables
    Player: type[BasePlayer]
    """Its players: the facts it needs of each are the fields (:func:`xl_elo.model.fact`)."""
    Game: type[BaseGame] = BaseGame
    """Its games: the facts it needs of each game beyond the common columns are the fields
    (:func:`xl_elo.model.fact`, as a player's): FESA's handicap. Read, checked and shown by every front end."""
    Options: type[Any]
    """A frozen dataclass of the settings the rules leave to the user (:func:`option`)."""
    COLUMNS: tuple[Column, ...]
    """Its results table: the common columns, then its own."""

    # the contract's functions
    expected: ExpectedFn
    performance: PerformanceFn
    calculate: CalculateFn
    rate: RateFn
    k_factor: KFactorFn | None = None
    """None where no K applies (the FQE's K is a constant; the FFE has none)."""
    first_rating: FirstRatingFn | None = None
    """None where the rules give no first rating from one event's games."""

    # capabilities
    rate_arrays: RateArraysFn | None = None
    """It rates the array form directly (a federation-size period): :meth:`xl_elo.loader.Loaded.rate` uses it."""
    from_rating_list: RatingListFn | None = None
    """It reads a rating list (FIDE's downloadable list): ``--rating-list``."""
    rules_values: Callable[[], Mapping[str, Any]] | None = None
    """Figures its chapter of the rules computes (the rules document quotes them)."""
    convert: ConvertFn | None = None
    """Conversions between rating scales (the FFE's Elo, INGO, BCR ...): ``xl-elo convert``."""
    HISTORY: str | None = None
    """It takes a history table: what the table holds, in words, as the command line's help says it."""
    CADENCE: Cadence = EVENTS
    """How its ratings move over time (rules 14): its periods (FIDE's month), or event after event."""
    PERIODS: bool = False
    """It rates several periods in order, each game's in a ``period`` column (a Glicko-2 ladder)."""
    OWN_FILES: str = ""
    """Its own program's files, in words (what a TRF report is not, for it)."""
    FILE_FORMAT: str | None = None
    """The module, in its folder, that reads and writes its own program's files (a :class:`FileFormat`:
    FESA's ``files``), which the loader tries on the files given before the common ones."""
    NATIONAL_RATINGS: str | None = None
    """A federation's three-letter code (``GER``): it rates from that federation's own list, so a TRF
    report gives its players' ratings from TRF-26's national records opened by that code, and a report
    without any is refused, never read with FIDE's ratings instead."""
    NO_REPORT_RATINGS: str | None = None
    """Why no TRF report carries its ratings (the FQE's: no FIDE federation code opens records of them): a
    report is refused with these words, never read with FIDE's ratings instead."""
    PERFORMANCE: tuple[str, str] | None = None
    """Its performance rating, in words (English, French), for the functions' help."""
    PERFORMANCE_RATING: tuple[str, str] | None = None
    """What its performance is called where it has a name of its own (the FFE's), English and French."""
    NO_PERFORMANCE: tuple[str, str] | None = None
    """It defines no performance rating at all (Glicko-2): why, in English and French."""
    NORMS: TitleNorms | None = None
    """Its title norms (FIDE's Title Regulations): what ``xl-elo norms`` and the norm sheet ask."""

    # words and readings the front ends show
    TEMPLATE: str | None = None
    """Its template workbook's file name (its spec is ``template.py`` beside the engine), or None."""
    EXAMPLE: str | None = None
    """Its worked example's name (``example/`` beside the engine), or None."""
    FUNCTIONS: tuple[SheetFunction, ...] = ()
    """Its own spreadsheet functions (``FIDE_EXPECTED``)."""
    PUBLISHED_TABLES: Mapping[str, Callable[[], Any]] = field(default_factory=_no_tables)
    """Its published tables (rules 7): name -> a function giving a :class:`xl_elo.tableview.TableView`."""
    GAME: str = "chess"
    """The game it rates (``shogi`` for FESA): a TRF report is a chess tournament's."""
    UNRATED_OPPONENTS: str | None = None
    """Why an unrated opponent is refused in a one-player calculation, where it is."""
    COEFFICIENT: str = "k"
    """The name of its coefficient (K; the DWZ's E): calc's flag and its JSON key."""
    OPPONENTS: tuple[str, str] | None = None
    """What its opponents' ratings are, in words for the functions' help (English, French)."""
    OPPONENT_DEVIATION: schema.Reading | None = None
    """It counts each opponent's rating deviation (Glicko-2): the reading of one, so ``calc`` reads an
    opponent as ``rating/rd`` and passes it as :attr:`OpponentGame.deviation`."""

    def __repr__(self) -> str:
        return f"RatingSystem({self.CODE!r})"

    @property
    def has_performance(self) -> bool:
        """Whether it defines a performance rating (Glicko-2 does not: :attr:`NO_PERFORMANCE` says why)."""
        return self.NO_PERFORMANCE is None

    @property
    def takes_history(self) -> bool:
        """Whether it takes a history table (FESA's performance-mode players; DWZ's remaining games)."""
        return self.HISTORY is not None


#: The argument names of each contract function, in order (checked by the tests).
SIGNATURES: dict[str, tuple[str, ...]] = {
    "expected": ("rating", "opponent", "options"),
    "k_factor": ("rating", "games", "age", "ever_2400", "options"),
    "performance": ("opponent_ratings", "scores", "rating", "options"),
    "first_rating": ("opponent_ratings", "scores", "options"),
    "calculate": ("player", "games", "period", "k", "options"),
    "rate": ("event", "options"),
}


# --------------------------------------------------------------------------- spreadsheet functions


@dataclass(frozen=True)
class SheetArg:
    """An argument of a system's own spreadsheet function."""

    name: str
    doc: tuple[str, str]
    """Its help, in English and in French."""
    reading: Callable[[Any], Any] | None = None
    """How a cell is read (a :mod:`xl_elo.schema` parser; ValueProblem names what was expected)."""
    range: bool = False
    """A range is taken cell by cell (the answer has its shape)."""
    optional: bool = False
    default: Any = None
    zero_is_blank: bool = False
    """An empty cell that a spreadsheet passes as 0 is blank (a rating)."""
    blank_ok: bool = False
    """A required argument whose blank cell is a value (None): a new player's rating, GLICKO2_UPDATE."""
    listed: bool = False
    """A range taken whole: its cells row by row as one list (each read by ``reading``, a blank as
    None), as one player's games are (``GLICKO2_UPDATE``'s opponents)."""


#: The two ranges an expected-score function takes (a system's own, as FIDE_EXPECTED).
RATINGS_ARGS: tuple[SheetArg, SheetArg] = (
    SheetArg("rating", ("The player's rating: a cell or a range.",
                        "Le classement du joueur : une cellule ou une plage."), schema.rating, range=True,
             zero_is_blank=True),
    SheetArg("opponent_rating", ("The opponent's rating: a cell or a range of the same size.",
                                 "Le classement de l'adversaire : une cellule ou une plage de même taille."),
             schema.rating, range=True, zero_is_blank=True),
)


@dataclass(frozen=True)
class SheetFunction:
    """A spreadsheet function a system offers beside the common ones (``FIDE_EXPECTED``, ``DWZ_E``):
    plain Python on plain values, one call per cell of its range arguments (or one numpy call,
    ``vectorised``), given to Excel (xlwings) and LibreOffice Calc (the extension) by the front end."""

    name: str
    compute: Callable[..., Any]
    args: tuple[SheetArg, ...]
    doc: tuple[str, str]
    """What it computes, in English and French, citing the rules by section."""
    category: str
    vectorised: Callable[..., Any] | None = None
    refused: str | None = None
    """When ``compute`` raises ValueError: the arguments the message names (``argument grade``)."""
    row: bool = False
    """The answer is a row of values (not one value per cell)."""


# --------------------------------------------------------------------------- options


def option(default: Any, doc: str, *, choices: Sequence[Any] = (), source: str = "",
           flag: str | None = None, switch: Any = None) -> Any:
    """A field of a federation's ``Options``, with what the command line and the docs show.

    ``switch``: in ``xl-elo calc``, the option's flag takes no value and sets this one (FQE's
    ``--match`` is ``match="yes"``)."""
    return field(default=default, metadata={"help": doc, "choices": tuple(choices), "source": source,
                                            "flag": flag, "switch": switch})


def options_of(cls: type, options: Any = None, **overrides: Any) -> Any:
    """``options`` (or the defaults of the federation's ``Options`` class ``cls``) with ``overrides``.

    ``overrides`` use the fields' names (``dp_method="table"``); values given as text (from
    the command line or a workbook cell) are converted to the field's type and checked.
    """
    base = options if options is not None else cls()
    if not isinstance(base, cls):
        raise TypeError(f"options must be {cls.__module__}.Options, not {type(base).__name__}")
    if not overrides:
        return base
    known = {f.name: f for f in fields(cls)}
    values = {f.name: getattr(base, f.name) for f in fields(cls)}
    for name, value in overrides.items():
        if name not in known:
            raise ValueError(f"no option {name!r} here (the options: {', '.join(known) or 'none'})")
        values[name] = _convert(known[name], value)
    return cls(**values)


def _convert(f: Any, value: Any) -> Any:
    choices = f.metadata.get("choices") or ()
    default = f.default
    if isinstance(value, str) and not isinstance(default, str):
        text = value.strip().replace(",", ".")
        try:
            value = type(default)(float(text)) if isinstance(default, (int, float)) else value
        except ValueError:
            raise ValueError(f"option {f.name}: {value!r} is not a number") from None
    if isinstance(value, str):
        value = value.strip().lower()
    if choices and value not in choices:
        raise ValueError(f"option {f.name}: {value!r} is not one of {', '.join(map(str, choices))}")
    return value


def kinds(columns: Sequence[Column]) -> Mapping[str, str]:
    """Column name -> kind."""
    return {c.name: c.kind for c in columns}


# --------------------------------------------------------------------------- title norms


@dataclass(frozen=True)
class TitleNorms:
    """A system's title norms (FIDE's Title Regulations), declared as its ``NORMS``: the command ``xl-elo norms``,
    its readers and the norm sheet ask this, never the system's name."""

    rules: str
    """Its chapter of docs/rules.md."""
    source: str
    """Where the federation publishes the regulations."""
    engine: Any
    """The module of the rules: its ``Entrant``, ``Pairing`` and ``Tournament`` (plain data in), ``NormOptions``
    (what a report cannot show, with :func:`option` fields), ``checked(tournament, options, titles)`` (one check per
    player and title, and the warnings), ``COLUMNS`` (a check's fields), ``TITLES`` and the figures the sheet uses."""
    sheet: str | None = None
    """The file name of its norm sheet (a template workbook), or None."""
    example: str | None = None
    """A tournament report in its ``example/`` folder whose norms the README and the norm sheet's picture show."""
