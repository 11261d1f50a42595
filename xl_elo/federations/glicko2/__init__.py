"""Glicko-2 club ladders (rules section 12; Glickman, "Example of the Glicko-2 system", 2022).

Each player has a rating r, a rating deviation RD and a volatility sigma, updated once per
rating period from the games of that period, every player with the values everyone had
before it (rules 12.7). On Glickman's scale (``mu = (r - 1500) / 173.7178``,
``phi = RD / 173.7178``, Steps 2 and 8) a player's period is: ``g(phi)`` and ``E`` per game,
the estimated variance ``v`` and improvement ``Delta`` (Steps 3, 4), the new volatility by the
Illinois iteration to the tolerance 0.000001 (Step 5), then ``phi* = sqrt(phi^2 + sigma'^2)``,
``phi' = 1 / sqrt(1 / phi*^2 + 1 / v)`` and ``mu' = mu + phi'^2 sum g (s - E)`` (Steps 6 - 8).
A player who does not play gets only Step 6 with his old volatility (rules 12.6).

Decisions where the paper is silent (rules 12.10): a new player (no rating) starts at
1500 / 350 / 0.06 when he first plays and stays new until then; no RD is ever stored above the
cap (350 unless chosen); several periods in one file are rated in the order of their names,
each on the full-precision state the one before left; a game's result is 1, 0.5 or 0
(forfeits and byes are never rated, rules 1.1).

Example: Glickman's worked example (glicko2.pdf): 1500, RD 200, volatility 0.06 beats 1400/30, loses to
1550/100 and 1700/300 (rules 12)::

    >>> from xl_elo.loader import example_event
    >>> row = rate(example_event("glicko2")).by_id()["player"]
    >>> row["rating_after"], round(row["rd_after"], 4)
    (1464.0506705393013, 151.5165)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from xl_elo import model, schema
from xl_elo.compat import need_numpy, np
from xl_elo.core import MAX_RATING
from xl_elo.federations.contract import (
    Cadence,
    Calculation,
    GameLine,
    OpponentGame,
    RatingSystem,
    SheetArg,
    SheetFunction,
    option,
    options_of,
)
from xl_elo.model import Column, Event, InputError, Problem, Results, fact, results_columns

CODE: Final = "glicko2"
NAME: Final = "Glicko-2 (club ladders, Glickman's system)"
ALIASES: Final = ("glicko", "glicko-2", "ladder")
RULES: Final = "12"
SOURCE: Final = "https://www.glicko.net/glicko/glicko2.pdf"
UNIT: Final = "rating period"
NEEDS_PERIOD: Final = False
TEMPLATE: Final = "glicko2_ladder.xlsx"
EXAMPLE: Final = "glicko2_paper"
#: It rates several periods in order, each game's in a ``period`` column (rules 12.7).
PERIODS: Final = True

#: The scale of Steps 2 and 8: 400 / ln 10 to 7 figures, as the paper and its example use it.
SCALE: Final = 173.7178
#: The rating a Glicko-2 scale of 0 stands for (Steps 2, 8).
BASE: Final = 1500.0
#: A new player's rating deviation and volatility (Step 1 a).
NEW_RD: Final = 350.0
NEW_VOLATILITY: Final = 0.06
#: The convergence tolerance of Step 5 ("sufficiently small", the paper says).
EPSILON: Final = 0.000001
#: The paper's reasonable range of the system constant tau (Step 1); its example uses 0.5.
TAU_DEFAULT: Final = 0.5
TAU_LOW: Final = 0.3
TAU_HIGH: Final = 1.2
#: No RD above this is stored (rules 12.10); a user may raise it up to RD_CAP_HIGH.
RD_CAP: Final = 350.0
RD_CAP_HIGH: Final = 1000.0
#: The readings of an RD and a volatility (rules 12.2, 8).
RD_LOW: Final = 1.0
RD_HIGH: Final = 1000.0
VOLATILITY_LOW: Final = 0.001
VOLATILITY_HIGH: Final = 1.0
#: The engine's bound on the Illinois iteration and the bracket's search (Step 5): the paper saw at
#: most 19 steps in 10,000 simulated periods; far more is a number gone wrong, refused rather than guessed.
MAX_ITERATIONS: Final = 1000


#: What a ladder's rating is, in the reader's and the template's words (rules 12.1).
RATING_WORDS: Final = f"a rating from 0 to {MAX_RATING}, decimals allowed (0 or blank: a new player)"


def _decimal_rating(value: Any, *, typed: bool = False, year: int | None = None) -> float | None:
    r = schema.number(value, what=RATING_WORDS, low=0, high=MAX_RATING, typed=typed, rating=True)
    return None if r == 0 else r


#: A Glicko-2 rating carries decimals from one period to the next (rules 12.1): read with them.
RATING_READING: Final = schema.Reading(_decimal_rating, whole=(0, MAX_RATING), zero_is_blank=True, kind="float")
#: An RD, a player's or an opponent's (``calc``'s ``1400/30``).
RD_READING: Final = schema.between(RD_LOW, RD_HIGH, f"an RD from {RD_LOW:g} to {RD_HIGH:g}, decimals allowed")
VOLATILITY_READING: Final = schema.between(VOLATILITY_LOW, VOLATILITY_HIGH,
                                           f"a volatility from {VOLATILITY_LOW:g} to {VOLATILITY_HIGH:g}")
#: calc reads an opponent as ``rating/rd`` (rules 12.3): Glicko-2 counts each opponent's RD.
OPPONENT_DEVIATION: Final = RD_READING

_NEW_ONLY = "given for a player without a rating: a new player starts at {} (rules 12.2); give his rating too, or " \
            "leave it blank"


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """A ladder player: his rating, RD and volatility (rules 12.2); no rating is a new player."""

    RATING: ClassVar[schema.Reading] = RATING_READING
    HEADINGS: ClassVar[dict[str, str]] = {"glicko": "rating", "glicko2": "rating", "glicko_rating": "rating"}
    """A ladder's words for its rating; a column headed ``Elo`` is another system's, not read as one."""

    rd: float | None = fact(
        RD_READING, "the rating deviation RD", rules="12.2", aliases=("rd_after",),
        rated_needs="blank for a rated player: give his RD (a player new to the ladder has no rating)",
        unrated_refuses=_NEW_ONLY.format(f"RD {NEW_RD:g}"), calc="--rd",
        calc_help="the player's rating deviation RD (a new player: --rating unrated, and no --rd or --volatility)")
    volatility: float | None = fact(
        VOLATILITY_READING, "the volatility sigma", rules="12.2", aliases=("volatility_after", "sigma", "σ"),
        rated_needs=f"blank for a rated player: give his volatility (a new player's is {NEW_VOLATILITY:g})",
        unrated_refuses=_NEW_ONLY.format(f"volatility {NEW_VOLATILITY:g}"), calc="--volatility",
        calc_help=f"the player's volatility sigma (a new player's is {NEW_VOLATILITY:g})")


#: Decimals a printed table shows (rules 12.1): ratings and RDs to the hundredth, the volatility to the millionth
#: (it moves in its fifth decimal: the paper's 0.06 becomes 0.059996).
RATING_PLACES: Final = 2
VOLATILITY_PLACES: Final = 6

COLUMNS: Final = tuple(
    replace(c, kind="float", exact=False) if c.name in ("expected", "score") else
    replace(c, kind="float", exact=False, places=RATING_PLACES, precise=c.name == "rating_after")
    if c.name in ("change", "rating_after") else
    replace(c, places=RATING_PLACES, precise=True) if c.name == "rating_before" else c
    for c in results_columns(
        Column("rd_before", "float", True, "RD before the first period", RATING_PLACES, True),
        Column("volatility_before", "float", True, "volatility before the first period", VOLATILITY_PLACES, True),
        Column("rd_after", "float", False, "RD after the last period (rules 12.5, 12.6)", RATING_PLACES, True,
               key=True),
        Column("volatility_after", "float", False, "volatility after the last period (rules 12.4)", VOLATILITY_PLACES,
               True),
        Column("v", "float", False, "estimated variance v of the last period he played (rules 12.3)"),
        Column("delta", "float", False, "estimated improvement Delta of the last period he played (rules 12.3)"),
        Column("periods_played", "int", True, "rating periods in which he played"),
        Column("last_period", "text", True, "the last period in which he played"),
        blank=("k", "performance", "bonus", "games_after")))


def _tau(value: Any) -> None:
    if not TAU_LOW <= value <= TAU_HIGH:
        raise ValueError(f"option tau: {value:g} is outside the paper's range {TAU_LOW:g} to {TAU_HIGH:g} "
                         "(rules 12.9)")


@dataclass(frozen=True)
class Options:
    """What Glickman's paper leaves to the ladder's organiser (rules 12.9)."""

    tau: float = option(TAU_DEFAULT, f"the system constant tau, from {TAU_LOW:g} to {TAU_HIGH:g}: smaller keeps the "
                                     "volatility steadier", source="rules 12.9 (paper, Step 1)")
    rd_cap: float = option(RD_CAP, f"no RD above this is stored, from {NEW_RD:g} to {RD_CAP_HIGH:g} ({RD_CAP_HIGH:g}: "
                                   "next to the paper's uncapped system)", source="rules 12.10")

    def __post_init__(self) -> None:
        _tau(float(self.tau))
        if not NEW_RD <= float(self.rd_cap) <= RD_CAP_HIGH:
            raise ValueError(f"option rd_cap: {self.rd_cap:g} is outside {NEW_RD:g} to {RD_CAP_HIGH:g} (rules 12.10)")


# --------------------------------------------------------------------------- the paper's functions


def g(phi: Any) -> Any:
    """``g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)`` (Step 3), element-wise."""
    if np is not None and not isinstance(phi, (int, float)):
        return 1.0 / np.sqrt(1.0 + 3.0 * np.square(phi) / math.pi ** 2)
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi ** 2)


def e(mu: float, mu_j: float, phi_j: float) -> float:
    """``E(mu, mu_j, phi_j) = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))`` (Step 3): the expected score of one game."""
    x = -g(phi_j) * (mu - mu_j)
    if x > 700:  # exp overflows a float: the expected score is 0 to the last digit
        return 0.0
    return 1.0 / (1.0 + math.exp(x))


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """Glicko-2's expected score against an opponent of RD 0 (g = 1, rules 12.3):
    ``1 / (1 + exp(-(r - o) / 173.7178))``, element-wise. With the opponent's RD, use :func:`e`."""
    if np is not None and not (isinstance(rating, (int, float)) and isinstance(opponent, (int, float))):
        x = -(np.asarray(rating, np.float64) - np.asarray(opponent, np.float64)) / SCALE
        return 1.0 / (1.0 + np.exp(np.minimum(x, 700.0)))
    return e((float(rating) - BASE) / SCALE, (float(opponent) - BASE) / SCALE, 0.0)


k_factor = None
first_rating = None


#: Why it gives no performance rating, whatever the games (the words of ELO_PERFORMANCE's and calc's refusal).
NO_PERFORMANCE: Final = ("Glicko-2 defines no performance rating (rules 12.10): a period's new rating comes from "
                         "each game's expected score and the opponents' RDs (GLICKO2_UPDATE, xl-elo calc glicko2)",
                         "Glicko-2 ne définit pas de performance (règles 12.10) : la nouvelle cote d'une période "
                         "vient du score attendu de chaque partie et des RD des adversaires (GLICKO2_UPDATE)")


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    """Glicko-2 defines no performance rating (rules 12.10): :data:`NO_PERFORMANCE`."""
    return None


@dataclass(frozen=True)
class Volatility:
    """Step 5 as it ran: the new volatility and the iteration behind it."""

    sigma: float
    """sigma' = exp(A / 2), A the last iterate."""
    a: float
    """a = ln(sigma^2)."""
    k: int | None
    """The k of the bracket ``B = a - k tau`` (None: ``Delta^2 > phi^2 + v`` gave ``B = ln(Delta^2 - phi^2 - v)``)."""
    steps: tuple[tuple[float, float, float, float], ...]
    """(A, B, fA, fB) before the loop and after each of its steps."""

    @property
    def iterations(self) -> int:
        return len(self.steps) - 1


def volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> Volatility:
    """The new volatility by the Illinois algorithm of Step 5 (rules 12.4), to the tolerance 0.000001.

    ``f(x) = e^x (Delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2``; the
    bracket A = a and B = ln(Delta^2 - phi^2 - v), or ``a - k tau`` with the first k >= 1 where
    ``f(a - k tau) >= 0``; then ``C = A + (A - B) fA / (fB - fA)``, ``A <- B`` when ``fC fB <= 0``
    (the 2022 text) else ``fA <- fA / 2``, ``B <- C``, until ``|B - A| <= 0.000001``.
    """
    a = math.log(sigma * sigma)
    p2v = phi * phi + v
    d2 = delta * delta
    t2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2v - ex) / (2.0 * (p2v + ex) ** 2) - (x - a) / t2

    big_a = a
    k: int | None = None
    if d2 > p2v:
        big_b = math.log(d2 - p2v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
            if k > MAX_ITERATIONS:
                raise RuntimeError(f"Glicko-2 Step 5: no bracket for the volatility within {MAX_ITERATIONS} steps "
                                   f"(sigma {sigma!r}, phi {phi!r}, v {v!r}, Delta {delta!r})")
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    steps = [(big_a, big_b, fa, fb)]
    while abs(big_b - big_a) > EPSILON:
        if len(steps) > MAX_ITERATIONS:
            raise RuntimeError(f"Glicko-2 Step 5: the volatility did not settle within {MAX_ITERATIONS} steps "
                               f"(sigma {sigma!r}, phi {phi!r}, v {v!r}, Delta {delta!r})")
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa = fa / 2.0
        big_b, fb = c, fc
        steps.append((big_a, big_b, fa, fb))
    return Volatility(math.exp(big_a / 2.0), a, k, tuple(steps))


@dataclass(frozen=True)
class Period:
    """One player's rating period on the Glicko-2 scale, every intermediate of Steps 2 - 8."""

    mu: float
    phi: float
    sigma: float
    g: tuple[float, ...]
    """g(phi_j) of each game's opponent."""
    e: tuple[float, ...]
    """E of each game."""
    scores: tuple[float, ...]
    v: float | None
    delta: float | None
    step5: Volatility | None
    phi_star: float
    phi_after: float
    mu_after: float
    sigma_after: float
    capped: bool = False
    """The RD after was above the cap, and the cap was stored (rules 12.10)."""

    @property
    def rating_after(self) -> float:
        """r' = 173.7178 mu' + 1500 (Step 8)."""
        return SCALE * self.mu_after + BASE

    @property
    def rd_after(self) -> float:
        """RD' = 173.7178 phi' (Step 8)."""
        return SCALE * self.phi_after


def to_scale(rating: float, rd: float) -> tuple[float, float]:
    """(mu, phi) of a rating and RD (Step 2)."""
    return (rating - BASE) / SCALE, rd / SCALE


def update(mu: float, phi: float, sigma: float, games: Sequence[tuple[float, float, float]], tau: float,
           rd_cap: float = RD_CAP) -> Period:
    """One player's rating period (Steps 3 - 8) from his (mu, phi, sigma) and his games as
    (mu_j, phi_j, s_j); with no game only Step 6 with the old volatility (rules 12.6)."""
    cap = rd_cap / SCALE
    if not games:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return Period(mu, phi, sigma, (), (), (), None, None, None, grown, min(grown, cap), mu, sigma, grown > cap)
    gs = tuple(g(phi_j) for _, phi_j, _ in games)
    es = tuple(e(mu, mu_j, phi_j) for mu_j, phi_j, _ in games)
    scores = tuple(float(s) for _, _, s in games)
    v = 1.0 / sum(gj * gj * ej * (1.0 - ej) for gj, ej in zip(gs, es, strict=True))
    total = sum(gj * (s - ej) for gj, s, ej in zip(gs, scores, es, strict=True))
    delta = v * total
    step5 = volatility(sigma, phi, v, delta, tau)
    sigma_after = step5.sigma
    phi_star = math.sqrt(phi * phi + sigma_after * sigma_after)
    phi_after = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_after = mu + phi_after * phi_after * total
    return Period(mu, phi, sigma, gs, es, scores, v, delta, step5, phi_star, min(phi_after, cap), mu_after, sigma_after,
                  phi_after > cap)


def off_scale(p: Period, tau: float, period: str | None = None) -> str | None:
    """Why a period's new rating is refused (rules 12.10), or None: a rating outside the scale ratings are read on
    (0 to 3500) is no rating; it comes of a volatility and a tau that let one period move a player that far (1
    and 1.2: one win over a 3500 makes 16,565,653), and the next period would compute on it (an expected score
    of exactly 1)."""
    r, rd = p.rating_after, p.rd_after
    if math.isfinite(r) and math.isfinite(rd) and 0 <= r <= MAX_RATING:
        return None
    when = f"period {period}" if period else "the period"
    shown = f"{r:,.2f}" if math.isfinite(r) else "no finite number"
    return (f"{when} ends at a rating of {shown}, outside every rating (0 to {MAX_RATING}): a volatility of "
            f"{p.sigma:g} with tau {tau:g} lets one period move a rating that far (rules 12.10; the paper's "
            f"volatility is {NEW_VOLATILITY:g}): check the volatility and tau")


def paper_update(rating: float, rd: float, sigma: float, games: Sequence[tuple[float, float, float]],
                 tau: float = TAU_DEFAULT, rd_cap: float = RD_CAP) -> tuple[float, float, float]:
    """(r', RD', sigma') of one period from a rating, RD, volatility and games (r_j, RD_j, s_j) (Steps 1 - 8)."""
    mu, phi = to_scale(rating, rd)
    p = update(mu, phi, sigma, [(*to_scale(r, d), s) for r, d, s in games], tau, rd_cap)
    return p.rating_after, p.rd_after, p.sigma_after


# --------------------------------------------------------------------------- one player (calc)


def _start(player: Player, cap: float, flags: dict[str, str] | None = None) -> tuple[bool, float, float, float]:
    """(new, mu, phi, sigma) of a player before his first period (rules 12.2), or InputError: on his
    players row, or naming calc's ``flags`` (fact -> flag) when given."""
    problems = []

    def refuse(name: str, words: str) -> None:
        if flags is not None:
            problems.append(Problem(flags[name], None, None, f"player {player.id!r}: {words}"))
        else:
            problems.append(Problem("players", player.row, name, f"player {player.id!r}: {words}"))

    given = {"rd": player.rd, "volatility": player.volatility}
    for name, value in given.items():
        if player.rating is None and value is not None:
            refuse(name, f"{name} {value:g} " + _NEW_ONLY.format(f"{BASE:g} / {NEW_RD:g} / {NEW_VOLATILITY:g}"))
        elif player.rating is not None and value is None:
            refuse(name, f"a rated player needs his {'RD' if name == 'rd' else name} (rules 12.2)")
    if player.rating is not None and player.rd is not None and player.rd > cap:
        refuse("rd", f"RD {player.rd:g} is above the cap {cap:g} (rules 12.10)")
    if problems:
        raise InputError(problems)
    if player.rating is None:
        return True, 0.0, NEW_RD / SCALE, NEW_VOLATILITY
    mu, phi = to_scale(float(player.rating), float(player.rd))  # type: ignore[arg-type]
    return False, mu, phi, float(player.volatility)  # type: ignore[arg-type]


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's rating period (rules 12.3 - 12.6): each game's g, E and share of the change, v,
    Delta, the volatility's iteration, the new RD and rating. An opponent is his rating and RD
    (``1400/30``); an unrated opponent is a new player, 1500 / 350."""
    opts = options or Options()
    new, mu, phi, sigma = _start(player, float(opts.rd_cap), {"rd": "rd", "volatility": "volatility"})
    problems = []
    opponents: list[tuple[float, float, float]] = []
    for n, game in enumerate(games, start=1):
        if game.rating is None:
            if game.deviation is not None:
                problems.append(Problem("games", None, None, f"game {n}: an RD for an unrated opponent (a new "
                                                               f"player counts {BASE:g}/{NEW_RD:g}, rules 12.2)"))
            opponents.append((0.0, NEW_RD / SCALE, game.score))
        elif game.deviation is None:
            problems.append(Problem("games", None, None, f"game {n}: GLICKO2 counts each opponent's RD: give it as "
                                                           f"rating/rd, e.g. {game.rating:g}/{NEW_RD:g} (rules 12.3; "
                                                           "in a spreadsheet: GLICKO2_UPDATE)"))
        else:
            opponents.append((*to_scale(float(game.rating), float(game.deviation)), game.score))
    if problems:
        raise InputError(problems)
    p = update(mu, phi, sigma, opponents, float(opts.tau), float(opts.rd_cap))
    refused = off_scale(p, float(opts.tau))
    if refused:
        raise InputError([Problem("volatility", None, None, refused)])
    before = None if new else float(player.rating)  # type: ignore[arg-type]
    r0 = BASE if new else before
    lines = []
    for game, (mu_j, phi_j, s), gj, ej in zip(games, opponents, p.g, p.e, strict=True):
        o = SCALE * mu_j + BASE
        lines.append(GameLine(game.rating, o, s, r0 - o, ej, SCALE * p.phi_after ** 2 * gj * (s - ej),  # type: ignore[operator]
                              f"RD {SCALE * phi_j:g}, g {gj:.4f}"))
    step5 = p.step5
    steps: list[tuple[str, Any]] = [
        ("mu, phi (Step 2)", f"{p.mu:.6f}, {p.phi:.6f}"),
        ("v (Step 3)", f"{p.v:.6f}"), ("Delta (Step 4)", f"{p.delta:.6f}"),
    ]
    if step5 is not None:
        steps += [("a = ln(sigma^2)", f"{step5.a:.6f}"),
                  ("bracket B (Step 5)", "ln(Delta^2 - phi^2 - v)" if step5.k is None else f"a - {step5.k} tau"),
                  ("iterations (Step 5)", step5.iterations), ("volatility after", f"{p.sigma_after:.6f}")]
    steps += [("phi* (Step 6)", f"{p.phi_star:.6f}"), ("phi' (Step 7)", f"{p.phi_after:.6f}"),
              ("mu' (Step 7)", f"{p.mu_after:.6f}"), ("RD after (Step 8)", f"{p.rd_after:.2f}")]
    notes = (f"RD capped at {opts.rd_cap:g} (rules 12.10)",) if p.capped else ()
    after = p.rating_after
    return Calculation(
        CODE, before, tuple(lines), float(sum(s for _, _, s in opponents)), after,
        change=None if before is None else after - before, expected=float(sum(p.e)), status="new" if new else "rated",
        steps=tuple(steps), notes=notes,
        own=(("rd_before", None if new else player.rd), ("volatility_before", None if new else player.volatility),
             ("mu", p.mu), ("phi", p.phi), ("v", p.v), ("delta", p.delta),
             ("iterations", None if step5 is None else step5.iterations), ("phi_star", p.phi_star),
             ("phi_after", p.phi_after), ("mu_after", p.mu_after),
             ("rd_after", p.rd_after), ("volatility_after", p.sigma_after)))


# --------------------------------------------------------------------------- a ladder (rate)


def _month_after(month: str) -> str:
    """The month after ``YYYY-MM``."""
    y, m = int(month[:4]), int(month[5:7])
    return f"{y + m // 12:04d}-{m % 12 + 1:02d}"


def periods_of(event: Event) -> list[str | None]:
    """The rating periods of an event's games in the order they are rated (rules 12.7): their names
    sorted (``YYYY-MM`` and dates sort as time does), each month between two monthly periods that no game
    names too (a period in which nobody played: :func:`skipped_months`), or one unnamed period.

    InputError when some games have a period and others none, or when a game's period is a day of a month
    that is a period of the same ladder (the game would be in two periods)."""
    named = sorted({gm.period for gm in event.games if gm.period is not None and gm.player})
    blank = [gm for gm in event.games if gm.period is None]
    if named and blank:
        raise InputError([Problem("games", gm.row, "period", "the game's period is blank while other games have one "
                                                             "(give every game its period, or none: rules 12.7)")
                          for gm in blank[:50]])
    if not named:
        return [None]
    months = {p for p in named if len(p) == 7}
    inside = [(gm, gm.period) for gm in event.games
              if gm.period is not None and len(gm.period) == 10 and gm.period[:7] in months]
    if inside:
        raise InputError([Problem("games", gm.row, "period",
                                  f"the period {day} is a day of the month {day[:7]}, another period of this ladder: "
                                  f"a game is in one period (give it {day[:7]}, or give every game of that month its "
                                  "date; rules 12.7)") for gm, day in inside[:50] if day is not None])
    out: list[str | None] = []
    for p in named:
        last = out[-1] if out else None
        if last is not None and len(last) == 7 and len(p) == 7:  # a monthly ladder's months without a game
            m = _month_after(last)
            while m < p:
                out.append(m)
                m = _month_after(m)
        out.append(p)
    return out


def skipped_months(event: Event, periods: Sequence[str | None]) -> list[str]:
    """The months :func:`periods_of` rates that no game names (rules 12.7)."""
    named = {gm.period for gm in event.games}
    return [p for p in periods if p is not None and p not in named]


def _shown(months: Sequence[str]) -> str:
    return ", ".join(months) if len(months) <= 6 else f"{', '.join(months[:3])} ... {months[-1]} ({len(months)} months)"


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate a ladder: its periods in order (rules 12.7), each player's state after the last one.

    One row per player: his rating, RD and volatility before the first period and after the
    last (``rd_after``, ``volatility_after``), his games, score and expected score over every
    period, and ``v`` and ``Delta`` of the last period he played.

    The games are grouped by period once; a period computes the players who played one by one (Steps
    3 - 8) and the rated players who did not as arrays (Step 6): linear in the games, whatever the
    number of periods."""
    need_numpy("rating a Glicko-2 ladder")
    opts = options_of(Options, options, **overrides)
    players = [model.as_player(Player, p) for p in event.players]
    problems: list[Problem] = []
    n = len(players)
    new = np.ones(n, bool)
    mu, phi, sigma = np.zeros(n), np.zeros(n), np.zeros(n)
    rating, rd = np.zeros(n), np.zeros(n)
    for i, p in enumerate(players):
        try:
            new[i], mu[i], phi[i], sigma[i] = _start(p, float(opts.rd_cap))
        except InputError as exc:
            problems += exc.problems
            continue
        if not new[i]:
            rating[i], rd[i] = float(p.rating), float(p.rd)  # type: ignore[arg-type]
    if problems:
        raise InputError(problems)
    at = {p.id: i for i, p in enumerate(players)}
    cap = float(opts.rd_cap)
    tau = float(opts.tau)
    periods = periods_of(event)
    slot = {name: k for k, name in enumerate(periods)}
    by_period: list[list[tuple[int, int, float]]] = [[] for _ in periods]
    for gm in event.games:
        if gm.counts:
            by_period[slot[gm.period]].append((at[gm.player], at[gm.opponent], float(gm.result.score)))  # type: ignore[index, arg-type]
    games = np.zeros(n, np.int64)
    score, expect = [0.0] * n, [0.0] * n
    played = np.zeros(n, np.int64)
    last: list[str | None] = [None] * n
    v: list[float | None] = [None] * n
    delta: list[float | None] = [None] * n
    cap_phi = cap / SCALE
    for name, period_games in zip(periods, by_period, strict=True):
        sides: dict[int, list[tuple[float, float, float]]] = {}
        for a, b, s in period_games:  # the opponents' values before the period (rules 12.7)
            sides.setdefault(a, []).append((float(mu[b]), float(phi[b]), s))
            sides.setdefault(b, []).append((float(mu[a]), float(phi[a]), 1.0 - s))
        after = {i: update(float(mu[i]), float(phi[i]), float(sigma[i]), mine, tau, cap) for i, mine in sides.items()}
        for i, done in after.items():  # a rating off the scale is refused, before the next period computes on it
            refused = off_scale(done, tau, name)
            if refused:
                problems.append(Problem("players", players[i].row, "volatility",
                                        f"player {players[i].id!r}: {refused}"))
        if problems:
            raise InputError(problems)
        # a rated player who did not play: only Step 6, his RD grown and capped (rules 12.6); a new one stays new
        idle = ~new
        if sides:
            idle[list(sides)] = False
        if idle.any():
            m, f, sg = mu[idle], phi[idle], sigma[idle]
            r_after = SCALE * m + BASE
            d_after = SCALE * np.minimum(np.sqrt(f * f + sg * sg), cap_phi)
            rating[idle], rd[idle] = r_after, d_after
            mu[idle], phi[idle] = (r_after - BASE) / SCALE, d_after / SCALE
        for i, done in after.items():  # everyone's period on the values before it (rules 12.7)
            rating[i], rd[i], sigma[i] = done.rating_after, done.rd_after, done.sigma_after
            mu[i], phi[i] = to_scale(float(rating[i]), float(rd[i]))
            new[i] = False
            games[i] += len(done.scores)
            score[i] += sum(done.scores)
            expect[i] += sum(done.e)
            played[i] += 1
            last[i], v[i], delta[i] = name, done.v, done.delta
    rows = []
    for i, p in enumerate(players):
        after_rating = None if new[i] else float(rating[i])
        rows.append({
            "id": p.id, "name": p.name, "status": "new" if p.rating is None else "rated",
            "rating_before": p.rating, "games_rated": int(games[i]), "score": score[i],
            "expected": expect[i] if games[i] else None,
            "change": None if p.rating is None or after_rating is None else after_rating - p.rating,
            "rating_after": after_rating, "rd_before": p.rd, "volatility_before": p.volatility,
            "rd_after": None if new[i] else float(rd[i]), "volatility_after": None if new[i] else float(sigma[i]),
            "v": v[i], "delta": delta[i], "periods_played": int(played[i]), "last_period": last[i],
        })
    skipped = skipped_months(event, periods)
    warnings = [f"the months {_shown(skipped)} have no game between the periods of this monthly ladder: each is "
                "rated as a period in which nobody played, every rated player's RD growing (rules 12.6, 12.7)"] \
        if skipped else []
    return Results.from_rows(CODE, COLUMNS, rows, period=event.period, warnings=warnings)


def rules_values() -> dict[str, Any]:
    """Figures the rules chapter quotes (rules 12): the paper's example as this engine computes it."""
    r, rd, sigma = paper_update(1500, 200, 0.06, PAPER_GAMES)
    idle = math.sqrt((NEW_RD / SCALE) ** 2 + NEW_VOLATILITY ** 2) * SCALE
    return {"g2_example_r": f"{r:.4f}", "g2_example_rd": f"{rd:.4f}", "g2_example_sigma": f"{sigma:.8f}",
            "g2_idle_new": f"{idle:.2f}"}


#: The paper's example: the player 1500 / 200 / 0.06 beats 1400 / 30 and loses to 1550 / 100 and 1700 / 300.
PAPER_GAMES: Final = ((1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0))


# --------------------------------------------------------------------------- spreadsheet functions


def sheet_update(rating: float | None, rd: float | None, sigma: float | None, opponent_ratings: Sequence[Any],
                 opponent_rds: Sequence[Any], results: Sequence[Any], tau: float | None = None) -> tuple[float, ...]:
    """GLICKO2_UPDATE: one player's (rating, RD, volatility) after a period (rules 12.3 - 12.6)."""
    if not len(opponent_ratings) == len(opponent_rds) == len(results):
        sizes = f"{len(opponent_ratings)}, {len(opponent_rds)} and {len(results)}"
        raise ValueError(f"opponent_ratings, opponent_rds and results: {sizes} cells (give three ranges of the same "
                         "size)")
    opts = options_of(Options, None, **({} if tau is None else {"tau": tau}))
    player = Player("player", rating=rating, rd=rd, volatility=sigma)
    try:
        _, mu, phi, s0 = _start(player, float(opts.rd_cap), {"rd": "rd", "volatility": "volatility"})
    except InputError as exc:
        raise ValueError("; ".join(q.message.replace("player 'player': ", "") for q in exc.problems)) from None
    games = []
    for n, (o, d, res) in enumerate(zip(opponent_ratings, opponent_rds, results, strict=True), start=1):
        if o is None and d is None and res is None:
            continue
        if res is not None and (res.score is None or not res.rated):
            continue  # a forfeit, a bye, a game not played: never rated (rules 1.1)
        if o is None or d is None or res is None:
            raise ValueError(f"game {n}: give the opponent's rating, his RD and the result")
        games.append((*to_scale(o, d), float(res.score)))
    if len(games) > model.MAX_GAMES_PER_PLAYER:  # the limit of rate, calc and the other functions
        raise ValueError(f"{len(games):,} rated games (at most {model.MAX_GAMES_PER_PLAYER:,} in one period): is a "
                         "column pasted twice?")
    p = update(mu, phi, s0, games, float(opts.tau), float(opts.rd_cap))
    refused = off_scale(p, float(opts.tau))
    if refused:
        raise ValueError(refused)
    return p.rating_after, p.rd_after, p.sigma_after


def sheet_expected(rating: float, rd: float, opponent: float, opponent_rd: float) -> float:
    """GLICKO2_EXPECTED: E of one game (rules 12.3); the player's own RD does not enter it."""
    return e((rating - BASE) / SCALE, (opponent - BASE) / SCALE, opponent_rd / SCALE)


def _rating_cell(v: Any) -> Any:
    return RATING_READING(v)


def _blank_zero(reading: schema.Reading) -> Any:
    """A one-cell argument that may be blank: LibreOffice passes an empty cell alone as 0."""
    return lambda v: None if isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0 else reading(v)


FUNCTIONS: Final = (
    SheetFunction(
        "GLICKO2_UPDATE", sheet_update,
        (SheetArg("rating", ("The player's rating before the period (blank: a new player, 1500 / 350 / 0.06).",
                             "Le classement du joueur avant la période (vide : nouveau joueur, 1500 / 350 / 0,06)."),
                  _rating_cell, blank_ok=True),
         SheetArg("rd", ("His rating deviation RD (blank for a new player).",
                         "Son écart type de classement RD (vide pour un nouveau joueur)."),
                  _blank_zero(RD_READING), blank_ok=True),
         SheetArg("volatility", ("His volatility (blank for a new player).", "Sa volatilité (vide pour un nouveau "
                                                                             "joueur)."),
                  _blank_zero(VOLATILITY_READING), blank_ok=True),
         SheetArg("opponent_ratings", ("The opponents' ratings, one per game of the period.",
                                       "Les classements des adversaires, un par partie de la période."),
                  _rating_cell, listed=True),
         SheetArg("opponent_rds", ("The opponents' RDs, one per game, same size as opponent_ratings.",
                                   "Les RD des adversaires, un par partie, même taille que opponent_ratings."),
                  lambda v: RD_READING(v), listed=True),
         SheetArg("results", ("The results, one per game, same size: 1, 0.5, 0, 1-0, W/D/L ... (forfeits and byes "
                              "never count).",
                              "Les résultats, un par partie, même taille : 1, 0,5, 0, 1-0, G/N/P ... (forfaits et "
                              "exempts ne comptent jamais)."),
                  schema.result, listed=True),
         SheetArg("tau", (f"The system constant tau, {TAU_LOW:g} to {TAU_HIGH:g} (blank: {TAU_DEFAULT:g}).",
                          f"La constante tau du système, de {TAU_LOW:g} à {TAU_HIGH:g} (vide : {TAU_DEFAULT:g})."),
                  lambda v: schema.number(v, what=f"tau from {TAU_LOW:g} to {TAU_HIGH:g}", low=TAU_LOW, high=TAU_HIGH),
                  optional=True)),
        ("One player's Glicko-2 rating period: a row of his new rating, RD and volatility (xl-elo rules 12.3 - 12.6).",
         "La période Glicko-2 d'un joueur : une ligne de son nouveau classement, de son RD et de sa volatilité "
         "(règles xl-elo 12.3 - 12.6)."),
        "ratings", refused="GLICKO2_UPDATE", row=True),
    SheetFunction(
        "GLICKO2_EXPECTED", sheet_expected,
        (SheetArg("rating", ("The player's rating: a cell or a range.", "Le classement du joueur : une cellule ou une "
                                                                        "plage."), _rating_cell, range=True),
         SheetArg("rd", ("His RD (it does not enter E): a cell or a range.",
                         "Son RD (il n'entre pas dans E) : une cellule ou une plage."), lambda v: RD_READING(v),
                  range=True),
         SheetArg("opponent_rating", ("The opponent's rating: a cell or a range.",
                                      "Le classement de l'adversaire : une cellule ou une plage."), _rating_cell,
                  range=True),
         SheetArg("opponent_rd", ("The opponent's RD: a cell or a range.", "Le RD de l'adversaire : une cellule ou "
                                                                           "une plage."),
                  lambda v: RD_READING(v), range=True)),
        ("Glicko-2 expected score E of one game, the opponent's RD counted through g (xl-elo rules 12.3).",
         "Score attendu Glicko-2 E d'une partie, le RD de l'adversaire compté par g (règles xl-elo 12.3)."),
        "expected scores"),
)


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CADENCE=Cadence("rating period", as_given=True),
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Options=Options, COLUMNS=COLUMNS, expected=expected, performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, rules_values=rules_values,
    PERIODS=PERIODS, NO_PERFORMANCE=NO_PERFORMANCE, TEMPLATE=TEMPLATE, EXAMPLE=EXAMPLE, FUNCTIONS=FUNCTIONS,
    OPPONENT_DEVIATION=OPPONENT_DEVIATION,
)
