"""``xl-elo calc``: one player's event or period, game by game, as FIDE's online calculator shows it.

The games are typed as one string (``"2210 1, 2050 0.5, 1900 0"``): each game is the opponent's
rating (``unrated`` or ``-`` for an unrated opponent) and the result, for FESA also a handicap
code and ``gives`` when the player gave it. The federation's ``calculate`` (the contract) does
the work; this module reads the words and prints the table.
"""

from __future__ import annotations

import argparse
import datetime as dt
from dataclasses import replace
from typing import Any, TextIO

from xl_elo import schema
from xl_elo.federations.contract import Calculation, OpponentGame
from xl_elo.model import InputError, Player, Problem


def parse_games(text: str, federation: str | None = None) -> list[OpponentGame]:
    """``"2210 1, 2050 0.5, unrated 0"`` -> games; every bad game named at once (InputError).

    With ``federation``, what it does not rate is refused: a handicap except for FESA (rules
    6.7), an unrated opponent for FESA (an opponent counts with his rating after the
    tournament, rules 6.6: give it)."""
    games: list[OpponentGame] = []
    problems: list[Problem] = []
    parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
    if not parts:
        raise InputError([Problem("--games", None, None, "no game given (expected e.g. \"2210 1, 2050 0.5\")")])
    for n, part in enumerate(parts, start=1):
        words = part.split()
        where = f"game {n} ({part.strip()!r})"
        if len(words) < 2 or len(words) > 4:
            problems.append(Problem("--games", None, None, f"{where}: expected the opponent's rating and the result"))
            continue
        try:
            opp = None if words[0].lower() in ("unrated", "-", "u", "nc") else schema.rating(words[0])
            res = schema.result(words[1])
            if res.score is None or not res.rated:
                raise schema.ValueProblem(f"{words[1]!r} is not a played game's result (forfeits and byes never count)")
            handicap = schema.handicap(words[2]) if len(words) > 2 else None
            if handicap is not None and federation not in (None, "fesa"):
                raise schema.ValueProblem(f"{words[2]!r}: handicaps are FESA's (shogi); {federation.upper()} "
                                          "games have none")
            if opp is None and federation == "fesa":
                raise schema.ValueProblem("FESA counts every opponent with his rating after the tournament "
                                          "(rules 6.6): give it, a new player's as his performance")
            gives = len(words) > 3 and words[3].lower() in ("gives", "giver", "g", "give")
            if len(words) > 3 and not gives and words[3].lower() not in ("receives", "receiver", "r"):
                raise schema.ValueProblem(f"{words[3]!r} is not 'gives' or 'receives'")
        except schema.ValueProblem as exc:
            problems.append(Problem("--games", None, None, f"{where}: {exc}"))
            continue
        games.append(OpponentGame(opp, res.score, handicap, gives))
    if problems:
        raise InputError(problems)
    return games


def player_of(args: argparse.Namespace) -> Player:
    """The player the flags describe."""
    problems: list[Problem] = []
    rating = None
    text = (args.rating or "").strip()
    if text and text.lower() not in ("unrated", "-"):
        try:
            rating = schema.rating(text)
        except schema.ValueProblem as exc:
            problems.append(Problem("--rating", None, None, str(exc)))
    elif not text:
        problems.append(Problem("--rating", None, None, "the rating is missing (give one, or 'unrated')"))
    games = args.rated_games
    if games is None:
        games = 0 if rating is None else 1000  # a rated player of unknown history: not new, permanent
    elif not 0 <= games <= schema.MAX_GAMES:
        problems.append(Problem("--rated-games", None, None, f"{games} is out of range (0 .. {schema.MAX_GAMES:,})"))
    if getattr(args, "k", None) is not None and not 1 <= args.k <= 100:
        problems.append(Problem("--k", None, None, f"{args.k} is not a K-factor (a whole number from 1 to 100)"))
    if args.bonus_count is not None and not 0 <= args.bonus_count <= schema.MAX_BONUS_COUNT:
        problems.append(Problem("--bonus-count", None, None, f"{args.bonus_count} is out of range (0 .. 100)"))
    if problems:
        raise InputError(problems)
    try:
        nsr = schema.grade(args.nsr_grade, allow_pro=True) if args.nsr_grade else None
    except schema.ValueProblem as exc:
        raise InputError([Problem("--nsr-grade", None, None, str(exc))]) from None
    return Player("player", rating=rating, games=games, birth_year=args.birth_year, ever_2400=bool(args.ever_2400),
                  category="junior" if args.junior else None, bonus_count=args.bonus_count or 0, nsr_grade=nsr)


def run_calc(args: argparse.Namespace, options: Any, out: TextIO) -> int:
    """Calculate and print one player's change (``xl-elo calc``)."""
    from xl_elo.federations import get

    module = get(args.federation)
    _check_flags(module.CODE, args)
    games = parse_games(args.games, module.CODE)
    player = player_of(args)
    period = args.period
    try:
        period = schema.period(period, required=False) or dt.date.today().strftime("%Y-%m")
    except schema.ValueProblem as exc:
        raise InputError([Problem("--period", None, None, str(exc))]) from None
    if player.birth_year is not None:
        try:
            schema.birth_year(player.birth_year, int(period[:4]))
        except schema.ValueProblem as exc:
            raise InputError([Problem("--birth-year", None, None, str(exc))]) from None
    if getattr(args, "match", False) and module.CODE == "fqe":
        options = replace(options, match="yes")
    if args.performance:
        rated = [g for g in games if g.rating is not None]
        value = module.performance([g.rating for g in rated], [g.score for g in rated], player.rating,
                                   options) if rated else None
        if value is None:
            raise InputError([Problem("--games", None, None, f"{module.CODE.upper()} gives no performance rating "
                                                             "for these games (no rated opponent, or all wins or all "
                                                             "losses where its rules give none)")])
        out.write(f"performance: {_fmt(value)}\n")
        return 0
    calc = module.calculate(player, games, period, args.k, options)
    if args.k is not None and calc.k is None:
        calc = replace(calc, notes=(*calc.notes, f"K {args.k} is not used: {_no_k(module.CODE, calc)}"))
    out.write(render(calc))
    return 0


#: The calculator's flags that only some federations use (flag -> (attribute, federations)).
_ONLY: dict[str, tuple[str, tuple[str, ...]]] = {
    "--ever-2400": ("ever_2400", ("fide",)),
    "--birth-year": ("birth_year", ("fide", "fse")),
    "--junior": ("junior", ("ffe",)),
    "--nsr-grade": ("nsr_grade", ("fesa",)),
    "--bonus-count": ("bonus_count", ("fesa",)),
    "--match": ("match", ("fqe",)),
    "--k": ("k", ("fide", "fse", "fqe", "fesa")),
}


def _check_flags(code: str, args: argparse.Namespace) -> None:
    """A flag the federation's rules do not use is refused rather than silently ignored."""
    problems = []
    for flag, (attr, codes) in _ONLY.items():
        value = getattr(args, attr, None)
        if value not in (None, False) and code not in codes:
            who = ", ".join(c.upper() for c in codes)
            problems.append(Problem(flag, None, None, f"is for {who} only: {code.upper()}'s rules do not use it"))
    if problems:
        raise InputError(problems)


def _no_k(code: str, calc: Calculation) -> str:
    if calc.rating_before is None:
        return "an unrated player's first rating uses no K"
    return f"{code.upper()} uses no K here"


def _fmt(value: Any, places: int = 2) -> str:
    """A figure of the summary: whole numbers bare, others to ``places`` decimals without trailing zeros."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.{places}f}".rstrip("0").rstrip(".")
    if isinstance(value, tuple):
        return ", ".join(_fmt(v) for v in value)
    return str(value)


def _fixed(value: Any, places: int = 2) -> str:
    """A figure of the games table: always ``places`` decimals, so a column lines up."""
    return "" if value is None else f"{float(value):.{places}f}"


def render(calc: Calculation) -> str:
    """The calculation as a table a rating officer can check against the federation's calculator."""
    head = ["game", "opponent", "counts as", "difference", "result", "expected", "change"]
    rows = []
    for i, g in enumerate(calc.games, start=1):
        rows.append([str(i), _fmt(g.opponent) or "unrated", _fmt(g.counts_as), _fmt(g.difference), _fmt(g.score),
                     _fixed(g.expected), _fixed(g.change), g.note])
    widths = [max(len(h), *(len(r[j]) for r in rows)) if rows else len(h) for j, h in enumerate(head)]
    before = _fmt(calc.rating_before) or "unrated"
    lines = [f"{calc.federation.upper()}: rating before {before} ({calc.status})", ""]
    lines.append("  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)).rstrip())
    for r in rows:
        lines.append(("  ".join(c.rjust(w) for c, w in zip(r[:-1], widths, strict=True)) + "  " + r[-1]).rstrip())
    lines.append("")
    summary: list[tuple[str, Any]] = [("score", calc.score), ("expected", calc.expected), ("K", calc.k)]
    summary += list(calc.steps)
    summary += [("performance", calc.performance), ("change", calc.change), ("new rating", calc.rating_after)]
    for label, value in summary:
        if value is not None and value != "":
            lines.append(f"{label + ':':<24}{_fmt(value)}")
    lines += list(calc.notes)
    return "\n".join(lines) + "\n"
