"""xl-elo benchmark: federation-scale periods on reproducible synthetic data.

    python bench/run.py            # full sizes (FIDE up to 10^6 games), a few minutes
    python bench/run.py --quick    # small sizes, a minute

Times are medians of several runs. The FIDE workload also runs through elochess (the FIDE
package a Python user would otherwise pick; installed into bench/.peer if missing) and a plain
Python loop, with the ratios. The template workbooks are timed in LibreOffice too, each filled
to its room (bench/templates_lo.py; ``--no-templates`` skips them). Results are printed as a
table and written as JSON (bench/results.json by default).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from bisect import bisect_right
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from xl_elo import rate  # noqa: E402
from xl_elo.core import parse_result, performance_zero  # noqa: E402
from xl_elo.federations import fide  # noqa: E402
from xl_elo.federations.fesa import Player as FesaPlayer  # noqa: E402
from xl_elo.federations.fqe import Player as FqePlayer  # noqa: E402
from xl_elo.model import Event, EventArrays, Game, InputError  # noqa: E402
from xl_elo.tables import FIDE_PD_ROWS  # noqa: E402

ROWS: list[dict[str, object]] = []


def timed(fn, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def record(name: str, size: str, seconds: float, per: float | None = None, note: str = "") -> None:
    ROWS.append({"benchmark": name, "size": size, "seconds": round(seconds, 4),
                 "per_second": None if per is None else round(per / seconds), "note": note})
    print(f"{name:<46} {size:>14} {seconds:>10.4f} s  {note}", flush=True)


# --------------------------------------------------------------------------- data


def fide_period(games: int, seed: int = 1, unrated: float = 0.05) -> dict[str, np.ndarray]:
    """A month of rated tournaments as a federation sees it: 9-round Swiss events of 60 players,
    5% of the players unrated, a bye in each round of an odd event, 2% forfeits."""
    rng = np.random.default_rng(seed)
    per_event, rounds = 60, 9
    events = max(1, games // (per_event // 2 * rounds))
    players = events * per_event
    rating = rng.integers(1400, 2700, players).astype(np.float64)
    rating[rng.random(players) < unrated] = np.nan
    a_list, b_list, r_list = [], [], []
    for e in range(events):
        size = per_event - (e % 2)  # every other event has an odd number of players: a bye each round
        base = e * per_event
        for rnd in range(1, rounds + 1):
            order = base + rng.permutation(size)
            a_list.append(order[0:size - 1:2])
            b_list.append(order[1:size:2])
            r_list.append(np.full(size // 2, rnd))
            if size % 2:
                a_list.append(order[-1:])
                b_list.append(np.array([-1]))  # the bye
                r_list.append(np.array([rnd]))
    a, b, rnd = np.concatenate(a_list), np.concatenate(b_list), np.concatenate(r_list)
    score = rng.choice([0.0, 0.5, 1.0], len(a))
    forfeit = rng.random(len(a)) < 0.02
    return {"rating": rating, "games": rng.integers(0, 200, players), "birth": rng.integers(1950, 2015, players),
            "ever": rng.random(players) < 0.05, "a": a, "b": b, "round": rnd, "score": score, "forfeit": forfeit}


def counting(d: dict[str, np.ndarray]) -> np.ndarray:
    """The games that count: played (no bye, no forfeit)."""
    return (d["b"] >= 0) & ~d["forfeit"]


def fide_arrays(d: dict[str, np.ndarray]) -> EventArrays:
    n = len(d["rating"])
    c = counting(d)
    ids = [f"p{i}" for i in range(n)]
    return EventArrays(ids, [""] * n, d["rating"], d["a"][c].astype(np.int64), d["b"][c].astype(np.int64),
                       d["score"][c], "2026-10", {"games": d["games"].astype(np.float64),
                                                  "birth_year": d["birth"].astype(np.float64), "ever_2400": d["ever"]})


def write_csv(d: dict[str, np.ndarray], folder: Path, federation: str = "fide") -> tuple[Path, Path]:
    """The period as the two CSV files a rating officer would give ``xl-elo rate``."""
    players = folder / "players.csv"
    games = folder / "games.csv"
    with players.open("w", newline="") as f:
        w = csv.writer(f)
        if federation == "ffe":
            w.writerow(["id", "name", "rating", "games", "category"])
        else:
            w.writerow(["id", "name", "rating", "games", "birth_year", "ever_2400"])
        for i, r in enumerate(d["rating"]):
            unrated = np.isnan(r)
            shown = 0 if unrated else int(r) // 10 * 10 if federation == "ffe" else int(r)  # the FFE's in tens
            row = [f"p{i}", f"Player {i}", "" if unrated else shown, 0 if unrated else int(d["games"][i])]
            if federation == "ffe":
                row.append("junior" if d["birth"][i] >= 2006 else "senior")
            else:
                row += [int(d["birth"][i]), "yes" if d["ever"][i] else "no"]
            w.writerow(row)
    text = {0.0: "0", 0.5: "0.5", 1.0: "1"}
    with games.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["round", "player", "opponent", "result"])
        for a, b, r, s, ff in zip(d["a"].tolist(), d["b"].tolist(), d["round"].tolist(), d["score"].tolist(),
                                  d["forfeit"].tolist(), strict=True):
            if b < 0:
                w.writerow([r, f"p{a}", "", "bye"])
            else:
                w.writerow([r, f"p{a}", f"p{b}", ("+" if s >= 0.5 else "-") if ff else text[s]])
    return players, games


# --------------------------------------------------------------------------- peers


def elochess():  # type: ignore[no-untyped-def]
    """elochess, installed into bench/.peer (its own folder) when missing."""
    try:
        return importlib.import_module("elochess")
    except ImportError:
        target = HERE / ".peer"
        if not (target / "elochess").exists():
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                            "elochess==0.5.0"], check=True)
        sys.path.insert(0, str(target))
        return importlib.import_module("elochess")


def peer_elochess(d: dict[str, np.ndarray]) -> None:
    elochess()
    calc = importlib.import_module("elochess.elo").EloCalculator
    opps: dict[int, list[int]] = {}
    scores: dict[int, float] = {}
    rating = d["rating"]
    c = counting(d)
    for a, b, s in zip(d["a"][c].tolist(), d["b"][c].tolist(), d["score"][c].tolist(), strict=True):
        if rating[a] == rating[a] and rating[b] == rating[b]:
            opps.setdefault(a, []).append(int(rating[b]))
            scores[a] = scores.get(a, 0.0) + s
            opps.setdefault(b, []).append(int(rating[a]))
            scores[b] = scores.get(b, 0.0) + 1 - s
    for i, o in opps.items():
        calc.update_rating(int(rating[i]), o, scores[i], birth_year=int(d["birth"][i]), evaluation_year=2026,
                           games_played=int(d["games"][i]), reached_2400=bool(d["ever"][i]))


def peer_elochess_csv(players: Path, games: Path, out: Path) -> None:
    """What a Python user would write with elochess: read both CSV files, rate, write a CSV."""
    elochess()
    calc = importlib.import_module("elochess.elo").EloCalculator
    with players.open(newline="") as f:
        rows = list(csv.DictReader(f))
    info = {r["id"]: r for r in rows}
    opps: dict[str, list[int]] = {}
    scores: dict[str, float] = {}
    with games.open(newline="") as f:
        for g in csv.DictReader(f):
            if not g["opponent"] or g["result"] in ("+", "-"):  # byes and forfeits are not rated
                continue
            a, b, s = info[g["player"]], info[g["opponent"]], float(g["result"])
            if a["rating"] and b["rating"]:
                opps.setdefault(a["id"], []).append(int(b["rating"]))
                scores[a["id"]] = scores.get(a["id"], 0.0) + s
                opps.setdefault(b["id"], []).append(int(a["rating"]))
                scores[b["id"]] = scores.get(b["id"], 0.0) + 1 - s
    with out.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "rating_after"])
        for pid, o in opps.items():
            p = info[pid]
            w.writerow([pid, calc.update_rating(int(p["rating"]), o, scores[pid], birth_year=int(p["birth_year"]),
                                                evaluation_year=2026, games_played=int(p["games"]),
                                                reached_2400=p["ever_2400"] == "yes")])


def record_memory(name: str, size: str, args: list[str]) -> None:
    """Peak resident memory of ``xl-elo`` with these arguments, in a process of its own."""
    # VmHWM belongs to the process's own memory map (getrusage's maximum would include the
    # benchmark's own size, inherited through fork)
    code = ("import sys; from xl_elo.frontends.cli import main; main(sys.argv[1:]); "
            "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                          cwd=HERE.parent, env={**os.environ, "PYTHONPATH": str(HERE.parent)})
    megabytes = int(done.stdout.split()[-1]) / 1024  # kilobytes
    ROWS.append({"benchmark": name, "size": size, "seconds": None, "per_second": None,
                 "note": f"{megabytes:.0f} MB", "megabytes": round(megabytes)})
    print(f"{name:<46} {size:>14} {megabytes:>10.0f} MB", flush=True)


_LOWER = [row[0] for row in FIDE_PD_ROWS]
_PCT = [row[2] for row in FIDE_PD_ROWS]


def plain_loop(d: dict[str, np.ndarray]) -> None:
    """FIDE rules in a plain Python loop over the games (what a spreadsheet macro would do)."""
    rating = d["rating"].tolist()
    total: dict[int, float] = {}
    count: dict[int, int] = {}
    c = counting(d)
    for a, b, s in zip(d["a"][c].tolist(), d["b"][c].tolist(), d["score"][c].tolist(), strict=True):
        ra, rb = rating[a], rating[b]
        if ra != ra or rb != rb:
            continue
        for me, other, sc in ((ra, rb, s), (rb, ra, 1 - s)):
            diff = max(-400, min(400, me - other))
            pct = _PCT[bisect_right(_LOWER, abs(diff)) - 1]
            e = pct if diff >= 0 else 100 - pct
            key = a if me is ra else b
            total[key] = total.get(key, 0.0) + sc - e / 100
            count[key] = count.get(key, 0) + 1
    for key in total:
        _ = rating[key] + round(20 * total[key])


# --------------------------------------------------------------------------- benchmarks


def bench_fide(sizes: list[int], csv_sizes: list[int], peers: bool) -> None:
    for g in sizes:
        d = fide_period(g)
        ev = fide_arrays(d)
        t = timed(lambda ev=ev: fide.rate_arrays(ev), repeat=7)  # a tenth of a second: seven runs cost nothing
        record("FIDE engine (rate_arrays)", f"{g:,} games", t, g, f"{g / t / 1e6:.1f} M games/s")
        if peers:
            te = timed(lambda d=d: peer_elochess(d), repeat=1 if g >= 10**6 else 3)
            record("FIDE through elochess 0.5.0", f"{g:,} games", te, g, f"engine is {te / t:.0f}x faster")
            tp = timed(lambda d=d: plain_loop(d), repeat=1 if g >= 10**6 else 3)
            record("FIDE plain Python loop", f"{g:,} games", tp, g, f"engine is {tp / t:.0f}x faster")
    for g in csv_sizes:
        d = fide_period(g)
        with tempfile.TemporaryDirectory() as tmp:
            players, games = write_csv(d, Path(tmp))
            out = Path(tmp) / "out.csv"
            args = ["rate", "-f", "fide", "-p", str(players), "-g", str(games), "--period", "2026-10", "-o", str(out)]
            t = timed(lambda args=args: rate_cli(args), repeat=3)
            record("FIDE CSV to CSV, rounds and byes (xl-elo rate)", f"{g:,} games", t, g)
            if peers:  # the peer takes ten seconds at 10^6 games: one run is enough there
                tc = timed(lambda p=players, gm=games, o=Path(tmp) / "peer.csv": peer_elochess_csv(p, gm, o),
                           repeat=1 if g >= 10**6 else 3)
                record("FIDE CSV to CSV, csv module + elochess", f"{g:,} games", tc, g,
                       f"xl-elo is {tc / t:.0f}x faster")
            if g >= 10**6:
                record_memory("FIDE CSV to CSV, peak memory", f"{g:,} games", args)
                bench_tokenizers(players, games, g)


def bench_tokenizers(players: Path, games: Path, g: int) -> None:
    """Reading the two files only (no value read, nothing rated): xl-elo's numpy tokenizer, and
    pyarrow's CSV reader, multi-threaded, where it is installed (a candidate for big files)."""
    from xl_elo.formats import csvfiles

    t = timed(lambda: (csvfiles.table(players), csvfiles.table(games)), repeat=3)
    record("reading the two CSV files: xl-elo's tokenizer", f"{g:,} games", t, g)
    try:
        import pyarrow.csv as pacsv  # type: ignore[import-not-found]
    except ImportError:
        return
    ta = timed(lambda: (pacsv.read_csv(players), pacsv.read_csv(games)), repeat=3)
    record("reading the two CSV files: pyarrow (reference)", f"{g:,} games", ta, g,
           f"xl-elo's tokenizer takes {t / ta:.1f}x its time")


def rate_cli(args: list[str]) -> None:
    """``xl-elo`` with these arguments; a benchmark whose input is refused measures nothing."""
    from xl_elo.frontends.cli import main

    status = main(args, stderr=io.StringIO())
    if status != 0:
        raise SystemExit(f"bench: xl-elo {' '.join(args)} exited {status}: the benchmark's input is wrong")


def bench_ffe(games: int) -> None:
    d = fide_period(games, seed=2, unrated=0.10)
    with tempfile.TemporaryDirectory() as tmp:
        p, g = write_csv(d, Path(tmp), "ffe")
        args = ["rate", "-f", "ffe", "-p", str(p), "-g", str(g), "-o", str(Path(tmp) / "out.csv")]
        t = timed(lambda: rate_cli(args), repeat=3)
        record("FFE CSV to CSV, rounds and byes, 10% unrated", f"{games:,} games", t, games)
        if games >= 10**6:
            record_memory("FFE CSV to CSV, peak memory", f"{games:,} games", args)


def small_event(players: int, rounds: int, seed: int, unrated: float = 0.1) -> Event:
    rng = np.random.default_rng(seed)
    ps = []
    for i in range(players):
        r = None if rng.random() < unrated else float(rng.integers(1000, 2400))
        ps.append(FqePlayer(f"p{i}", rating=r, games=0 if r is None else int(rng.choice([10, 40]))))
    gs = []
    for rnd in range(1, rounds + 1):
        order = rng.permutation(players)
        for x, y in zip(order[0::2], order[1::2], strict=False):
            gs.append(Game(ps[x].id, ps[y].id, parse_result(float(rng.choice([0, 0.5, 1]))), rnd))
    return Event(tuple(ps), tuple(gs))


def bench_fqe(sizes: list[int]) -> None:
    for n in sizes:
        ev = small_event(n, 7, n)
        t = timed(lambda ev=ev: rate("fqe", ev))
        record("FQE event, 7 rounds", f"{n:,} players", t, n)


def bench_fesa_season(tournaments: int) -> None:
    rng = np.random.default_rng(3)
    pool = [FesaPlayer(f"s{i}", rating=float(rng.integers(400, 2200)), games=40,
                       bonus_count=int(rng.integers(0, 100))) for i in range(300)]

    unsettled: list[int] = []

    def season() -> None:
        records = {p.id: p for p in pool}
        for t in range(tournaments):
            ids = rng.choice(len(pool), 30, replace=False)
            players = [records[pool[i].id] for i in ids]
            gs = []
            for rnd in range(1, 7):
                order = rng.permutation(30)
                for x, y in zip(order[0::2], order[1::2], strict=True):
                    gs.append(Game(players[x].id, players[y].id, parse_result(float(rng.choice([0, 1]))), rnd))
            try:
                res = rate("fesa", Event(tuple(players), tuple(gs), (), None, f"t{t}"))
            except InputError:  # rules 6.6: a tournament that never settles is refused; skip it here
                unsettled.append(t)
                continue
            for row in res.rows:
                old = records[row["id"]]
                records[row["id"]] = FesaPlayer(old.id, rating=row["rating_after"], games=row["games_after"],
                                                bonus_count=row["bonus_count"], grade=row["grade_after"],
                                                lb_run=row["lb_run"], mp_run=row["mp_run"],
                                                mp_reached=row["mp_reached"])

    t = timed(season, repeat=1)
    record("FESA season, tournaments of 30 x 6 rounds", f"{tournaments:,} tournaments", t, tournaments,
           f"{len(unsettled)} random tournament(s) never settled (refused, rules 6.6)" if unsettled else "")
    big = small_event(200, 9, 7, unrated=0.1)
    t = timed(lambda: rate("fesa", big))
    record("FESA tournament, 9 rounds", "200 players", t, 200)


def bench_season_workbook(players: int, periods: int, playing: float = 0.37) -> None:
    """The season workbook (xl_elo/formats/seasonbook.py) of a club's list over ``periods`` months: each player's
    rating a random walk, ``playing`` of them in each month (a club's twenty years: 2,000 players, 240 periods,
    some 100,000 games, about 180,000 history rows)."""
    from xl_elo.federations import get
    from xl_elo.formats.seasonbook import season_workbook

    rng = np.random.default_rng(8)
    keys = [f"{2006 + m // 12}-{m % 12 + 1:02d}" for m in range(periods)]
    ids = [f"p{i:05d}" for i in range(players)]
    steps = np.where(rng.random((players, periods)) < playing, rng.normal(0, 12, (players, periods)).round(), 0)
    ratings = rng.normal(1700, 250, players).round()[:, None] + steps.cumsum(axis=1)
    lists = {pid: [float(x) for x in ratings[i]] for i, pid in enumerate(ids)}
    names = {pid: f"Player {pid[1:]}" for pid in ids}
    history = [{"unit": keys[u], "period": keys[u], "start": f"{keys[u]}-01", "end": f"{keys[u]}-28", "id": ids[i],
                "name": names[ids[i]], "rating_before": float(ratings[i, u] - steps[i, u]), "games_rated": 4,
                "score": 2.5, "expected": 2.1, "k": 20, "change": float(steps[i, u]),
                "rating_after": float(ratings[i, u])}
               for u in range(periods) for i in np.flatnonzero(steps[:, u] != 0).tolist()]
    units = [{"unit": k, "period": k} for k in keys]
    size = 0

    def write() -> None:
        nonlocal size
        size = len(season_workbook(get("fide"), keys, units, lists, names, history))

    t = timed(write, repeat=1)
    record("season workbook (.xlsx), a club's list", f"{players:,} x {periods} periods", t, None,
           f"{len(history):,} history rows, {size / 2**20:.1f} MiB")


def bench_performance(players: int) -> None:
    rng = np.random.default_rng(4)
    per = 10
    who = np.repeat(np.arange(players), per)
    opp = rng.integers(800, 2400, players * per).astype(np.float64)
    score = rng.choice([0.0, 0.5, 1.0], players * per)
    score[::per] = 1.0
    score[1::per] = 0.0  # every player has a win and a loss: a zero exists
    t = timed(lambda: performance_zero(who, opp, score, players))
    record("performance ratings (zero of g), 10 games each", f"{players:,} players", t, players)


def bench_udfs(cells: int) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("xl_elo_udfs", HERE.parent / "udfs" / "xl_elo_udfs.py")
    udfs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(udfs)  # type: ignore[union-attr]
    rng = np.random.default_rng(5)
    r = [[float(x)] for x in rng.integers(1000, 2800, cells)]
    o = [[float(x)] for x in rng.integers(1000, 2800, cells)]
    t = timed(lambda: udfs.elo_expected(r, o))
    record("ELO_EXPECTED over a column", f"{cells:,} cells", t, cells)
    games = cells // 4
    d = fide_period(games, 6)
    players = [["id", "rating", "games", "birth_year"]] + [
        [f"p{i}", None if np.isnan(x) else float(x), 0.0 if np.isnan(x) else 50.0, float(d["birth"][i])]
        for i, x in enumerate(d["rating"])]
    table = [["round", "player", "opponent", "result"]] + [
        [float(r), f"p{a}", None if b < 0 else f"p{b}", "bye" if b < 0 else ("+" if f else float(s))]
        for a, b, r, s, f in zip(d["a"], d["b"], d["round"], d["score"], d["forfeit"], strict=True)]
    t = timed(lambda: udfs.elo_rate("fide", players, table, None, "2026-10"))
    record("ELO_RATE, a FIDE period as ranges", f"{games * 4:,} cells", t, games * 4)


def ladder_files(folder: Path, players: int, per_period: int, periods: int, days: int, seed: int = 8,
                 heavy: bool = False) -> tuple[Path, Path]:
    """A Glicko-2 ladder as a club keeps it: every tenth player new, the others rated with an RD and a volatility,
    ``per_period`` games in each of ``periods`` periods ``days`` apart (dates); with ``heavy``, player p0 plays
    every game of the ladder (a weekly ladder of one keen player: 1,092 games in 156 weeks of 7)."""
    rng = np.random.default_rng(seed)
    p, g = folder / "ladder.csv", folder / "season.csv"
    with p.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "rating", "rd", "volatility"])
        for i in range(players):
            if i % 10 == 0 and not (heavy and i == 0):
                w.writerow([f"p{i}", f"Player {i}", "", "", ""])
            else:
                w.writerow([f"p{i}", f"Player {i}", round(float(rng.uniform(1200, 2200)), 2),
                            round(float(rng.uniform(40, 250)), 2), 0.06])
    import datetime as dt

    start = dt.date(2020, 1, 6)
    with g.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["period", "round", "player", "opponent", "result"])
        for k in range(periods):
            day = (start + dt.timedelta(days=days * k)).isoformat()
            for j in range(per_period):
                a, b = (0, 1 + j % (players - 1)) if heavy else rng.choice(players, 2, replace=False)
                w.writerow([day, j + 1, f"p{a}", f"p{b}", ("1", "0", "0.5")[int(rng.integers(3))]])
    return p, g


def naive_ladder(event: Event) -> dict[str, tuple[float | None, float | None, float | None]]:
    """The ladder rated as its rules read, period by period, by a plain loop: each period scans every game for its
    own and computes every player (Steps 1 - 8 through the engine's ``update``): what the engine did before
    issue 34. Each player's (rating, RD, volatility) after the last period."""
    from xl_elo.federations import glicko2 as g2

    players = [g2.Player(p.id, rating=p.rating, rd=getattr(p, "rd", None), volatility=getattr(p, "volatility", None))
               for p in event.players]
    state = {}
    for p in players:
        new, mu, phi, sigma = g2._start(p, g2.RD_CAP)
        state[p.id] = [new, mu, phi, sigma, p.rating, p.rd]
    counting = [gm for gm in event.games if gm.counts]
    for period in g2.periods_of(event):
        sides: dict[str, list[tuple[float, float, float]]] = {}
        for gm in counting:
            if gm.period != period:
                continue
            a, b = state[gm.player], state[gm.opponent]  # type: ignore[index]
            s = float(gm.result.score)  # type: ignore[arg-type]
            sides.setdefault(gm.player, []).append((b[1], b[2], s))
            sides.setdefault(gm.opponent, []).append((a[1], a[2], 1.0 - s))  # type: ignore[arg-type]
        after = {}
        for pid, st in state.items():
            if st[0] and pid not in sides:
                continue
            after[pid] = g2.update(st[1], st[2], st[3], sides.get(pid, []), g2.TAU_DEFAULT, g2.RD_CAP)
        for pid, done in after.items():
            st = state[pid]
            st[4], st[5], st[3] = done.rating_after, done.rd_after, done.sigma_after
            st[1], st[2] = g2.to_scale(st[4], st[5])
            st[0] = st[0] and not done.scores
    return {pid: (None, None, None) if st[0] else (st[4], st[5], st[3]) for pid, st in state.items()}


def bench_ladders(quick: bool) -> None:
    """Glicko-2 ladders at sizes the command accepts (issue 34): a weekly ladder of 156 periods whose keenest
    player has 1,092 games (the limit of 1,000 is a period's), and a daily ladder of 60,000 games, CSV to CSV;
    the engine against the naive per-period loop (the same doubles, checked)."""
    from xl_elo import load

    shapes = [("weekly, 156 periods, one player in every game", 8, 7, 156, 7, True),
              ("daily, 2,000 players", 2000, 20, 3000 if not quick else 300, 1, False)]
    for title, players, per, periods, days, heavy in shapes:
        with tempfile.TemporaryDirectory() as tmp:
            p, g = ladder_files(Path(tmp), players, per, periods, days, heavy=heavy)
            games = per * periods
            args = ["rate", "-f", "glicko2", "-p", str(p), "-g", str(g), "-o", str(Path(tmp) / "out.csv")]
            t = timed(lambda args=args: rate_cli(args), repeat=1 if games > 10**4 else 3)
            record(f"Glicko-2 ladder CSV to CSV, {title}", f"{games:,} games", t, games)
            loaded = load("glicko2", players=p, games=g)
            ev = loaded.event
            te = timed(lambda ev=ev: rate("glicko2", ev), repeat=1 if games > 10**4 else 3)
            record("Glicko-2 ladder engine (rate)", f"{periods:,} periods", te, games)
            tn = timed(lambda ev=ev: naive_ladder(ev), repeat=1)
            engine = {r["id"]: (r["rating_after"], r["rd_after"], r["volatility_after"])
                      for r in rate("glicko2", ev).rows}
            same = engine == naive_ladder(ev)
            said = "the same doubles" if same else "RESULTS DIFFER"
            record("Glicko-2 ladder, naive per-period loop", f"{periods:,} periods", tn, games,
                   f"the loop takes {tn / te:.1f}x the engine's time; {said}")


def club_season(folder: Path, players: int, periods: int, games: int, seed: int = 11) -> tuple[Path, Path]:
    """A club's own list over years (issue 33): monthly periods, each with a few events (a Swiss evening, a
    weekend), ratings from 1100 to 2400, every player born before the first period, every game with its day
    and its event, as a club's games table holds them."""
    rng = np.random.default_rng(seed)
    ids = [f"m{i:04d}" for i in range(players)]
    with (folder / "players.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "rating", "games", "birth_year"])
        for i, pid in enumerate(ids):
            w.writerow([pid, f"Member {i}", int(rng.integers(1100, 2400)), int(rng.integers(30, 900)),
                        int(rng.integers(1945, 2000))])
    per_period = games // periods
    with (folder / "games.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["event", "date", "round", "player", "opponent", "result"])
        for k in range(periods):
            year, month = 2006 + k // 12, k % 12 + 1
            for e in range(4):
                rounds = 5
                pairs = per_period // (4 * rounds)
                for rnd in range(1, rounds + 1):
                    who = rng.choice(players, size=2 * pairs, replace=False)
                    day = f"{year:04d}-{month:02d}-{min(28, 7 * e + rnd):02d}"
                    for a, b in zip(who[0::2], who[1::2], strict=True):
                        w.writerow([f"club {year}-{month:02d} #{e + 1}", day, rnd, ids[a], ids[b],
                                    rng.choice(["1", "0", "½"], p=[0.4, 0.4, 0.2])])
    return folder / "players.csv", folder / "games.csv"


def bench_seasons(quick: bool) -> None:
    """Ratings over time (issue 33): a club's twenty years in one run, end to end (240 monthly periods, 100,000
    games, 2,000 players: under 2 s asked), against rating the periods one by one in a Python loop, each results
    table read back as the next players table (what a user scripts without seasons; the same list checked);
    and FIDE's month with each event from its own list (a million games, every game with its start ratings)
    beside the same month with one list."""
    from xl_elo.frontends.cli import main as cli_main
    from xl_elo.loader import load

    players, periods, games = (200, 24, 10_000) if quick else (2000, 240, 100_000)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        p, g = club_season(folder, players, periods, games)
        out = folder / "list.csv"
        seconds = timed(lambda: cli_main(["rate", "-f", "fide", "-p", str(p), "-g", str(g), "--format", "csv",
                                          "-o", str(out)], stdout=io.StringIO(), stderr=io.StringIO()), 3)
        record("season: a club's years, xl-elo rate", f"{periods}p {games}g", seconds, games,
               f"{players} players, {periods} monthly periods, end to end")
        loaded = load("fide", players=p, games=g)

        def by_hand() -> None:  # each period alone, its results typed back in as the next players table
            from xl_elo.formats.writers import results_csv

            rows = list(csv.reader(g.open(encoding="utf-8")))
            current = p.read_bytes()
            for unit in loaded.units:
                mine = [rows[0]] + [rows[1 + i] for i in unit.rows.tolist()]
                players_file, games_file = folder / "now_players.csv", folder / "now_games.csv"
                players_file.write_bytes(current)
                with games_file.open("w", encoding="utf-8", newline="") as f:  # its events, to tell their rounds
                    csv.writer(f).writerows(mine)
                one = load("fide", players=players_file, games=games_file)
                current = results_csv(one.rate())
            assert current == out.read_bytes(), "the loop and the season differ"

        loop = timed(by_hand, 1)
        record("season: the same, period by period in a loop", f"{periods}p {games}g", loop, games,
               f"x{loop / seconds:.1f} the season's time; the same list")
    d = fide_period(10**4 if quick else 10**6)
    ev = fide_arrays(d)
    one = timed(lambda: fide.rate_arrays(ev), 3)
    record("FIDE month, one list", f"{len(ev.player):,}g", one, len(ev.player))
    rng = np.random.default_rng(5)
    starts = ev.rating[ev.player] + rng.integers(-8, 9, len(ev.player)) * (rng.random(len(ev.player)) < 0.3)
    opp = ev.rating[ev.opponent]
    listed = EventArrays(ev.ids, ev.names, ev.rating, ev.player, ev.opponent, ev.score, ev.period, dict(ev.facts),
                         {"player_rating": np.nan_to_num(starts, nan=0.0), "opponent_rating": np.nan_to_num(opp,
                                                                                                          nan=0.0)})
    each = timed(lambda: fide.rate_arrays(listed), 3)
    record("FIDE month, each event from its own list", f"{len(ev.player):,}g", each, len(ev.player),
           f"x{each / one:.2f} one list's time (30% of the games started under an earlier list)")


def record_build(name: str, size: str, args: list[str]) -> None:
    """Time and peak memory of ``xl-elo workbooks`` with these arguments, in a process of its own."""
    code = ("import sys, time; from xl_elo.frontends.cli import main; t = time.perf_counter(); "
            "status = main(sys.argv[1:]); print(time.perf_counter() - t, status, "
            "[l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                          cwd=HERE.parent, env={**os.environ, "PYTHONPATH": str(HERE.parent)})
    seconds, status, kb = done.stdout.split()[-3:]
    megabytes = int(kb) / 1024
    note = f"peak {megabytes:.0f} MB" + ("" if status == "0" else f"; exit {status}: {done.stderr.strip()[:200]}")
    ROWS.append({"benchmark": name, "size": size, "seconds": round(float(seconds), 4), "per_second": None,
                 "note": note, "megabytes": round(megabytes)})
    print(f"{name:<46} {size:>14} {float(seconds):>10.4f} s  {note}", flush=True)


def bench_builds(quick: bool) -> None:
    """``xl-elo workbooks`` at the largest room each template accepts (issue 34: a ladder's build of 2,000 players
    and 52 periods ran past 300 s and 6.5 GB, DWZ's with 20,000 history rows 210 s and 7.3 GB): the rooms the
    command's limits allow, each scaled to the most formulas a workbook may hold (xl_elo.templates.MAX_FORMULAS)."""
    from dataclasses import replace

    from xl_elo.templates import default_capacity, largest_room, rooms, template_names

    most = {"players": 2000, "games": 20000, "history": 20000, "periods": 52}
    with tempfile.TemporaryDirectory() as tmp:
        for code in template_names():
            if code == "tables":
                continue
            has = rooms(code)
            asked = replace(default_capacity(code), **{k: (most[k] // 10 if quick else most[k]) for k in has})
            room = largest_room(code, asked)
            flags = [x for k in has for x in (f"--{k}", str(getattr(room, k)))]
            size = ", ".join(f"{getattr(room, k):,} {k}" for k in has)
            record_build(f"workbook at its largest room: {code}", size,
                         ["workbooks", "--only", code, "-o", tmp, "--replace", *flags])
        record_build("workbook: DWZ with 20,000 history rows", "80 players", ["workbooks", "--only", "dwz", "-o", tmp,
                                                                              "--replace", "--history", "20000"])


def bench_refusals() -> None:
    """How long a hostile file takes to be refused: the hostile corpus's cases that carry a time budget
    (tests/data/hostile, ``seconds``) and the hostile workbooks of tests/test_bad_input.py. Tests never assert a
    time (a busy machine is no defect); the budgets are checked here, each row saying whether it held."""
    import shutil
    import tomllib

    sys.path.insert(0, str(HERE.parent / "tests"))
    import test_bad_input
    import test_hostile

    from xl_elo.templates import Capacity, build_template

    for case in test_hostile.CASES:
        spec = tomllib.loads((test_hostile.HOSTILE / case / "case.toml").read_text(encoding="utf-8"))
        if "seconds" not in spec or (spec.get("root") and os.geteuid() != 0):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp) / "work"
            shutil.copytree(test_hostile.HOSTILE / case, work, symlinks=True)
            (work / "case.toml").unlink()
            here = os.getcwd()
            saved = {k: os.environ.get(k) for k in spec.get("env", {})}
            os.chdir(work)
            try:
                os.environ.update({k: str(v) for k, v in spec.get("env", {}).items()})
                if "build" in spec:
                    test_hostile.BUILDERS[spec["build"]](work)
                start = time.perf_counter()
                for step in spec.get("steps", [spec]):
                    if "args" in step:
                        test_hostile.run_cli(step["args"])
                seconds = time.perf_counter() - start
            finally:
                os.chdir(here)
                for k, v in saved.items():
                    os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)
            budget = spec["seconds"]
            record(f"refused: {case}", "", seconds, None,
                   f"budget {budget} s: {'held' if seconds < budget else 'EXCEEDED'}")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        template = build_template("fqe", base / "t", Capacity(24, 120, 120))
        workbooks = (("a zip bomb (600 MB of zeros)", lambda: test_bad_input.zip_bomb(base / "b.xlsx"), 5),
                     ("an entity bomb", lambda: test_bad_input.entity_bomb(template, base / "e.xlsx"), 5),
                     ("a million formatted blank rows", lambda: test_bad_input.blank_rows(template, base / "r.xlsx"),
                      10))
        for name, made, budget in workbooks:
            path = made()
            t = timed(lambda path=path: test_hostile.run_cli(["rate", str(path), "--format", "csv"]), repeat=1)
            held = "held" if t < budget else "EXCEEDED"
            record(f"refused workbook: {name}", "", t, None, f"budget {budget} s: {held}")


def bench_templates() -> None:
    """Each template filled to its room, recalculated in LibreOffice through UNO (bench/templates_lo.py);
    skipped, and said so, where LibreOffice or its Python bridge is missing."""
    import shutil

    sys.path.insert(0, str(HERE))
    import templates_lo

    if shutil.which("soffice") is None or templates_lo.uno_python() is None:
        print("templates in LibreOffice: skipped (needs soffice and python3-uno)", flush=True)
        return
    for row in templates_lo.run():
        ROWS.append(row)


def markdown(doc: dict) -> str:  # type: ignore[type-arg]
    """The README's table of a run (the templates' rows have their own: bench/templates_lo.py --markdown)."""
    lines = [f"Run on {doc['machine']}, Python {doc['python']}, numpy {doc['numpy']}:", "",
             "| benchmark | size | time | note |", "| --- | --- | ---: | --- |"]
    for r in (r for r in doc["results"] if not r["benchmark"].startswith("template ")):
        time_cell = f"{r['seconds']:.4f} s" if r["seconds"] is not None else ""
        note = r["note"] if r["seconds"] is not None else f"peak {r['note']}"
        lines.append(f"| {r['benchmark']} | {r['size']} | {time_cell} | {note} |")
    return "\n".join(lines)


def speed_check() -> None:
    """A fixed plain-Python loop: this machine's speed drifts (a shared virtual machine), so the
    table carries its own yardstick; compare ratios between rows of one run."""
    def loop() -> float:
        s = 0.0
        for i in range(3_000_000):
            s += i * 0.5
        return s

    record("yardstick: a plain Python loop of 3 M steps", "", timed(loop, repeat=5))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--json", default=str(HERE / "results.json"), help="where to write the results")
    parser.add_argument("--no-peers", action="store_true", help="skip elochess and the plain loop")
    parser.add_argument("--no-templates", action="store_true",
                        help="skip the template workbooks in LibreOffice (bench/templates_lo.py)")
    parser.add_argument("--markdown", metavar="JSON",
                        help="print the table of an earlier run for the README, run nothing")
    args = parser.parse_args()
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text(encoding="utf-8"))))
        return
    q = args.quick
    print(f"xl-elo benchmark on {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"numpy {np.__version__}\n")
    speed_check()
    bench_fide([10**4] if q else [10**4, 10**5, 10**6], [10**4] if q else [10**4, 10**5, 10**6], not args.no_peers)
    bench_ffe(10**4 if q else 10**6)
    bench_fqe([10, 100] if q else [10, 100, 1000, 10000])
    bench_fesa_season(20 if q else 1000)
    bench_season_workbook(200 if q else 2000, 24 if q else 240)
    bench_performance(10**4 if q else 10**5)
    bench_udfs(10**4 if q else 10**5)
    bench_ladders(q)
    bench_seasons(q)
    bench_builds(q)
    bench_refusals()
    if not args.no_templates:
        bench_templates()
    speed_check()
    doc = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform()}",
           "python": platform.python_version(), "numpy": np.__version__, "quick": q, "results": ROWS}
    Path(args.json).write_text(json.dumps(doc, indent=1), encoding="utf-8")
    print(f"\nwritten {args.json}")


if __name__ == "__main__":
    main()
