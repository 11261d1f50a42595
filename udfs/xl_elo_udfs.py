"""xl-elo's Excel functions (xlwings user-defined functions).

One module for every xlwings runtime: classic desktop xlwings (the Windows add-in, with this
module in ``UDF_MODULES``), xlwings Lite and xlwings Server. Each function is a thin adapter
over the ``xl_elo`` package: it turns Excel ranges into arrays, calls the engine once, and
turns the answer back into a range of the same shape. No rating rule lives here.

Conventions, the same for every function:
- a rating argument takes one cell or a range, and the answer has the shape of the range;
- a blank cell (None, "" or 0, depending on the runtime) is "missing" and gives a blank;
- a bad argument raises an error whose message names the argument and says why (Excel shows
  #VALUE! with the message on hover in Lite and Server, the message in the cell in classic).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import xlwings as xw

from xl_elo import columnar
from xl_elo import rate as _rate
from xl_elo.core import expected_score
from xl_elo.csvio import parse_games_rows, parse_history_rows, parse_players_rows
from xl_elo.federations import fesa, fesa_grades, ffe, fide, find_federation, fqe, fse
from xl_elo.model import Event, InputError, check_event

Range = Any


class ArgumentError(ValueError):
    """A bad argument: the message names it and says why."""


# --------------------------------------------------------------------------- range helpers


def _is_blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and v.strip() == "") or (isinstance(v, float) and math.isnan(v))


def _numbers(value: Range, name: str, *, zero_is_blank: bool = True) -> tuple[np.ndarray, bool]:
    """A cell or range as a 2-D float array (NaN = blank), and whether it was a single cell."""
    scalar = not isinstance(value, (list, tuple, np.ndarray))
    rows = [[value]] if scalar else value if set(map(type, value)) == {list} else [
        list(r) if isinstance(r, (list, tuple, np.ndarray)) else [r] for r in value]
    fast = _fast_numbers(rows)
    if fast is not None:
        if zero_is_blank:
            fast[fast == 0] = np.nan
        return fast, scalar
    out = np.full((len(rows), max((len(r) for r in rows), default=0)), np.nan)
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if _is_blank(v) or (zero_is_blank and isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0):
                continue
            if isinstance(v, bool):
                raise ArgumentError(f"argument {name}: {v!r} is not a number")
            try:
                out[i, j] = float(str(v).replace(",", ".").strip()) if isinstance(v, str) else float(v)
            except ValueError:
                raise ArgumentError(f"argument {name}: {v!r} is not a number") from None
    return out, scalar


def _fast_numbers(rows: Any) -> np.ndarray | None:
    """A rectangular range of numbers and blanks as floats in a few C-level passes, else None."""
    if not rows or len(set(map(len, rows))) != 1:
        return None
    flat = list(itertools.chain.from_iterable(rows))
    kinds = set(map(type, flat))
    if not kinds <= {float, int, type(None), str}:
        return None
    if str in kinds or type(None) in kinds:
        if str in kinds and any(type(v) is str and v != "" for v in flat):
            return None
        flat = [np.nan if (v is None or v == "") else v for v in flat]
    return np.array(flat, dtype=np.float64).reshape(len(rows), len(rows[0]))


def _flat(value: Range, name: str, *, zero_is_blank: bool = True) -> np.ndarray:
    """All non-blank numbers of a range, row by row."""
    arr, _ = _numbers(value, name, zero_is_blank=zero_is_blank)
    return arr[~np.isnan(arr)]


def _results(value: Range, name: str = "results") -> list[float | None]:
    """Results of a range, row by row; blanks kept as None so they pair with opponents."""
    from xl_elo.core import ResultError, parse_result

    scalar = not isinstance(value, (list, tuple, np.ndarray))
    cells = [value] if scalar else [v for r in value for v in (r if isinstance(r, (list, tuple, np.ndarray)) else [r])]
    out: list[float | None] = []
    for v in cells:
        if _is_blank(v):
            out.append(None)
            continue
        try:
            out.append(parse_result(v).score)
        except ResultError as exc:
            raise ArgumentError(f"argument {name}: {exc}") from None
    return out


def _games(opponent_ratings: Range, results: Range) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of (opponent rating, score) from two ranges of the same size; blanks skipped."""
    scalar = not isinstance(opponent_ratings, (list, tuple, np.ndarray))
    cells = [opponent_ratings] if scalar else [v for r in opponent_ratings for v in (r if isinstance(r, (list, tuple, np.ndarray)) else [r])]
    res = _results(results)
    if len(cells) != len(res):
        raise ArgumentError(
            f"arguments opponent_ratings and results: {len(cells)} opponents but {len(res)} results "
            "(give two ranges of the same size)"
        )
    opps, scores = [], []
    for o, s in zip(cells, res, strict=True):
        if _is_blank(o) and s is None:
            continue
        if _is_blank(o) or s is None:
            raise ArgumentError("arguments opponent_ratings and results: a game has an opponent without a result "
                                "or a result without an opponent")
        opp = _flat([[o]], "opponent_ratings", zero_is_blank=False)
        opps.append(float(opp[0]))
        scores.append(s)
    if not opps:
        raise ArgumentError("arguments opponent_ratings and results: no game given")
    return np.array(opps), np.array(scores)


def _shape(values: np.ndarray, blank: np.ndarray, scalar: bool) -> Any:
    """Back to Excel: a scalar for one cell, else a list of lists with blanks as None."""
    if scalar:
        return None if blank[0, 0] else _plain(values[0, 0])
    if values.dtype == object:
        out = values.tolist()
    else:
        out = np.asarray(values, dtype=np.float64).tolist()
    for i, j in np.argwhere(blank):
        out[i][j] = None
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, (np.floating, float)):
        f = float(v)
        return int(f) if f.is_integer() else f
    if isinstance(v, np.integer):
        return int(v)
    return v


def _broadcast(name_a: str, a: np.ndarray, name_b: str, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    try:
        return np.broadcast_arrays(a, b)  # type: ignore[return-value]
    except ValueError:
        raise ArgumentError(f"arguments {name_a} and {name_b}: ranges of shapes {a.shape} and {b.shape} "
                            "do not match (give ranges of the same size, or a single cell)") from None


def _text(value: Range, name: str) -> str:
    if isinstance(value, (list, tuple)):
        raise ArgumentError(f"argument {name}: expected a single cell")
    if _is_blank(value):
        raise ArgumentError(f"argument {name} is required")
    return str(value).strip()


def _federation(value: Range, allowed: tuple[str, ...]) -> str:
    try:
        code = find_federation(_text(value, "federation"))
    except ValueError as exc:
        raise ArgumentError(f"argument federation: {exc}") from None
    if code not in allowed:
        raise ArgumentError(f"argument federation: {code.upper()} is not available here (use {', '.join(allowed)})")
    return code


def _optional_number(value: Range, name: str, default: float = math.nan) -> np.ndarray:
    if _is_blank(value):
        return np.array([[default]])
    arr, _ = _numbers(value, name, zero_is_blank=False)
    return arr


# --------------------------------------------------------------------------- expected scores


def _pairwise(rating: Range, opponent_rating: Range, fn: Any) -> Any:
    """``fn(rating, opponent)`` over two ranges (or cells) of the same shape, blanks kept blank."""
    r, scalar = _numbers(rating, "rating")
    o, scalar_o = _numbers(opponent_rating, "opponent_rating")
    r, o = _broadcast("rating", r, "opponent_rating", o)
    blank = np.isnan(r) | np.isnan(o)
    return _shape(fn(np.nan_to_num(r), np.nan_to_num(o)), blank, scalar and scalar_o)


@xw.func
@xw.arg("rating", ndim=2, doc="The player's rating: a cell or a range.")
@xw.arg("opponent_rating", ndim=2, doc="The opponent's rating: a cell or a range of the same size.")
def elo_expected(rating: Range, opponent_rating: Range) -> Any:
    """Logistic expected score 1 / (1 + 10^((opponent - rating) / 400)) (xl-elo SPEC 1.2)."""
    return _pairwise(rating, opponent_rating, expected_score)


@xw.func
@xw.arg("rating", ndim=2, doc="The player's rating: a cell or a range.")
@xw.arg("opponent_rating", ndim=2, doc="The opponent's rating: a cell or a range of the same size.")
def fide_expected(rating: Range, opponent_rating: Range) -> Any:
    """FIDE expected score (PD) from FIDE's table, with the 400-point rule except from 2650 (SPEC 2.2)."""
    return _pairwise(rating, opponent_rating, fide.expected)


@xw.func
@xw.arg("rating", ndim=2, doc="The player's rating: a cell or a range.")
@xw.arg("opponent_rating", ndim=2, doc="The opponent's rating: a cell or a range of the same size.")
def fqe_expected(rating: Range, opponent_rating: Range) -> Any:
    """FQE expected score of a permanent player from the published table (SPEC 4.2)."""
    return _pairwise(rating, opponent_rating, fqe.expected)


@xw.func
@xw.arg("difference", ndim=2, doc="Own rating minus the opponent's: a cell or a range (148 gives 0.70, -148 gives 0.30).")
def fqe_table(difference: Range) -> Any:
    """The FQE table of expected scores by rating difference (SPEC 4.2)."""
    d, scalar = _numbers(difference, "difference", zero_is_blank=False)
    return _shape(fqe.table_hundredths(np.nan_to_num(d)) / 100.0, np.isnan(d), scalar)


# --------------------------------------------------------------------------- K and changes


@xw.func
@xw.arg("federation", doc="FIDE, FSE or FESA.")
@xw.arg("rating", ndim=2, doc="The rating (before the game for FESA): a cell or a range.")
@xw.arg("games", doc="FIDE, FSE: rated games played before (default 30 for FIDE, 20 for FSE: not new).")
@xw.arg("age", doc="FIDE, FSE: the player's age in the period's year (blank: adult).")
@xw.arg("ever_2400", doc="FIDE: TRUE once the published rating has reached 2400.")
def elo_k(federation: Range, rating: Range, games: Range = None, age: Range = None, ever_2400: Range = None) -> Any:
    """The K-factor of FIDE (SPEC 2.3), FSE (SPEC 3.2) or FESA (SPEC 6.2)."""
    code = _federation(federation, ("fide", "fse", "fesa"))
    r, scalar = _numbers(rating, "rating")
    blank = np.isnan(r)
    if code == "fesa":
        k = np.vectorize(fesa.k_factor, otypes=[np.float64])(np.nan_to_num(r))
    else:
        g = _optional_number(games, "games", 30.0 if code == "fide" else 20.0)
        a = _optional_number(age, "age")
        if code == "fide":
            ever = bool(ever_2400) and not _is_blank(ever_2400) and str(ever_2400).strip().lower() not in ("0", "false", "no", "non")
            k = fide.k_factor(np.nan_to_num(r), g, a, ever)
        else:
            k = fse.k_factor(np.nan_to_num(r), g, a)
        k = np.broadcast_to(k, r.shape)
    return _shape(np.asarray(k, dtype=np.float64), blank, scalar)


def _one_player_event(rating: float, opponents: np.ndarray, scores: np.ndarray, games: float, age: float) -> Event:
    """A one-player period for the engine: the player and one opponent per game."""
    players = [dict(id="player", rating=rating, games=int(games), birth_year=None if math.isnan(age) else int(2000 - age))]
    players += [dict(id=f"o{i}", rating=float(o), games=1000) for i, o in enumerate(opponents)]
    from xl_elo.core import parse_result
    from xl_elo.model import Game, Player

    games_ = [Game("player", f"o{i}", parse_result(float(s)), i + 1) for i, s in enumerate(scores)]
    return Event(tuple(Player(**p) for p in players), tuple(games_), (), "2000-01")


@xw.func
@xw.arg("federation", doc="FIDE, FSE, FESA (normal mode) or FQE (permanent player).")
@xw.arg("rating", ndim=2, doc="The player's rating before the period or event (one cell).")
@xw.arg("opponent_ratings", ndim=2, doc="The opponents' ratings, one per game (FESA: after the tournament, in round order).")
@xw.arg("results", ndim=2, doc="The results, one per game, same size as opponent_ratings: 1, 0.5, 0, 1-0, ½, W/D/L ...")
@xw.arg("games", doc="FIDE, FSE: rated games before (default: not new). FESA: activity bonuses already used (default 0).")
@xw.arg("age", doc="FIDE, FSE: the player's age (blank: adult).")
def elo_change(federation: Range, rating: Range, opponent_ratings: Range, results: Range,
               games: Range = None, age: Range = None) -> Any:
    """The rating change of one player over a period or tournament (FIDE, FSE, FESA normal mode, FQE permanent)."""
    code = _federation(federation, ("fide", "fse", "fesa", "fqe"))
    r = _flat(rating, "rating")
    if len(r) != 1:
        raise ArgumentError("argument rating: expected one rating in one cell")
    opps, scores = _games(opponent_ratings, results)
    g = _optional_number(games, "games", math.nan).ravel()[0]
    if code == "fqe":
        return _plain(fqe.permanent_change(float(r[0]), opps, scores)["rating_after"] - float(r[0]))
    if code == "fesa":
        floor = np.maximum(opps, fesa.OPPONENT_FLOOR)
        return fesa.normal_change(float(r[0]), list(floor), list(scores), 0 if math.isnan(g) else int(g)).change
    a = _optional_number(age, "age").ravel()[0]
    default_games = 30 if code == "fide" else 20
    event = _one_player_event(float(r[0]), opps, scores, default_games if math.isnan(g) else g, a)
    return _plain(_rate(code, event).rows[0]["change"])


# --------------------------------------------------------------------------- performance


@xw.func
@xw.arg("method", doc="fesa (zero of g(x)), fqe (Cm + 400 (W - L) / n), ffe (Ea + D(P)) or fide (Ra + dp).")
@xw.arg("opponent_ratings", ndim=2, doc="The opponents' ratings, one per game.")
@xw.arg("results", ndim=2, doc="The results, one per game, same size as opponent_ratings.")
@xw.arg("rating", ndim=2, doc="FFE: the player's rating, to apply the 350-point compatibility window (blank: no window).")
def elo_performance(method: Range, opponent_ratings: Range, results: Range, rating: Range = None) -> Any:
    """A performance rating by a federation's method (FESA SPEC 6.5, FQE 4.3, FFE 5.3-5.5, FIDE 2.4)."""
    how = _text(method, "method").lower()
    opps, scores = _games(opponent_ratings, results)
    if how == "fesa":
        return fesa.performance_rating(list(opps), list(scores))
    if how == "fqe":
        wins = float(np.sum(scores == 1.0))
        losses = float(np.sum(scores == 0.0))
        return _plain(fqe.unrated_performance(opps.mean(), wins, losses, len(opps), adjust=False))
    if how == "ffe":
        r = _flat(rating, "rating") if not _is_blank(rating) else np.array([])
        perf = ffe.performance(opps, scores, float(r[0]) if len(r) else None)
        if perf.nj[0] == 0:
            raise ArgumentError("no game is compatible with the 350-point window around the rating")
        return _plain(perf.pj[0])
    if how == "fide":
        return _plain(fide.performance(opps, scores))  # never None: _games refuses an empty list
    raise ArgumentError(f"argument method: {how!r} is not fesa, fqe, ffe or fide")


@xw.func
@xw.arg("p", ndim=2, doc="The percentage scored, from 0 to 1: a cell or a range.")
@xw.arg("method", doc="normal (default: the normal quantile) or table (interpolation of the published table).")
def ffe_dp(p: Range, method: Range = "normal") -> Any:
    """FFE D(P), bounded to +-470 (SPEC 5.4)."""
    values, scalar = _numbers(p, "p", zero_is_blank=False)
    if np.any((values < 0) | (values > 1)):
        raise ArgumentError("argument p: a percentage is between 0 and 1")
    how = "normal" if _is_blank(method) else _text(method, "method").lower()
    if how not in ("normal", "table"):
        raise ArgumentError(f"argument method: {how!r} is not normal or table")
    return _shape(ffe.dp(np.nan_to_num(values), how), np.isnan(values), scalar)  # type: ignore[arg-type]


@xw.func
@xw.arg("x", ndim=2, doc="A rating: a cell or a range.")
def ffe_round(x: Range) -> Any:
    """A rating rounded to the nearest ten, 5 going up, as the FFE publishes it (SPEC 5.9)."""
    from xl_elo.core import round_to_ten

    values, scalar = _numbers(x, "x", zero_is_blank=False)
    return _shape(round_to_ten(np.nan_to_num(values)), np.isnan(values), scalar)


@xw.func
@xw.arg("value", ndim=2, doc="The rating to convert: a cell or a range.")
@xw.arg("from_system", doc="elo, ingo, bridier, bcr or cs.")
@xw.arg("to_system", doc="elo, ingo, bridier, bcr or cs.")
def elo_convert(value: Range, from_system: Range, to_system: Range) -> Any:
    """Convert between Elo, INGO, BRIDIER, BCR and CS with the FFE's formulas (SPEC 5.11)."""
    values, scalar = _numbers(value, "value", zero_is_blank=False)
    try:
        out = ffe.convert(np.nan_to_num(values), _text(from_system, "from_system"), _text(to_system, "to_system"))
    except ValueError as exc:
        raise ArgumentError(f"arguments from_system/to_system: {exc}") from None
    return _shape(out, np.isnan(values), scalar)


# --------------------------------------------------------------------------- shogi grades


@xw.func
@xw.arg("rating", ndim=2, doc="A FESA rating: a cell or a range.")
def shogi_grade(rating: Range) -> Any:
    """The FESA grade whose [LB, UB) holds the rating, as text (6 kyu, 1 dan) (SPEC 6.9)."""
    values, scalar = _numbers(rating, "rating", zero_is_blank=False)
    grades = np.array([[fesa_grades.grade_of(v) if not np.isnan(v) else "" for v in row] for row in values], dtype=object)
    return _shape(grades, np.isnan(values), scalar)


@xw.func
@xw.arg("grade", doc="A FESA grade, e.g. 3 kyu or 1 dan.")
def shogi_grade_bounds(grade: Range) -> Any:
    """A FESA grade's LB, MP, UB, #LB and #MP, as a row (SPEC 6.9)."""
    try:
        return [[_plain(v) if v is not None else None for v in fesa_grades.bounds(_text(grade, "grade"))]]
    except ValueError as exc:
        raise ArgumentError(f"argument grade: {exc}") from None


@xw.func
@xw.arg("rating", ndim=2, doc="The handicap giver's rating: a cell or a range.")
@xw.arg("handicap", doc="S (sente), L (lance), B (bishop), R (rook), RL, 2p, 4p, 5p or 6p.")
def shogi_handicap(rating: Range, handicap: Range) -> Any:
    """The handicap effect in rating points for that giver's rating (SPEC 6.7)."""
    values, scalar = _numbers(rating, "rating")
    try:
        out = fesa_grades.handicap_effect(np.nan_to_num(values), _text(handicap, "handicap"))
    except ValueError as exc:
        raise ArgumentError(f"argument handicap: {exc}") from None
    return _shape(out, np.isnan(values), scalar)


# --------------------------------------------------------------------------- whole events


def _split(value: Range, name: str) -> tuple[list[Any], Any]:
    """Header row and the rows below it, cells as Excel gave them."""
    if not isinstance(value, (list, tuple)) or not value or not isinstance(value[0], (list, tuple)):
        raise ArgumentError(f"argument {name}: expected a range with a header row")
    return ["" if v is None else v for v in value[0]], value[1:]


def _table(value: Range, name: str) -> tuple[list[Any], list[list[Any]]]:
    header, rows = _split(value, name)
    return header, [["" if v is None else v for v in row] for row in rows]


@xw.func
@xw.arg("federation", doc="FIDE, FSE, FQE, FFE or FESA.")
@xw.arg("players", ndim=2, doc="The players table with its header row (id, name, rating, games, ...).")
@xw.arg("games", ndim=2, doc="The games table with its header row (round, player, opponent, result, ...).")
@xw.arg("history", ndim=2, doc="FESA: the history table with its header row (id, opponent_rating, result).")
def elo_rate(federation: Range, players: Range, games: Range, history: Range = None) -> Any:
    """Rate a whole event or period; returns the results table with its header row (SPEC 8)."""
    code = _federation(federation, ("fide", "fse", "fqe", "ffe", "fesa"))
    if code in columnar.FEDERATIONS and _is_blank_range(history):
        try:  # a clean period: read and rate column by column (the cell-by-cell lane reports problems)
            results = columnar.rate_event(code, columnar.read_rows(*_split(players, "players"), *_split(games, "games")))
        except columnar.NotSimple:
            pass
        else:
            cells = [_column_cells(results, c) for c in results.columns]
            return [list(results.columns)] + [list(row) for row in zip(*cells, strict=True)]
    try:
        p = parse_players_rows(*_table(players, "players"), source="argument players")
        g = parse_games_rows(*_table(games, "games"), source="argument games")
        h = parse_history_rows(*_table(history, "history"), source="argument history") if not _is_blank_range(history) else []
        event = Event(tuple(p), tuple(g), tuple(h))
        check_event(event, players_source="argument players", games_source="argument games",
                    history_source="argument history")
        results = _rate(code, event)
    except InputError as exc:
        raise ArgumentError(str(exc)) from None
    out = [list(results.columns)]
    for row in results.rows:
        out.append([_cell(row.get(c)) for c in results.columns])
    return out


def _is_blank_range(value: Range) -> bool:
    if value is None:
        return True
    if isinstance(value, (list, tuple)):
        return all(_is_blank(v) for row in value for v in (row if isinstance(row, (list, tuple)) else [row]))
    return _is_blank(value)


def _column_cells(results: Any, name: str) -> list[Any]:
    """One results column as Excel cells, as :func:`_cell` gives them, a whole column at a time."""
    kind, values = results.kinds.get(name, "blank"), results.values.get(name)
    if kind in ("int", "float", "number"):
        return ["" if x != x else (int(x) if x.is_integer() else x)
                for x in np.asarray(values, dtype=np.float64).tolist()]
    if kind == "bool":
        return ["yes" if x else "no" for x in np.asarray(values, dtype=bool).tolist()]
    return [_cell(v) for v in results.cells(name)]


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return _plain(value)
