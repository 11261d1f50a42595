"""The spreadsheet functions: one definition for Excel (xlwings) and LibreOffice Calc (the extension).

:data:`FUNCTIONS` lists every function with its arguments and their help; each is a plain
Python function that takes what a spreadsheet passes (a number, a text, or a range as a list
of rows; a blank cell as None, ``""`` or 0) and answers with a value or a list of rows of
the same shape. ``udfs/xl_elo_udfs.py`` gives them to xlwings, ``xl_elo.frontends.addin`` (the extension) to
LibreOffice. No rating rule lives here: every function converts its cells through
:mod:`xl_elo.schema` (so the functions accept and refuse what the readers accept and
refuse) and calls a federation's contract functions (:mod:`xl_elo.federations.contract`).

The functions on single games and players run in plain Python, so they also work in
LibreOffice's own Python, which has no numpy on Windows and macOS; with numpy installed a
range is computed as one array. ``ELO_RATE`` rates a whole event and needs numpy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xl_elo import schema
from xl_elo.compat import np
from xl_elo.federations import get, registry
from xl_elo.federations.contract import OpponentGame
from xl_elo.model import InputError, Player

Range = Any


class ArgumentError(ValueError):
    """A bad argument: the message names it and says why."""


@dataclass(frozen=True)
class Arg:
    """One argument of a spreadsheet function."""

    name: str
    doc: str
    range: bool = False
    """True when a whole range may be given (the function answers with its shape)."""
    optional: bool = False


@dataclass(frozen=True)
class Function:
    """One spreadsheet function: its name as the spreadsheet shows it, its help and its Python code."""

    name: str
    function: Callable[..., Any]
    args: tuple[Arg, ...]
    category: str

    @property
    def description(self) -> str:
        return (self.function.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")


FUNCTIONS: list[Function] = []


def spreadsheet(category: str, *args: Arg) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function in :data:`FUNCTIONS` (its name is the Python name in upper case)."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        FUNCTIONS.append(Function(fn.__name__.upper(), fn, tuple(args), category))
        return fn
    return register


# --------------------------------------------------------------------------- cells and ranges


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and v.strip() == "") or (isinstance(v, float) and math.isnan(v))


def _grid(value: Range) -> tuple[list[list[Any]], bool]:
    """A cell or range as rows of cells, and whether it was a single cell."""
    if not isinstance(value, (list, tuple)) and not (np is not None and isinstance(value, np.ndarray)):
        return [[value]], True
    rows = [list(r) if isinstance(r, (list, tuple)) or (np is not None and isinstance(r, np.ndarray)) else [r]
            for r in value]
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
    if isinstance(value, (list, tuple)):
        rows, _ = _grid(value)
        if len(rows) == 1 and len(rows[0]) == 1:
            value = rows[0][0]
        else:
            raise ArgumentError(f"argument {name}: expected a single cell")
    try:
        text = schema.text(value)
    except schema.ValueProblem as exc:
        raise ArgumentError(f"argument {name}: {exc}") from None
    if text is None and required:
        raise ArgumentError(f"argument {name} is required")
    return text


def _federation(value: Range, *, needs: str | None = None) -> Any:
    try:
        module = get(_text(value, "federation") or "")
    except ValueError as exc:
        raise ArgumentError(f"argument federation: {exc}") from None
    if needs is not None and getattr(module, needs, None) is None:
        able = ", ".join(c.upper() for c, m in registry().items() if getattr(m, needs, None) is not None)
        raise ArgumentError(f"argument federation: {module.CODE.upper()} has no {needs.replace('_', ' ')} "
                            f"(use {able})")
    return module


def _single(value: Range, name: str, parse: Callable[[Any], Any], default: Any = None) -> Any:
    """One cell through a schema parser; blank -> ``default``."""
    if isinstance(value, (list, tuple)):
        rows, _ = _grid(value)
        if len(rows) != 1 or len(rows[0]) != 1:
            raise ArgumentError(f"argument {name}: expected a single cell")
        value = rows[0][0]
    if _blank(value):
        return default
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


def _games(opponent_ratings: Range, results: Range) -> list[tuple[float, float]]:
    """Pairs of (opponent rating, score) from two ranges of the same size; rows blank in both skipped,
    and games that are not rated (forfeits, byes) skipped: they count nowhere (rules 1.1)."""
    from xl_elo.model import MAX_GAMES_PER_PLAYER

    rows, _ = _grid(opponent_ratings)
    cells = [c for row in rows for c in row]
    res = _results(results)
    if len(cells) != len(res):
        raise ArgumentError(f"arguments opponent_ratings and results: {len(cells)} opponents but {len(res)} results "
                            "(give two ranges of the same size)")
    out = []
    skipped = 0
    for o, s in zip(cells, res, strict=True):
        if _blank(o) and s is None:
            continue
        if s is _NOT_RATED:  # its opponent is checked all the same: a bad cell is never passed over
            if not _blank(o):
                _number_cell(o, "opponent_ratings", zero_is_blank=False, parse=schema.rating)
            skipped += 1
            continue
        if _blank(o) or s is None:
            raise ArgumentError("arguments opponent_ratings and results: a game has an opponent without a result "
                                "or a result without an opponent")
        rating = _number_cell(o, "opponent_ratings", zero_is_blank=False, parse=schema.rating)
        out.append((rating, s))
    if not out and not skipped:
        raise ArgumentError("arguments opponent_ratings and results: no game given")
    if len(out) > MAX_GAMES_PER_PLAYER:
        raise ArgumentError(f"arguments opponent_ratings and results: {len(out):,} rated games (at most "
                            f"{MAX_GAMES_PER_PLAYER:,} in one event or period): is a column pasted twice?")
    return out


# --------------------------------------------------------------------------- expected scores


_RATING = "The player's rating: a cell or a range."
_OPPONENT = "The opponent's rating: a cell or a range of the same size."


def _pairwise(rating: Range, opponent_rating: Range, fn: Callable[[float, float], float],
              vectorised: Callable[[Any, Any], Any] | None) -> Any:
    r, scalar = _ratings(rating, "rating")
    o, scalar_o = _ratings(opponent_rating, "opponent_rating")
    r, o = _pairs(r, "rating", o, "opponent_rating")
    return _shape(_elementwise(fn, vectorised, r, o), scalar and scalar_o)


@spreadsheet("expected scores", Arg("rating", _RATING, True), Arg("opponent_rating", _OPPONENT, True))
def elo_expected(rating: Range, opponent_rating: Range) -> Any:
    """Logistic expected score 1 / (1 + 10^((opponent - rating) / 400)) (xl-elo rules 1.2)."""
    from xl_elo.core import expected_score, logistic

    return _pairwise(rating, opponent_rating, logistic, expected_score)


@spreadsheet("expected scores", Arg("rating", _RATING, True), Arg("opponent_rating", _OPPONENT, True))
def fide_expected(rating: Range, opponent_rating: Range) -> Any:
    """FIDE expected score from FIDE's table, a difference over 400 counting 400 below 2650 (xl-elo rules 2.2)."""
    fide = get("fide")
    return _pairwise(rating, opponent_rating, fide.expected, fide.expected)


@spreadsheet("expected scores", Arg("rating", _RATING, True), Arg("opponent_rating", _OPPONENT, True))
def fqe_expected(rating: Range, opponent_rating: Range) -> Any:
    """FQE expected score of a permanent player from the Quebec federation's table (xl-elo rules 4.2)."""
    fqe = get("fqe")
    return _pairwise(rating, opponent_rating, fqe.expected, fqe.expected)


@spreadsheet("expected scores", Arg("difference", "Own rating minus the opponent's: a cell or a range "
                                                  "(148 gives 0.70, -148 gives 0.30).", True))
def fqe_table(difference: Range) -> Any:
    """The FQE table of expected scores by rating difference (xl-elo rules 4.2)."""
    fqe = get("fqe")
    d, scalar = _numbers(difference, "difference", zero_is_blank=False,
                         parse=lambda v: schema.number(v, what="a rating difference, from -3500 to 3500",
                                                       low=-3500, high=3500))
    return _shape([[math.nan if math.isnan(x) else fqe.table_hundredths(x) / 100 for x in row] for row in d], scalar)


# --------------------------------------------------------------------------- K and changes


@spreadsheet("ratings",
             Arg("federation", "FIDE, FSE, FQE or FESA (the federations with a K-factor)."),
             Arg("rating", "The rating (before the game for FESA): a cell or a range.", True),
             Arg("games", "FIDE, FSE: rated games played before (blank: not a new player).", optional=True),
             Arg("age", "FIDE, FSE: the player's age in the period's year (blank: adult).", optional=True),
             Arg("ever_2400", "FIDE: yes once the published rating has reached 2400 (blank: no).", optional=True))
def elo_k(federation: Range, rating: Range, games: Range = None, age: Range = None, ever_2400: Range = None) -> Any:
    """The K-factor of FIDE (xl-elo rules 2.3), FSE (3.2), FQE (4.5) or FESA (6.2)."""
    module = _federation(federation, needs="k_factor")
    r, scalar = _ratings(rating, "rating")
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
    out = [[math.nan if math.isnan(x) else float(module.k_factor(x, None if math.isnan(gg) else gg,
                                                                 None if math.isnan(aa) else aa, ever))
            for x, gg, aa in zip(rr, gr, ar, strict=True)] for rr, gr, ar in zip(r, g, a, strict=True)]
    return _shape(out, scalar and g_scalar and a_scalar)


def _blank_range(value: Range) -> bool:
    if value is None:
        return True
    rows, _ = _grid(value)
    return all(_blank(v) for row in rows for v in row)


@spreadsheet("ratings",
             Arg("federation", "FIDE, FSE, FQE, FFE or FESA."),
             Arg("rating", "The player's rating before the period or event (one cell; blank or 0: unrated)."),
             Arg("opponent_ratings", "The opponents' ratings, one per game (FESA: after the tournament, in round "
                                     "order).", True),
             Arg("results", "The results, one per game, same size as opponent_ratings: 1, 0.5, 0, 1-0, ½, W/D/L ...",
                 True),
             Arg("games", "FIDE, FSE, FQE: rated games before (blank: not new, permanent). FESA: activity bonuses "
                          "already used (blank: 0).", optional=True),
             Arg("age", "FIDE, FSE: the player's age in the period's year (blank: adult).", optional=True),
             Arg("ever_2400", "FIDE: yes once the published rating has reached 2400 (blank: no).", optional=True),
             Arg("k", "A known K-factor, instead of the facts that decide it (blank: from the rules).", optional=True))
def elo_change(federation: Range, rating: Range, opponent_ratings: Range, results: Range, games: Range = None,
               age: Range = None, ever_2400: Range = None, k: Range = None) -> Any:
    """One player's rating change over a period or event, by a federation's rules (xl-elo rules 2 to 6)."""
    module = _federation(federation)
    r = _single(rating, "rating", _rating_or_unrated)
    pairs = _games(opponent_ratings, results)
    g = _single(games, "games", (lambda v: schema.whole(v, 0, schema.MAX_BONUS_COUNT, what="the activity bonuses "
                                              f"already used, from 0 to {schema.MAX_BONUS_COUNT}"))
                if module.CODE == "fesa" else (lambda v: schema.whole(v, 0, schema.MAX_GAMES)))
    a = _single(age, "age", lambda v: schema.whole(v, 0, 150, what="an age from 0 to 150"))
    known_k = _single(k, "k", lambda v: schema.whole(v, 1, 100, what="a K-factor from 1 to 100"))
    player = Player("player", rating=r, games=(1000 if g is None else g) if module.CODE != "fesa" else 1000,
                    birth_year=None if a is None else 2000 - a,
                    ever_2400=bool(_single(ever_2400, "ever_2400", schema.yes_no, False)),
                    bonus_count=int(g or 0) if module.CODE == "fesa" else 0)
    calc = module.calculate(player, [OpponentGame(None if math.isnan(o) else o, s) for o, s in pairs], "2000-01",
                            known_k)
    if calc.rating_after is None:
        raise ArgumentError(f"{module.CODE.upper()}: no rating change ({calc.status})")
    before = calc.rating_before if calc.rating_before is not None else 0.0
    return _plain(float(calc.change) if calc.change is not None else float(calc.rating_after) - before)


# --------------------------------------------------------------------------- performance


@spreadsheet("ratings",
             Arg("method", "The federation whose performance rating: fesa (zero of g(x)), fqe (Cm + 400 (W - L) / n), "
                           "ffe (Ea + D(P)), fide (Ra + dp) or fse."),
             Arg("opponent_ratings", "The opponents' ratings, one per game.", True),
             Arg("results", "The results, one per game, same size as opponent_ratings.", True),
             Arg("rating", "FFE: the player's rating, to apply the 350-point compatibility window (blank or 0: none).",
                 optional=True))
def elo_performance(method: Range, opponent_ratings: Range, results: Range, rating: Range = None) -> Any:
    """A performance rating by a federation's method (xl-elo rules 2.6, 4.3, 5.3 - 5.5, 6.5)."""
    try:
        module = get(_text(method, "method") or "")
    except ValueError as exc:
        raise ArgumentError(f"argument method: {exc}") from None
    pairs = _games(opponent_ratings, results)
    if any(math.isnan(o) for o, _ in pairs):  # 0: an unrated opponent (xl-elo rules 1.4)
        if module.CODE == "fesa":
            raise ArgumentError("argument opponent_ratings: FESA counts every opponent with his rating (xl-elo rules "
                                "6.6); an unrated opponent (0) has none here")
        pairs = [(o, s) for o, s in pairs if not math.isnan(o)]
        if not pairs:
            raise ArgumentError("argument opponent_ratings: every opponent is unrated (0)")
    own = _single(rating, "rating", _rating_or_unrated)
    value = module.performance([o for o, _ in pairs], [s for _, s in pairs], own)
    if value is None:
        raise ArgumentError(f"{module.CODE.upper()}: no performance rating for these games (no game counts, or all "
                            "wins or all losses where the rules give none)")
    return _plain(float(value))


@spreadsheet("FFE",
             Arg("p", "The percentage scored, from 0 to 1: a cell or a range.", True),
             Arg("method", "normal (default: the normal quantile) or table (interpolation of the published table).",
                 optional=True))
def ffe_dp(p: Range, method: Range = "normal") -> Any:
    """FFE D(P), bounded to +-470 (xl-elo rules 5.4)."""
    ffe = get("ffe")
    values, scalar = _numbers(p, "p", zero_is_blank=False,
                              parse=lambda v: schema.number(v, what="a percentage between 0 and 1", low=0, high=1))
    how = _text(method, "method", required=False) or "normal"
    if how.lower() not in ("normal", "table"):
        raise ArgumentError(f"argument method: {how!r} is not normal or table")
    return _shape([[math.nan if math.isnan(x) else ffe.dp(x, how.lower()) for x in row] for row in values], scalar)


@spreadsheet("FFE", Arg("x", "A rating: a cell or a range.", True))
def ffe_round(x: Range) -> Any:
    """A rating rounded to the nearest ten, 5 going up, as the FFE publishes it (xl-elo rules 5.9)."""
    from xl_elo.core import round_to_ten

    values, scalar = _numbers(x, "x", zero_is_blank=False,
                              parse=lambda v: schema.number(v, what="a rating from 0 to 3500", low=0, high=3500))
    return _shape([[math.nan if math.isnan(v) else round_to_ten(v) for v in row] for row in values], scalar)


@spreadsheet("FFE",
             Arg("value", "The rating to convert: a cell or a range.", True),
             Arg("from_system", "elo, ingo, bridier, bcr or cs."),
             Arg("to_system", "elo, ingo, bridier, bcr or cs."))
def elo_convert(value: Range, from_system: Range, to_system: Range) -> Any:
    """Convert between Elo, INGO, BRIDIER, BCR and CS with the FFE's formulas (xl-elo rules 5.11)."""
    ffe = get("ffe")
    values, scalar = _numbers(value, "value", zero_is_blank=False,
                              parse=lambda v: schema.number(v, what="a rating to convert", low=-10_000, high=10_000))
    a, b = _text(from_system, "from_system") or "", _text(to_system, "to_system") or ""
    try:
        out = [[math.nan if math.isnan(v) else ffe.convert(v, a, b) for v in row] for row in values]
    except ValueError as exc:
        raise ArgumentError(f"arguments from_system/to_system: {exc}") from None
    return _shape(out, scalar)


# --------------------------------------------------------------------------- shogi grades


@spreadsheet("FESA", Arg("rating", "A FESA rating: a cell or a range.", True))
def shogi_grade(rating: Range) -> Any:
    """The FESA grade whose LB to UB holds the rating, as text (6 kyu, 1 dan) (xl-elo rules 6.9)."""
    from xl_elo.federations.fesa import grades

    values, scalar = _numbers(rating, "rating", zero_is_blank=False, parse=schema.rating)
    return _shape([[None if math.isnan(v) else grades.grade_of(v) for v in row] for row in values], scalar)


@spreadsheet("FESA", Arg("grade", "A FESA grade, e.g. 3 kyu or 1 dan."))
def shogi_grade_bounds(grade: Range) -> Any:
    """A FESA grade's LB, MP, UB, #LB and #MP, as a row (xl-elo rules 6.9)."""
    from xl_elo.federations.fesa import grades

    try:
        return [[None if v is None else _plain(v) for v in grades.bounds(_text(grade, "grade") or "")]]
    except ValueError as exc:
        raise ArgumentError(f"argument grade: {exc}") from None


@spreadsheet("FESA",
             Arg("rating", "The handicap giver's rating: a cell or a range.", True),
             Arg("handicap", "S (sente), L (lance), B (bishop), R (rook), RL, 2p, 4p, 5p or 6p."))
def shogi_handicap(rating: Range, handicap: Range) -> Any:
    """The handicap effect in rating points for that giver's rating (xl-elo rules 6.7)."""
    from xl_elo.federations.fesa import grades

    values, scalar = _ratings(rating, "rating")
    code = _single(handicap, "handicap", schema.handicap)
    if code is None:
        raise ArgumentError("argument handicap is required")
    return _shape([[math.nan if math.isnan(v) else grades.handicap_effect(v, code) for v in row] for row in values],
                  scalar)


# --------------------------------------------------------------------------- whole events


def _split(value: Range, name: str) -> tuple[list[Any], list[list[Any]]]:
    """Header row and the rows below it, cells as the spreadsheet gave them (blanks as None)."""
    rows, scalar = _grid(value)
    if scalar or not rows:
        raise ArgumentError(f"argument {name}: expected a range with a header row")
    clean = [[None if (isinstance(v, str) and v == "") else v for v in row] for row in rows]
    return clean[0], clean[1:]


@spreadsheet("events",
             Arg("federation", "FIDE, FSE, FQE, FFE or FESA."),
             Arg("players", "The players table with its header row (id, name, rating, games, ...).", True),
             Arg("games", "The games table with its header row (round, player, opponent, result, ...).", True),
             Arg("history", "FESA: the history table with its header row (id, opponent_rating, result).", True,
                 optional=True),
             Arg("period", "FIDE, FSE: the period as YYYY-MM (required: ages count in its year).", optional=True))
def elo_rate(federation: Range, players: Range, games: Range, history: Range = None, period: Range = None) -> Any:
    """Rate a whole event or period; returns the results table with its header row (xl-elo rules 8)."""
    from xl_elo.compat import need_numpy

    module = _federation(federation)
    try:
        need_numpy("ELO_RATE (a whole event)")
    except RuntimeError as exc:
        raise ArgumentError(str(exc)) from None
    from xl_elo.formats import columnar
    from xl_elo.formats.csvfiles import parse_games_rows, parse_history_rows, parse_players_rows
    from xl_elo.model import Event, check_event, period_year

    when = _single(period, "period", lambda v: schema.period(v, required=False))
    if module.NEEDS_PERIOD and when is None:  # the words of the command line (model.check_period)
        raise ArgumentError("argument period: the period (ages are counted in its year) is blank (expected a month "
                            "as YYYY-MM, e.g. 2026-10)")
    p_head, p_rows = _split(players, "players")
    g_head, g_rows = _split(games, "games")
    if hasattr(module, "rate_arrays") and _blank_range(history):
        try:  # a clean period: read and rate column by column (the cell-by-cell lane reports problems)
            results = columnar.rate_event(module.CODE, columnar.read_rows(p_head, p_rows, g_head, g_rows, when))
        except columnar.NotSimple:
            pass
        except InputError as exc:
            raise ArgumentError(str(exc)) from None
        else:
            return [list(results.columns)] + [list(row) for row in zip(*(_column(results, c) for c in results.columns),
                                                                       strict=True)]
    problems: list[Any] = []  # every problem of every table at once, as the command line reports them

    def parse(reader: Callable[[], list[Any]]) -> list[Any]:
        try:
            return reader()
        except InputError as exc:
            problems.extend(exc.problems)
            return list(exc.partial)

    p = parse(lambda: parse_players_rows(p_head, p_rows, source="argument players", year=period_year(when)))
    g = parse(lambda: parse_games_rows(g_head, g_rows, source="argument games"))
    h = parse(lambda: parse_history_rows(*_split(history, "history"), source="argument history")) \
        if not _blank_range(history) else []
    if not p and g and not problems:  # one line, not one per game (as the command line says it)
        raise ArgumentError("argument players: has no player, only its header (expected one row per player of "
                            "the games)")
    event = Event(tuple(p), tuple(g), tuple(h), when)
    try:
        if p or not problems:
            check_event(event, players_source="argument players", games_source="argument games",
                        history_source="argument history")
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        if problems:
            raise InputError(problems)
        results = module.rate(event)
    except InputError as exc:
        raise ArgumentError(str(exc)) from None
    out = [list(results.columns)]
    for row in results.rows:
        out.append([_cell(row.get(c)) for c in results.columns])
    return out


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
    return {f.name: f for f in FUNCTIONS}


__all__ = ["FUNCTIONS", "Arg", "ArgumentError", "Function", "by_name"]
