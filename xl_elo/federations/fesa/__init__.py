"""FESA (Federation of European Shogi Associations) tournament rating (rules 6.1 - 6.11).

One tournament ("tableau") is rated at a time (rules 6.1). Each player is in performance
mode or normal mode (6.3). Normal mode walks his games in round order with a running rating,
K by band, the upset gain and the activity bonus, and rounds once, halves to even (6.4).
Performance mode takes the zero of ``g(x)`` over his whole history (6.5). Opponents count at
their rating after the tournament, at least 400, so the tournament is solved by sweeps in
list order until nothing moves (6.6). Handicap games shift ratings on the grade scale
(6.7, :mod:`.grades`). Byes, forfeits and unrated games are never rated (6.8). Promotions
(6.10) are in :mod:`.promotion`. The handicap shift and the performance rating are computed
in single floats, as FESA's program computes them (6.11, :mod:`.newton`).

What xl-elo decides where the rules and the program are silent, or where the program never
finishes, is :data:`BEYOND_THE_PROGRAM` (rules 6.12).

Example: the 13th Nekomado-ken (2017-04-15), a real tournament, as FESA published it: N2, 2297, ends at 2299::

    >>> from xl_elo.loader import example_event
    >>> rate(example_event("fesa")).by_id()["N2"]["rating_after"]
    2299
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from xl_elo import core, model, schema
from xl_elo.federations.contract import (
    Calculation,
    FirstRating,
    GameLine,
    OpponentGame,
    RatingSystem,
    SheetArg,
    SheetFunction,
    options_of,
)
from xl_elo.federations.fesa import grades, newton
from xl_elo.federations.fesa import tables as t
from xl_elo.federations.fesa.promotion import Promotion, promote
from xl_elo.federations.fesa.tables import FESA_K_BANDS
from xl_elo.model import (
    Column,
    Event,
    HistoryGame,
    InputError,
    Problem,
    Results,
    fact,
    games_fact,
    require_games,
    results_columns,
)
from xl_elo.tableview import TableView

CODE: Final = "fesa"
NAME: Final = "FESA (Federation of European Shogi Associations)"
ALIASES: Final = ("shogi", "european shogi")
RULES: Final = "6"
SOURCE: Final = "https://www.shogi.net/fesa/index.php?mid=5"
UNIT: Final = "tournament"
NEEDS_PERIOD: Final = False
TEMPLATE: Final = "fesa_tournament.xlsx"
EXAMPLE: Final = "fesa_13th_nekomadoken"
#: Shogi: a chess tournament report (TRF) is not for it; it rates from FESA's own files too.
GAME: Final = "shogi"
OWN_FILES: Final = "FESA's own files (turnering.txt with --rating-list)"
#: It takes a history table (a performance-mode player's earlier games, rules 6.5), in these words.
HISTORY: Final = "performance-mode players' earlier games"
#: Its performance rating, in words (the functions' help; rules 6.5) ...
PERFORMANCE: Final = ("zero of g(x)", "zéro de g(x)")
#: ... the opponents' ratings it counts (rules 6.6) ...
OPPONENTS: Final = ("FESA: after the tournament, in round order", "FESA : après le tournoi, dans l'ordre des rondes")
#: ... and why an unrated opponent is refused (rules 6.6).
UNRATED_OPPONENTS: Final = "FESA counts every opponent with his rating after the tournament (rules 6.6)"


@dataclass(frozen=True)
class Options:
    """The FESA rules leave nothing to choose."""


#: Opponents count at least this (rules 6.6).
OPPONENT_FLOOR: Final = 400.0
#: No rating goes below this (rules 6.8).
RATING_FLOOR: Final = 1.0
#: Fewer games than this (history + tournament) keep a player in performance mode (6.3).
PERFORMANCE_GAMES: Final = 9
#: Upset gain divisor: ``K (or - pr) / 160`` (rules 6.4).
UPSET_DIVISOR: Final = 160.0
#: Activity bonus ``(1800 - pr) / 200`` below 1800, for 100 games (rules 6.4).
BONUS_BELOW: Final = 1800.0
BONUS_DIVISOR: Final = 200.0
BONUS_GAMES: Final = 100
#: The code warns above this many rounds (rules 6.1).
MAX_ROUNDS: Final = 16
#: A tournament that has not settled after this many sweeps is an error (rules 6.6).
MAX_SWEEPS: Final = 1000
#: What xl-elo decides where the program is silent or never finishes (rules 6.12), in words.
BEYOND_THE_PROGRAM: Final = (
    "The floor of 400 applies to the opponent's rating before the handicap shift, never after it; an NSR "
    "grade's midpoint counts at least 400 too (the program takes the midpoints of 20 to 16 kyu as they are). "
    "A player with a rating and no history rows is in normal mode whatever his game count. The floor of 1 "
    "applies in both modes (FESA's English text says so; the program applies it in performance mode only, a "
    "case that needs a rating near 1 to show). A tournament whose sweeps come back to an earlier state, or "
    f"have not settled after {MAX_SWEEPS} sweeps, has no rating: it is refused, naming the players still "
    "moving (the program runs forever on it). A rating that climbs past the end of the grade scale "
    f"({grades.SCALE_END}) in a handicap game is refused too (the program stops with an error)."
)
#: Games from which a normal-mode player is established rather than provisional (rules 6.10).
ESTABLISHED_GAMES: Final = 18



@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """A FESA player: his mode, bonuses, grade and promotion runs (rules 6.3 - 6.10)."""

    games: int = games_fact(
        "6.3", calc_help=f"rated games before; calc rates a rated player in normal mode: performance mode (fewer "
                         f"than {PERFORMANCE_GAMES} games with this tournament's) rates his history game by game, "
                         "which calc is not given (xl-elo rate with the history table; calc says so)",
        function=None)
    bonus_count: int = fact(
        schema.counts(schema.MAX_BONUS_COUNT, f"the activity bonuses already used, from 0 to {schema.MAX_BONUS_COUNT}"),
        "activity bonuses used so far, 0 .. 100", default=0, rules="6.4",
        calc="--bonus-count", calc_help="activity bonuses already used (0 .. 100; default 0)", function="games",
        function_doc=("FESA: activity bonuses already used (blank: 0).",
                      "FESA : bonus d'activité déjà reçus (vide : 0)."))
    lb_run: int = fact(schema.counts(schema.MAX_RUN), "promotion run: games at or above LB of the next grade",
                       default=0, rules="6.10")
    mp_run: int = fact(schema.counts(schema.MAX_RUN), "promotion run: games at or above MP of the next grade",
                       default=0, rules="6.10")
    mp_reached: bool = fact(schema.YES_NO, "the MP of the next grade was reached during the LB run", default=False,
                            rules="6.10", array="flag")
    grade: str | None = fact(schema.spelled(grades.grade), "FESA grade (3 kyu, 1 dan)", rules="6.9", array="text",
                             aliases=("grade_after",))
    nsr_grade: str | None = fact(
        schema.spelled(lambda v: grades.grade(v, allow_pro=True)),
        "recognised prior grade of a new player (2 dan, pro 1 dan)", rules="6.5", array="text",
        calc="--nsr-grade", calc_help="a new player's recognised prior grade (e.g. '2 dan')")



@dataclass(frozen=True, slots=True)
class Game(model.Game):
    """A FESA game: the handicap its first player gives (rules 6.7)."""

    handicap: str | None = fact(schema.spelled(grades.handicap),
                                "the handicap the first player (the giver) gives: S, L, B, R, RL, 2p, 4p, 5p or 6p",
                                rules="6.7", array="text", sided=True)


COLUMNS: Final = results_columns(
    Column("mode", "text", True, "performance or normal (rules 6.3)"),
    Column("upsets", "int", True, "games where the upset gain replaced the normal gain"),
    Column("bonus_count", "int", True, "activity bonuses used so far, 0 .. 100"),
    Column("nsr_grade", "text", True, "the recognised prior grade of a new player"),
    Column("grade_before", "text", True, "FESA grade before"),
    Column("grade_after", "text", True, "FESA grade after the promotions", key=True),
    Column("lb_run", "int", True, "games at or above LB of the next grade"),
    Column("mp_run", "int", True, "games at or above MP of the next grade"),
    Column("mp_reached", "bool", True, "MP of the next grade reached during the LB run"),
    Column("note", "note", False, "promotions and conditions to check"),
)


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """``1 / (1 + 10 ** ((or - pr) / 400))`` (rules 1.2, 6.4), element-wise."""
    return core.expected_score(rating, opponent)


def k_factor(rating: Any, games: Any = None, age: Any = None, ever_2400: Any = False,
             options: Options | None = None) -> Any:
    """K by the rating before each game (rules 6.2); ``games``, ``age``, ``ever_2400`` are not used."""
    if not core.is_scalar(rating):
        from xl_elo.compat import np

        a = np.asarray(rating, dtype=np.float64)
        return np.array([k_factor(v) for v in a.ravel().tolist()], dtype=np.int64).reshape(a.shape)
    for lowest, k in FESA_K_BANDS:
        if rating >= lowest:
            return k
    return FESA_K_BANDS[-1][1]


@dataclass(frozen=True, slots=True)
class GameStep:
    """One game of a normal-mode player, as a rating officer checks it (rules 6.4)."""

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
    """A normal-mode tournament (rules 6.4)."""

    steps: tuple[GameStep, ...]
    total: float
    change: int
    bonus_count: int


def normal_change(rating: float, opponents: Sequence[float], scores: Sequence[float], bonus_count: int = 0,
                  k: int | None = None) -> NormalOutcome:
    """Change of a normal-mode player over his games in round order (rules 6.4).

    ``opponents`` are the ratings the games count with (after the tournament, floored,
    handicap-adjusted). The sum is rounded once, halves to even. ``k``, when given, replaces
    K by band for every game.
    """
    steps: list[GameStep] = []
    total, counter = _walk(float(rating), opponents, scores, int(bonus_count), steps, k)
    # round() on a float is round-half-even on its exact value, as round_half_even (rules 6.4)
    return NormalOutcome(tuple(steps), total, round(total), min(BONUS_GAMES, counter))


def _walk(pr: float, opponents: Sequence[float], scores: Sequence[float], counter: int,
          steps: list[GameStep] | None, known_k: int | None = None) -> tuple[float, int]:
    """The game-by-game walk of rules 6.4: total change and bonus counter (``steps`` filled if given)."""
    total = 0.0
    bands = FESA_K_BANDS
    for o, s in zip(opponents, scores, strict=True):
        k = bands[-1][1]  # k_factor(pr), inline: this loop is the hot path of a season
        for lowest, band_k in bands:
            if pr >= lowest:
                k = band_k
                break
        if known_k is not None:
            k = known_k
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


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> int:
    """FESA performance rating of a list of games (rules 6.5, 6.11).

    Opponents count at least 400 (rules 6.6); then :func:`performance_of_counted`.
    ``rating`` is not used (the contract's argument for FFE's window).
    """
    if not opponent_ratings:
        raise ValueError("a performance rating needs at least one game")
    return performance_of_counted([max(OPPONENT_FLOOR, float(o)) for o in opponent_ratings], scores)


def performance_of_counted(ratings: Sequence[float], scores: Sequence[float]) -> int:
    """The performance of games whose ratings already count as the rules use them (rules 6.5, 6.11).

    No floor here: a handicap can make a rating count below 400 (rules 6.11). All losses
    (or no games) give 1; all wins put, first, a draw against the highest rating (the first
    of equals); otherwise Newton's method in single floats from the first game's rating
    (:mod:`.newton`), at least 1.
    """
    games = [(float(o), float(s)) for o, s in zip(ratings, scores, strict=True)]
    if all(s == 0.0 for _, s in games):
        return int(RATING_FLOOR)
    if all(s == 1.0 for _, s in games):
        best = max(o for o, _ in games)
        games.insert(0, (best, 0.5))
    return newton.solve(games)


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


def first_rating(opponent_ratings: Sequence[float], scores: Sequence[float],
                 options: Options | None = None) -> FirstRating:
    """A new player's rating: his performance over his games (rules 6.3, 6.5), prior-grade games included
    when the caller adds them (two games, a win and a loss, at the NSR grade's midpoint)."""
    if not opponent_ratings:
        return FirstRating(None, "unrated")
    value = performance(opponent_ratings, scores)
    return FirstRating(value, "performance", value, len(opponent_ratings), float(sum(scores)))


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's tournament (rules 6.4 - 6.7) against opponents whose ratings after the tournament are given.

    A rated player is in normal mode: his games in the order given, K by his running rating
    (or ``k`` for every game), the upset gain, the activity bonus from his ``bonus_count``,
    the sum rounded once halves to even. A new player (no rating) is in performance mode,
    with his NSR grade's two games when he has one; when he gives handicaps his own rating
    is his performance, so it is recomputed until it stays (from 0, as the sweeps of rules
    6.6). Opponents count at least 400, then handicap games shift them (:func:`grades.shift`).
    """
    if player.rating is None:
        prior = prior_grade_games(player.nsr_grade)
        scores = [s for _, s in prior] + [g.score for g in games]
        value: int | None = None
        own = 0.0
        opps = _counted(games, OPPONENT_FLOOR, own)
        if games or prior:
            for _ in range(MAX_SWEEPS):
                value = performance_of_counted([o for o, _ in prior] + opps, scores)
                if value == own or not any(g.handicap and g.gives for g in games):
                    break
                own = float(value)
                opps = _counted(games, OPPONENT_FLOOR, own)
            else:
                raise ValueError(f"the performance did not settle after {MAX_SWEEPS} rounds (rules 6.12)")
        lines = tuple(GameLine(g.rating, o, g.score, None, None, None) for g, o in zip(games, opps, strict=True))
        return Calculation(CODE, None, lines, float(sum(g.score for g in games)), value, performance=value,
                           status="performance", steps=(("prior-grade games", len(prior)),))
    r = float(player.rating)
    opps = _counted(games, r, r)
    outcome = normal_change(r, opps, [g.score for g in games], player.bonus_count, k=k)
    notes: tuple[str, ...] = ()
    if not isinstance(player.games, model.NotGiven) and player.games + len(games) < PERFORMANCE_GAMES:
        notes = (f"{player.games} games before and {len(games)} here, fewer than {PERFORMANCE_GAMES}: FESA rates such "
                 "a player in performance mode from his history, game by game (rules 6.3), which calc is not given; "
                 "rated here in normal mode from his rating (xl-elo rate with the history table rates his mode)",)
    lines = tuple(GameLine(g.rating, st.opponent_rating, g.score, st.rating - st.opponent_rating,
                           expected(st.rating, st.opponent_rating), st.delta,
                           "upset gain" if st.upset is not None else "")
                  for g, st in zip(games, outcome.steps, strict=True))
    after = max(RATING_FLOOR, r + outcome.change)
    return Calculation(CODE, r, lines, float(sum(g.score for g in games)), after, change=outcome.change,
                       k=outcome.steps[0].k if outcome.steps else None,
                       expected=sum(expected(st.rating, st.opponent_rating) for st in outcome.steps),
                       status="normal", steps=(("total before rounding", outcome.total),
                                               ("activity bonus", sum(st.bonus for st in outcome.steps)),
                                               ("bonus count after", outcome.bonus_count)),
                       bonus=sum(st.bonus for st in outcome.steps), notes=notes,
                       own=(("total", outcome.total), ("bonus_count_after", outcome.bonus_count)))


def prior_grade_games(nsr_grade: str | None) -> list[tuple[float, float]]:
    """A new player's two games at his NSR grade's midpoint, a loss then a win (rules 6.5).

    The midpoint counts at least 400 like any opponent (rules 6.5); the order is the
    program's, whose Newton's method starts from the first game.
    """
    if not nsr_grade:
        return []
    mp = max(OPPONENT_FLOOR, float(grades.nsr_midpoint(nsr_grade)))
    return [(mp, 0.0), (mp, 1.0)]


def _counted(games: Sequence[OpponentGame], default: float, own: float | None) -> list[float]:
    """The rating each game counts with: at least 400, then the handicap shift (rules 6.6, 6.7)."""
    out = []
    for g in games:
        o = max(OPPONENT_FLOOR, float(default if g.rating is None else g.rating))
        if g.handicap:
            h = grades.handicap_value(g.handicap)
            if not g.gives:  # receiver: the giver counts shift(or, h)
                o = float(grades.shift(o, h))
            elif own is not None:  # giver: the receiver counts or + (own - shift(own, h))
                o = o + (own - float(grades.shift(own, h)))
        out.append(o)
    return out


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate one FESA tournament: rating list in, rating list out (rules 6.1 - 6.10)."""
    options_of(Options, options, **overrides)
    require_games(event)
    players = [model.as_player(Player, p) for p in event.players]  # its own players (rules 6.3 - 6.10)
    index = event.index()
    history: dict[str, list[tuple[float, float]]] = {p.id: [] for p in players}
    for h in event.history:
        history[h.id].append((h.opponent_rating, h.result))
    _check_history(event, history)

    rated_games = sorted(
        (model.as_game(Game, g) for g in event.games if g.counts),
        key=lambda g: (g.round if g.round is not None else 0),
    )
    warnings = []
    rounds = {g.round for g in rated_games if g.round is not None}
    if len(rounds) > MAX_ROUNDS:
        warnings.append(
            f"{len(rounds)} rounds: FESA advises splitting a tournament of more than {MAX_ROUNDS} rounds "
            "into two tables (rules 6.1); rated as one"
        )
    entries = []
    for i, p in enumerate(players):
        new = p.games == 0 and not history[p.id]
        prior_grade = prior_grade_games(p.nsr_grade) if new else []
        # the program reads a history last game first (its order carries no meaning, rules 6.5,
        # but Newton's method starts from the first game: the same order gives the same figures)
        entries.append(_Entry(i, p, False, history[p.id][::-1] + prior_grade, prior_grade))
    for g in rated_games:
        a, b = index[g.player], index[g.opponent]  # type: ignore[index]
        pieces = grades.handicap_value(g.handicap) if g.handicap else 0.0
        score = float(g.result.score)  # type: ignore[arg-type]
        entries[a].games.append((b, score, 1 if pieces else 0, pieces))
        entries[b].games.append((a, 1.0 - score, -1 if pieces else 0, pieces))
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
            ) or p.rating is None
    current = _sweep(event, entries)

    rows = []
    new_history: list[HistoryGame] = []
    for e in entries:
        row, hist_after = _result_row(e, current)
        rows.append(row)
        new_history += [HistoryGame(e.player.id, o, r) for o, r in hist_after]
    return Results.from_rows(CODE, COLUMNS, rows, period=event.period, warnings=warnings, history=new_history)


def _sweep(event: Event, entries: list[_Entry]) -> list[float]:
    """Everybody's rounded result once a sweep changes nobody's (rules 6.6, 6.12).

    A performance-mode player starts at 0 (counting 400 as an opponent), a normal-mode
    player at his rating. A tournament whose sweeps come back to an earlier state never
    settles; one that has not settled after :data:`MAX_SWEEPS` sweeps, or where a rating
    runs off the grade scale, is refused, naming the players still moving.
    """
    current = [0.0 if e.performance_mode else float(e.player.rating or 0.0) for e in entries]
    active = [e for e in entries if e.games]
    seen: dict[tuple[float, ...], int] = {tuple(current): 0}
    states = [tuple(current)]
    # a player is evaluated again only when his own value or an opponent's moved since his last
    # evaluation: the others would give the same value, so the sweeps are those of FESA's program
    dirty = [True] * len(entries)
    for sweep in range(1, MAX_SWEEPS + 1):
        changed = False
        for e in active:
            if not dirty[e.index]:
                continue
            dirty[e.index] = False
            try:
                value = _settle_value(e, current)
            except grades.OffScale as exc:
                raise InputError([Problem(
                    "players", e.player.row, "rating",
                    f"{e.player.id!r}: {exc} at sweep {sweep}: his performance climbs at every sweep while he "
                    "gives handicaps, so the tournament has no rating; FESA's program stops here too (rules 6.12)",
                )]) from None
            if value != current[e.index]:
                current[e.index] = value
                changed = True
                dirty[e.index] = True
                for opp, _, _, _ in e.games:
                    dirty[opp] = True
        if not changed:
            return current
        state = tuple(current)
        if state in seen:
            loop = states[seen[state]:]
            raise InputError([_unsettled(event, entries, loop, f"every {len(loop)} sweeps they come back to where "
                                                               "they were")])
        seen[state] = sweep
        states.append(state)
    raise InputError([_unsettled(event, entries, states[-10:], f"after {MAX_SWEEPS} sweeps they still move")])


def _unsettled(event: Event, entries: list[_Entry], states: list[tuple[float, ...]], what: str) -> Problem:
    moving = [
        f"{e.player.id} ({', '.join(dict.fromkeys(f'{s[e.index]:g}' for s in states))})"
        for e in entries if len({s[e.index] for s in states}) > 1
    ]
    return Problem(
        "games", None, None,
        f"the ratings of {event.name or 'this tournament'} never settle: {what}; still moving: "
        f"{'; '.join(moving)}. FESA's program never finishes on it either: check the games (rules 6.12)",
    )


def _check_history(event: Event, history: dict[str, list[tuple[float, float]]]) -> None:
    problems = []
    for p in (model.as_player(Player, q) for q in event.players):
        rows = history[p.id]
        if rows and len(rows) != p.games:
            problems.append(Problem(
                "players", p.row, "games",
                f"{p.id!r} has {p.games} games but {len(rows)} history rows (rules 8: they must be equal)",
            ))
    if problems:
        raise InputError(problems)


def _opponent_ratings(e: _Entry, current: list[float], own: float) -> list[float]:
    """The rating each game counts with (rules 6.6, 6.7)."""
    out = []
    for opp, _, role, h in e.games:
        o = max(OPPONENT_FLOOR, current[opp])
        if role == -1:  # receiver: the giver counts shift(or, h)
            o = float(grades.shift(o, h))
        elif role == 1:  # giver: the receiver counts or + (own - shift(own, h))
            o = o + (own - float(grades.shift(own, h)))
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
        value = float(performance_of_counted(prior_o + opps, prior_s + scores))
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
        if e.prior_grade_games:  # rules 6.8: a new NSR player enters on his prior-grade games
            rating_after: float | None = float(performance_of_counted(*zip(*e.prior_grade_games, strict=True)))
            games_after = 2
            history_after = list(e.prior_grade_games)
            mode = "performance"
            base.update(performance=rating_after, change=None)
        else:
            rating_after = rating_before
            games_after = p.games
            history_after = list(e.prior)  # as the program stores it: read last game first, written back so
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


def rules_values() -> dict[str, Any]:
    """The figures of FESA's chapter of the rules document that are computed from the tables (rules 6)."""
    from xl_elo.federations.fesa import promotion, tables

    bands = tables.FESA_K_BANDS
    k_text = []
    for j, (low, k) in enumerate(bands):
        if j == 0:
            k_text.append(f"{low} and more: {k}")
        elif j == len(bands) - 1:
            k_text.append(f"below {bands[j - 1][0]}: {k}")
        else:
            k_text.append(f"{low} to {bands[j - 1][0] - 1}: {k}")
    return {
        "fesa_k_bands": "; ".join(k_text),
        "fesa_pro_base": grades.PRO_BASE, "fesa_pro_step": grades.PRO_STEP,
        "fesa_handicaps": ", ".join(f"{name} ({code}) {value:g}"
                                    for code, (name, value) in tables.FESA_HANDICAPS.items()),
        "promo_first": promotion.FIRST_GRADE_GAMES, "promo_runs": promotion.RUN_GAMES,
        "promo_sim": promotion.SIMULATED_GAMES, "promo_jsa": promotion.JSA_FROM,
        "fesa_beyond": BEYOND_THE_PROGRAM,
        "fesa_scale_band": tables.FESA_SCALE_TOP[0], "fesa_scale_end": tables.FESA_SCALE_TOP[1],
        "newton": newton,
    }


# --------------------------------------------------------------------------- spreadsheet functions


def _bounds(grade: str) -> list[Any]:
    return list(grades.bounds(grade))


#: FESA's own spreadsheet functions, beside the common ones (the front ends give them to Excel and Calc).
FUNCTIONS: Final = (
    SheetFunction(
        "SHOGI_GRADE", grades.grade_of,
        (SheetArg("rating", ("A FESA rating: a cell or a range.", "Un classement FESA : une cellule ou une plage."),
                  schema.rating, range=True),),
        ("The FESA grade whose LB to UB holds the rating, as text (6 kyu, 1 dan) (xl-elo rules 6.9).",
         "Le grade FESA dont l'intervalle LB à UB contient le classement, en texte (6 kyu, 1 dan) "
         "(règles xl-elo 6.9)."),
        "FESA"),
    SheetFunction(
        "SHOGI_GRADE_BOUNDS", _bounds,
        (SheetArg("grade", ("A FESA grade, e.g. 3 kyu or 1 dan.", "Un grade FESA, par exemple 3 kyu ou 1 dan."),
                  schema.text),),
        ("A FESA grade's LB, MP, UB, #LB and #MP, as a row (xl-elo rules 6.9).",
         "LB, MP, UB, #LB et #MP d'un grade FESA, sur une ligne (règles xl-elo 6.9)."),
        "FESA", refused="argument grade", row=True),
    SheetFunction(
        "SHOGI_HANDICAP", grades.handicap_effect,
        (SheetArg("rating", ("The handicap giver's rating: a cell or a range.",
                             "Le classement de celui qui donne le handicap : une cellule ou une plage."),
                  schema.rating, range=True, zero_is_blank=True),
         SheetArg("handicap", ("S (sente), L (lance), B (bishop), R (rook), RL, 2p, 4p, 5p or 6p.",
                               "S (sente), L (lance), B (fou), R (tour), RL, 2p, 4p, 5p ou 6p."), grades.handicap)),
        ("The handicap effect in rating points for that giver's rating (xl-elo rules 6.7).",
         "L'effet d'un handicap en points de classement, pour le classement de celui qui le donne "
         "(règles xl-elo 6.7)."),
        "FESA"),
)

# --------------------------------------------------------------------------- published tables (rules 7)


def _fesa_k() -> TableView:
    rows = []
    cmp = []
    diff = []
    bands = t.FESA_K_BANDS
    for j, (lowest, k) in enumerate(bands):
        upper = bands[j - 1][0] if j else None
        low = lowest if lowest > -10**8 else None
        rows.append((low, upper, k))
        probe = [x for x in (low, None if upper is None else upper - 1) if x is not None]
        got = sorted({k_factor(x) for x in probe})
        cmp.append((low, upper, k, ", ".join(map(str, got))))
        diff.append(got != [k])
    return TableView(
        "fesa-k", "FESA K-factor by rating before the game", t.FESA_K_SOURCE,
        ("from", "below", "k"), rows, ("from", "below", "k", "engine k"), cmp, diff,
        "engine k: xl_elo.federations.fesa.k_factor at the band's two ends (rules 6.2)",
    )


def _fesa_grades() -> TableView:
    rows = []
    cmp = []
    diff = []
    for g in t.FESA_GRADES:
        ub = grades.upper_bound(g.grade)
        rows.append((g.grade, g.lb, g.mp, ub, g.n_lb, g.n_mp))
        pub_ub = t.FESA_PUBLISHED_UB.get(g.grade)
        pub_lb = t.FESA_PUBLISHED_LB_DIFFERENCES.get(g.grade, g.lb)
        cmp.append((g.grade, g.lb, pub_lb, ub, pub_ub))
        diff.append(pub_lb != g.lb or (pub_ub is not None and pub_ub != ub))
    return TableView(
        "fesa-grades", "FESA grade table: LB, MP, UB, #LB, #MP", t.FESA_GRADE_SOURCE,
        ("grade", "lb", "mp", "ub", "n_lb", "n_mp"), rows,
        ("grade", "lb", "lb printed", "ub = next lb", "ub printed"), cmp, diff,
        "UB is the next grade's LB (rules 6.9); FESA's English text prints 20 kyu's LB as 1 and stops at 5 dan",
    )


def _fesa_handicaps() -> TableView:
    rows = [(code, name, value) for code, (name, value) in t.FESA_HANDICAPS.items()]
    givers = (1200, 1680, 2000)
    cmp = [
        (code, name, value, *[int(grades.handicap_effect(r, code)) for r in givers])
        for code, name, value in rows
    ]
    return TableView(
        "fesa-handicaps", "FESA handicap values in grades", t.FESA_HANDICAP_SOURCE,
        ("code", "handicap", "grades"), rows,
        ("code", "handicap", "grades", *[f"points for a {r} giver" for r in givers]), cmp, [False] * len(rows),
        "points: rating - shift(rating, grades) on the fractional grade scale (rules 6.7)",
    )


#: FESA's published tables (rules 7), by the name ``xl-elo tables NAME`` takes.
PUBLISHED_TABLES: Final = {"fesa-k": _fesa_k, "fesa-grades": _fesa_grades, "fesa-handicaps": _fesa_handicaps}


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    Game=Game, CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT,
    NEEDS_PERIOD=NEEDS_PERIOD, PACKAGE=__name__, Player=Player, Options=Options, COLUMNS=COLUMNS, expected=expected,
    performance=performance, calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating,
    rules_values=rules_values, HISTORY=HISTORY, OWN_FILES=OWN_FILES, FILE_FORMAT=f"{__name__}.files",
    PERFORMANCE=PERFORMANCE, TEMPLATE=TEMPLATE, EXAMPLE=EXAMPLE, FUNCTIONS=FUNCTIONS,
    PUBLISHED_TABLES=PUBLISHED_TABLES, GAME=GAME, UNRATED_OPPONENTS=UNRATED_OPPONENTS, OPPONENTS=OPPONENTS,
)
