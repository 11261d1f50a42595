"""FESA (Federation of European Shogi Associations) tournament rating (SPEC 6.1 - 6.8; seeds 003, 000).

One tournament ("tableau") is rated at a time (SPEC 6.1). Each player is in performance
mode or normal mode (6.3). Normal mode walks his games in round order with a running rating,
K by band, the upset gain and the activity bonus, and rounds once, halves to even (6.4).
Performance mode takes the zero of ``g(x)`` over his whole history (6.5). Opponents count at
their rating after the tournament, at least 400, so the tournament is solved by sweeps in
list order until nothing moves (6.6). Handicap games shift ratings on the grade scale
(6.7). Byes, forfeits and unrated games are never rated (6.8). Promotions (6.10) are in
:mod:`xl_elo.federations.fesa_promotion`.

Decisions where SPEC 6 is silent (also in the issue note):
- the floor of 400 applies to the opponent's rating first, the handicap shift after it;
- a player with a rating and no history rows is in normal mode whatever his game count;
- the hard floor of 1 applies in both modes (seed 003 section 4).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from xl_elo.federations import fesa_grades
from xl_elo.federations.fesa_promotion import Promotion, promote
from xl_elo.model import Event, HistoryGame, InputError, Player, Problem, Results, make_columns
from xl_elo.tables import FESA_K_BANDS

#: Opponents count at least this (SPEC 6.6, seed 003 section 4).
OPPONENT_FLOOR: Final = 400.0
#: No rating goes below this (SPEC 6.8).
RATING_FLOOR: Final = 1.0
#: Fewer games than this (history + tournament) keep a player in performance mode (6.3).
PERFORMANCE_GAMES: Final = 9
#: Upset gain divisor: ``K (or - pr) / 160`` (SPEC 6.4).
UPSET_DIVISOR: Final = 160.0
#: Activity bonus ``(1800 - pr) / 200`` below 1800, for 100 games (SPEC 6.4).
BONUS_BELOW: Final = 1800.0
BONUS_DIVISOR: Final = 200.0
BONUS_GAMES: Final = 100
#: The code warns above this many rounds (SPEC 6.1).
MAX_ROUNDS: Final = 16
#: A tournament that has not settled after this many sweeps is an error (SPEC 6.6).
MAX_SWEEPS: Final = 1000

COLUMNS: Final = make_columns((
    "mode", "upsets", "bonus_count", "nsr_grade", "grade_before", "grade_after",
    "lb_run", "mp_run", "mp_reached", "note",
))


def k_factor(rating: float) -> int:
    """K for a player's rating before a game (SPEC 6.2, seed 003 section 1)."""
    for lowest, k in FESA_K_BANDS:
        if rating >= lowest:
            return k
    return FESA_K_BANDS[-1][1]


def expected(rating: float, opponent: float) -> float:
    """``1 / (1 + 10 ** ((or - pr) / 400))`` (SPEC 1.2, seed 003 section 1)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


@dataclass(frozen=True, slots=True)
class GameStep:
    """One game of a normal-mode player, as a rating officer checks it (SPEC 6.4)."""

    opponent_rating: float
    score: float
    k: int
    rating: float
    """Running rating ``pr`` before the game."""
    normal: float
    upset: float | None
    """The upset gain when it replaced the normal gain."""
    bonus: float
    delta: float


@dataclass(frozen=True, slots=True)
class NormalOutcome:
    """A normal-mode tournament (SPEC 6.4)."""

    steps: tuple[GameStep, ...]
    total: float
    change: int
    bonus_count: int


def normal_change(rating: float, opponents: Sequence[float], scores: Sequence[float], bonus_count: int = 0) -> NormalOutcome:
    """Change of a normal-mode player over his games in round order (SPEC 6.4).

    ``opponents`` are the ratings the games count with (after the tournament, floored,
    handicap-adjusted). The sum is rounded once, halves to even.
    """
    steps: list[GameStep] = []
    total, counter = _walk(float(rating), opponents, scores, int(bonus_count), steps)
    # round() on a float is round-half-even on its exact value, as round_half_even (SPEC 6.4)
    return NormalOutcome(tuple(steps), total, round(total), min(BONUS_GAMES, counter))


def _walk(pr: float, opponents: Sequence[float], scores: Sequence[float], counter: int,
          steps: list[GameStep] | None) -> tuple[float, int]:
    """The game-by-game walk of SPEC 6.4: total change and bonus counter (``steps`` filled if given)."""
    total = 0.0
    bands = FESA_K_BANDS
    for o, s in zip(opponents, scores, strict=True):
        k = bands[-1][1]  # k_factor(pr), inline: this loop is the hot path of a season
        for lowest, band_k in bands:
            if pr >= lowest:
                k = band_k
                break
        normal = k * (s - 1.0 / (1.0 + 10.0 ** ((o - pr) / 400.0)))  # expected(pr, o)
        upset = None
        delta = normal
        if s == 1.0 and o > pr:
            gain = k * (o - pr) / UPSET_DIVISOR
            if gain > normal:
                upset = gain
                delta = gain
        bonus = (BONUS_BELOW - pr) / BONUS_DIVISOR if (pr < BONUS_BELOW and counter < BONUS_GAMES) else 0.0
        delta += bonus
        counter += 1
        if steps is not None:
            steps.append(GameStep(o, s, k, pr, normal, upset, bonus, delta))
        total += delta
        pr += delta
    return total, counter


def performance_rating(opponents: Sequence[float], scores: Sequence[float]) -> int:
    """FESA performance rating of a list of games (SPEC 6.5).

    Opponents count at least 400. All losses give 1; all wins add a draw against the
    highest opponent; otherwise the zero of ``g(x) = sum(res - E(x, or))``, rounded halves
    to even, at least 1.
    """
    opps = [max(OPPONENT_FLOOR, float(o)) for o in opponents]
    res = [float(s) for s in scores]
    if not opps:
        raise ValueError("a performance rating needs at least one game")
    if all(s == 0.0 for s in res):
        return int(RATING_FLOOR)
    if all(s == 1.0 for s in res):
        opps.append(max(opps))
        res.append(0.5)
    x = _zero(opps, res)
    return int(max(RATING_FLOOR, round(x)))  # round(): halves to even, as round_half_even (SPEC 6.5)


def _zero(opps: list[float], res: list[float]) -> float:
    """Zero of ``g(x)``: Newton from the first opponent, steps capped at 800, bisection guard."""
    total = sum(res)
    lo, hi = min(opps) - 4000.0, max(opps) + 4000.0
    x = opps[0]
    ln = math.log(10.0) / 400.0
    for _ in range(200):
        es = [1.0 / (1.0 + 10.0 ** ((o - x) / 400.0)) for o in opps]
        g = total - sum(es)
        if g > 0:
            lo = x
        else:
            hi = x
        dg = -sum(e * (1.0 - e) for e in es) * ln
        step = -g / dg if dg != 0 else 0.0
        step = max(-800.0, min(800.0, step))
        new = x + step
        if not (lo < new < hi):
            new = (lo + hi) / 2.0
        if abs(new - x) < 1e-10:
            return new
        x = new
    return x


@dataclass
class _Entry:
    """A player's tournament while the sweeps run."""

    index: int
    player: Player
    performance_mode: bool
    prior: list[tuple[float, float]]
    """History games plus the two prior-grade games (opponent rating, result)."""
    prior_grade_games: list[tuple[float, float]]
    games: list[tuple[int, float, int, float]] = field(default_factory=list)
    """(opponent index, score, handicap role: +1 giver / -1 receiver / 0, handicap grades)."""


def rate(event: Event) -> Results:
    """Rate one FESA tournament: rating list in, rating list out (SPEC 6.1 - 6.10)."""
    players = event.players
    index = event.index()
    history: dict[str, list[tuple[float, float]]] = {p.id: [] for p in players}
    for h in event.history:
        history[h.id].append((h.opponent_rating, h.result))
    _check_history(event, history)

    rated_games = sorted(
        (g for g in event.games if g.counts),
        key=lambda g: (g.round if g.round is not None else 0),
    )
    warnings = []
    rounds = {g.round for g in rated_games if g.round is not None}
    if len(rounds) > MAX_ROUNDS:
        warnings.append(
            f"{len(rounds)} rounds: FESA advises splitting a tournament of more than {MAX_ROUNDS} rounds "
            "into two tables (seed 000 section 12); rated as one"
        )
    entries = []
    for i, p in enumerate(players):
        new = p.games == 0 and not history[p.id]
        prior_grade = []
        if new and p.nsr_grade:
            mp = float(fesa_grades.nsr_midpoint(p.nsr_grade))
            prior_grade = [(mp, 1.0), (mp, 0.0)]
        entries.append(_Entry(i, p, False, list(history[p.id]) + prior_grade, prior_grade))
    for g in rated_games:
        a, b = index[g.player], index[g.opponent]  # type: ignore[index]
        h = fesa_grades.handicap_value(g.handicap) if g.handicap else 0.0
        score = float(g.result.score)  # type: ignore[arg-type]
        entries[a].games.append((b, score, 1 if h else 0, h))
        entries[b].games.append((a, 1.0 - score, -1 if h else 0, h))
    for e in entries:
        p = e.player
        hist = history[p.id]
        new = p.games == 0 and not hist
        n = len(e.games)
        if new:
            e.performance_mode = True
        elif hist:
            results = [r for _, r in hist]
            e.performance_mode = all(r == 0.0 for r in results) or all(r == 1.0 for r in results) or (
                p.games + n < PERFORMANCE_GAMES
            )

    # SPEC 6.6: current rounded results; performance-mode players start at 400
    current = [
        (OPPONENT_FLOOR if e.performance_mode else float(e.player.rating or 0.0)) for e in entries
    ]
    active = [e for e in entries if e.games]
    # a player is evaluated again only when his own value or an opponent's moved since his last
    # evaluation: the others would give the same value, so the sweeps are those of FESA's program
    dirty = [True] * len(entries)
    for sweep in range(1, MAX_SWEEPS + 1):
        changed = False
        for e in active:
            if not dirty[e.index]:
                continue
            dirty[e.index] = False
            value = _settle_value(e, current)
            if value != current[e.index]:
                current[e.index] = value
                changed = True
                dirty[e.index] = True
                for opp, _, _, _ in e.games:
                    dirty[opp] = True
        if not changed:
            break
    else:
        raise InputError([Problem(
            event.name or "tournament", None, None,
            f"the ratings did not settle after {MAX_SWEEPS} sweeps (SPEC 6.6); check the games for errors",
        )])

    rows = []
    new_history: list[HistoryGame] = []
    for e in entries:
        row, hist_after = _result_row(e, current)
        rows.append(row)
        new_history += [HistoryGame(e.player.id, o, r) for o, r in hist_after]
    return Results("fesa", COLUMNS, rows, period=event.period, warnings=warnings, history=new_history)


def _check_history(event: Event, history: dict[str, list[tuple[float, float]]]) -> None:
    problems = []
    for p in event.players:
        rows = history[p.id]
        if rows and len(rows) != p.games:
            problems.append(Problem(
                "players", p.row, "games",
                f"{p.id!r} has {p.games} games but {len(rows)} history rows (SPEC 8: they must be equal)",
            ))
    if problems:
        raise InputError(problems)


def _opponent_ratings(e: _Entry, current: list[float], own: float) -> list[float]:
    """The rating each game counts with (SPEC 6.6, 6.7)."""
    out = []
    for opp, _, role, h in e.games:
        o = max(OPPONENT_FLOOR, current[opp])
        if role == -1:  # receiver: the giver counts shift(or, h)
            o = float(fesa_grades.shift(o, h))
        elif role == 1:  # giver: the receiver counts or + (own - shift(own, h))
            o = o + (own - float(fesa_grades.shift(own, h)))
        out.append(o)
    return out


def _evaluate(e: _Entry, current: list[float]) -> tuple[float, list[float], NormalOutcome | None]:
    """A player's rounded result from the others' current values."""
    scores = [s for _, s, _, _ in e.games]
    if e.performance_mode:
        own = current[e.index]
        opps = _opponent_ratings(e, current, own)
        prior_o = [o for o, _ in e.prior]
        prior_s = [s for _, s in e.prior]
        value = float(performance_rating(prior_o + opps, prior_s + scores))
        return value, opps, None
    before = float(e.player.rating or 0.0)
    opps = _opponent_ratings(e, current, before)
    outcome = normal_change(before, opps, scores, e.player.bonus_count)
    return max(RATING_FLOOR, before + outcome.change), opps, outcome


def _settle_value(e: _Entry, current: list[float]) -> float:
    """:func:`_evaluate`'s rounded result alone: the sweeps need no game-by-game detail."""
    if e.performance_mode:
        return _evaluate(e, current)[0]
    before = float(e.player.rating or 0.0)
    total, _ = _walk(before, _opponent_ratings(e, current, before), [s for _, s, _, _ in e.games],
                     e.player.bonus_count, None)
    return max(RATING_FLOOR, before + round(total))


def _result_row(e: _Entry, current: list[float]) -> tuple[dict[str, object], list[tuple[float, float]]]:
    p = e.player
    n = len(e.games)
    rating_before = p.rating
    base: dict[str, object] = {
        "id": p.id, "name": p.name, "rating_before": _num(rating_before), "games_rated": n,
        "score": float(sum(s for _, s, _, _ in e.games)), "expected": None, "k": None,
        "performance": None, "change": None, "bonus": None, "upsets": None,
        "nsr_grade": p.nsr_grade, "grade_before": p.grade,
    }
    history_after: list[tuple[float, float]] = []
    if n == 0:
        if e.prior_grade_games:  # SPEC 6.8: a new NSR player enters on his prior-grade games
            rating_after: float | None = float(performance_rating(*zip(*e.prior_grade_games, strict=True)))
            games_after = 2
            history_after = list(e.prior_grade_games)
            mode = "performance"
            base.update(performance=rating_after, change=None)
        else:
            rating_after = rating_before
            games_after = p.games
            history_after = [(o, r) for o, r in e.prior]
            mode = "performance" if e.prior else ("normal" if rating_before is not None else "unrated")
        bonus_count = p.bonus_count if mode == "normal" else 0
        walk: list[float] = []
    elif e.performance_mode:
        value, opps, _ = _evaluate(e, current)
        rating_after = value
        games_after = p.games + n + len(e.prior_grade_games)
        history_after = list(e.prior) + [(o, s) for o, (_, s, _, _) in zip(opps, e.games, strict=True)]
        mode = "performance"
        bonus_count = 0
        base.update(performance=value,
                    change=None if rating_before is None else value - rating_before)
        walk = [value] * n
    else:
        value, opps, outcome = _evaluate(e, current)
        assert outcome is not None
        rating_after = value
        games_after = p.games + n
        mode = "normal"
        bonus_count = outcome.bonus_count
        base.update(
            expected=sum(expected(st.rating, st.opponent_rating) for st in outcome.steps),
            k=outcome.steps[0].k, change=outcome.change,
            bonus=sum(st.bonus for st in outcome.steps),
            upsets=sum(1 for st in outcome.steps if st.upset is not None),
        )
        walk = [float(rating_before or 0.0) + (i + 1) * outcome.change / n for i in range(n)]
    if e.performance_mode and n:
        walk_from = p.games + len(e.prior_grade_games)
    else:
        walk_from = p.games
    promo: Promotion = promote(
        p.grade, rating_after, games_before=walk_from, walk=walk,
        lb_run=p.lb_run, mp_run=p.mp_run, mp_reached=p.mp_reached,
        performance_mode=(mode == "performance"), history=history_after,
    )
    if mode == "performance":
        status = "performance"
    elif mode == "unrated":
        status = "unrated"
    else:
        status = "provisional" if games_after < 18 else "established"
    base.update(
        status=status, mode=mode, rating_after=_num(rating_after), games_after=games_after,
        bonus_count=bonus_count, grade_after=promo.grade, lb_run=promo.lb_run, mp_run=promo.mp_run,
        mp_reached=promo.mp_reached, note=promo.note,
    )
    if mode != "performance":
        history_after = []
    return base, history_after


def _num(x: float | None) -> int | float | None:
    if x is None:
        return None
    return int(x) if float(x).is_integer() else float(x)
