"""FFE (French chess federation) national Elo period (rules section 5; "Le classement national Elo").

Three periods a year; all games of a period are rated together against the opponents'
ratings Ei from before the period (rules 5.1). A game counts for a player only when it is
compatible with the 350-point window around his rating (5.2); from the compatible games come
Nj, Sc, Ea and P (5.3), the bonus D(P) (5.4) and the performance ``Pj = Ea + D(P)`` raised to
1000 (5.5). The update rules 1.a .. 3.b (5.6 - 5.8) give the new Elo, rounded to the nearest
ten (5.9). Unrated players are estimated by the iterative method of 5.10. The conversions of
5.11 are :func:`to_elo` / :func:`from_elo`.

Decisions where the rules are silent (rules 5.12):
- a player with no compatible game (Nj = 0) keeps what he had (rule ``none``);
- in the iteration, an unrated player with no game compatible with his window is settled
  at his estimate (his performance is undefined there);
- a blank category counts as senior;
- ``rounds`` in the results is the round in which the player's estimate last settled;
- the FFE rates by performance, not by expected score: :func:`expected` is the score D(P)
  implies, the P whose D(P) is the rating difference.

Example: the FFE arbiters' bulletin (BAF 103), IENTILE, 1970, scores 5/7 against 2091.57: D(P) 161 read in
the table, Pj 2253, braked as a senior below 16 games to 2093.81, rounded to the ten (rules 5.4 - 5.9)::

    >>> from xl_elo.model import Event, Game
    >>> rated = [1780, 2261, 1920, 2180, 2210, 2160, 2130]
    >>> scores = [1, 0, 1, 1, 0.5, 0.5, 1]
    >>> players = (Player("ientile", rating=1970, games=50, category="senior"),
    ...            *(Player(f"o{k}", rating=r, games=50, category="senior") for k, r in enumerate(rated)))
    >>> games = tuple(Game("ientile", f"o{k}", s, k + 1) for k, s in enumerate(scores))
    >>> rate(Event(players, games, period="2026-01"), dp_method="table").by_id()["ientile"]["rating_after"]
    2090
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from xl_elo import core, model, schema
from xl_elo.compat import np
from xl_elo.core import round_half_away, round_to_ten
from xl_elo.federations.contract import (
    Cadence,
    Calculation,
    FirstRating,
    GameLine,
    OpponentGame,
    RatingSystem,
    SheetArg,
    SheetFunction,
    option,
    options_of,
)
from xl_elo.federations.ffe.tables import FFE_CONVERSION_SOURCE, FFE_CONVERSIONS
from xl_elo.model import Column, Event, EventArrays, Results, Sides, fact, games_fact, results_columns
from xl_elo.tables import FFE_DP_SOURCE, FFE_DP_TABLE
from xl_elo.tableview import TableView

CODE: Final = "ffe"
NAME: Final = "FFE (French chess federation), national Elo"
ALIASES: Final = ("french", "france", "fr")
RULES: Final = "5"
SOURCE: Final = "https://www.echecs.asso.fr/Default.aspx?Cat=17"
UNIT: Final = "period"
NEEDS_PERIOD: Final = False
TEMPLATE: Final = "ffe_period.xlsx"
EXAMPLE: Final = "ffe_period"
#: A TRF-26 report carries the FFE's Elo in its national-rating records opened by this code (rules 5.1): the
#: ratings of its 001 lines are FIDE's, a national Elo only for a FIDE-rated player (5.9), so never read as one.
NATIONAL_RATINGS: Final = "FRA"
#: Its performance rating, in words (the functions' help; rules 5.3 - 5.5) ...
PERFORMANCE: Final = ("Ea + D(P)", "Ea + D(P)")
#: ... and what the player's own rating does to it (ELO_PERFORMANCE's argument rating).
PERFORMANCE_RATING: Final = ("FFE: the player's rating, to apply the 350-point compatibility window (blank or 0: "
                             "none).", "FFE : le classement du joueur, pour appliquer la fenêtre de compatibilité "
                                       "de 350 points (vide ou 0 : aucune).")

#: Compatibility window (rules 5.2).
WINDOW: Final = 350
#: D(P) bound (rules 5.4).
DP_BOUND: Final = 470.0
#: Scale of the normal D(P): ``D = (2000 / 7) * Phi^-1(P)`` (rules 5.4).
DP_SCALE: Final = 2000.0 / 7.0
#: Pj floor (rules 5.5).
PJ_FLOOR: Final = 1000.0
#: Weight of the old rating in rules 1.a and 1.c (rules 5.6).
WEIGHT: Final = 16
#: Compatible games that let the performance replace the rating (rules 5.6, 5.7, 5.8).
QUOTA_JUNIOR: Final = 8
QUOTA_SENIOR: Final = 16
QUOTA_FIRST: Final = 8
#: Iterative method (rules 5.10).
START: Final = 1500.0
SETTLE: Final = 20.0
MAX_ROUNDS: Final = 25


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """An FFE player: his category and, unrated, his archive (rules 5.6, 5.7); his Elo any whole rating, a
    national one in tens or a FIDE-rated player's FIDE rating (rules 5.9)."""

    games: int | None = games_fact("5.6", calc=None, function=None, unreported=(None, ""))
    archive_games: int | None = fact(
        schema.counts(schema.MAX_GAMES), "games Na behind the archived performance of an unrated player",
        rules="5.7")
    archive_perf: float | None = fact(
        schema.between(1000, 3500, "the archived performance, from 1000 to 3500"),
        "archived performance Pa of an unrated player", rules="5.7")
    category: str | None = fact(
        schema.spelled(schema.category), "junior or senior (blank counts as senior)", rules="5.6", array="text",
        calc="--junior", calc_help="a junior (8 games replace the rating)", switch="junior")


#: How D(P) is computed (rules 5.4): the normal quantile, or the published table interpolated.
DP_METHODS: Final = ("normal", "table")


@dataclass(frozen=True)
class Options:
    """What the FFE rules leave to the user."""

    dp_method: str = option(
        "normal", "D(P) from the normal quantile (2000/7) Phi^-1(P), or by interpolating the published table",
        choices=DP_METHODS, source="rules 5.4", flag="--dp")
    start: float = option(START, "where the iterative method starts every unrated player (any value: the "
                          "result does not depend on it beyond the 20-point tolerance)", source="rules 5.10")


COLUMNS: Final = results_columns(
    Column("rule", "text", True, "the update rule applied: 1.a .. 3.b, Pj=Ei or none"),
    Column("nj", "int", True, "Nj, compatible games"),
    Column("sc", "float", False, "Sc, points in them"),
    Column("ea", "float", False, "Ea, mean of their opponents"),
    Column("p", "float", False, "P = Sc / Nj"),
    Column("dp", "float", False, "D(P)"),
    Column("pj", "float", False, "Pj = Ea + D(P), at least 1000 (an unrated player's: his final estimate)"),
    Column("ej", "float", False, "Ej, the new Elo before rounding"),
    Column("archive_perf", "float", False, "archived performance for the next period"),
    Column("archive_games", "int", True, "games behind it"),
    Column("rounds", "int", True, "round of the iteration in which the estimate settled"),
    Column("note", "note", False, "an estimate still moving, or an archive"),
    Column("category", "text", True, "junior or senior, as given: the next period's quota (5.6)"),
    blank=("expected", "k", "bonus"),
)

_DP_KEYS = [p / 100 for p in sorted(FFE_DP_TABLE)]  # P, as the table prints it (0.01 .. 0.99)
_DP_VALUES = [float(FFE_DP_TABLE[p]) for p in sorted(FFE_DP_TABLE)]


# --------------------------------------------------------------------------- D(P)


def dp_normal(p: Any) -> Any:
    """D(P) from the normal quantile ``(2000/7) * Phi^-1(P)``, bounded to +-470 (rules 5.4), element-wise."""
    if core.is_scalar(p):
        return max(-DP_BOUND, min(DP_BOUND, DP_SCALE * core.normal_quantile(float(p))))
    return np.clip(DP_SCALE * core.normal_quantile(p), -DP_BOUND, DP_BOUND)


def dp_table(p: Any) -> Any:
    """D(P) by linear interpolation of the published table, bounded to +-470 (rules 5.4), element-wise."""
    if core.is_scalar(p):
        a = min(max(float(p), _DP_KEYS[0]), _DP_KEYS[-1])
        j = min(bisect.bisect_right(_DP_KEYS, a) - 1, len(_DP_KEYS) - 2)
        x0, x1, y0, y1 = _DP_KEYS[j], _DP_KEYS[j + 1], _DP_VALUES[j], _DP_VALUES[j + 1]
        return max(-DP_BOUND, min(DP_BOUND, y0 + (y1 - y0) * (a - x0) / (x1 - x0)))
    a = np.clip(np.asarray(p, dtype=np.float64), 0.01, 0.99)
    return np.clip(np.interp(a, _DP_KEYS, _DP_VALUES), -DP_BOUND, DP_BOUND)


def dp(p: Any, method: str = "normal") -> Any:
    """D(P) of the FFE, bounded to +-470, by the chosen method (rules 5.4), element-wise."""
    if method == "normal":
        return dp_normal(p)
    if method == "table":
        return dp_table(p)
    raise ValueError(f"the D(P) method must be 'normal' or 'table', not {method!r}")


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """The score D(P) implies for a rating difference (rules 5.4, 5.12), element-wise.

    With the normal method ``Phi((r - o) / (2000/7))``; with the table, the P whose
    interpolated D(P) is ``r - o`` (0.01 .. 0.99).
    """
    method = (options or Options()).dp_method
    if core.is_scalar(rating, opponent):
        d = float(rating) - float(opponent)
        if method == "normal":
            return core.normal_cdf(d / DP_SCALE)
        d = min(max(d, _DP_VALUES[0]), _DP_VALUES[-1])
        j = min(bisect.bisect_right(_DP_VALUES, d) - 1, len(_DP_VALUES) - 2)
        y0, y1 = _DP_VALUES[j], _DP_VALUES[j + 1]
        return _DP_KEYS[j] + (_DP_KEYS[j + 1] - _DP_KEYS[j]) * (d - y0) / (y1 - y0)
    d = np.asarray(rating, np.float64) - np.asarray(opponent, np.float64)
    if method == "normal":
        return core.normal_cdf(d / DP_SCALE)
    return np.interp(d, _DP_VALUES, _DP_KEYS)


k_factor = None
"""The FFE rules use no K-factor."""


# --------------------------------------------------------------------------- performance


def compatible(center: Any, opponent: Any, score: Any) -> Any:
    """Is each game compatible with the 350-point window around ``center`` (rules 5.2)? Element-wise.

    A draw always is; a win when the opponent is rated more than ``center - 350``; a loss
    when he is rated less than ``center + 350``.
    """
    if core.is_scalar(center, opponent, score):
        c, o, s = float(center), float(opponent), float(score)
        return s == 0.5 or (s == 1.0 and o > c - WINDOW) or (s == 0.0 and o < c + WINDOW)
    c = np.asarray(center, dtype=np.float64)
    o = np.asarray(opponent, dtype=np.float64)
    s = np.asarray(score, dtype=np.float64)
    return (s == 0.5) | ((s == 1.0) & (o > c - WINDOW)) | ((s == 0.0) & (o < c + WINDOW))


@dataclass(frozen=True)
class PerformanceSteps:
    """Nj, Sc, Ea, P, D(P) and Pj of one player (rules 5.3 - 5.5); None where Nj = 0."""

    nj: int
    sc: float
    ea: float | None
    p: float | None
    dp: float | None
    pj: float | None


def performance_steps(opponent_ratings: Sequence[float], scores: Sequence[float], center: float | None = None,
                      method: str = "normal") -> PerformanceSteps:
    """Pj of one player from his games (rules 5.3 - 5.5), with the window around ``center`` when given."""
    games = [(float(o), float(s)) for o, s in zip(opponent_ratings, scores, strict=True)
             if center is None or compatible(center, o, s)]
    nj = len(games)
    if nj == 0:
        return PerformanceSteps(0, 0.0, None, None, None, None)
    sc = sum(s for _, s in games)
    ea = sum(o for o, _ in games) / nj
    p = sc / nj
    d = float(dp(p, method))
    return PerformanceSteps(nj, sc, ea, p, d, max(ea + d, PJ_FLOOR))


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    """Pj = Ea + D(P), at least 1000 (rules 5.3 - 5.5), over the games compatible with the window
    around ``rating`` (all games when ``rating`` is None); None when no game is compatible."""
    return performance_steps(opponent_ratings, scores, rating, (options or Options()).dp_method).pj


def estimate(opponent_ratings: Sequence[float], scores: Sequence[float], options: Options | None = None
             ) -> tuple[float | None, int, bool]:
    """The iterative method of rules 5.10 for one unrated player against fixed opponents.

    Returns his estimate (None without games), the round it settled in, and whether it settled.
    """
    opts = options or Options()
    est = performance_steps(opponent_ratings, scores, None, opts.dp_method).pj
    if est is None:
        return None, 0, True
    last = 0
    for t in range(1, MAX_ROUNDS + 1):
        perf = performance_steps(opponent_ratings, scores, est, opts.dp_method).pj
        if perf is None or abs(perf - est) < SETTLE:
            return est, min(last + 1, MAX_ROUNDS), True
        last = t
        est = (est + perf) / 2.0
    return est, MAX_ROUNDS, False


@dataclass(frozen=True, slots=True)
class Update:
    """The outcome of the update rules for one player (rules 5.6 - 5.8)."""

    rule: str
    """``1.a`` ... ``3.b``, ``Pj=Ei`` (Pj equals Ei) or ``none`` (no compatible game)."""
    ej: float | None
    """New Elo before rounding, None when the player stays unrated."""
    elo: int | None
    """New Elo rounded to the nearest ten (rules 5.9)."""
    archive_perf: float | None
    """Archived performance kept for the next period (unrated players), with decimals."""
    archive_games: int | None


def update(nj: int, pj: float | None, ei: float | None = None, junior: bool = False,
           archive_perf: float | None = None, archive_games: int | None = None) -> Update:
    """Apply rules 1.a - 1.c, 2.a - 2.c or 3.a - 3.b to one player (rules 5.6 - 5.9)."""
    if ei is not None:
        if nj == 0 or pj is None or pj == ei:
            return Update("none" if nj == 0 else "Pj=Ei", ei, _ten(ei), None, None)
        if pj < ei:
            ej = (WEIGHT * ei + nj * pj) / (WEIGHT + nj)
            return Update("1.a", ej, _ten(ej), None, None)
        if nj >= (QUOTA_JUNIOR if junior else QUOTA_SENIOR):
            return Update("1.b", pj, _ten(pj), None, None)
        ej = (pj * nj + (WEIGHT - nj) * ei) / WEIGHT
        return Update("1.c", ej, _ten(ej), None, None)
    if archive_games and archive_perf is not None:
        na, pa = archive_games, archive_perf
        if nj == 0 or pj is None:
            return Update("none", None, None, pa, na)
        if nj >= QUOTA_FIRST:
            return Update("2.a", pj, _ten(pj), None, None)
        mean = (pj * nj + pa * na) / (nj + na)
        if nj + na < QUOTA_FIRST:
            return Update("2.b", None, None, mean, nj + na)
        return Update("2.c", mean, _ten(mean), None, None)
    if nj == 0 or pj is None:
        return Update("none", None, None, None, None)
    if nj < QUOTA_FIRST:
        return Update("3.a", None, None, pj, nj)
    return Update("3.b", pj, _ten(pj), None, None)


def _ten(x: float) -> int:
    return int(round_to_ten(x))


def first_rating(opponent_ratings: Sequence[float], scores: Sequence[float],
                 options: Options | None = None) -> FirstRating:
    """A new player's first Elo (rules 5.8, 5.10): his estimate by the iterative method; with 8
    compatible games or more it is his Elo (3.b), below that it is archived (3.a)."""
    est, rounds, settled = estimate(opponent_ratings, scores, options)
    if est is None:
        return FirstRating(None, "unrated")
    nj = performance_steps(opponent_ratings, scores, est, (options or Options()).dp_method).nj
    u = update(nj, est)
    steps = (("estimate", est), ("rounds", rounds), ("settled", settled), ("Nj", nj), ("rule", u.rule))
    if u.elo is None:
        return FirstRating(None, f"archived ({u.rule})", est, nj, float(sum(scores)),
                           (*steps, ("archive", (u.archive_perf, u.archive_games))))
    return FirstRating(u.elo, f"first rating ({u.rule})", est, nj, float(sum(scores)), steps)


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's period (rules 5.2 - 5.10): compatible games, Nj, Sc, Ea, P, D(P), Pj, the rule, Ej, Elo.

    An unrated player's Pj is his estimate by the iterative method against these opponents.
    ``k`` is not used (the FFE has no K).
    """
    opts = options or Options()
    rated = [g for g in games if g.rating is not None]
    opps = [float(g.rating) for g in rated]  # type: ignore[arg-type]
    scores = [g.score for g in rated]
    junior = (player.category or "").lower() == "junior"
    steps: list[tuple[str, Any]] = []
    if player.rating is not None:
        center: float | None = float(player.rating)
        pj_override = None
    else:
        est, rounds, settled = estimate(opps, scores, opts)
        center, pj_override = est, est
        steps += [("estimate", est), ("rounds", rounds), ("settled", settled)]
    perf = performance_steps(opps, scores, center, opts.dp_method) if center is not None else \
        PerformanceSteps(0, 0.0, None, None, None, None)
    pj = pj_override if (pj_override is not None and perf.nj > 0) else perf.pj
    u = update(perf.nj, pj, player.rating, junior, player.archive_perf, player.archive_games)
    lines = []
    for g in games:
        if g.rating is None:
            lines.append(GameLine(None, None, g.score, None, None, None, "unrated opponent: not counted"))
            continue
        ok = center is not None and compatible(center, float(g.rating), g.score)
        lines.append(GameLine(g.rating, float(g.rating), g.score, None if center is None else center - g.rating,
                              None, None, "compatible" if ok else "not compatible: ignored"))
    steps += [("Nj", perf.nj), ("Sc", perf.sc), ("Ea", perf.ea), ("P", perf.p), ("D(P)", perf.dp), ("Pj", pj),
              ("rule", u.rule), ("Ej", u.ej)]
    if u.archive_perf is not None:
        steps.append(("archive", (u.archive_perf, u.archive_games)))
    change = None if (u.elo is None or player.rating is None) else u.elo - _ten(player.rating)
    return Calculation(CODE, player.rating, tuple(lines), float(sum(scores)), u.elo, change=change,
                       performance=perf.pj, status="established" if player.rating is not None else "unrated",
                       steps=tuple(steps))


# --------------------------------------------------------------------------- the period on arrays


def _dp_by_score(sc: Any, nj: Any, method: str) -> Any:
    """D(P) at P = sc / nj for every player (NaN where nj = 0), computed once per distinct score.

    Scores are whole or half points, so a period has few distinct (points, games) pairs
    however many players it has; D(P) is computed for those and looked up for the rest.
    """
    halves = np.rint(2 * sc).astype(np.int64)
    n_max = int(nj.max(initial=0)) + 1
    key = halves * n_max + nj
    if not np.array_equal(halves, 2 * sc) or (len(key) and (key.min() < 0 or key.max() >= 1 << 22)):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(nj > 0, dp(np.nan_to_num(sc / np.maximum(nj, 1)), method), np.nan)
    pairs = np.flatnonzero(np.bincount(key[nj > 0], minlength=1))
    pairs = pairs[pairs % n_max > 0]
    table = np.full(int(key.max(initial=0)) + 1, np.nan)
    table[pairs] = dp((pairs // n_max) / 2 / (pairs % n_max), method)
    return table[key]


@dataclass(frozen=True)
class Performances:
    """Nj, Sc, Ea, P, D(P) and Pj per player (rules 5.3 - 5.5) as arrays; NaN where Nj = 0."""

    nj: Any
    sc: Any
    ea: Any
    p: Any
    dp: Any
    pj: Any


def performances(sides: Sides, center: Any, opponent_rating: Any, method: str = "normal") -> Performances:
    """Performance of every player over ``sides`` (rules 5.3 - 5.5).

    ``center[i]`` is the centre of player i's window (his Ei or his estimate); None means
    no window (the first estimate of 5.10). ``opponent_rating[j]`` is how player j counts.
    """
    o = opponent_rating[sides.against]
    keep = np.ones(len(o), bool) if center is None else compatible(center[sides.who], o, sides.score)
    sel = sides.select(keep)
    nj = sel.count()
    sc = sel.total(sel.score)
    with np.errstate(invalid="ignore", divide="ignore"):
        ea = sel.total(o[keep]) / nj
        p = sc / nj
    d = _dp_by_score(sc, nj, method)
    pj = np.where(nj > 0, np.maximum(ea + d, PJ_FLOOR), np.nan)
    return Performances(nj, sc, ea, p, d, pj)


@dataclass(frozen=True)
class Estimates:
    """Outcome of the iterative method for unrated players (rules 5.10)."""

    estimate: Any
    """Final estimate per player (NaN for rated players and unrated ones without games)."""
    rounds: Any
    """Round in which each unrated player last settled (0 for the others)."""
    settled: Any
    """False for an unrated player still moving after 25 rounds."""


def estimate_unrated(sides: Sides, rating: Any, method: str = "normal", start: float = START) -> Estimates:
    """The iterative method of rules 5.10, Jacobi steps over all unrated players at once.

    Each round recomputes the performance only of players whose estimate, or an opponent's,
    moved in the round before; everyone else's is unchanged (and so is his settling).
    """
    unrated = np.isnan(rating)
    mine = sides.select(unrated[sides.who])
    has_games = mine.count() > 0
    todo = unrated & has_games
    current = np.where(unrated, start, rating)
    first = performances(mine, None, current, method)
    est = np.where(todo, first.pj, np.nan)
    current = np.where(todo, est, current)
    last_move = np.zeros(len(rating), np.int64)
    perf = np.full(len(rating), np.nan)
    changed = todo
    t = 0
    for t in range(1, MAX_ROUNDS + 1):
        # only a player whose own estimate or an opponent's moved last round can get another
        # performance: the others keep theirs, and stay settled
        affected = todo & (changed | (np.bincount(mine.who, changed[mine.against], len(rating)) > 0))
        perf = np.where(affected, performances(mine.select(affected[mine.who]), current, current, method).pj, perf)
        moving = todo & np.isfinite(perf) & (np.abs(perf - current) >= SETTLE)
        if not moving.any():
            break
        last_move[moving] = t
        current = np.where(moving, (current + perf) / 2.0, current)
        changed = moving
    settled = ~todo | (last_move < t) | (t < MAX_ROUNDS)
    rounds = np.where(todo, np.minimum(last_move + 1, MAX_ROUNDS), 0)
    return Estimates(np.where(todo, current, np.nan), rounds, settled)


#: Rule names in the order of the codes :func:`update_arrays` returns.
RULE_NAMES: Final = ("none", "Pj=Ei", "1.a", "1.b", "1.c", "2.a", "2.b", "2.c", "3.a", "3.b")


def update_arrays(nj: Any, pj: Any, ei: Any, junior: Any, archive_perf: Any, archive_games: Any) -> dict[str, Any]:
    """:func:`update` for every player at once (rules 5.6 - 5.9); NaN where the rule gives nothing.

    Returns ``rule`` (codes into :data:`RULE_NAMES`), ``ej``, ``elo``, ``archive_perf``, ``archive_games``.
    """
    nj = np.asarray(nj, dtype=np.int64)
    nf = nj.astype(np.float64)
    rated = ~np.isnan(ei)
    archived = ~rated & (np.nan_to_num(archive_games) > 0) & ~np.isnan(archive_perf)
    fresh = ~rated & ~archived
    na = np.nan_to_num(archive_games)
    quota = np.where(junior, QUOTA_JUNIOR, QUOTA_SENIOR)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (pj * nf + archive_perf * na) / (nf + na)
        conditions = [
            nj == 0, rated & (pj == ei), rated & (pj < ei), rated & (nj >= quota), rated,
            archived & (nj >= QUOTA_FIRST), archived & (nf + na < QUOTA_FIRST), archived,
            fresh & (nj < QUOTA_FIRST), fresh,
        ]
        rule = np.select(conditions, np.arange(len(RULE_NAMES)), 0)
        ej_by_rule = [ei, ei, (WEIGHT * ei + nf * pj) / (WEIGHT + nf), pj, (pj * nf + (WEIGHT - nf) * ei) / WEIGHT,
                      pj, np.nan, mean, np.nan, pj]
    ej = np.choose(rule, [np.broadcast_to(np.asarray(x, dtype=np.float64), nj.shape) for x in ej_by_rule])
    none = rule == 0
    keep_archive = none & archived
    out_perf = np.select([keep_archive, rule == 6, rule == 8], [archive_perf, mean, pj], np.nan)
    out_games = np.select([keep_archive, rule == 6, rule == 8], [na, nf + na, nf], np.nan)
    return {"rule": rule, "ej": ej, "elo": round_to_ten(ej), "archive_perf": out_perf, "archive_games": out_games}


def rate_arrays(ev: EventArrays, options: Options | None = None) -> Results:
    """The results table of an FFE period (rules 5, 8) from its array form; NaN ``rating`` = unrated."""
    opts = options or Options()
    sides = ev.sides()
    rating = ev.rating
    est = estimate_unrated(sides, rating, opts.dp_method, opts.start)
    unrated = np.isnan(rating)
    seen = np.where(unrated, est.estimate, rating)  # how each player counts (5.10)
    perf = performances(sides.select(np.isfinite(seen[sides.against])), seen, seen, opts.dp_method)
    games = sides.count()
    score = sides.total(sides.score)
    # rules 5.10: an unrated player's Pj is his final estimate (his performance at it is
    # within 20 of it and is shown beside it)
    pj = np.where(perf.nj > 0, np.where(unrated, est.estimate, perf.pj), np.nan)
    junior = np.asarray(ev.category == "junior", dtype=bool)
    u = update_arrays(perf.nj, pj, rating, junior, ev.archive_perf, ev.archive_games)
    moving = unrated & (games > 0) & ~est.settled
    notes: dict[int, str] = {}
    warnings = []
    for i in np.flatnonzero(moving | np.isin(u["rule"], (6, 8))).tolist():
        if moving[i]:
            notes[i] = f"estimate still moving after {MAX_ROUNDS} rounds"
            pid = ev.ids[i]
            warnings.append(f"{pid.decode('utf-8') if isinstance(pid, bytes) else pid}: {notes[i]}")
        else:
            notes[i] = "archived for the next period"
    values = {
        "id": ev.ids, "name": ev.names, "status": np.where(unrated, "unrated", "established"),
        "rating_before": rating, "games_rated": games.astype(np.float64), "score": score,
        "performance": perf.pj, "change": u["elo"] - round_to_ten(rating), "rating_after": u["elo"],
        "games_after": np.asarray(ev.games, dtype=np.float64) + games,
        "rule": np.array(RULE_NAMES)[u["rule"]], "nj": perf.nj.astype(np.float64), "sc": perf.sc,
        "ea": perf.ea, "p": perf.p, "dp": perf.dp, "pj": pj, "ej": u["ej"],
        "archive_perf": u["archive_perf"], "archive_games": u["archive_games"],
        "rounds": np.where(unrated & (games > 0), est.rounds, np.nan), "note": notes, "category": ev.category,
    }
    return Results(CODE, COLUMNS, values, period=ev.period, warnings=warnings)


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate an FFE period: every listed player, all games at once (rules 5)."""
    return rate_arrays(event.arrays(), options_of(Options, options, **overrides))


# --------------------------------------------------------------------------- conversions


def to_elo(value: Any, system: str) -> Any:
    """Convert a rating of another system to Elo (rules 5.11), element-wise.

    ``system`` is ``ingo``, ``bridier``, ``bcr`` or ``cs`` (``elo`` returns the value).
    """
    if system.strip().lower() == "elo":
        return value if core.is_scalar(value) else np.asarray(value, dtype=np.float64)
    a, b, _ = _conversion(system)
    return a * (float(value) if core.is_scalar(value) else np.asarray(value, dtype=np.float64)) + b


def from_elo(elo: Any, system: str) -> Any:
    """Convert an Elo to another system, the inverse of :func:`to_elo` (rules 5.11)."""
    if system.strip().lower() == "elo":
        return elo if core.is_scalar(elo) else np.asarray(elo, dtype=np.float64)
    a, b, _ = _conversion(system)
    return ((float(elo) if core.is_scalar(elo) else np.asarray(elo, dtype=np.float64)) - b) / a


def convert(value: Any, from_system: str, to_system: str) -> Any:
    """Convert between any two of ``elo``, ``ingo``, ``bridier``, ``bcr``, ``cs`` (rules 5.11)."""
    return from_elo(to_elo(value, from_system), to_system)


def _conversion(system: str) -> tuple[int, int, str]:
    try:
        return FFE_CONVERSIONS[system.strip().lower()]
    except KeyError:
        known = ", ".join(["elo", *FFE_CONVERSIONS])
        raise ValueError(f"unknown rating system {system!r}; expected one of {known}") from None


def rules_values() -> dict[str, Any]:
    """The conversion formulas as FFE's chapter of the rules document writes them (rules 5.11)."""
    return {"conversions": "; ".join(
        f"{system.upper()}: Elo = {a} × {system.upper()} + {b}" if a > 0 else f"{system.upper()}: Elo = {b} − {-a} × "
        f"{system.upper()}" for system, (a, b, _) in FFE_CONVERSIONS.items())}


# --------------------------------------------------------------------------- spreadsheet functions


def _dp_method(value: Any) -> str:
    how = schema.text(value) or DP_METHODS[0]
    if how.lower() not in DP_METHODS:
        raise schema.ValueProblem(f"{how!r} is not {' or '.join(DP_METHODS)}")
    return how.lower()


def _systems(last: str) -> str:
    names = ["elo", *FFE_CONVERSIONS]
    return f"{', '.join(names[:-1])} {last} {names[-1]}."


#: The FFE's own spreadsheet functions, beside the common ones (the front ends give them to Excel and Calc).
FUNCTIONS: Final = (
    SheetFunction(
        "FFE_DP", lambda p, method: dp(p, method),
        (SheetArg("p", ("The percentage scored, from 0 to 1: a cell or a range.",
                        "Le pourcentage marqué, de 0 à 1 : une cellule ou une plage."),
                  lambda v: schema.number(v, what="a percentage between 0 and 1", low=0, high=1), range=True),
         SheetArg("method", ("normal (default: the normal quantile) or table (interpolation of the published table).",
                             "normal (par défaut : le quantile de la loi normale) ou table (interpolation de la "
                             "table publiée)."), _dp_method, optional=True, default=DP_METHODS[0])),
        (f"FFE D(P), bounded to +-{DP_BOUND:g} (xl-elo rules 5.4).", f"D(P) de la FFE, borné à +-{DP_BOUND:g} "
                                                                     "(règles xl-elo 5.4)."),
        "FFE"),
    SheetFunction(
        "FFE_ROUND", round_to_ten,
        (SheetArg("x", ("A rating: a cell or a range.", "Un classement : une cellule ou une plage."),
                  lambda v: schema.number(v, what="a rating from 0 to 3500", low=0, high=3500, rating=True),
                  range=True),),
        ("A rating rounded to the nearest ten, 5 going up, as the FFE publishes it (xl-elo rules 5.9).",
         "Un classement arrondi à la dizaine la plus proche, 5 vers le haut, comme la FFE le publie "
         "(règles xl-elo 5.9)."),
        "FFE"),
    SheetFunction(
        "ELO_CONVERT", convert,
        (SheetArg("value", ("The rating to convert: a cell or a range.", "Le classement à convertir : une cellule ou "
                                                                         "une plage."),
                  lambda v: schema.number(v, what="a rating to convert", low=-10_000, high=10_000), range=True),
         SheetArg("from_system", (_systems("or"), _systems("ou")), schema.text),
         SheetArg("to_system", (_systems("or"), _systems("ou")), schema.text)),
        ("Convert between Elo, INGO, BRIDIER, BCR and CS with the FFE's formulas (xl-elo rules 5.11).",
         "Conversion entre Elo, INGO, BRIDIER, BCR et CS selon les formules de la FFE (règles xl-elo 5.11)."),
        "FFE", refused="arguments from_system/to_system"),
)

# --------------------------------------------------------------------------- published tables (rules 7)


def _ffe_dp() -> TableView:
    ps = sorted(FFE_DP_TABLE, reverse=True)
    rows = [(p / 100, FFE_DP_TABLE[p]) for p in ps]
    normal = dp_normal(np.array(ps) / 100)
    raw = DP_SCALE * np.array([float(core.normal_quantile(p / 100)) for p in ps])
    table = dp_table(np.array(ps) / 100)
    cmp = []
    diff = []
    for p, n, q, tb in zip(ps, normal, raw, table, strict=True):
        pub = FFE_DP_TABLE[p]
        cmp.append((p / 100, pub, round(float(q), 3), round(float(n), 3), round(float(tb), 3)))
        diff.append(int(round_half_away(q)) != pub)
    return TableView(
        "ffe-dp", "FFE D(P): bonus/malus by percentage scored", FFE_DP_SOURCE,
        ("p", "dp"), rows, ("p", "dp published", "(2000/7) Phi^-1(p)", "normal, bounded", "table, bounded"),
        cmp, diff,
        "marked: the published integer is not the normal quantile (2000/7) Phi^-1(P) rounded; "
        "the engine bounds D to +-470 (rules 5.4)",
    )


def _ffe_conversions() -> TableView:
    rows = [(sys, f"Elo = {a} * {sys.upper()} + {b}" if a > 0 else f"Elo = {b} - {-a} * {sys.upper()}", desc)
            for sys, (a, b, desc) in FFE_CONVERSIONS.items()]
    cmp = [(sys, formula, float(from_elo(2000, sys)), float(to_elo(from_elo(2000, sys), sys)))
           for sys, formula, _ in rows]
    return TableView(
        "ffe-conversions", "FFE conversions from other rating systems", FFE_CONVERSION_SOURCE,
        ("system", "formula", "description"), rows,
        ("system", "formula", "2000 Elo in this system", "and back to Elo"), cmp, [False] * len(rows),
        "inverse: value = (Elo - b) / a (rules 5.11)",
    )


#: The FFE's published tables (rules 7), by the name ``xl-elo tables NAME`` takes.
PUBLISHED_TABLES: Final = {"ffe-dp": _ffe_dp, "ffe-conversions": _ffe_conversions}


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CADENCE=Cadence("four months", 4, (1, 5, 9)),
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Options=Options, COLUMNS=COLUMNS, expected=expected, performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, rate_arrays=rate_arrays,
    rules_values=rules_values, convert=convert, PERFORMANCE=PERFORMANCE, PERFORMANCE_RATING=PERFORMANCE_RATING,
    TEMPLATE=TEMPLATE, EXAMPLE=EXAMPLE, FUNCTIONS=FUNCTIONS, PUBLISHED_TABLES=PUBLISHED_TABLES,
    NATIONAL_RATINGS=NATIONAL_RATINGS,
)
