"""FIDE title norms: is a tournament result a GM, IM, WGM or WIM norm, and what does a player still need
(rules 13; FIDE Title Regulations, Handbook B.01, applied from 1 January 2024, section 1.4).

Plain data in, plain results out: a :class:`Tournament` (its :class:`Entrant` players, each one's
:class:`Pairing` round by round in TRF's result codes, the rounds scheduled, the pairing system, the host
federation) and :class:`NormOptions` (what a report cannot show: the kind of event, an exemption of 1.4.3);
:func:`check` gives one :class:`NormCheck` per player and title with every figure an arbiter checks on the
certificate: the games counted and those set aside, Ra (the floor of 1.4.6 applied, unrated opponents at
1400), p, dp, Rp, the score needed and the overscore, the opponents' titles and federations against what
is needed, the first rule that fails, and before the last round what is still needed. No file, no
printing; dp comes from FIDE's table 8.1.1 (:data:`xl_elo.tables.FIDE_DP_TABLE`), the same table as
B.01's 1.4.9 (rules 13.7).

Readings settled where B.01 is silent are in rules 13 (13.12 lists them).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Final

from xl_elo import core, model, schema
from xl_elo.core import Result, ResultKind
from xl_elo.federations.contract import SheetArg, SheetFunction, option
from xl_elo.model import Column
from xl_elo.tables import FIDE_DP_TABLE

SOURCE: Final = "https://handbook.fide.com/chapter/B012024"
RULES: Final = "13"
#: The FIDE Qualification Commission's published answers read with the text (rules 13.11).
QC_REVIEW: Final = "https://qc.fide.com/2023/05/01/qualification-commission-title-application-review"


@dataclass(frozen=True)
class Title:
    """One title a norm is sought for, with its figures (B.01 0.5, 1.4.5, 1.4.6b, 1.4.8)."""

    code: str
    name: str
    performance: int
    """The minimum performance after rounding (1.4.8); the minimum before rounding is half a point less."""
    average: int
    """The minimum rating average Ra of the opponents (1.4.8a)."""
    floor: int
    """The adjusted rating floor of 1.4.6b: the one lowest opponent below it counts at it."""
    holders: frozenset[str]
    """The titles that count for 1.4.5b-e (the norm's title or a higher one)."""
    women: bool = False
    """A women's title (B.01 0.3)."""

    @property
    def minimum(self) -> float:
        """The minimum performance prior to rounding (1.4.8's table): 2599.5 for a GM norm."""
        return self.performance - 0.5


#: The four titles by norms, in the order of B.01 (1.4.5b-e, 1.4.6b, 1.4.8).
TITLES: Final = (
    Title("GM", "Grandmaster", 2600, 2380, 2200, frozenset({"GM"})),
    Title("IM", "International Master", 2450, 2230, 2050, frozenset({"GM", "IM"})),
    Title("WGM", "Woman Grandmaster", 2400, 2180, 2000, frozenset({"GM", "IM", "WGM"}), women=True),
    Title("WIM", "Woman International Master", 2250, 2030, 1850, frozenset({"GM", "IM", "WGM", "WIM"}), women=True),
)
BY_CODE: Final = {t.code: t for t in TITLES}
#: Title-holders for 1.4.5a: the titles of B.01 0.3 but CM and WCM.
TITLE_HOLDERS: Final = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})
#: The titles a player can hold (B.01 0.3), the highest first: who already holds a title or a higher one.
RANK: Final = {"GM": 0, "IM": 1, "WGM": 2, "FM": 3, "WIM": 4, "CM": 5, "WFM": 6, "WCM": 7}
#: What a title already held makes needless (a GM needs no norm; an IM no IM or WIM norm ...).
COVERS: Final = {"GM": {"GM", "IM", "WGM", "WIM"}, "IM": {"IM", "WIM"}, "WGM": {"WGM", "WIM"}, "WIM": {"WIM"}}

#: An unrated opponent not raised to the floor counts at this rating (1.4.6d; 1000 before 2024).
UNRATED: Final = 1400
#: The minimum score, 35% (1.4.8b), as a fraction: score >= 7/20 of the games, never rounded.
MIN_SCORE: Final = Fraction(35, 100)
#: Games a norm needs (1.4.1a) ...
MIN_GAMES: Final = 9
#: ... World and Continental Team and Club Championships: 7 (1.4.1b) ...
TEAM_GAMES: Final = 7
#: ... the World Cup and Women's World Cup: 8, which count as 9 (1.4.1b).
WORLD_CUP_GAMES: Final = 8
#: 1.4.1c: in a tournament of this many rounds, 8 games and a forfeit win or a pairing-allocated bye ...
BYE_EVENT_ROUNDS: Final = 9
#: ... the games that then make a norm ...
BYE_EVENT_GAMES: Final = BYE_EVENT_ROUNDS - 1
#: ... count as a norm of this many games.
BYE_NORM_GAMES: Final = 9
#: A norm in a tournament of more than this many rounds counts this many games at most (1.7).
MAX_NORM_GAMES: Final = 13
#: 1.4.5a: at least this share of the opponents are title-holders (rounded up).
HOLDERS_SHARE: Final = Fraction(1, 2)
#: 1.4.5b-e: at least this share of the opponents, and at least MIN_TITLED, hold the norm's title or a higher one.
TITLED_SHARE: Final = Fraction(1, 3)
MIN_TITLED: Final = 3
#: 1.4.5f: a double round-robin gives norms from this many players; its titled opponents (1.4.5b-e) are
#: counted as players, half the number counted in games, rounded up.
DOUBLE_ROUND_ROBIN_PLAYERS: Final = 6
#: 1.4.3: at least this many federations other than the player's among his opponents.
OTHER_FEDERATIONS: Final = 2
#: 1.4.4: at most this share of the opponents from the player's own federation (rounded down) ...
OWN_SHARE: Final = Fraction(3, 5)
#: ... and at most this share from any one federation (rounded down).
ONE_SHARE: Final = Fraction(2, 3)
#: Not a federation for 1.4.3 and 1.4.4 (FIDE's own flag): its players are accepted as opponents.
NO_FEDERATION: Final = "FID"
#: 1.4.3d, a large Swiss: at least this many FIDE-rated players not from the host federation ...
LARGE_SWISS_PLAYERS: Final = 20
#: ... from at least this many federations ...
LARGE_SWISS_FEDERATIONS: Final = 3
#: ... at least this many of them GM, IM, WGM or WIM ...
LARGE_SWISS_TITLED: Final = 10
LARGE_SWISS_TITLES: Final = frozenset({"GM", "IM", "WGM", "WIM"})
#: ... each counted when he misses at most this many rounds (a pairing-allocated bye is not missed).
LARGE_SWISS_MISSED: Final = 1
#: The search for a subset of games stops after this many subsets per player and title (rules 13.10).
SEARCH_LIMIT: Final = 20_000

#: Why a rule fails, in the engine's words (rules 13), each figure a placeholder filled from the constants above: the
#: norm sheet's formulas say the same phrases (xl_elo/templates/normsheet.py) and the catalogues translate them.
#: 1.4.1, plural then singular: the games alone, then with the kind of event (:data:`FAIL_KINDS`).
FAIL_GAMES: Final = ("{n} games counted, {need} needed", "{n} game counted, {need} needed",
                     "{n} games counted, {need} needed{kind}", "{n} game counted, {need} needed{kind}")
#: 1.4.1's kinds of event with fewer games: a team championship's, the World Cup's.
FAIL_KINDS: Final = (" (a team championship)", " (the World Cup)")
FAIL_NO_FEDERATION: Final = "the player's federation is not given"
FAIL_OTHERS: Final = "{count} federation(s) other than {own} among the opponents, {needed} needed"
FAIL_CROWDED: Final = "{count} opponents from {federation}, at most {most} ({share} of {n})"
FAIL_HOLDERS: Final = "{count} title-holders among {n} opponents, {needed} needed"
FAIL_DRR: Final = "a double round-robin of {players} players, {needed} needed"
#: 1.4.5b-e: the opponents, or in a double round-robin the players.
FAIL_TITLED: Final = ("{count} {titles} opponents, {needed} needed", "{count} {titles} players, {needed} needed")
FAIL_RA: Final = "Ra {ra} below {average}"
FAIL_SHARE: Final = "{score} of {n} is below {percent}%"
FAIL_RP: Final = "Rp {rp} below {performance}"
FAIL_NONE: Final = "no game counted"
#: A norm, as the command line says it.
NORM_SAID: Final = ("{title} norm: Rp {rp} >= {performance} with Ra {ra} over {n} games", "counts {n} games")

#: TRF's result codes (FIDE Handbook C.04 Annex 2), from the player's side: the engine's vocabulary.
PLAYED: Final = {"1": 1.0, "=": 0.5, "0": 0.0}
FORFEIT_WIN: Final = "+"
FORFEIT_LOSS: Final = "-"
SHORT: Final = {"W": 1.0, "D": 0.5, "L": 0.0}
PAIRING_BYE: Final = "U"
FULL_BYE: Final = "F"
HALF_BYE: Final = "H"
ZERO_BYE: Final = "Z"
NO_RESULT: Final = " "
CODES: Final = frozenset({*PLAYED, FORFEIT_WIN, FORFEIT_LOSS, *SHORT, PAIRING_BYE, FULL_BYE, HALF_BYE, ZERO_BYE,
                          NO_RESULT})

SYSTEMS: Final = ("swiss", "round-robin", "double-round-robin")
#: The exemptions of 1.4.3 a-d (stated by the user: a report cannot show them; 1.4.3d is also checked).
EXEMPTIONS: Final = {
    "national-championship": "1.4.3a", "national-team-championship": "1.4.3b", "zonal": "1.4.3c",
    "large-swiss": "1.4.3d",
}
#: Exemptions that apply to the host federation's players only (1.4.3a-b).
HOST_ONLY: Final = frozenset({"national-championship", "national-team-championship"})
EVENTS: Final = ("individual", "team", "world-cup")

_DP: Final = core.by_hundredth(FIDE_DP_TABLE)


@dataclass(frozen=True)
class NormOptions:
    """What a tournament report cannot show, and the forecast's assumption (rules 13)."""

    event: str = option(
        "individual", "the kind of event: individual; team (a World or Continental Team or Club Championship: 7 "
        "games make a norm); world-cup (the World Cup or Women's World Cup: 8 games count as 9)",
        choices=EVENTS, source="B.01 1.4.1a-b, rules 13.2")
    exemption: str = option(
        "none", "an exemption from 1.4.3 and 1.4.4 the event has: national-championship (final stage, the host's "
        "players), national-team-championship (the host's players), zonal, large-swiss (also checked from the "
        "report when the host federation is known)",
        choices=("none", *EXEMPTIONS), source="B.01 1.4.3a-d, rules 13.4")
    host: str = option(
        "", "the host federation (three letters; default: the report's 032 field)", source="B.01 1.4.3, rules 13.4")
    system: str = option(
        "auto", "the pairing system: swiss, round-robin or double-round-robin (default: read from the pairings)",
        choices=("auto", *SYSTEMS), source="B.01 1.4.1e-f, 1.4.5f, rules 13.3")
    rounds: int = option(
        0, "the rounds scheduled, when the report does not say (0: the report's)", source="rules 13.3")
    next_rating: int = option(
        0, "the forecast's opponents' rating in the rounds left (0: the average of each player's opponents so far)",
        source="rules 13.9")

    def __post_init__(self) -> None:
        object.__setattr__(self, "host", str(self.host or "").strip().upper())


# --------------------------------------------------------------------------- plain data in


@dataclass(frozen=True)
class Entrant:
    """A player of the tournament: what a norm looks at (B.01 1.4.3 - 1.4.6)."""

    id: str
    name: str = ""
    rating: float | None = None
    """The rating at the start of the tournament (1.4.6a); None: unrated."""
    title: str = ""
    """GM, IM, WGM, FM, WIM, CM, WFM, WCM or ''."""
    federation: str = ""
    """Three letters (``FRA``; ``FID`` for FIDE's own flag); '' when unknown."""
    sex: str = ""
    """``m``, ``w`` or '' (a report's column 10)."""
    fide_id: str | None = None
    start_rank: int | None = None
    """His start rank in a report (None from tables)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "title", str(self.title or "").strip().upper())
        object.__setattr__(self, "federation", str(self.federation or "").strip().upper())
        if self.rating == 0:
            object.__setattr__(self, "rating", None)


@dataclass(frozen=True)
class Pairing:
    """One round of a player: his opponent (None for none) and the result from his side in TRF's codes:
    ``1 = 0`` played, ``+ -`` forfeits, ``W D L`` less than one move, ``U`` pairing-allocated bye, ``F``
    full-point bye, ``H`` half-point bye, ``Z`` zero-point bye or absence, `` `` no result yet."""

    round: int
    opponent: str | None
    code: str

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"round {self.round}: {self.code!r} is not a TRF result code ({''.join(sorted(CODES))})")


@dataclass(frozen=True)
class Tournament:
    """A tournament as a norm reads it (rules 13.3)."""

    players: tuple[Entrant, ...]
    pairings: Mapping[str, tuple[Pairing, ...]]
    """Player id -> his rounds."""
    rounds: int = 0
    """The rounds scheduled (0: as many as the pairings hold)."""
    system: str = "auto"
    """swiss, round-robin, double-round-robin or auto (read from the pairings, rules 13.3)."""
    host: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "host", str(self.host or "").strip().upper())

    @property
    def played_rounds(self) -> int:
        """The last round with a result (the rounds after it are still to play)."""
        done = [p.round for ps in self.pairings.values() for p in ps if p.code != NO_RESULT]
        return max(done, default=0)

    @property
    def scheduled(self) -> int:
        return max(self.rounds, self.played_rounds, *(p.round for ps in self.pairings.values() for p in ps))


# --------------------------------------------------------------------------- a players table's columns


def _title_text(value: Any) -> str | None:
    """A title as a players table writes it: GM, IM, WGM, FM, WIM, CM, WFM, WCM (any case); blank: none."""
    v = schema.text(value)
    if v is None or v.strip() == "":
        return None
    key = v.strip().upper()
    if key not in RANK:
        raise schema.ValueProblem(f"{schema.shown(v)} is not a FIDE title ({', '.join(RANK)}, or blank for none)")
    return key


def _federation_text(value: Any) -> str | None:
    """A federation as FIDE writes it: three letters (``FRA``, ``FID``); blank: unknown."""
    v = schema.text(value)
    if v is None or v.strip() == "":
        return None
    key = v.strip().upper()
    if not (len(key) == 3 and key.isascii() and key.isalpha()):
        raise schema.ValueProblem(f"{schema.shown(v)} is not a federation (three letters, as FIDE writes them: FRA, "
                                  "GER, FID)")
    return key


def _sex_text(value: Any) -> str | None:
    """m or w (f read as w), as a TRF report's column 10; blank: not said."""
    v = schema.text(value)
    if v is None or v.strip() == "":
        return None
    key = v.strip().lower()
    key = {"f": "w", "male": "m", "female": "w", "man": "m", "woman": "w"}.get(key, key)
    if key not in ("m", "w"):
        raise schema.ValueProblem(f"{schema.shown(v)} is not a sex (m or w, or blank)")
    return key


def _fide_id_text(value: Any) -> str | None:
    v = schema.text(value)
    if v is None or v.strip() in ("", "0"):
        return None
    if not (v.strip().isdigit() and v.strip().isascii()):
        raise schema.ValueProblem(f"{schema.shown(v)} is not a FIDE id (digits, or blank)")
    return str(int(v.strip()))


@dataclass(frozen=True, slots=True)
class NormPlayer(model.Player):
    """A row of a players table for norms (rules 13.3): beside the id, name and rating, what a norm looks at."""

    title: str | None = model.fact(schema.spelled(_title_text), "the FIDE title held (GM, IM, WGM, FM, WIM, CM, WFM, "
                                   "WCM; blank for none)", rules="13.5", array="text")
    federation: str | None = model.fact(schema.spelled(_federation_text), "the federation (three letters, FID for "
                                        "FIDE's flag)", rules="13.4", array="text", aliases=("fed", "country"))
    sex: str | None = model.fact(schema.spelled(_sex_text), "m or w (WGM and WIM are women's titles)", rules="13.1",
                                 array="text")
    fide_id: str | None = model.fact(schema.spelled(_fide_id_text), "the FIDE id", rules="13.3", array="text",
                                     aliases=("fide", "id_fide"))


# --------------------------------------------------------------------------- plain results out


@dataclass(frozen=True)
class NormCheck:
    """One player and one title: the verdict and every figure behind it (rules 13; JSON field names)."""

    id: str
    fide_id: str | None
    name: str
    federation: str
    player_title: str
    start_rank: int | None
    title: str
    norm: bool
    rule: str
    """The first rule that fails (its B.01 section), '' for a norm."""
    reason: str
    """Why, in words: every rule that fails, the first first; for a norm, what it counts."""
    games: int
    """Games the figures are taken over (the chosen ones)."""
    score: float
    ra: int | None
    """Rating average of the opponents, rounded (1.4.7), the floor of 1.4.6 applied."""
    ra_exact: float | None
    lowest: int | None
    """The lowest opponent's rating as counted before the floor (an unrated one at 1400)."""
    raised: str
    """The opponent raised to the floor (1.4.6c): 'name: 1950 -> 2200', '' when none."""
    p: float | None
    dp: int | None
    rp: int | None
    """Rp = Ra + dp (1.4.8)."""
    rp_needed: float
    ra_needed: int
    floor: int
    score_needed: float | None
    """The least score with these opponents that reaches rp_needed and 35% (None: none does)."""
    overscore: float | None
    extra_games: int
    norm_games: int
    """The games the norm counts for a title application (1.4.1b-d, 1.7); 0 without a norm."""
    title_holders: int
    title_holders_needed: int
    titled: int
    """Opponents holding the norm's title or a higher one (1.4.5b-e; players in a double round-robin)."""
    titled_needed: int
    other_federations: int
    other_federations_needed: int
    own_federation: int
    own_federation_max: int
    one_federation: int
    one_federation_code: str
    one_federation_max: int
    exemption: str
    basis: str
    """Which games: all of them, the first rounds (1.4.1e), without beaten opponents (1.4.1f)."""
    counted: str
    """The rounds counted."""
    set_aside: str
    """The rounds not counted, each with why."""
    eligible: bool
    """False when the title is needless for the player (he holds it or a higher one) or a woman's title for a man."""
    note: str
    remaining: int
    """Rounds still to play (0: the tournament is over)."""
    next_rating: int | None
    points_needed: float | None
    """Points needed from the remaining rounds against next_rating opponents (None: out of reach or over)."""
    mix_possible: bool | None
    forecast: str

    def row(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: The fields of a :class:`NormCheck` as a results table's columns (what ``xl-elo norms`` writes).
COLUMNS: Final = (
    Column("start_rank", "int", True, "his start rank in a report (blank from tables)"),
    Column("id", "text", True, "the player's id: his FIDE id, else # and his start rank in a report"),
    Column("fide_id", "text", True, "his FIDE id"),
    Column("name", "text", True, "his name"),
    Column("federation", "text", True, "his federation"),
    Column("player_title", "text", True, "the title he holds"),
    Column("title", "text", True, "the title of the norm: GM, IM, WGM or WIM"),
    Column("norm", "bool", True, "yes when the result is a norm for that title (B.01 1.4)"),
    Column("rule", "text", True, "the first rule that fails (B.01 section), blank for a norm"),
    Column("reason", "note", True, "why: every rule that fails, the first first"),
    Column("games", "int", True, "games the figures are taken over"),
    Column("score", "float", True, "points in those games"),
    Column("ra", "int", True, "rating average of the opponents, rounded half up, the floor applied (1.4.6 - 1.4.7)"),
    Column("ra_exact", "float", False, "the same before rounding", places=2),
    Column("lowest", "int", True, f"the lowest opponent's rating before the floor (unrated: {UNRATED})"),
    Column("raised", "note", True, "the one opponent raised to the floor (1.4.6c)"),
    Column("p", "float", True, "score / games rounded to two decimals (1.4.9)", places=2),
    Column("dp", "int", True, "dp from table 1.4.9 (= 8.1.1)"),
    Column("rp", "int", True, "performance Rp = Ra + dp (1.4.8)"),
    Column("rp_needed", "float", True, "the minimum Rp before rounding (1.4.8)"),
    Column("ra_needed", "int", True, "the minimum Ra (1.4.8a)"),
    Column("floor", "int", True, "the adjusted rating floor (1.4.6b)"),
    Column("score_needed", "float", True, f"the least score reaching rp_needed and {MIN_SCORE * 100}% with these "
                                          "opponents"),
    Column("overscore", "float", True, "score - score_needed"),
    Column("extra_games", "int", True, "full points of overscore: games added (1.4.1d)"),
    Column("norm_games", "int", True, "games the norm counts for the title (1.4.1b-d, 1.7); 0 without a norm"),
    Column("title_holders", "int", True, "opponents holding a title other than CM or WCM (1.4.5a)"),
    Column("title_holders_needed", "int", True, f"{HOLDERS_SHARE} of the opponents, rounded up (1.4.5a)"),
    Column("titled", "int", True, "opponents holding the norm's title or a higher one (1.4.5b-e)"),
    Column("titled_needed", "int", True, f"{TITLED_SHARE} of the opponents, rounded up, at least {MIN_TITLED} "
                                           "(1.4.5b-f)"),
    Column("other_federations", "int", True, "federations other than the player's among the opponents (1.4.3)"),
    Column("other_federations_needed", "int", True, f"at least {OTHER_FEDERATIONS} (1.4.3; 0 when exempt)"),
    Column("own_federation", "int", True, "opponents from the player's federation (1.4.4)"),
    Column("own_federation_max", "int", True, f"{OWN_SHARE} of the opponents, rounded down (1.4.4)"),
    Column("one_federation", "int", True, "opponents from the most represented federation but his own (1.4.4)"),
    Column("one_federation_code", "text", True, "that federation"),
    Column("one_federation_max", "int", True, f"{ONE_SHARE} of the opponents, rounded down (1.4.4)"),
    Column("exemption", "text", True, "the exemption of 1.4.3 applied, blank when none"),
    Column("basis", "note", True, "which games: all, the first rounds (1.4.1e), without beaten opponents (1.4.1f)"),
    Column("counted", "text", True, "the rounds counted"),
    Column("set_aside", "note", True, "the rounds not counted and why"),
    Column("eligible", "bool", True, "no when he holds this title or a higher one, or for a man a woman's title"),
    Column("note", "note", True, "what else the arbiter should know"),
    Column("remaining", "int", True, "rounds still to play"),
    Column("next_rating", "int", True, "the forecast's opponents' rating"),
    Column("points_needed", "float", True, "points needed from the rounds left for a norm on all games"),
    Column("mix_possible", "bool", True, "whether the titles and federations can still reach the minimums"),
    Column("forecast", "note", True, "the forecast in words"),
)


# --------------------------------------------------------------------------- the arithmetic of 1.4.6 - 1.4.9


def dp(p_hundredths: int) -> int:
    """dp for p in hundredths, from table 1.4.9 (FIDE's 8.1.1: -800 at 0.00, +800 at 1.00; rules 13.7)."""
    return int(_DP[int(p_hundredths)])


def counted_rating(rating: float | None) -> float:
    """An opponent's rating as 1.4.6 counts it before the floor: an unrated one at 1400 (1.4.6d)."""
    return float(UNRATED) if rating is None else float(rating)


def floored(ratings: Sequence[float | None], title: Title) -> tuple[list[float], int | None]:
    """The opponents' ratings as Ra counts them (1.4.6): unrated at 1400, then the one lowest below the
    title's floor raised to it (the first of equals); returns them and the position raised (None)."""
    values = [counted_rating(r) for r in ratings]
    if not values:
        return values, None
    low = min(range(len(values)), key=lambda i: values[i])
    if values[low] < title.floor:
        values[low] = float(title.floor)
        return values, low
    return values, None


def rating_average(ratings: Sequence[float | None], title: Title) -> tuple[int | None, Fraction | None, int | None]:
    """Ra of 1.4.7: (rounded half up, exact, position raised to the floor); None without games."""
    values, raised = floored(ratings, title)
    if not values:
        return None, None, None
    total = float(sum(values))
    n = len(values)
    if total.is_integer():  # whole ratings (always, from a report or a table): integers, exactly
        t = int(total)
        return (2 * t + n) // (2 * n), Fraction(t, n), raised
    exact = Fraction(sum(Fraction(v) for v in values)) / n
    return math.floor(exact + Fraction(1, 2)), exact, raised


def performance(ra: int, score: float, games: int) -> tuple[int, int, int]:
    """(p in hundredths, dp, Rp = Ra + dp) of 1.4.8 - 1.4.9: p rounded to the nearest hundredth, halves up."""
    p = core.hundredths_half_up(score, games)
    d = dp(p)
    return p, d, ra + d


def enough_score(score: float, games: int) -> bool:
    """The 35% of 1.4.8b, exact: 20 x score >= 7 x games."""
    return games > 0 and round(2 * score) * MIN_SCORE.denominator >= 2 * MIN_SCORE.numerator * games


def score_needed(ra: int | None, games: int, title: Title) -> float | None:
    """The least score (in half points) with ``games`` games against Ra that reaches the title's
    performance and 35% (1.4.8, 1.4.8b); None when no score does (Ra too low even for all wins)."""
    if ra is None or games <= 0:
        return None
    for halves in range(2 * games + 1):  # the least half-point score: both conditions only grow with it
        s = halves / 2
        if enough_score(s, games) and ra + _DP[core.hundredths_half_up(s, games)] >= title.minimum:
            return s
    return None


def norm_performance(opponent_ratings: Sequence[float | None], scores: Sequence[float], title: str = "GM") -> int:
    """Rp for a norm (1.4.6 - 1.4.8): Ra over ``opponent_ratings`` (None: unrated, 1400; the one lowest
    below the title's floor raised to it), rounded half up, plus dp of the score; ValueError without games."""
    t = title_of(title)
    if not opponent_ratings:
        raise ValueError("no game: give each opponent's rating and the result")
    ra, _, _ = rating_average(opponent_ratings, t)
    assert ra is not None
    return performance(ra, float(sum(scores)), len(opponent_ratings))[2]


def title_of(code: Any) -> Title:
    """A title by its code (``GM``, ``im``); ValueError naming the four."""
    key = str(code or "").strip().upper()
    if key not in BY_CODE:
        raise ValueError(f"{code!r} is not a title a norm is for ({', '.join(BY_CODE)})")
    return BY_CODE[key]


# --------------------------------------------------------------------------- one basis: a set of games


@dataclass(frozen=True)
class Game:
    """A game counted: the round, the opponent, the score."""

    round: int
    opponent: Entrant
    score: float
    note: str = ""


@dataclass(frozen=True)
class Basis:
    """A set of games a norm may be computed on, with the rounds set aside."""

    games: tuple[Game, ...]
    label: str
    set_aside: tuple[tuple[int, str], ...] = ()
    bye_round: int | None = None
    """1.4.1c: the round of a forfeit win or pairing-allocated bye, in a 9-round event with 8 games."""
    dropped: int = 0
    """Games set aside by choice (1.4.1e-f): the fewer the better."""
    last: int = 0
    """The last round the basis reaches."""


@dataclass(frozen=True)
class Context:
    """What the checks of one player need of the tournament."""

    player: Entrant
    title: Title
    options: NormOptions
    system: str
    rounds: int
    players: int
    exempt: str
    """The exemption applied ('' for none): its name in EXEMPTIONS."""


@dataclass(frozen=True)
class Assessment:
    """One basis checked: every figure and every failure, in B.01's order."""

    basis: Basis
    failures: tuple[tuple[str, str], ...]
    ra: int | None
    ra_exact: Fraction | None
    lowest: float | None
    raised: str
    p: int | None
    dp: int | None
    rp: int | None
    score: float
    needed: float | None
    counts: int
    mix: dict[str, Any]

    @property
    def norm(self) -> bool:
        return not self.failures

    @property
    def performs(self) -> bool:
        """The figures of 1.4.8 hold (mix and games aside)."""
        return not [r for r, _ in self.failures if r.startswith("1.4.8")]

    @property
    def extra(self) -> int:
        if not self.norm or self.needed is None:
            return 0
        return math.floor(self.score - self.needed)

    def norm_games(self, ctx: Context) -> int:
        if not self.norm:
            return 0
        n = self.counts + self.extra
        return min(n, MAX_NORM_GAMES) if ctx.rounds > MAX_NORM_GAMES else n


def _ceil(x: Fraction) -> int:
    return math.ceil(x)


def mix(games: Sequence[Game], ctx: Context) -> dict[str, Any]:
    """The opponents' titles and federations against 1.4.3 - 1.4.5."""
    opps = [g.opponent for g in games]
    n = len(opps)
    title = ctx.title
    holders = sum(o.title in TITLE_HOLDERS for o in opps)
    titled_games = sum(o.title in title.holders for o in opps)
    titled_needed = max(MIN_TITLED, _ceil(TITLED_SHARE * n))
    titled = titled_games
    if ctx.system == "double-round-robin":  # 1.4.5f: counted in players, half the games' number rounded up
        titled = len({o.id for o in opps if o.title in title.holders})
        titled_needed = _ceil(Fraction(titled_needed, 2))
    own = ctx.player.federation
    feds = [o.federation for o in opps]
    known = [f for f in feds if f and f != NO_FEDERATION]
    others = sorted({f for f in known if f != own})
    count = Counter(f for f in known if f != own)  # his own federation has its own cap (3/5)
    top, top_n = (count.most_common(1)[0] if count else ("", 0))
    return {
        "n": n, "title_holders": holders, "title_holders_needed": _ceil(HOLDERS_SHARE * n),
        "titled": titled, "titled_needed": titled_needed,
        "other_federations": len(others), "other_federations_needed": 0 if ctx.exempt else OTHER_FEDERATIONS,
        "own_federation": sum(f == own for f in known) if own and own != NO_FEDERATION else 0,
        "own_federation_max": math.floor(OWN_SHARE * n),
        "one_federation": top_n, "one_federation_code": top, "one_federation_max": math.floor(ONE_SHARE * n),
        "unknown_federations": sum(not f for f in feds),
    }


def assess(basis: Basis, ctx: Context) -> Assessment:
    """Every rule of 1.4 on one set of games (rules 13.2 - 13.8), the failures in B.01's order."""
    title = ctx.title
    games = basis.games
    n = len(games)
    score = float(sum(g.score for g in games))
    failures: list[tuple[str, str]] = []
    # 1.4.1: the number of games
    need = {"individual": MIN_GAMES, "team": TEAM_GAMES, "world-cup": WORLD_CUP_GAMES}[ctx.options.event]
    counts = n
    if ctx.options.event == "world-cup" and n >= WORLD_CUP_GAMES:
        counts = max(n, MIN_GAMES)
    if n < need:
        if basis.bye_round is not None and n == BYE_EVENT_GAMES and ctx.rounds == BYE_EVENT_ROUNDS:
            counts = BYE_NORM_GAMES
        else:
            kind = {"team": FAIL_KINDS[0], "world-cup": FAIL_KINDS[1]}.get(ctx.options.event, "")
            failures.append(("1.4.1", FAIL_GAMES[2 + (n == 1)].format(n=n, need=need, kind=kind)))
    m = mix(games, ctx)
    # 1.4.3 - 1.4.4: federations
    own = ctx.player.federation
    if not ctx.exempt:
        if not own:
            failures.append(("1.4.3", FAIL_NO_FEDERATION))
        elif m["other_federations"] < OTHER_FEDERATIONS:
            failures.append(("1.4.3", FAIL_OTHERS.format(count=m["other_federations"], own=own,
                                                         needed=OTHER_FEDERATIONS)))
        if own and m["own_federation"] > m["own_federation_max"]:
            failures.append(("1.4.4", FAIL_CROWDED.format(count=m["own_federation"], federation=own,
                                                          most=m["own_federation_max"], share=OWN_SHARE, n=n)))
        if m["one_federation"] > m["one_federation_max"]:
            failures.append(("1.4.4", FAIL_CROWDED.format(count=m["one_federation"],
                                                          federation=m["one_federation_code"],
                                                          most=m["one_federation_max"], share=ONE_SHARE, n=n)))
    # 1.4.5: titles
    if m["title_holders"] < m["title_holders_needed"]:
        failures.append(("1.4.5a", FAIL_HOLDERS.format(count=m["title_holders"], n=n,
                                                       needed=m["title_holders_needed"])))
    if ctx.system == "double-round-robin" and ctx.players < DOUBLE_ROUND_ROBIN_PLAYERS:
        failures.append(("1.4.5f", FAIL_DRR.format(players=ctx.players, needed=DOUBLE_ROUND_ROBIN_PLAYERS)))
    if m["titled"] < m["titled_needed"]:
        held = "/".join(sorted(title.holders, key=RANK.__getitem__))
        said = FAIL_TITLED[1] if ctx.system == "double-round-robin" else FAIL_TITLED[0]
        failures.append(("1.4.5b-e", said.format(count=m["titled"], titles=held, needed=m["titled_needed"])))
    # 1.4.6 - 1.4.9: ratings and performance
    ra, exact, raised_at = rating_average([g.opponent.rating for g in games], title)
    lowest = min((counted_rating(g.opponent.rating) for g in games), default=None)
    raised = ""
    if raised_at is not None:
        o = games[raised_at].opponent
        raised = f"{o.name or o.id}: {_rating_text(o.rating)} -> {title.floor}"
    p = d = rp = None
    needed = None
    if ra is not None:
        p, d, rp = performance(ra, score, n)
        needed = score_needed(ra, n, title)
        if ra < title.average:
            failures.append(("1.4.8a", FAIL_RA.format(ra=ra, average=title.average)))
        if not enough_score(score, n):
            failures.append(("1.4.8b", FAIL_SHARE.format(score=_pts(score), n=n, percent=int(MIN_SCORE * 100))))
        if rp < title.minimum:
            failures.append(("1.4.8", FAIL_RP.format(rp=rp, performance=title.performance)))
    else:
        failures.append(("1.4.8", FAIL_NONE))
    order = {"1.4.1": 0, "1.4.3": 1, "1.4.4": 2, "1.4.5a": 3, "1.4.5f": 4, "1.4.5b-e": 5, "1.4.8a": 6,
             "1.4.8b": 7, "1.4.8": 8}
    failures.sort(key=lambda f: order[f[0]])
    return Assessment(basis, tuple(failures), ra, exact, lowest, raised, p, d, rp, score, needed, counts, m)


def _rating_text(r: float | None) -> str:
    return "unrated (1400)" if r is None else f"{r:g}"


def _pts(x: float) -> str:
    return f"{x:g}"


# --------------------------------------------------------------------------- the tournament


def system_of(t: Tournament, options: NormOptions | None = None) -> tuple[str, str]:
    """The pairing system and how it was known: the option, the tournament's own word, else the pairings
    (every player met every other once: a round-robin; twice: a double round-robin; else a Swiss)."""
    opts = options or NormOptions()
    if opts.system != "auto":
        return opts.system, "as given"
    if t.system in SYSTEMS:
        return t.system, "as the report says"
    ids = [p.id for p in t.players]
    if len(ids) < 3:
        return "swiss", "read from the pairings"
    met: Counter[frozenset[str]] = Counter()
    for pid, ps in t.pairings.items():
        for p in ps:
            if p.opponent is not None and pid < p.opponent:
                met[frozenset((pid, p.opponent))] += 1
    pairs = len(ids) * (len(ids) - 1) // 2
    if len(met) == pairs and set(met.values()) == {1}:
        return "round-robin", "read from the pairings: every player met every other once"
    if len(met) == pairs and set(met.values()) == {2}:
        return "double-round-robin", "read from the pairings: every player met every other twice"
    return "swiss", "read from the pairings (not every player met every other)"


def large_swiss(t: Tournament, host: str, system: str) -> tuple[bool, str]:
    """Whether the field meets 1.4.3d (a Swiss: at least 20 FIDE-rated players not from the host federation,
    from 3 federations, 10 of them GM, IM, WGM or WIM, each missing at most one round, a pairing-allocated
    bye not missed); and the counts in words."""
    if system != "swiss" or not host:
        return False, ""
    rounds = t.played_rounds
    counted = []
    for e in t.players:
        if e.rating is None or not e.federation or e.federation in (host, NO_FEDERATION):
            continue
        ps = {p.round: p for p in t.pairings.get(e.id, ())}
        missed = sum(1 for r in range(1, rounds + 1)
                     if r not in ps or (ps[r].code not in PLAYED and ps[r].code not in SHORT
                                        and ps[r].code != PAIRING_BYE))
        if missed <= LARGE_SWISS_MISSED:
            counted.append(e)
    feds = {e.federation for e in counted}
    titled = sum(e.title in LARGE_SWISS_TITLES for e in counted)
    ok = len(counted) >= LARGE_SWISS_PLAYERS and len(feds) >= LARGE_SWISS_FEDERATIONS and titled >= LARGE_SWISS_TITLED
    words = (f"{len(counted)} rated players not from {host} ({LARGE_SWISS_PLAYERS} needed), from {len(feds)} "
             f"federations ({LARGE_SWISS_FEDERATIONS}), {titled} of them GM, IM, WGM or WIM ({LARGE_SWISS_TITLED})")
    return ok, words


@dataclass(frozen=True)
class Field:
    """What every player's checks share: the tournament read once."""

    tournament: Tournament
    options: NormOptions
    system: str
    system_how: str
    rounds: int
    played: int
    host: str
    large: bool
    large_words: str
    by_id: dict[str, Entrant]
    zero_unrated: frozenset[str]
    """Unrated players of a round-robin who scored nothing against rated opponents (1.4.2b)."""
    warnings: tuple[str, ...] = ()


def field_of(t: Tournament, options: NormOptions | None = None) -> Field:
    """The tournament read once for every player's checks (rules 13.3 - 13.4)."""
    opts = options or NormOptions()
    system, how = system_of(t, opts)
    host = opts.host or t.host
    rounds = opts.rounds or t.scheduled
    warnings: list[str] = [f"pairing system: {system} ({how})"]
    large, words = large_swiss(t, host, system)
    if opts.exemption in HOST_ONLY and not host:
        raise ValueError(f"the exemption {opts.exemption} ({EXEMPTIONS[opts.exemption]}) is for the host "
                         "federation's players: give the host federation (--host, or the report's 032 field)")
    if opts.exemption == "large-swiss" and host and system == "swiss" and not large:
        warnings.append(f"1.4.3d is applied as stated, though the report shows {words}")
    elif large and opts.exemption == "none":
        warnings.append(f"1.4.3d holds: {words}; the foreigner requirement (1.4.3 - 1.4.4) is waived")
    by_id = {e.id: e for e in t.players}
    zero: set[str] = set()
    if system in ("round-robin", "double-round-robin"):
        for e in t.players:
            if e.rating is not None:
                continue
            against_rated = [PLAYED[p.code] for p in t.pairings.get(e.id, ())
                             if p.code in PLAYED and p.opponent in by_id and by_id[p.opponent].rating is not None]
            if sum(against_rated) == 0:
                zero.add(e.id)
    return Field(t, opts, system, how, rounds, t.played_rounds, host, large, words, by_id, frozenset(zero),
                 tuple(warnings))


def _exempt(f: Field, player: Entrant) -> str:
    e = f.options.exemption
    if e != "none":
        if e in HOST_ONLY and player.federation != f.host:
            return ""
        return e
    return "large-swiss" if f.large else ""


def _rounds_of(f: Field, player: Entrant) -> tuple[list[Game], list[tuple[int, str]], int | None, Pairing | None]:
    """The player's games counted (1.4.2), the rounds set aside with why, the round of a forfeit win or
    pairing-allocated bye (1.4.1c), and a last-round forfeit win (1.4.2c)."""
    games: list[Game] = []
    aside: list[tuple[int, str]] = []
    bye_rounds: list[int] = []
    last_forfeit = None
    for p in sorted(f.tournament.pairings.get(player.id, ()), key=lambda q: q.round):
        other = f.by_id.get(p.opponent) if p.opponent is not None else None
        if p.code in PLAYED and other is not None:
            if other.id in f.zero_unrated:
                aside.append((p.round, f"against {other.name or other.id}, unrated, who scored nothing against rated "
                                       "opponents in a round-robin (1.4.2b)"))
            else:
                games.append(Game(p.round, other, PLAYED[p.code]))
        elif p.code == FORFEIT_WIN:
            aside.append((p.round, "forfeit win (1.4.2c)"))
            bye_rounds.append(p.round)
            if p.round == f.rounds and other is not None:
                last_forfeit = p
        elif p.code == FORFEIT_LOSS:
            aside.append((p.round, "forfeit loss (1.4.2c)"))
        elif p.code in SHORT:
            aside.append((p.round, "less than one move played: not decided over the board (1.4.2c)"))
        elif p.code == PAIRING_BYE:
            aside.append((p.round, "pairing-allocated bye"))
            bye_rounds.append(p.round)
        elif p.code == FULL_BYE:
            aside.append((p.round, "full-point bye, read as pairing-allocated (rules 13.12)"))
            bye_rounds.append(p.round)
        elif p.code == HALF_BYE:
            aside.append((p.round, "half-point bye"))
        elif p.code == ZERO_BYE:
            aside.append((p.round, "absent (zero-point bye)"))
        elif p.code in PLAYED:
            aside.append((p.round, "no opponent named"))
    bye = bye_rounds[0] if len(bye_rounds) == 1 else None
    return games, aside, bye, last_forfeit


def _label(games: Sequence[Game]) -> str:
    return " ".join(str(g.round) for g in games)


def _candidates(f: Field, ctx: Context, full: Basis, last_forfeit: Pairing | None) -> Iterable[Basis]:
    """The other sets of games FIDE accepts (rules 13.10): the first rounds of a Swiss (1.4.1e), without
    beaten opponents (1.4.1f), a last-round forfeit counted as a loss (1.4.2c)."""
    bases = [full]
    least = {"individual": MIN_GAMES, "team": TEAM_GAMES, "world-cup": WORLD_CUP_GAMES}[ctx.options.event]
    if last_forfeit is not None and last_forfeit.opponent is not None and len(full.games) < least:
        o = f.by_id[last_forfeit.opponent]
        game = Game(last_forfeit.round, o, 0.0, "forfeit win counted as a loss (1.4.2c)")
        aside = tuple(a for a in full.set_aside if a[0] != last_forfeit.round)
        yield Basis((*full.games, game), "with the last round's forfeit win counted as a loss (1.4.2c)", aside,
                    None, 0, last_forfeit.round)
    if f.system == "swiss":
        for k in range(f.rounds - 1, 0, -1):
            games = tuple(g for g in full.games if g.round <= k)
            if len(games) < TEAM_GAMES:
                break
            if len(games) == len(full.games):
                continue
            later = tuple((g.round, "a later round, ignored (1.4.1e)") for g in full.games if g.round > k)
            b = Basis(games, f"rounds 1-{k} (later rounds ignored, 1.4.1e)",
                      tuple(a for a in full.set_aside if a[0] <= k) + later, None, len(later), k)
            bases.append(b)
            yield b
    for base in bases:
        yield from _without_wins(base, ctx)


def _without_wins(base: Basis, ctx: Context) -> Iterable[Basis]:
    """``base`` without some beaten opponents (1.4.1f): for each number dropped, the lowest-rated first
    (which gives the highest Ra), then, when the mix fails, the other choices of as many."""
    wins = [g for g in base.games if g.score == 1.0]
    wins.sort(key=lambda g: (counted_rating(g.opponent.rating), g.round))
    least = {"individual": MIN_GAMES, "team": TEAM_GAMES, "world-cup": WORLD_CUP_GAMES}[ctx.options.event]
    tried = 0
    for d in range(1, len(wins) + 1):
        if len(base.games) - d < least:
            break
        greedy = wins[:d]
        b = _drop(base, greedy)
        a = assess(b, ctx)
        yield b
        if not a.performs or a.norm:
            continue  # the highest Ra of d drops fails 1.4.8: no other d drops passes; a norm: the best of d
        for combo in itertools.combinations(wins, d):
            tried += 1
            if tried > SEARCH_LIMIT:
                return
            if list(combo) != greedy:
                yield _drop(base, list(combo))


def _drop(base: Basis, drop: Sequence[Game]) -> Basis:
    gone = {id(g) for g in drop}
    games = tuple(g for g in base.games if id(g) not in gone)
    aside = base.set_aside + tuple((g.round, f"win against {g.opponent.name or g.opponent.id} set aside (1.4.1f)")
                                   for g in drop)
    names = ", ".join(f"round {g.round} ({g.opponent.name or g.opponent.id})" for g in drop)
    label = f"{base.label}, without the win{'s' if len(drop) > 1 else ''} of {names} (1.4.1f)"
    return Basis(games, label, tuple(sorted(aside)), None, base.dropped + len(drop), base.last)


def _better(a: Assessment, b: Assessment | None, ctx: Context) -> bool:
    """FIDE's choice among norms (rules 13.10): the most games for the title, then the fewest games set
    aside by choice, then the later last round, then the higher Rp."""
    if b is None:
        return True
    key = (a.norm_games(ctx), -a.basis.dropped, a.basis.last, a.rp or 0)
    return key > (b.norm_games(ctx), -b.basis.dropped, b.basis.last, b.rp or 0)


def check_player(f: Field, player: Entrant, title: Title) -> NormCheck:
    """One player and one title (rules 13): the full tournament first; when it is no norm, the other sets
    of games FIDE accepts, the best norm among them; and the forecast while rounds remain."""
    exempt = _exempt(f, player)
    ctx = Context(player, title, f.options, f.system, f.rounds, len(f.tournament.players), exempt)
    games, aside, bye, last_forfeit = _rounds_of(f, player)
    last = max((g.round for g in games), default=0)
    full = Basis(tuple(games), f"all {len(games)} games", tuple(aside), bye, 0, last)
    first = assess(full, ctx)
    chosen = first if first.norm else None
    if chosen is None and games:
        round_robin = f.system != "swiss"
        for b in _candidates(f, ctx, full, last_forfeit):
            a = assess(b, ctx)
            if not a.norm:
                continue
            if round_robin and b.dropped and _mix_failures(first):
                continue  # 1.4.1f: in a round-robin the complete tournament's mix must allow a norm
            if _better(a, chosen, ctx):
                chosen = a
    shown = chosen or first
    return _verdict(f, ctx, shown, first, chosen is not None)


def _mix_failures(a: Assessment) -> list[tuple[str, str]]:
    return [x for x in a.failures if x[0].startswith(("1.4.3", "1.4.4", "1.4.5"))]


def _verdict(f: Field, ctx: Context, a: Assessment, first: Assessment, norm: bool) -> NormCheck:
    player, title = ctx.player, ctx.title
    m = a.mix
    notes = []
    if not _eligible(player, title):
        notes.append(_needless(player, title))
    if m["unknown_federations"]:
        notes.append(f"{m['unknown_federations']} opponent(s) without a federation: counted for no federation")
    if a.basis.bye_round is not None and a.counts == BYE_NORM_GAMES and len(a.basis.games) == BYE_EVENT_GAMES:
        notes.append(f"{BYE_EVENT_GAMES} games and round {a.basis.bye_round}'s forfeit win or pairing-allocated bye "
                     f"count as {BYE_NORM_GAMES} (1.4.1c; one such norm per title application)")
    if ctx.exempt:
        notes.append(f"exempt from 1.4.3 - 1.4.4 ({EXEMPTIONS[ctx.exempt]}: {ctx.exempt})"
                     + (f"; {f.large_words}" if ctx.exempt == "large-swiss" and f.large_words else ""))
    if norm and a is not first:
        notes.append(f"the complete tournament is no norm ({_said(first)})")
    if a.extra:
        notes.append(f"overscore {_pts(a.score - (a.needed or 0))}: {a.extra} game{'s' if a.extra > 1 else ''} added "
                     "(1.4.1d)")
    if norm and f.rounds > MAX_NORM_GAMES and a.counts + a.extra > MAX_NORM_GAMES:
        notes.append(f"a tournament of more than {MAX_NORM_GAMES} rounds: the norm counts {MAX_NORM_GAMES} games (1.7)")
    if norm:
        reason = (NORM_SAID[0].format(title=title.code, rp=a.rp, performance=title.performance, ra=a.ra,
                                      n=len(a.basis.games)) + "; " + NORM_SAID[1].format(n=a.norm_games(ctx)))
        rule = ""
    else:
        reason = "; ".join(f"{r}: {w}" for r, w in a.failures)
        rule = a.failures[0][0]
    remaining, forecast = _forecast(f, ctx, first)
    return NormCheck(
        id=player.id, fide_id=player.fide_id, name=player.name, federation=player.federation,
        player_title=player.title, start_rank=player.start_rank, title=title.code, norm=norm, rule=rule, reason=reason,
        games=len(a.basis.games), score=a.score, ra=a.ra,
        ra_exact=None if a.ra_exact is None else float(a.ra_exact),
        lowest=None if a.lowest is None else int(a.lowest), raised=a.raised,
        p=None if a.p is None else a.p / 100, dp=a.dp, rp=a.rp, rp_needed=title.minimum, ra_needed=title.average,
        floor=title.floor, score_needed=a.needed,
        overscore=None if a.needed is None else a.score - a.needed, extra_games=a.extra,
        norm_games=a.norm_games(ctx) if norm else 0,
        title_holders=m["title_holders"], title_holders_needed=m["title_holders_needed"], titled=m["titled"],
        titled_needed=m["titled_needed"], other_federations=m["other_federations"],
        other_federations_needed=m["other_federations_needed"], own_federation=m["own_federation"],
        own_federation_max=m["own_federation_max"], one_federation=m["one_federation"],
        one_federation_code=m["one_federation_code"], one_federation_max=m["one_federation_max"],
        exemption=EXEMPTIONS[ctx.exempt] if ctx.exempt else "", basis=a.basis.label, counted=_label(a.basis.games),
        set_aside="; ".join(f"round {r}: {why}" for r, why in a.basis.set_aside),
        eligible=_eligible(player, title), note="; ".join(notes), **forecast, remaining=remaining)


def _said(a: Assessment) -> str:
    return "; ".join(f"{r}: {w}" for r, w in a.failures)


def _eligible(player: Entrant, title: Title) -> bool:
    held = player.title
    if held in COVERS and title.code in COVERS[held]:
        return False
    return not (title.women and player.sex.lower() == "m")


def _needless(player: Entrant, title: Title) -> str:
    if player.title in COVERS and title.code in COVERS[player.title]:
        article = "an" if title.code[0] in "AEIOU" else "a"
        return f"holds the {player.title} title already: {article} {title.code} norm adds nothing to it"
    return f"{title.code} is a women's title (B.01 0.3) and the report says the player is a man"


# --------------------------------------------------------------------------- before the last round


def _forecast(f: Field, ctx: Context, now: Assessment) -> tuple[int, dict[str, Any]]:
    """What a player still needs (rules 13.9): the points from the rounds left against opponents of
    ``next_rating`` for a norm on all his games, and whether the titles and federations can still reach
    their minimums."""
    blank: dict[str, Any] = {"next_rating": None, "points_needed": None, "mix_possible": None, "forecast": ""}
    played = {p.round for p in f.tournament.pairings.get(ctx.player.id, ()) if p.code != NO_RESULT}
    left = [r for r in range(f.played + 1, f.rounds + 1) if r not in played]
    m = len(left)
    if not m:
        return 0, blank
    games = list(now.basis.games)
    title = ctx.title
    if f.options.next_rating:
        rating = int(f.options.next_rating)
    elif games:
        rating = math.floor(Fraction(sum(Fraction(counted_rating(g.opponent.rating)) for g in games), len(games))
                            + Fraction(1, 2))
    else:
        rating = title.average
    ghost = Entrant("?", "?", float(rating))
    future = games + [Game(r, ghost, 0.0) for r in left]
    n = len(future)
    ra, _, _ = rating_average([g.opponent.rating for g in future], title)
    needed = None
    for halves in range(2 * m + 1):
        s = now.score + halves / 2
        if ra is not None and ra >= title.average and enough_score(s, n) and performance(ra, s, n)[2] >= title.minimum:
            needed = halves / 2
            break
    mx = mix(future, ctx)
    cur = now.mix
    short = []
    holders = mx["title_holders_needed"] - cur["title_holders"]
    titled = mx["titled_needed"] - cur["titled"]
    others = (0 if ctx.exempt else OTHER_FEDERATIONS) - cur["other_federations"]
    if holders > 0:
        short.append(f"{holders} more title-holder{'s' if holders > 1 else ''}")
    if titled > 0:
        short.append(f"{titled} more {'/'.join(sorted(title.holders, key=RANK.__getitem__))}")
    if others > 0:
        short.append(f"{others} more federation{'s' if others > 1 else ''}")
    possible = max(holders, titled, others, 0) <= m
    own = ctx.player.federation
    crowded = cur["own_federation"] > mx["own_federation_max"] or cur["one_federation"] > mx["one_federation_max"]
    if not ctx.exempt and own and crowded:
        possible = False
        short.append("too many opponents of one federation already (1.4.4)")
    if len(games) + m < {"individual": MIN_GAMES, "team": TEAM_GAMES, "world-cup": WORLD_CUP_GAMES}[f.options.event]:
        possible = False
        short.append(f"only {len(games) + m} games at most (1.4.1)")
    rounds = "round" if m == 1 else "rounds"
    if needed is None:
        points = f"out of reach: even {m} from {m} gives no {title.code} performance against {rating} opposition"
    else:
        points = f"needs {_pts(needed)} from {m} against {rating}-rated opponents for Rp {title.performance}"
    mix_words = ("the mix can still hold" + (f" with {', '.join(short)}" if short else "")) if possible else \
        "the mix cannot hold: " + ", ".join(short)
    return m, {"next_rating": rating, "points_needed": needed, "mix_possible": possible,
               "forecast": f"{m} {rounds} left: {points}; {mix_words}"}


# --------------------------------------------------------------------------- every player


def check(t: Tournament, options: NormOptions | None = None, titles: Sequence[str] = ()) -> list[NormCheck]:
    """Every player and every title (rules 13): one :class:`NormCheck` each, players in the tournament's
    order, titles in B.01's (GM, IM, WGM, WIM; ``titles`` to choose)."""
    return checked(t, options, titles)[0]


def checked(t: Tournament, options: NormOptions | None = None,
            titles: Sequence[str] = ()) -> tuple[list[NormCheck], list[str]]:
    """:func:`check` and what is worth saying of the tournament (its system, 1.4.3d)."""
    f = field_of(t, options)
    wanted = [title_of(c) for c in titles] if titles else list(TITLES)
    out = [check_player(f, e, title) for e in t.players for title in wanted]
    return out, list(f.warnings)


# --------------------------------------------------------------------------- spreadsheet functions


def sheet_performance(opponent_ratings: Sequence[Any], results: Sequence[Any], title: Any = None) -> int:
    """FIDE_NORM_PERFORMANCE: Rp of a norm (rules 13.6 - 13.7) from the opponents' ratings and the results."""
    if len(opponent_ratings) != len(results):
        raise ValueError(f"opponent_ratings and results: {len(opponent_ratings)} and {len(results)} cells (give two "
                         "ranges of the same size)")
    ratings: list[float | None] = []
    scores: list[float] = []
    for n, (o, r) in enumerate(zip(opponent_ratings, results, strict=True), start=1):
        if r is None:
            if o is not None:
                raise ValueError(f"game {n}: an opponent without a result")
            continue
        if not isinstance(r, Result) or r.kind is not ResultKind.PLAYED or r.score is None:
            continue  # a forfeit or a bye never counts (1.4.2c)
        ratings.append(o)
        scores.append(float(r.score))
    return norm_performance(ratings, scores, "GM" if title is None else title)


def sheet_needed(opponent_ratings: Sequence[Any], title: Any = None) -> float:
    """FIDE_NORM_SCORE: the least score for a norm's performance against these opponents (rules 13.8)."""
    t = title_of("GM" if title is None else title)
    ratings = [o for o in opponent_ratings if o is not None]  # a blank cell is no game
    if not ratings:
        raise ValueError("no opponent: give each opponent's rating (0 for an unrated one)")
    ra, _, _ = rating_average([None if o == 0 else o for o in ratings], t)
    assert ra is not None
    if ra < t.average:
        raise ValueError(f"Ra {ra} is below the {t.code} norm's {t.average} (B.01 1.4.8a): no score makes a norm")
    s = score_needed(ra, len(ratings), t)
    if s is None:
        raise ValueError(f"no score reaches Rp {t.performance} against Ra {ra} in {len(ratings)} games")
    return s


def _title_cell(v: Any) -> str:
    try:
        return title_of(v).code
    except ValueError as exc:
        raise schema.ValueProblem(str(exc)) from None


def _opponent_cell(v: Any) -> float:
    """An opponent's rating in a cell: a whole number, 0 for an unrated opponent (a blank cell is no game)."""
    r = schema.rating(v)
    return 0.0 if r is None else r


_TITLE_ARG = SheetArg("title", ("The norm's title: GM, IM, WGM or WIM (blank: GM).",
                                "Le titre de la norme : GM, IM, WGM ou WIM (vide : GM)."), _title_cell, optional=True)

#: FIDE's norm functions (given to Excel and Calc as FIDE's own, :data:`xl_elo.federations.fide.FUNCTIONS`).
FUNCTIONS: Final = (
    SheetFunction(
        "FIDE_NORM_PERFORMANCE", sheet_performance,
        (SheetArg("opponent_ratings", ("The opponents' ratings, one per game (0 or blank: unrated, counted 1400).",
                                       "Les classements des adversaires, un par partie (0 ou vide : non classé, "
                                       "compté 1400)."), schema.rating, listed=True),
         SheetArg("results", ("The results, one per game, same size: 1, 0.5, 0, 1-0, W/D/L ... (forfeits and byes "
                              "never count).",
                              "Les résultats, un par partie, même taille : 1, 0,5, 0, 1-0, G/N/P ... (forfaits et "
                              "exempts ne comptent jamais)."), schema.result, listed=True),
         _TITLE_ARG),
        ("The performance Rp of a FIDE title norm: Ra, the one lowest opponent raised to the title's floor and "
         "unrated ones at 1400, rounded, plus dp (xl-elo rules 13.6 - 13.7).",
         "La performance Rp d'une norme de titre FIDE : Ra, le plus faible adversaire relevé au plancher du titre "
         "et les non classés à 1400, arrondi, plus dp (règles xl-elo 13.6 - 13.7)."),
        "performance", refused="FIDE_NORM_PERFORMANCE"),
    SheetFunction(
        "FIDE_NORM_SCORE", sheet_needed,
        (SheetArg("opponent_ratings", ("The opponents' ratings, one per game (0: unrated, counted 1400; a blank "
                                       "cell is no game).",
                                       "Les classements des adversaires, un par partie (0 : non classé, compté "
                                       "1400 ; une cellule vide n'est pas une partie)."), _opponent_cell, listed=True),
         _TITLE_ARG),
        ("The least score for a FIDE title norm's performance and 35% against these opponents (xl-elo rules 13.8).",
         "Le plus petit score qui donne la performance et les 35 % d'une norme de titre FIDE contre ces "
         "adversaires (règles xl-elo 13.8)."),
        "performance", refused="FIDE_NORM_SCORE"),
)


def rules_values() -> dict[str, Any]:
    """Figures the norms chapter writes (rules 13)."""
    rows = "\n".join(f"| {t.code} | {t.performance} ({t.minimum:g} before rounding) | {t.average} | {t.floor} | "
                     f"{', '.join(sorted(t.holders, key=RANK.__getitem__))} |" for t in TITLES)
    return {"norm_titles": rows, "norm_title_holders": ", ".join(sorted(TITLE_HOLDERS, key=RANK.__getitem__)),
            "norm_columns": "\n".join(f"- `{c.name}`: {c.doc}" for c in COLUMNS),
            "norm_dp_top": f"+{dp(100)}", "norm_dp_top_p": "1.00", "norm_dp_bottom": f"−{-dp(0)}",
            "norm_min_score_percent": int(MIN_SCORE * 100), "norm_gm_minimum": f"{TITLES[0].minimum:g}",
            "norm_gm_performance": TITLES[0].performance,
            "norm_caps_example": f"of 9 opponents at most {math.floor(OWN_SHARE * 9)} from his federation and "
                                 f"{math.floor(ONE_SHARE * 9)} from one",
            "norm_score_example": _rounding_example()}


def _rounding_example() -> str:
    """The first score a rounded percentage would wrongly let pass 35% (rules 13.7): '4.5 points of 13 (34.6%)'."""
    for n in range(1, 100):
        for halves in range(2 * n + 1):
            s = halves / 2
            if not enough_score(s, n) and core.hundredths_half_up(s, n) >= MIN_SCORE * 100:
                return f"{s:g} points of {n} ({100 * s / n:.1f}%)"
    return ""  # pragma: no cover


__all__ = ["COLUMNS", "TITLES", "Entrant", "NormCheck", "NormOptions", "Pairing", "Tournament", "check", "checked",
           "norm_performance", "score_needed"]
