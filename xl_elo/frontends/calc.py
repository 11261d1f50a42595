"""``xl-elo calc``: one player's event or period, game by game, as FIDE's online calculator shows it.

The games are typed as one string (``"2210 1, 2050 0.5, 1900 0"``): each game is the opponent's
rating (``unrated`` or ``-`` for an unrated opponent) and the result, for a system with handicap
games (FESA) also a handicap code and ``gives`` when the player gave it, for a system that
counts its opponents' rating deviations (its ``OPPONENT_DEVIATION``: Glicko-2) the opponent as
``rating/rd`` (``"1400/30 1"``). The player's facts come
from the flags his system declares (:attr:`xl_elo.model.Fact.calc`: ``--rated-games``,
``--birth-year`` ...); the system's ``calculate`` (the contract) does the work; this module reads
the words and prints the table.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from xl_elo import schema
from xl_elo.federations import registry
from xl_elo.federations.contract import Calculation, OpponentGame, game_words
from xl_elo.formats.layout import WIDTH, terminal_width, wrapped
from xl_elo.model import MAX_GAMES_PER_PLAYER, Fact, Game, InputError, Problem, facts

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem


def parse_games(text: str, module: RatingSystem | None = None) -> list[OpponentGame]:
    """``"2210 1, 2050 0.5, unrated 0"`` -> games; every bad game named at once (InputError).

    Each game is the opponent's rating and the result, then the system's own facts of a game in the
    order its ``Game`` declares them (FESA's handicap: ``"1700 1 B"``), a one-sided fact followed by
    ``gives`` when the player holds it. With the system, what it does not rate is refused: a fact of
    a game it has not (another system's, named), an unrated opponent where it counts every opponent
    with a rating (its ``UNRATED_OPPONENTS`` says why), an opponent's deviation (``1400/30``) where it
    counts none (its ``OPPONENT_DEVIATION``). Ratings read as the system's players' do
    (:attr:`xl_elo.model.Player.RATING`)."""
    games: list[OpponentGame] = []
    problems: list[Problem] = []
    parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
    if not parts:
        raise InputError([Problem("--games", None, None, "no game given (expected e.g. \"2210 1, 2050 0.5\")")])
    if len(parts) > MAX_GAMES_PER_PLAYER:  # the limit of rate and the functions, counted before any is read
        raise InputError([Problem("--games", None, None, f"{len(parts):,} games (at most {MAX_GAMES_PER_PLAYER:,} "
                                                         "in one event or period): is a list pasted twice?")])
    most = 2 + max((_fact_words(m) for m in registry().values()), default=0)
    for n, part in enumerate(parts, start=1):
        words = part.split()
        where = f"game {n} ({part.strip()!r})"
        if len(words) < 2 or len(words) > most:
            comma = len(words) == 1 and words[0].isdigit() and n > 1 and parts[n - 2].split()[-1].isdigit()
            hint = (f": a decimal comma? commas separate the games, so write "
                    f"'{parts[n - 2].split()[-1]}.{words[0]}'" if comma else "")
            problems.append(Problem("--games", None, None, f"{where}: expected the opponent's rating and the result"
                                                           + hint))
            continue
        try:
            games.append(_one_game(words, module))
        except schema.ValueProblem as exc:
            problems.append(Problem("--games", None, None, f"{where}: {exc}"))
    if problems:
        raise InputError(problems)
    return games


def _fact_words(module: RatingSystem) -> int:
    """The most words a system's own facts of a game take after the result (a one-sided one: ``gives``)."""
    own = [f for f in facts(module.Game) if f.one_game]
    return len(own) + any(f.sided for f in own)


def _one_game(words: list[str], module: RatingSystem | None) -> OpponentGame:
    """One game's words: the opponent (``rating``, ``rating/rd``, ``unrated``), the result, the system's facts."""
    reading = module.Player.RATING if module is not None else schema.RATING
    deviation = module.OPPONENT_DEVIATION if module is not None else None
    rating_text, slash, rd_text = words[0].partition("/")
    if slash and deviation is None:
        who = module.CODE.upper() if module is not None else "this system"
        raise schema.ValueProblem(f"{words[0]!r}: {who} counts no opponent's deviation (give the rating alone)")
    unrated = rating_text.lower() in ("unrated", "-", "u", "nc")
    opp = None if unrated else reading(rating_text)
    rd = deviation(rd_text) if slash and deviation is not None else None
    if slash and rd is None:
        raise schema.ValueProblem(f"{words[0]!r}: the deviation after '/' is blank")
    res = schema.result(words[1])
    if res.score is None or not res.rated:
        raise schema.ValueProblem(f"{words[1]!r} is not a played game's result (forfeits and byes never count)")
    own, gives = game_words(module.Game if module is not None else Game, words[2:],
                            module.CODE.upper() if module is not None else "these", _whose)
    refusal = module.UNRATED_OPPONENTS if module is not None else None
    if opp is None and refusal is not None:
        raise schema.ValueProblem(f"{refusal}: give it, a new player's as his performance")
    return OpponentGame(opp, res.score, rd, gives, own)


def _whose(word: str) -> str:
    """Whose fact of a game a word is, as a message names it (``handicaps are FESA's (shogi); ``)."""
    for m in registry().values():
        for f in (g for g in facts(m.Game) if g.one_game):
            try:
                if f.reading(word) is not None:
                    return f"{f.name}s are {_systems_with(f.name)}; "
            except schema.ValueProblem:
                continue
    return ""


def _systems_with(name: str) -> str:
    """The systems whose games have a fact, as a message says it (``FESA's (shogi)``)."""
    return ", ".join(f"{m.CODE.upper()}'s ({m.GAME})" for m in registry().values()
                     if any(f.name == name for f in facts(m.Game)))


# --------------------------------------------------------------------------- the flags


def fact_flags() -> Iterator[tuple[str, Fact, list[Any]]]:
    """Every flag a system's facts declare, once: (flag, the first fact that declares it, every system using it)."""
    seen: dict[str, tuple[Fact, list[Any]]] = {}
    for module in registry().values():
        for f in facts(module.Player):
            if f.calc is not None:
                seen.setdefault(f.calc, (f, []))[1].append(module)
    for flag, (f, modules) in seen.items():
        yield flag, f, modules


def dest(flag: str) -> str:
    """Where argparse keeps a fact's flag."""
    return "fact_" + flag.lstrip("-").replace("-", "_")


def add_fact_flags(parser: argparse.ArgumentParser) -> None:
    """The calc flags of every system's facts, each with what it means for each system that uses it."""
    for flag, f, modules in fact_flags():
        uses = "; ".join(f"{m.CODE.upper()}: {g.calc_help or g.doc}" for m in modules for g in facts(m.Player)
                         if g.calc == flag)
        if f.switch is not None:
            parser.add_argument(flag, dest=dest(flag), action="store_true", help=uses)
        else:
            parser.add_argument(flag, dest=dest(flag), type=_reading(f, flag), help=uses,
                                metavar=flag.lstrip("-").replace("-", "_").upper())


def _reading(f: Fact, flag: str) -> Any:
    """A flag's value read as its fact's cells are (a usage error names what was expected)."""

    year_bound = f.reading.whole is not None and f.reading.whole[1] is None

    def parse(text: str) -> Any:
        try:  # a year of birth is checked against the period's year once the period is known
            value = f.reading(text, year=9999 if year_bound else None)
        except schema.ValueProblem as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if value is None:
            raise argparse.ArgumentTypeError(f"a blank value for {flag}")
        return value

    return parse


def coefficient_systems(coefficient: str = "k") -> list[Any]:
    """The systems whose rules have this coefficient (K; DWZ's E), which calc may be given."""
    return [m for m in registry().values()
            if m.k_factor is not None and coefficient == m.COEFFICIENT]


# --------------------------------------------------------------------------- one player


def player_of(args: argparse.Namespace, module: RatingSystem) -> Any:
    """The player the flags describe, as the system's ``Player``."""
    problems: list[Problem] = []
    rating = None
    text = (args.rating or "").strip()
    if args.rating is None:  # left out: never taken as unrated (a forgotten flag would rate a first rating)
        problems.append(Problem("--rating", None, None, "the rating is missing: give one, or 'unrated' (or --rating "
                                                        "\"\") for an unrated or new player"))
    elif text and text.lower() not in ("unrated", "-"):
        try:
            rating = module.Player.RATING(text)
        except schema.ValueProblem as exc:
            problems.append(Problem("--rating", None, None, str(exc)))
    if problems:
        raise InputError(problems)
    values: dict[str, Any] = {}
    for f in facts(module.Player):
        given = getattr(args, dest(f.calc), None) if f.calc is not None else None
        if f.switch is not None:
            given = f.switch if given else None
        values[f.name] = f.blank_for(rating is not None) if given is None else given
    return module.Player("player", rating=rating, **values)


def run_calc(args: argparse.Namespace, module: RatingSystem, options: Any, out: TextIO) -> int:
    """Calculate and print one player's change (``xl-elo calc``)."""
    _check_flags(module, args)
    games = parse_games(", ".join(args.games) if isinstance(args.games, list) else args.games, module)
    player = player_of(args, module)
    period = args.period
    try:
        period = schema.period(period, required=False) or dt.date.today().strftime("%Y-%m")
    except schema.ValueProblem as exc:
        raise InputError([Problem("--period", None, None, str(exc))]) from None
    for f in facts(module.Player):  # a value bounded by the period's year (a year of birth)
        value = getattr(player, f.name)
        if value is not None and f.reading.whole is not None and f.reading.whole[1] is None:
            try:
                f.reading(value, year=int(period[:4]))
            except schema.ValueProblem as exc:
                raise InputError([Problem(f.calc or f.name, None, None, str(exc))]) from None
    if args.performance:
        rated = [(g.rating, g.score) for g in games if g.rating is not None]
        value = module.performance([r for r, _ in rated], [s for _, s in rated], player.rating,
                                   options) if rated else None
        if value is None:
            none = module.NO_PERFORMANCE
            raise InputError([Problem("--performance", None, None, none[0]) if none else Problem(
                "--games", None, None, f"{module.CODE.upper()} gives no performance rating for these games (no rated "
                                       "opponent, or all wins or all losses where its rules give none)")])
        out.write(f"performance: {_fmt(value)}\n")
        return 0
    known = coefficient_given(args, module)
    try:
        calc = module.calculate(player, games, period, known, options)
    except InputError as exc:  # the engine names the games and the facts; the command line its flags
        flags = {"games": "--games", **{f.name: f.calc for f in facts(module.Player) if f.calc}}
        raise InputError([replace(q, source=flags.get(q.source, q.source)) for q in exc.problems]) from None
    if known is not None and calc.k is None:
        calc = replace(calc, notes=(*calc.notes, f"{coefficient(module).upper()} {known} is not used: "
                                                 f"{_no_k(module, calc)}"))
    out.write(as_json(calc, module) if getattr(args, "format", None) == "json" else
              render(calc, module, terminal_width(out)))
    return 0


def coefficient(module: RatingSystem) -> str:
    """The name of a system's coefficient (K; DWZ's E): its calc flag and its JSON key."""
    return str(module.COEFFICIENT)


def coefficients() -> list[str]:
    """Every coefficient a system has, once (``k``, ``e`` ...)."""
    return list(dict.fromkeys(coefficient(m) for m in registry().values() if m.k_factor))


def coefficient_given(args: argparse.Namespace, module: RatingSystem) -> int | None:
    """The known coefficient given to calc for this system (``--k 20``; DWZ's ``--e 24``)."""
    return getattr(args, f"coef_{coefficient(module)}", None)


def as_json(calc: Calculation, module: RatingSystem) -> str:
    """The calculation as JSON, every number at full precision: the common keys, then the system's own."""
    doc: dict[str, Any] = {
        "system": calc.federation, "status": calc.status, "rating_before": calc.rating_before, "score": calc.score,
        "expected": calc.expected, coefficient(module): calc.k, "change": calc.change, "bonus": calc.bonus,
        "rating_after": calc.rating_after, "performance": calc.performance,
        "games": [{"opponent": g.opponent, "counts_as": g.counts_as, "result": g.score, "difference": g.difference,
                   "expected": g.expected, "change": g.change, **({"note": g.note} if g.note else {})}
                  for g in calc.games],
    }
    doc.update(dict(calc.own))
    if calc.notes:
        doc["notes"] = list(calc.notes)
    return json.dumps(doc, ensure_ascii=False, indent=1, default=_plain) + "\n"


def _plain(value: Any) -> Any:
    """A number numpy made, as JSON writes a number."""
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    raise TypeError(f"{value!r} is not JSON")


def _check_flags(module: RatingSystem, args: argparse.Namespace) -> None:
    """A flag the system's rules do not use is refused rather than silently ignored."""
    problems = []
    mine = {f.calc for f in facts(module.Player)}
    for flag, _, modules in fact_flags():
        value = getattr(args, dest(flag), None)
        if value not in (None, False) and flag not in mine:
            who = ", ".join(m.CODE.upper() for m in modules)
            problems.append(Problem(flag, None, None,
                                    f"is for {who} only: {module.CODE.upper()}'s rules do not use it"))
    for name in coefficients():
        if getattr(args, f"coef_{name}", None) is not None and module not in coefficient_systems(name):
            who = ", ".join(m.CODE.upper() for m in coefficient_systems(name))
            problems.append(Problem(f"--{name}", None, None,
                                    f"is for {who} only: {module.CODE.upper()}'s rules do not use it"))
    if problems:
        raise InputError(problems)


def add_coefficient_flags(parser: argparse.ArgumentParser, parse: Any) -> None:
    """``--k`` and every other coefficient a system declares (DWZ's ``--e``): a known one, instead of
    the facts that decide it."""
    for name in coefficients():
        who = ", ".join(m.CODE.upper() for m in coefficient_systems(name))
        parser.add_argument(f"--{name}", dest=f"coef_{name}", type=parse(name), metavar=name.upper(),
                            help=f"{who}: a known {name.upper()}, instead of the facts that decide it")


def _no_k(module: RatingSystem, calc: Calculation) -> str:
    name = coefficient(module).upper()
    if calc.rating_before is None:
        return f"an unrated player's first rating uses no {name}"
    return f"{module.CODE.upper()} uses no {name} here"


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


def render(calc: Calculation, module: RatingSystem | None = None, width: int | None = WIDTH) -> str:
    """The calculation as a table a rating officer can check against the federation's calculator, its summary's
    figures and notes wrapped to ``width`` (None: one line each)."""
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
    summary: list[tuple[str, Any]] = [("score", calc.score), ("expected", calc.expected),
                                      (coefficient(module).upper() if module is not None else "K", calc.k)]
    summary += list(calc.steps)
    stepped = {label for label, _ in calc.steps}  # a figure the system's steps show already is not shown twice
    summary += [(label, value) for label, value in (("performance", calc.performance), ("change", calc.change),
                                                    ("new rating", calc.rating_after)) if label not in stepped]
    for label, value in summary:
        if value is not None and value != "":
            lines.append(wrapped(_fmt(value), width, indent=" " * 24, first=f"{label + ':':<23} "))
    lines += [wrapped(note, width, indent="  ") for note in calc.notes]
    return "\n".join(lines) + "\n"
