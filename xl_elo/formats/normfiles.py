"""A tournament as title norms read it (rules 13.3): a TRF report, or a players and games pair, given to the
norms' engine a system declares (:class:`xl_elo.federations.contract.TitleNorms`) as its plain data.

The project's readers do the reading: a report by :mod:`xl_elo.formats.trf` (its player lines, pairings and tags,
every problem named by line and column), tables by :mod:`xl_elo.formats.reader` with the norm's players columns
(title, federation, sex, FIDE id, the engine's ``NormPlayer``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xl_elo.federations.contract import TitleNorms
from xl_elo.model import InputError, Problem


def _system_word(text: str) -> str:
    """A report's word for its pairing system (TRF 092, TRF-26 192), or '' when it says none xl-elo knows."""
    t = text.upper()
    if "ROBIN" in t or "BERGER" in t:
        return "double-round-robin" if "DOUBLE" in t else "round-robin"
    if any(w in t for w in ("SWISS", "DUTCH", "DUBOV", "BURSTEIN", "LIM ")):
        return "swiss"
    return ""


def from_trf(path: str | Path, norms: TitleNorms) -> tuple[Any, list[str]]:
    """The tournament of one TRF report as the norms' engine takes it, and what is worth saying of it."""
    from xl_elo.formats import files, trf
    from xl_elo.formats.text import decode_text

    engine = norms.engine
    p = Path(path)
    text = decode_text(files.read_bytes(p, p.name), p.name)
    tf = trf.parse(text, p.name)
    problems = list(tf.problems)
    warnings = list(tf.warnings)
    if not problems:
        more, said = trf.check_games(tf)
        problems += more
        warnings += said
    if not tf.players and not problems:
        problems.append(Problem(p.name, None, None, "holds no player line (001): is it a TRF report?"))
    if problems:
        raise InputError(problems)
    ids = {rank: (pl.fide_id or f"#{rank}") for rank, pl in tf.players.items()}
    seen: dict[str, int] = {}
    for rank, pid in list(ids.items()):  # a FIDE id on two lines: each line its own player, named by its rank
        if pid in seen:
            ids[rank] = f"#{rank}"
            ids[seen[pid]] = f"#{seen[pid]}"
        seen[pid] = rank
    players = []
    pairings: dict[str, tuple[Any, ...]] = {}
    for rank, pl in sorted(tf.players.items()):
        players.append(engine.Entrant(ids[rank], pl.name, pl.rating, pl.title, pl.federation, pl.sex, pl.fide_id,
                                      start_rank=rank))
        pairings[ids[rank]] = tuple(engine.Pairing(b.round, ids.get(b.opponent) if b.opponent else None, b.code)
                                    for b in pl.blocks)
    declared = 0
    for code in ("142", "XXR"):
        if tf.tag(code).isdigit():
            declared = int(tf.tag(code))
            break
    host = tf.tag("032").upper()
    host = host if len(host) == 3 and host.isalpha() and host.isascii() else ""
    system = _system_word(f"{tf.tag('092')} {tf.tag('192')}")
    return engine.Tournament(tuple(players), pairings, declared, system or "auto", host, tf.title), warnings


def from_tables(players: Any, games: Any, norms: TitleNorms) -> tuple[Any, list[str]]:
    """The tournament of a players table and a games table (CSV files or :class:`xl_elo.formats.reader.Table`)."""
    from xl_elo.core import ResultKind
    from xl_elo.formats import csvfiles
    from xl_elo.formats.reader import Sources, Table, read

    engine = norms.engine
    loaded = [t if isinstance(t, Table) else csvfiles.table(t) for t in (players, games)]
    tables = read(engine.NormPlayer, loaded[0], loaded[1], sources=Sources(loaded[0].source, loaded[1].source))
    event = tables.event()
    source = loaded[1].source
    problems = [Problem(source, g.row, "round", "the round is blank: a norm needs each game's round (1.4.1c, "
                                                "1.4.1e)") for g in event.games if g.round is None]
    if problems:
        raise InputError(problems)
    warnings = list(tables.warnings)
    unrated = [g.row for g in event.games if not g.rated]
    if unrated:
        warnings.append(f"{source}: {len(unrated)} game(s) marked not rated (rows {', '.join(map(str, unrated[:10]))}"
                        f"{' ...' if len(unrated) > 10 else ''}) are left out: a norm counts FIDE-rated games")
    sides: dict[str, list[Any]] = {p.id: [] for p in event.players}
    flip = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", " ": " "}
    byes = []
    for g in event.games:
        if not g.rated:
            continue
        r = g.result
        if g.opponent is None:
            sides[g.player].append(engine.Pairing(g.round, None, engine.PAIRING_BYE))
            byes.append(g.row)
            continue
        if r.kind is ResultKind.PLAYED:
            code = {1.0: "1", 0.5: "=", 0.0: "0"}[float(r.score or 0.0)]
        elif r.kind is ResultKind.FORFEIT:
            code = "+" if r.score == 1.0 else "-"
        else:
            code = " "
        other = "-" if (r.kind is ResultKind.FORFEIT and r.score is None) else flip[code]
        sides[g.player].append(engine.Pairing(g.round, g.opponent, code))
        sides[g.opponent].append(engine.Pairing(g.round, g.player, other))
    if byes:
        warnings.append(f"{source}: {len(byes)} bye(s) read as pairing-allocated (1.4.1c; a bye the player asked for "
                        "is left out of the games table: rules 13.12)")
    read_players: Sequence[Any] = event.players  # the engine's NormPlayer: title, federation, sex, fide_id
    entrants = tuple(engine.Entrant(p.id, p.name, p.rating, p.title or "", p.federation or "", p.sex or "", p.fide_id)
                     for p in read_players)
    return engine.Tournament(entrants, {k: tuple(v) for k, v in sides.items()}, 0, "auto", "", event.name), warnings
