"""The spreadsheet functions: one definition for Excel (xlwings) and LibreOffice Calc (the extension).

:func:`spreadsheet_functions` (also :data:`FUNCTIONS`) lists every function with its arguments
and their help: the common ones defined here (``ELO_EXPECTED``, ``ELO_K``, ``ELO_CHANGE``,
``ELO_PERFORMANCE``, ``ELO_RATE``), whose help names the systems from their declarations, and
each registered system's own (its ``FUNCTIONS``: ``FIDE_EXPECTED``, ``FFE_DP``, ...). Each is a
plain Python function that takes what a spreadsheet passes (a number, a text, or a range as a
list of rows; a blank cell as None, ``""`` or 0) and answers with a value or a list of rows of
the same shape. ``udfs/xl_elo_udfs.py`` gives them to xlwings, ``xl_elo.frontends.addin`` (the
extension) to LibreOffice. No rating rule lives here: every function converts its cells through
:mod:`xl_elo.schema` (so the functions accept and refuse what the readers accept and refuse)
and calls a system's contract functions (:mod:`xl_elo.federations.contract`).

The functions on single games and players run in plain Python, so they also work in
LibreOffice's own Python, which has no numpy on Windows and macOS; with numpy installed a
range is computed as one array. ``ELO_RATE`` rates a whole event and needs numpy.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, overload

from xl_elo import schema
from xl_elo.compat import np
from xl_elo.federations import get, registry
from xl_elo.federations.contract import (
    RATINGS_ARGS,
    OpponentGame,
    RatingSystem,
    SheetFunction,
    game_words,
    options_of,
)
from xl_elo.model import Fact, InputError, facts

Range = Any
Words = str | Callable[[], str]


class ArgumentError(ValueError):
    """A bad argument: the message names it and says why."""


class CellZero(float):
    """0 as LibreOffice passes an optional argument given one cell: an empty cell given alone reaches a function
    as 0, and nothing tells the two apart (:mod:`xl_elo.frontends.addin.calls`). Where 0 is no value of the
    argument it is read as blank; where 0 and a blank mean the same it is read; where they differ (0 rated games
    and a history not given) it is refused, never guessed (:func:`cell_zero`)."""


def cell_zero(name: str) -> str:
    """The refusal of a :class:`CellZero` where 0 and a blank cell differ (0 rated games: a new player; blank: a
    history not given)."""
    return (f"argument {name}: 0 or an empty cell? LibreOffice passes an empty cell given alone as 0, and here the "
            "two differ: for a blank write \"\" (or leave the argument out), for 0 write \"0\"")


def _said(words: Words) -> str:
    return words() if callable(words) else words


@dataclass(frozen=True)
class Arg:
    """One argument of a spreadsheet function; its help may be made from the systems' declarations."""

    name: str
    words: Words
    range: bool = False
    """True when a whole range may be given (the function answers with its shape)."""
    optional: bool = False
    french: Words = ""
    """Its help in French (the function wizard's; "" when :mod:`.addin.french` has it)."""

    @property
    def doc(self) -> str:
        return _said(self.words)


@dataclass(frozen=True)
class Function:
    """One spreadsheet function: its name as the spreadsheet shows it, its help and its Python code."""

    name: str
    function: Callable[..., Any]
    args: tuple[Arg, ...]
    category: str
    words: Words | None = None
    """Its description, when not its docstring's first paragraph."""
    french: Words = ""
    """Its description in French ("" when :mod:`.addin.french` has it)."""

    @property
    def description(self) -> str:
        if self.words is not None:
            return _said(self.words)
        return (self.function.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")


#: The common functions, in the order the spreadsheets list them (the systems' own come before ELO_RATE).
_COMMON: list[Function] = []


def spreadsheet(category: str, *args: Arg, words: Words | None = None,
                french: Words = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a common function (its name is the Python name in upper case)."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        _COMMON.append(Function(fn.__name__.upper(), fn, tuple(args), category, words, french))
        return fn
    return register


_CACHE: dict[tuple[str, ...], list[Function]] = {}


def spreadsheet_functions() -> list[Function]:
    """Every spreadsheet function: the common ones, each registered system's own (its ``FUNCTIONS``)
    in the registry's order, then ``ELO_RATE``."""
    key = tuple(m.PACKAGE for m in registry().values())
    if key not in _CACHE:
        declared = [_declared(spec) for m in registry().values() for spec in m.FUNCTIONS]
        last = [f for f in _COMMON if f.category == "events"]
        common = [_change_function() if f.function is _CHANGE_SLOT else f for f in _COMMON if f not in last]
        _CACHE[key] = common + declared + last
    return _CACHE[key]


def __getattr__(name: str) -> Any:
    if name == "FUNCTIONS":
        return spreadsheet_functions()
    raise AttributeError(name)


# --------------------------------------------------------------------------- cells and ranges


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and v.strip() == "") or (isinstance(v, float) and math.isnan(v))


def _item(v: Any) -> Any:
    """A cell as Python holds it: a numpy number (``np.int64(1500)``, a range of integers) as a Python one."""
    if np is not None and isinstance(v, np.generic):
        return v.item()
    return v


def _grid(value: Range) -> tuple[list[list[Any]], bool]:
    """A cell or range as rows of cells (numpy numbers as Python ones), and whether it was a single cell."""
    if not isinstance(value, (list, tuple)) and not (np is not None and isinstance(value, np.ndarray)):
        return [[_item(value)]], True
    rows = [[_item(c) for c in r] if isinstance(r, (list, tuple)) or (np is not None and isinstance(r, np.ndarray))
            else [_item(r)] for r in value]
    width = max((len(r) for r in rows), default=0)
    return [r + [None] * (width - len(r)) for r in rows], False


def _number_cell(v: Any, name: str, *, zero_is_blank: bool, parse: Callable[[Any], float | None]) -> float:
    if _blank(v) or (zero_is_blank and isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0):
        return math.nan
    try:
        x = parse(v)
    except schema.ValueProblem as exc:
        raise ArgumentError(f"argument {name}: {exc}") from None
    return math.nan if x is None else float(x)


def _numbers(value: Range, name: str, *, zero_is_blank: bool = True,
             parse: Callable[[Any], float | None] | None = None) -> tuple[list[list[float]], bool]:
    """A cell or range as rows of floats (NaN = blank), each cell checked; and whether it was one cell."""
    rows, scalar = _grid(value)
    check = parse or (lambda v: schema.number(v, what="a number"))
    return [[_number_cell(v, name, zero_is_blank=zero_is_blank, parse=check) for v in row] for row in rows], scalar


def _rating_or_unrated(v: Any) -> float | None:
    """One player's rating; 0 is unrated (schema.rating; LibreOffice passes an empty cell as 0)."""
    return schema.rating(v)


def _ratings(value: Range, name: str) -> tuple[list[list[float]], bool]:
    return _numbers(value, name, parse=schema.rating)


def _shape(rows: list[list[Any]], scalar: bool) -> Any:
    """Back to the spreadsheet: a value for one cell, else rows; NaN and None as blank cells."""
    out = [[None if (v is None or (isinstance(v, float) and math.isnan(v))) else _plain(v) for v in row]
           for row in rows]
    return out[0][0] if scalar else out


def _plain(v: Any) -> Any:
    if np is not None and isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float):
        return int(v) if v.is_integer() and abs(v) < 2**53 else v
    return v


def _pairs(a: list[list[float]], name_a: str, b: list[list[float]], name_b: str
           ) -> tuple[list[list[float]], list[list[float]]]:
    """Two ranges of the same shape, or one of them a single cell (it repeats)."""
    def shape(x: list[list[float]]) -> tuple[int, int]:
        return len(x), len(x[0]) if x else 0

    if shape(a) == shape(b):
        return a, b
    if shape(a) == (1, 1):
        return [[a[0][0]] * len(row) for row in b], b
    if shape(b) == (1, 1):
        return a, [[b[0][0]] * len(row) for row in a]
    if shape(a)[0] == shape(b)[0] and 1 in (shape(a)[1], shape(b)[1]):
        wide = max(shape(a)[1], shape(b)[1])
        return ([row * wide if len(row) == 1 else row for row in a],
                [row * wide if len(row) == 1 else row for row in b])
    if shape(a)[1] == shape(b)[1] and 1 in (shape(a)[0], shape(b)[0]):
        return (a * len(b) if len(a) == 1 else a, b * len(a) if len(b) == 1 else b)
    raise ArgumentError(f"arguments {name_a} and {name_b}: ranges of {shape(a)[0]} x {shape(a)[1]} and "
                        f"{shape(b)[0]} x {shape(b)[1]} cells do not match (give ranges of the same size, or a "
                        "single cell)")


def _elementwise(fn: Callable[[float, float], float], vectorised: Callable[[Any, Any], Any] | None,
                 a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """``fn`` on every pair of cells (blank where either is); one numpy call when numpy is there."""
    if np is not None and vectorised is not None and a and a[0]:
        x, y = np.array(a, dtype=np.float64), np.array(b, dtype=np.float64)
        blank = np.isnan(x) | np.isnan(y)
        out = np.asarray(vectorised(np.nan_to_num(x), np.nan_to_num(y)), dtype=np.float64)
        out[blank] = np.nan
        return out.tolist()  # type: ignore[no-any-return]
    return [[math.nan if (math.isnan(u) or math.isnan(v)) else float(fn(u, v)) for u, v in zip(ra, rb, strict=True)]
            for ra, rb in zip(a, b, strict=True)]


def _text(value: Range, name: str, *, required: bool = True) -> str | None:
    value = _item(value)
    if isinstance(value, (list, tuple)) or (np is not None and isinstance(value, np.ndarray)):
        rows, _ = _grid(value)
        if len(rows) == 1 and len(rows[0]) == 1:
            value = rows[0][0]
        else:
            raise ArgumentError(f"argument {name}: expected a single cell")
    if isinstance(value, CellZero):  # LibreOffice's 0 for an empty cell: no text is it
        value = None
    try:
        text = schema.text(value)
    except schema.ValueProblem as exc:
        raise ArgumentError(f"argument {name}: {exc}") from None
    if text is None and required:
        raise ArgumentError(f"argument {name} is required")
    return text


def _has_k(system: RatingSystem) -> bool:
    """Whether a system has a K-factor (ELO_K's systems)."""
    return system.k_factor is not None


def _federation(value: Range) -> RatingSystem:
    try:
        return get(_text(value, "federation") or "")
    except ValueError as exc:
        raise ArgumentError(f"argument federation: {exc}") from None


def _single(value: Range, name: str, parse: Callable[[Any], Any], default: Any = None) -> Any:
    """One cell through a schema parser; blank -> ``default``."""
    value = _item(value)
    if isinstance(value, (list, tuple)) or (np is not None and isinstance(value, np.ndarray)):
        rows, _ = _grid(value)
        if len(rows) != 1 or len(rows[0]) != 1:
            raise ArgumentError(f"argument {name}: expected a single cell")
        value = rows[0][0]
    if _blank(value):
        return default
    if isinstance(value, CellZero):  # LibreOffice's 0 for an empty cell as well as for 0
        try:
            zero = parse(value)
        except schema.ValueProblem:
            return default  # 0 is no value here: the cell was empty
        zero = default if zero is None else zero
        if zero != default:
            raise ArgumentError(cell_zero(name))
        return zero
    try:
        out = parse(value)
    except schema.ValueProblem as exc:
        raise ArgumentError(f"argument {name}: {exc}") from None
    return default if out is None else out


#: A result that counts nowhere (a forfeit, a bye, a game not played): skipped with its opponent.
_NOT_RATED = object()


def _results(value: Range, name: str = "results") -> list[Any]:
    """Results of a range, row by row; blanks kept as None so they pair with opponents.

    A forfeit, a bye or a game not played is kept as :data:`_NOT_RATED`: no federation rates it
    (rules 1.1), so it counts nowhere, exactly as in a games table read by the command line.
    """
    rows, _ = _grid(value)
    out: list[Any] = []
    for v in (c for row in rows for c in row):
        if _blank(v):
            out.append(None)
            continue
        try:
            r = schema.result(v)
        except schema.ValueProblem as exc:
            raise ArgumentError(f"argument {name}: {exc}") from None
        out.append(r.score if r.rated else _NOT_RATED)
    return out


@overload
def _games(opponent_ratings: Range, results: Range, reading: Callable[[Any], float | None] = ...,
           kept: Literal[False] = ...) -> list[tuple[float, float]]: ...


@overload
def _games(opponent_ratings: Range, results: Range, reading: Callable[[Any], float | None] = ...,
           kept: Literal[True] = ...) -> list[tuple[float, float] | None]: ...


def _games(opponent_ratings: Range, results: Range, reading: Callable[[Any], float | None] = schema.rating,
           kept: bool = False) -> list[tuple[float, float]] | list[tuple[float, float] | None]:
    """Pairs of (opponent rating, score) from two ranges of the same size; rows blank in both skipped,
    and games that are not rated (forfeits, byes) skipped: they count nowhere (rules 1.1). ``reading``:
    how the system's ratings read (:attr:`xl_elo.model.Player.RATING`: US Chess keeps decimals).
    ``kept``: one entry per cell, None for a row skipped (so a range beside them lines up)."""
    from xl_elo.model import MAX_GAMES_PER_PLAYER

    rows, _ = _grid(opponent_ratings)
    cells = [c for row in rows for c in row]
    res = _results(results)
    if len(cells) != len(res):
        raise ArgumentError(f"arguments opponent_ratings and results: {len(cells)} opponents but {len(res)} results "
                            "(give two ranges of the same size)")
    out: list[tuple[float, float] | None] = []
    skipped = 0
    for o, s in zip(cells, res, strict=True):
        if _blank(o) and s is None:
            out.append(None)
            continue
        if s is _NOT_RATED:  # its opponent is checked all the same: a bad cell is never passed over
            if not _blank(o):
                _number_cell(o, "opponent_ratings", zero_is_blank=False, parse=reading)
            skipped += 1
            out.append(None)
            continue
        if _blank(o) or s is None:
            raise ArgumentError("arguments opponent_ratings and results: a game has an opponent without a result "
                                "or a result without an opponent")
        rating = _number_cell(o, "opponent_ratings", zero_is_blank=False, parse=reading)
        out.append((rating, s))
    played = [g for g in out if g is not None]
    if not played and not skipped:
        raise ArgumentError("arguments opponent_ratings and results: no game given")
    if len(played) > MAX_GAMES_PER_PLAYER:
        raise ArgumentError(f"arguments opponent_ratings and results: {len(played):,} rated games (at most "
                            f"{MAX_GAMES_PER_PLAYER:,} in one event or period): is a column pasted twice?")
    return out if kept else played


# --------------------------------------------------------------------------- expected scores


_RATING, _OPPONENT = (a.doc for a in RATINGS_ARGS)


def _pairwise(rating: Range, opponent_rating: Range, fn: Callable[[float, float], float],
              vectorised: Callable[[Any, Any], Any] | None) -> Any:
    r, scalar = _ratings(rating, "rating")
    o, scalar_o = _ratings(opponent_rating, "opponent_rating")
    r, o = _pairs(r, "rating", o, "opponent_rating")
    return _shape(_elementwise(fn, vectorised, r, o), scalar and scalar_o)


@spreadsheet("expected scores", Arg("rating", _RATING[0], True, french=_RATING[1]),
             Arg("opponent_rating", _OPPONENT[0], True, french=_OPPONENT[1]),
             french="Score attendu logistique 1 / (1 + 10^((adversaire - classement) / 400)) (règles xl-elo 1.2).")
def elo_expected(rating: Range, opponent_rating: Range) -> Any:
    """Logistic expected score 1 / (1 + 10^((opponent - rating) / 400)) (xl-elo rules 1.2)."""
    from xl_elo.core import expected_score, logistic

    return _pairwise(rating, opponent_rating, logistic, expected_score)


# --------------------------------------------------------------------------- K and changes


def _systems(last: str = "or", *, having: Callable[[RatingSystem], bool] | None = None) -> str:
    """The systems a function takes, as its help names them (``FIDE, FSE, FQE, FFE or FESA``)."""
    names = [m.CODE.upper() for m in registry().values() if having is None or having(m)]
    return f"{', '.join(names[:-1])} {last} {names[-1]}" if len(names) > 1 else "".join(names)


def _rules(*, having: Callable[[RatingSystem], bool] | None = None) -> str:
    """The rules sections of the systems a function takes (``2, 3, 4, 5, 6``)."""
    return ", ".join(m.RULES for m in registry().values() if having is None or having(m))


def _fact_words(argument: str, french: bool = False, k: bool = False,
                having: Callable[[RatingSystem], bool] | None = None) -> str:
    """The help of ELO_CHANGE's (and ELO_K's) argument that gives a fact, from every system's declaration
    (``k``: only the facts K hangs on, :attr:`Fact.k_argument`; ``having``: only the systems it says, ELO_K's
    systems with a K).
    Excel's wizard shows 255 characters of an argument's help:
    systems that say the same are named once (``FIDE, FSE: x.``); past 254 characters, the words of what
    a blank cell means go (each system's default), then each system's words are cut to their first."""
    docs = [f.function_doc[int(french)] for m in registry().values() for f in facts(m.Player)
            if f.function == argument and f.function_doc[0] and (f.k_argument or not k)
            and (having is None or having(m))]
    blank = re.compile(r"\s*\((?:blank|vide)\s?:[^)]*\)")
    sep = " : " if french else ": "
    default = (" (vide : le défaut de chaque système)." if french else " (blank: each system's default).")

    def said(words_of: Callable[[str], str]) -> str:
        grouped: dict[str, list[str]] = {}
        for doc in docs:
            who, colon, words = doc.partition(":")
            grouped.setdefault(words_of(words.strip()) if colon else doc, []).append(who.strip() if colon else "")
        return " ".join(f"{', '.join(w for w in who if w)}{sep}{words}" if any(who) else words
                        for words, who in grouped.items())

    full = said(lambda w: w)
    if len(full) < MAX_HELP:
        return full
    short = said(lambda w: blank.sub("", w).rstrip(".;") + ";").rstrip(";") + default
    if len(short) < MAX_HELP:
        return short
    return said(lambda w: re.split(r"[(;,]", blank.sub("", w))[0].strip().rstrip(".") + ";").rstrip(";") + default


@spreadsheet("ratings",
             Arg("federation", lambda: f"{_systems(having=_has_k)} (the systems with a K-factor).",
                 french=lambda: f"{_systems('ou', having=_has_k)} (les systèmes qui ont un coefficient K)."),
             Arg("rating", "The rating: a cell or a range.", True, french="Le classement : une cellule ou une plage."),
             Arg("games", lambda: _fact_words("games", k=True, having=_has_k), optional=True,
                 french=lambda: _fact_words("games", True, True, _has_k)),
             Arg("age", lambda: _fact_words("age", having=_has_k), optional=True,
                 french=lambda: _fact_words("age", True, having=_has_k)),
             Arg("ever_2400", lambda: _fact_words("ever_2400", having=_has_k), optional=True,
                 french=lambda: _fact_words("ever_2400", True, having=_has_k)),
             words=lambda: f"The K-factor of {_systems(having=_has_k)} (xl-elo rules {_rules(having=_has_k)}).",
             french=lambda: f"Le coefficient K de {_systems('ou', having=_has_k)} "
                            f"(règles xl-elo {_rules(having=_has_k)}).")
def elo_k(federation: Range, rating: Range, games: Range = None, age: Range = None, ever_2400: Range = None) -> Any:
    """The K-factor of a system with one, by its rules."""
    module = _federation(federation)
    k_factor = module.k_factor
    if k_factor is None:
        able = ", ".join(c.upper() for c, m in registry().items() if _has_k(m))
        raise ArgumentError(f"argument federation: {module.CODE.upper()} has no k factor (use {able})")
    r, scalar = _ratings(rating, "rating")
    if isinstance(age, CellZero):  # LibreOffice's 0 for an empty cell: no player's age is 0
        age = None
    g_rows, g_scalar = _numbers(games, "games", zero_is_blank=False,
                                parse=lambda v: schema.whole(v, 0, schema.MAX_GAMES)) if not _blank_range(games) \
        else ([[math.nan]], True)
    a_rows, a_scalar = _numbers(age, "age", zero_is_blank=False,
                                parse=lambda v: schema.whole(v, 0, 150, what="an age from 0 to 150")) \
        if not _blank_range(age) else ([[math.nan]], True)
    ever = bool(_single(ever_2400, "ever_2400", schema.yes_no, False))
    r, g = _pairs(r, "rating", g_rows, "games")
    r, a = _pairs(r, "rating", a_rows, "age")
    r, g = _pairs(r, "rating", g, "games")

    def ks(with_games: bool) -> list[list[float]]:
        return [[math.nan if math.isnan(x) else float(k_factor(x, None if math.isnan(gg) or not with_games else gg,
                                                              None if math.isnan(aa) else aa, ever))
                 for x, gg, aa in zip(rr, gr, ar, strict=True)] for rr, gr, ar in zip(r, g, a, strict=True)]

    out = ks(True)
    if isinstance(games, CellZero) and str(out) != str(ks(False)):  # 0 games and a blank give different Ks
        raise ArgumentError(cell_zero("games"))
    return _shape(out, scalar and g_scalar and a_scalar)


def _blank_range(value: Range) -> bool:
    if value is None:
        return True
    rows, _ = _grid(value)
    return all(_blank(v) for row in rows for v in row)


#: Excel's function wizard shows at most 255 characters of an argument's help.
MAX_HELP = 255

#: The argument of ELO_CHANGE that gives a year of birth as an age.
AGE_ARGUMENT = "age"


def one_player_period() -> str:
    """The period ELO_CHANGE rates in: this month (an age counts in its year; a dated rule, as USCF's bonus
    threshold or DWZ's rule sets (rules 9.9), takes today's value)."""
    return dt.date.today().strftime("%Y-%m")


def _age(value: Any) -> int | None:
    """An age from 0 to 150; LibreOffice's 0 for a lone cell (:class:`CellZero`) is an empty cell: no player's age
    is 0."""
    if isinstance(value, CellZero):
        return None
    return schema.whole(value, 0, 150, what="an age from 0 to 150")


def _one_player(module: RatingSystem, rating: float | None, given: dict[str, Range]) -> Any:
    """The player ELO_CHANGE describes, as the system's ``Player``: each fact from the argument that
    gives it (its ``function``: ``games``, ``age``, ``ever_2400``), else as the system counts a
    player of unknown history (rules 8)."""
    values: dict[str, Any] = {}
    for f in facts(module.Player):
        value = None
        cell = given.get(f.function) if f.function is not None else None
        blank = f.blank_for(rating is not None)
        if f.function == AGE_ARGUMENT:  # an age in the period's year: a year of birth in 2000
            age = _single(cell, f.function, _age)
            value = None if age is None else int(one_player_period()[:4]) - age
        elif cell is not None:
            value = _single(cell, f.function or f.name, f.reading, blank if isinstance(cell, CellZero) else None)
        values[f.name] = blank if value is None else value
    return module.Player("player", rating=rating, **values)


#: ELO_CHANGE's arguments after its first four, in the order spreadsheets have had them since they were published:
#: the systems' facts of a player by the argument that gives each (:attr:`Fact.function`), the known K and the
#: options. An argument a system declares beyond these comes after ``options`` (then each system's facts of a
#: game, a range of one cell per game), so the calls already in a workbook keep their meaning.
CHANGE_ARGUMENTS: Final = ("games", "age", "ever_2400", "k", "highest", "record", "options")


def _change_arguments() -> tuple[list[str], list[Fact]]:
    """ELO_CHANGE's arguments after its first four: the published ones and every further argument a system's
    facts of a player name (in the registry's order); and every system's facts of a game, each its own."""
    names = list(CHANGE_ARGUMENTS)
    for m in registry().values():
        for f in facts(m.Player):
            if f.function is not None and f.function not in names:
                names.append(f.function)
    per_game: dict[str, Fact] = {}
    for m in registry().values():
        for f in facts(m.Game):
            if f.one_game:
                per_game.setdefault(f.function or f.name, f)
    return names, list(per_game.values())


def _change_arg(name: str) -> Arg:
    """The help of one of ELO_CHANGE's arguments after its first four."""
    if name == "k":
        return Arg("k", lambda: f"A known K-factor{_coefficient_words()}, instead of the facts that decide it "
                                "(blank: from the rules).", optional=True,
                   french=lambda: f"Un coefficient K connu{_coefficient_words(True)}, au lieu des faits qui le "
                                  "décident (vide : selon les règles).")
    if name == "options":
        return Arg("options", lambda: _options_words(), optional=True, french=lambda: _options_words(True))
    return Arg(name, lambda: _fact_words(name), optional=True, french=lambda: _fact_words(name, True))


def _game_fact_arg(f: Fact) -> Arg:
    """ELO_CHANGE's argument that gives a fact of each game (FESA's handicap), one cell per game."""
    name = f.function or f.name
    return Arg(name, lambda: _game_fact_words(f, name), True, optional=True,
               french=lambda: _game_fact_words(f, name, True))


def _game_fact_words(f: Fact, name: str, french: bool = False) -> str:
    """The help of a game's fact argument: who has it, what it holds, one cell per game."""
    who = ", ".join(m.CODE.upper() for m in registry().values() if any(g.name == f.name for g in facts(m.Game)))
    side = ((" ; « gives » après lui quand le joueur le donne" if french else "; 'gives' after it when the player "
             "gives it") if f.sided else "")
    if french:
        return f"{who} : {f.function_doc[1] or f.doc}, une cellule par partie (vide : aucun){side}."
    return f"{who}: {f.function_doc[0] or f.doc}, one cell per game (blank: none){side}."


def _change_function() -> Function:
    """ELO_CHANGE, its arguments from the registered systems' declarations (:func:`_change_arguments`)."""
    names, per_game = _change_arguments()
    game_names = [f.function or f.name for f in per_game]
    params = ", ".join(["federation", "rating", "opponent_ratings", "results",
                        *(f"{n}=None" for n in [*names, *game_names])])
    scope: dict[str, Any] = {"_run": _change}
    exec(f"def elo_change({params}):\n    return _run(federation, rating, opponent_ratings, results, "
         f"{{{', '.join(f'{n!r}: {n}' for n in names)}}}, {{{', '.join(f'{n!r}: {n}' for n in game_names)}}})",
         scope)
    fn = scope["elo_change"]
    fn.__doc__ = "One player's rating change over a period or event, by a system's rules."
    fn.__module__ = __name__
    args = (
        Arg("federation", lambda: f"{_systems()}.", french=lambda: f"{_systems(last='ou')}."),
        Arg("rating", "The player's rating before the period or event (one cell; blank or 0: unrated).",
            french="Le classement du joueur avant la période ou le tournoi (une cellule ; vide ou 0 : non classé)."),
        Arg("opponent_ratings", lambda: "The opponents' ratings, one per game" + _opponents_words() + ".", True,
            french=lambda: "Les classements des adversaires, un par partie" + _opponents_words(True) + "."),
        Arg("results", "The results, one per game, same size as opponent_ratings: 1, 0.5, 0, 1-0, ½, W/D/L ...",
            True, french="Les résultats, un par partie, même taille que opponent_ratings : 1, 0,5, 0, 1-0, ½, "
                         "G/N/P ..."),
        *(_change_arg(n) for n in names),
        *(_game_fact_arg(f) for f in per_game),
    )
    return Function("ELO_CHANGE", fn, args, "ratings",
                    lambda: f"One player's rating change over a period or event, by a system's rules (xl-elo rules "
                            f"{_rules()}).",
                    lambda: f"La variation de classement d'un joueur sur une période ou un tournoi, selon les règles "
                            f"d'un système (règles xl-elo {_rules()}).")


def _change(federation: Range, rating: Range, opponent_ratings: Range, results: Range, given: dict[str, Range],
            per_game: dict[str, Range]) -> Any:
    """One player's rating change over a period or event, by a system's rules (ELO_CHANGE)."""
    module = _federation(federation)
    chosen = _options_of(module, given.get("options"))
    r = _single(rating, "rating", module.Player.RATING)
    pairs = _games(opponent_ratings, results, module.Player.RATING, kept=True)
    refusal = module.UNRATED_OPPONENTS
    if refusal is not None and any(o is not None and math.isnan(o[0]) for o in pairs):  # 0: unrated (rules 1.4)
        raise ArgumentError(f"argument opponent_ratings: {refusal}; an unrated opponent (0) has none here")
    player = _one_player(module, r, {n: v for n, v in given.items() if n not in ("k", "options")})
    high = 100 if module.COEFFICIENT == "k" else 200
    known_k = _single(given.get("k"), "k", lambda v: schema.whole(v, 1, high, what=f"a K-factor from 1 to {high}"))
    games = _games_with_facts(module, pairs, per_game)
    try:
        calc = module.calculate(player, games, one_player_period(), known_k, options_of(module.Options, None, **chosen))
    except InputError as exc:  # what the system needs that ELO_CHANGE does not give (an opponent's RD)
        raise ArgumentError(_engine_words(module, exc)) from None
    if calc.rating_after is None:
        raise ArgumentError(f"{module.CODE.upper()}: no rating change ({'; '.join((calc.status, *calc.notes))})")
    before = calc.rating_before if calc.rating_before is not None else 0.0
    return _plain(float(calc.change) if calc.change is not None else float(calc.rating_after) - before)


def _games_with_facts(module: RatingSystem, pairs: list[tuple[float, float] | None],
                      per_game: dict[str, Range]) -> list[OpponentGame]:
    """One player's games with the system's own facts of each (one cell per game, beside its result; read as
    ``calc`` reads the words after a result); a fact the system's games have not is refused if given."""
    own = {f.function or f.name: f for f in facts(module.Game) if f.one_game}
    cells: dict[str, list[Any]] = {}
    for name, value in per_game.items():
        if _blank_range(value):
            continue
        if name not in own:
            who = ", ".join(f"{m.CODE.upper()}'s ({m.GAME})" for m in registry().values()
                            if any((f.function or f.name) == name for f in facts(m.Game) if f.one_game))
            raise ArgumentError(f"argument {name}: {name} are {who}; {module.CODE.upper()} games have none")
        rows, _ = _grid(value)
        cells[name] = [c for row in rows for c in row]
        if len(cells[name]) != len(pairs):
            raise ArgumentError(f"arguments {name} and results: {len(cells[name])} cells but {len(pairs)} results "
                                "(give ranges of the same size)")
    games = []
    for i, pair in enumerate(pairs):
        if pair is None:
            continue
        words: list[str] = []
        for name in own:
            cell = cells.get(name, [None] * len(pairs))[i]
            words += [] if _blank(cell) else (_text(cell, name, required=False) or "").split()
        try:
            values, gives = game_words(module.Game, words, module.CODE.upper())
        except schema.ValueProblem as exc:
            raise ArgumentError(f"argument {next(iter(own), 'results')}: {exc}") from None
        o, s = pair
        games.append(OpponentGame(None if math.isnan(o) else o, s, None, gives, values))
    return games


def elo_change(federation: Range, rating: Range, opponent_ratings: Range, results: Range, *args: Range,
               **named: Range) -> Any:
    """One player's rating change over a period or event, by a system's rules: ELO_CHANGE as the registered
    systems have it (:func:`_change_function`), from Python."""
    return spreadsheet_functions_named()["ELO_CHANGE"].function(federation, rating, opponent_ratings, results, *args,
                                                                 **named)


def _change_slot() -> None:
    """Where ELO_CHANGE stands among the common functions (built with the registry: :func:`_change_function`)."""


_CHANGE_SLOT = _change_slot
_COMMON.append(Function("ELO_CHANGE", _CHANGE_SLOT, (), "ratings"))


def spreadsheet_functions_named() -> dict[str, Function]:
    """Every spreadsheet function by its name."""
    return {f.name: f for f in spreadsheet_functions()}


def _coefficient_words(french: bool = False) -> str:
    """The systems whose coefficient is not called K, as the ``k`` argument's help names them (``DWZ: its E``)."""
    its = " : son " if french else ": its "
    said = [f"{m.CODE.upper()}{its}{m.COEFFICIENT.upper()}" for m in registry().values()
            if m.COEFFICIENT != "k"]
    return f" ({'; '.join(said)})" if said else ""


def _options_words(french: bool = False) -> str:
    """The help of the ``options`` argument (short: Excel shows at most 255 characters of it)."""
    if french:
        return ("Les réglages du système en nom=valeur séparés par des points-virgules, comme les options de la ligne "
                "de commande sans -- (ex. list=rapid pour la liste rapide FIDE) ; vide : ses réglages par défaut.")
    return ("The system's options as name=value separated by semicolons, as the command line's flags without -- "
            "(e.g. list=rapid for FIDE's rapid list); blank: its defaults.")


def _options_of(module: RatingSystem, value: Range) -> dict[str, Any]:
    """The ``options`` argument (``list=rapid; expected_method=logistic``) as the system's options by
    name, each checked (an unknown name or value names the argument)."""
    text = _text(value, "options", required=False) if not _blank_range(value) else None
    chosen: dict[str, Any] = {}
    for part in re.split(r"[;\n]", text or ""):
        if not part.strip():
            continue
        name, sep, given = part.partition("=") if "=" in part else part.partition(":")
        if not sep:
            raise ArgumentError(f"argument options: {part.strip()!r} is not name=value (e.g. list=rapid)")
        chosen[name.strip().lower().replace(" ", "_")] = given.strip()
    try:
        options_of(module.Options, None, **chosen)
    except (ValueError, TypeError) as exc:
        raise ArgumentError(f"argument options: {exc}") from None
    return chosen


def _opponents_words(french: bool = False) -> str:
    """What a system says of its opponents' ratings (FESA: after the tournament, in round order)."""
    said = [w[int(french)] for m in registry().values() if (w := m.OPPONENTS)]
    return f" ({'; '.join(said)})" if said else ""


# --------------------------------------------------------------------------- performance


def _performance_words(french: bool = False) -> str:
    none = "aucune" if french else "none"
    ways = [f"{m.CODE} ({w[int(french)]})" if (w := m.PERFORMANCE) else
            f"{m.CODE} ({none})" if m.NO_PERFORMANCE else m.CODE for m in registry().values()]
    return f"{', '.join(ways[:-1])} {'ou' if french else 'or'} {ways[-1]}"


def _performs(module: RatingSystem) -> bool:
    """Whether a system has a performance rating (not one that declares ``NO_PERFORMANCE``)."""
    return module.has_performance


def _performers(last: str = "or") -> str:
    """The systems that have a performance rating, lower case."""
    return _systems(last=last, having=_performs).lower()


def _performance_rating_words(french: bool = False) -> str:
    said = [w[int(french)] for m in registry().values() if (w := m.PERFORMANCE_RATING)]
    return " ".join(said) or ("Not used." if not french else "Non utilisé.")


def _engine_words(module: RatingSystem, exc: InputError) -> str:
    """A system's refusal of one player's games in ELO_CHANGE's words: the engine names the games and
    the facts, the function its arguments; the facts ELO_CHANGE has no argument for point to the
    system's own functions."""
    arguments = {"games": "opponent_ratings", **{f.name: f.function for f in facts(module.Player) if f.function}}
    own = " or ".join(f.name for f in module.FUNCTIONS)
    said, missing = [], []
    for q in exc.problems:
        words = q.message.split(": ", 1)[1] if q.message.startswith("player ") else q.message
        if q.source not in arguments and own:
            missing.append((q.source, words))
        else:
            said.append(f"argument {arguments.get(q.source, q.source)}: {words}")
    if missing:
        said.append("; ".join(w for _, w in missing) + f": ELO_CHANGE takes no {' or '.join(n for n, _ in missing)}, "
                    f"use {own}")
    return f"{module.CODE.upper()}: " + "; ".join(said)


def _fitted(*versions: str) -> str:
    """The first of an argument's helps, longest first, that Excel's wizard shows whole (under 255 characters)."""
    return next((v for v in versions if len(v) < MAX_HELP), versions[-1][:MAX_HELP - 2] + "…")


@spreadsheet("ratings",
             Arg("method", lambda: _fitted(f"The system whose performance rating: {_performance_words()}.",
                                           f"The system whose performance rating: {_performers()} (each as its "
                                           f"rules say: xl-elo rules {_rules(having=_performs)})."),
                 french=lambda: _fitted(f"Le système dont on veut la performance : {_performance_words(True)}.",
                                        f"Le système dont on veut la performance : {_performers('ou')} "
                                        f"(chacun selon ses règles : règles xl-elo {_rules(having=_performs)}).")),
             Arg("opponent_ratings", "The opponents' ratings, one per game.", True,
                 french="Les classements des adversaires, un par partie."),
             Arg("results", "The results, one per game, same size as opponent_ratings.", True,
                 french="Les résultats, un par partie, même taille que opponent_ratings."),
             Arg("rating", _performance_rating_words, optional=True, french=lambda: _performance_rating_words(True)),
             words=lambda: f"A performance rating by a system's method (xl-elo rules {_rules(having=_performs)}).",
             french=lambda: f"Une performance selon la méthode d'un système (règles xl-elo "
                            f"{_rules(having=_performs)}).")
def elo_performance(method: Range, opponent_ratings: Range, results: Range, rating: Range = None) -> Any:
    """A performance rating by a system's method."""
    try:
        module = get(_text(method, "method") or "")
    except ValueError as exc:
        raise ArgumentError(f"argument method: {exc}") from None
    if module.NO_PERFORMANCE:  # none whatever the games: say why, not what does not apply
        raise ArgumentError(f"{module.CODE.upper()}: {module.NO_PERFORMANCE[0]}")
    pairs = _games(opponent_ratings, results, module.Player.RATING)
    if any(math.isnan(o) for o, _ in pairs):  # 0: an unrated opponent (xl-elo rules 1.4)
        refusal = module.UNRATED_OPPONENTS
        if refusal is not None:
            raise ArgumentError(f"argument opponent_ratings: {refusal}; an unrated opponent (0) has none here")
        pairs = [(o, s) for o, s in pairs if not math.isnan(o)]
        if not pairs:
            raise ArgumentError("argument opponent_ratings: every opponent is unrated (0)")
    own = _single(rating, "rating", _rating_or_unrated)
    value = module.performance([o for o, _ in pairs], [s for _, s in pairs], own)
    if value is None:
        raise ArgumentError(f"{module.CODE.upper()}: no performance rating for these games (no game counts, or all "
                            "wins or all losses where the rules give none)")
    return _plain(float(value))


# --------------------------------------------------------------------------- a system's own functions


def _declared(spec: SheetFunction) -> Function:
    """A system's own function (its ``FUNCTIONS``) as a spreadsheet function: a Python function with
    the arguments' names (xlwings reads them), every cell read by its argument's reading."""
    names = [a.name for a in spec.args]
    params = ", ".join(a.name + ("=None" if a.optional else "") for a in spec.args)
    scope: dict[str, Any] = {"_run": _run_declared, "_spec": spec}
    exec(f"def {spec.name.lower()}({params}):\n    return _run(_spec, ({''.join(n + ', ' for n in names)}))",
         scope)
    fn = scope[spec.name.lower()]
    fn.__doc__ = spec.doc[0]
    fn.__module__ = __name__
    args = tuple(Arg(a.name, a.doc[0], a.range or a.listed, a.optional, a.doc[1]) for a in spec.args)
    return Function(spec.name, fn, args, spec.category, spec.doc[0], spec.doc[1])


def _run_declared(spec: SheetFunction, values: tuple[Any, ...]) -> Any:
    """One call of a system's own function: its range arguments cell by cell (or one numpy call)."""
    grids: dict[int, list[list[float]]] = {}
    fixed: dict[int, Any] = {}
    scalar = True
    for j, (arg, value) in enumerate(zip(spec.args, values, strict=True)):
        reading = arg.reading or (lambda v: v)
        if arg.listed:
            fixed[j] = _listed(value, arg.name, reading)
            continue
        if arg.range:
            grids[j], one = _numbers(value, arg.name, zero_is_blank=arg.zero_is_blank, parse=reading)
            scalar = scalar and one
            continue
        fixed[j] = _single(value, arg.name, reading, arg.default)
        if fixed[j] is None and not arg.optional and not arg.blank_ok:
            raise ArgumentError(f"argument {arg.name} is required")
    ranged = sorted(grids)
    pairs = list(itertools.pairwise(ranged))
    for a, b in [*pairs, *reversed(pairs)]:  # back again: a first single cell takes the shape found after it
        grids[a], grids[b] = _pairs(grids[a], spec.args[a].name, grids[b], spec.args[b].name)
    try:
        if not ranged:
            out = spec.compute(*(fixed[j] for j in range(len(spec.args))))
            return [[_plain(v) for v in out]] if spec.row else _plain(out)
        shape = grids[ranged[0]]
        if spec.vectorised is not None and np is not None and not fixed and len(ranged) == 2 and shape and shape[0]:
            return _shape(_elementwise(spec.compute, spec.vectorised, grids[ranged[0]], grids[ranged[1]]), scalar)

        def cell(i: int, k: int) -> Any:
            args = [grids[j][i][k] if j in grids else fixed[j] for j in range(len(spec.args))]
            if any(isinstance(x, float) and math.isnan(x) for x in (args[j] for j in ranged)):
                return None
            return spec.compute(*args)

        return _shape([[cell(i, k) for k in range(len(row))] for i, row in enumerate(shape)], scalar)
    except ArgumentError:
        raise
    except ValueError as exc:
        if spec.refused is None:
            raise
        raise ArgumentError(f"{spec.refused}: {exc}") from None


def _listed(value: Range, name: str, reading: Callable[[Any], Any]) -> list[Any]:
    """A range taken whole (:attr:`SheetArg.listed`): its cells row by row, each read, blanks as None."""
    rows, _ = _grid(value)
    out: list[Any] = []
    for v in (c for row in rows for c in row):
        if _blank(v):
            out.append(None)
            continue
        try:
            out.append(reading(v))
        except schema.ValueProblem as exc:
            raise ArgumentError(f"argument {name}: {exc}") from None
    return out


# --------------------------------------------------------------------------- whole events


def _split(value: Range, name: str) -> tuple[list[Any], list[list[Any]]]:
    """Header row and the rows below it, cells as the spreadsheet gave them (blanks as None)."""
    rows, scalar = _grid(value)
    if scalar or not rows:
        raise ArgumentError(f"argument {name}: expected a range with a header row")
    clean = [[None if (isinstance(v, str) and v == "") else v for v in row] for row in rows]
    return clean[0], clean[1:]


def _history_systems() -> str:
    from xl_elo.loader import takes_history

    return _systems(having=takes_history)


@spreadsheet("events",
             Arg("federation", lambda: f"{_systems()}.", french=lambda: f"{_systems(last='ou')}."),
             Arg("players", "The players table with its header row (id, name, rating, games, ...).", True,
                 french="Le tableau des joueurs avec sa ligne d'en-tête (id, name, rating, games, ...)."),
             Arg("games", "The games table with its header row (round, player, opponent, result, ...).", True,
                 french="Le tableau des parties avec sa ligne d'en-tête (round, player, opponent, result, ...)."),
             Arg("history", lambda: f"{_history_systems()}: the history table with its header row (id, "
                                    "opponent_rating, result).", True, optional=True,
                 french=lambda: f"{_history_systems()} : le tableau d'historique avec sa ligne d'en-tête (id, "
                                "opponent_rating, result)."),
             Arg("period", lambda: f"{_systems(having=lambda m: m.NEEDS_PERIOD).replace(' or ', ', ')}: the period "
                                   "as YYYY-MM (required: ages count in its year).", optional=True,
                 french=lambda: f"{_systems(having=lambda m: m.NEEDS_PERIOD).replace(' or ', ', ')} : la période "
                                "en AAAA-MM (obligatoire : les âges comptent dans son année)."),
             Arg("options", lambda: _options_words(), optional=True, french=lambda: _options_words(True)),
             french="Classe tout un tournoi ou toute une période ; renvoie le tableau des résultats avec sa ligne "
                    "d'en-tête (règles xl-elo 8).")
def elo_rate(federation: Range, players: Range, games: Range, history: Range = None, period: Range = None,
             options: Range = None) -> Any:
    """Rate a whole event or period; returns the results table with its header row (xl-elo rules 8; a games
    range that gives each game's period or event is a season, rated in order: the list after its last, rules 14)."""
    loaded = _loaded(federation, players, games, history, period, options, "ELO_RATE (a whole event)")
    try:
        results = loaded.rate()
    except InputError as exc:
        raise ArgumentError(str(exc)) from None
    return [list(results.columns)] + [list(row) for row in zip(*(_column(results, c) for c in results.columns),
                                                               strict=True)]


def _loaded(federation: Range, players: Range, games: Range, history: Range, period: Range, options: Range,
            what: str) -> Any:
    """The tables of ELO_RATE and ELO_HISTORY, read as the command line reads its files (:func:`xl_elo.loader.load`)."""
    from xl_elo.compat import need_numpy

    module = _federation(federation)
    chosen = _options_of(module, options)
    try:
        need_numpy(what)
    except RuntimeError as exc:
        raise ArgumentError(str(exc)) from None
    from xl_elo.formats.reader import Table
    from xl_elo.loader import load, takes_history

    when = _single(period, "period", lambda v: schema.period(v, required=False))
    tables = [Table.from_rows(f"argument {name}", *_split(value, name), typed=False)
              for name, value in (("players", players), ("games", games))]
    past = None
    if not _blank_range(history):
        if not takes_history(module):
            raise ArgumentError(f"argument history: {module.CODE.upper()} takes no history table")
        past = Table.from_rows("argument history", *_split(history, "history"), typed=False)
    try:
        loaded = load(module, players=tables[0], games=tables[1], history=past, period=when, options=chosen)
    except InputError as exc:
        raise ArgumentError(str(exc)) from None
    if module.NEEDS_PERIOD and when is None and not loaded.is_season:  # the command line's words (check_period)
        raise ArgumentError("argument period: the period (ages are counted in its year) is blank (expected a month "
                            "as YYYY-MM, e.g. 2026-10)")
    return loaded


#: The most periods or events ELO_HISTORY spills over (columns): a club's twenty years of monthly lists.
MAX_HISTORY_UNITS: Final = 240


@spreadsheet("events",
             Arg("federation", lambda: f"{_systems()}.", french=lambda: f"{_systems(last='ou')}."),
             Arg("players", "The players table with its header row (id, name, rating, games, ...).", True,
                 french="Le tableau des joueurs avec sa ligne d'en-tête (id, name, rating, games, ...)."),
             Arg("games", "The season's games with their header row, each game's period, date or event "
                          "(period, round, player, opponent, result, ...).", True,
                 french="Les parties de la saison avec leur ligne d'en-tête, la période, la date ou le tournoi de "
                        "chacune (period, round, player, opponent, result, ...)."),
             Arg("player", "The player's id.", french="L'identifiant du joueur."),
             Arg("history", lambda: f"{_history_systems()}: the history table with its header row.", True,
                 optional=True, french=lambda: f"{_history_systems()} : le tableau d'historique avec son en-tête."),
             Arg("options", lambda: _options_words(), optional=True, french=lambda: _options_words(True)),
             words=lambda: "A player's ratings over a season: a range of two rows spilled from the cell, the periods "
                           "or events in time order, then his rating after each (blank: unrated); one column per "
                           f"period or event, at most {MAX_HISTORY_UNITS} (xl-elo rules 14).",
             french=lambda: "Les classements d'un joueur au fil d'une saison : deux lignes déversées depuis la "
                            "cellule, les périodes ou tournois dans l'ordre, puis son classement après chacun (vide : "
                            f"non classé) ; une colonne par période ou tournoi, {MAX_HISTORY_UNITS} au plus (règles "
                            "xl-elo 14).")
def elo_history(federation: Range, players: Range, games: Range, player: Range, history: Range = None,
                options: Range = None) -> Any:
    """A player's ratings over a season (xl-elo rules 14)."""
    pid = _text(player, "player")
    loaded = _loaded(federation, players, games, history, None, options, "ELO_HISTORY (a season)")
    if len(loaded.units) > MAX_HISTORY_UNITS:
        raise ArgumentError(f"argument games: {len(loaded.units):,} periods or events (at most "
                            f"{MAX_HISTORY_UNITS} columns: rate a longer season with xl-elo rate --season-output)")
    try:
        season = loaded.season()
    except InputError as exc:
        raise ArgumentError(str(exc)) from None
    keys, lists = season.lists()
    if pid not in lists:
        raise ArgumentError(f"argument player: {pid!r} is not an id of the players table")
    return [list(keys), ["" if r is None else _plain(r) for r in lists[pid]]]


def _column(results: Any, name: str) -> list[Any]:
    """One results column as spreadsheet cells, a whole column at a time."""
    kind, values = results.kinds.get(name, "blank"), results.values.get(name)
    if kind in ("int", "float", "number") and not isinstance(values, list):
        return ["" if x != x else (int(x) if x.is_integer() else x)
                for x in np.asarray(values, dtype=np.float64).tolist()]
    if kind == "bool" and not isinstance(values, list):
        return ["yes" if x else "no" for x in np.asarray(values, dtype=bool).tolist()]
    return [_cell(v) for v in results.cells(name)]


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return _plain(value)


def by_name() -> dict[str, Function]:
    """The functions by their spreadsheet name (``ELO_EXPECTED``)."""
    return {f.name: f for f in spreadsheet_functions()}


def markdown_table() -> str:
    """Every function, its arguments (``[optional]``) and what it returns, as ``udfs/README.md`` lists them:
    made from the declarations (``python -m xl_elo.frontends.functions`` prints it; a test checks the README)."""
    rows = ["| function | what it returns |", "| --- | --- |"]
    for f in spreadsheet_functions():
        args = ", ".join(f"[{a.name}]" if a.optional else a.name for a in f.args)
        words = f.description.replace("|", "\\|")
        rows.append(f"| `{f.name}({args})` | {words} |")
    return "\n".join(rows) + "\n"


__all__ = ["Arg", "ArgumentError", "Function", "by_name", "markdown_table", "spreadsheet_functions"]


if __name__ == "__main__":  # the table of udfs/README.md
    import sys

    sys.stdout.write(markdown_table())
