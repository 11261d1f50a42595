"""Reproducible synthetic events for the tests (and the same shapes as bench/)."""

from __future__ import annotations

import numpy as np

from xl_elo.core import parse_result
from xl_elo.federations import get
from xl_elo.model import Event, Game


def random_event(seed: int, n_players: int = 40, rounds: int = 7, unrated: float = 0.15, *,
                 federation: str = "fide", period: str = "2026-10") -> Event:
    """Players of mixed strength, some unrated; pairings random each round; results by strength."""
    rng = np.random.default_rng(seed)
    players = []
    Player = get(federation).Player
    strength = rng.normal(1750, 300, n_players).clip(900, 2750)
    for i in range(n_players):
        rated = rng.random() >= unrated
        rating = float(int(strength[i] + rng.normal(0, 60))) if rated else None
        if federation == "ffe" and rating is not None:  # the FFE publishes its Elo in tens (rules 5.9)
            rating = float(round(rating, -1))
        games = int(rng.choice([0, 5, 12, 20, 24, 25, 29, 30, 80, 400])) if rated else 0
        fields = dict(id=f"p{i:03d}", name=f"Player {i}", rating=rating, games=games)
        if federation in ("fide", "fse"):
            fields["birth_year"] = int(rng.choice([1960, 1985, 2000, 2008, 2010, 2013]))
            fields["ever_2400"] = bool(rating is not None and rating > 2350 and rng.random() < 0.5)
        if federation == "dwz":
            fields["index"] = int(rng.choice([0, 1, 2, 3, 5, 6, 12, 40])) if rated else None
            fields["birth_year"] = int(rng.choice([1960, 2000, 2003, 2008, 2013])) if rng.random() < 0.8 else None
        if federation == "ffe":
            fields["category"] = str(rng.choice(["junior", "senior"]))
            if rating is None and rng.random() < 0.5:
                fields["archive_perf"] = float(round(max(1000.0, rng.normal(1400, 200)), 3))  # Pj >= 1000 (rules 5.5)
                fields["archive_games"] = int(rng.integers(1, 8))
        own = {"id", "name", "rating", *Player.__dataclass_fields__}  # the facts this system reads
        players.append(Player(**{k: v for k, v in fields.items() if k in own}))
    games = []
    for rnd in range(1, rounds + 1):
        order = rng.permutation(n_players)
        for a, b in zip(order[0::2], order[1::2], strict=False):
            d = strength[a] - strength[b]
            p = 1 / (1 + 10 ** (-d / 400))
            u = rng.random()
            score = 1.0 if u < p - 0.1 else 0.5 if u < p + 0.1 else 0.0
            kind = rng.random()
            text = "+" if kind < 0.02 else score
            games.append(Game(players[a].id, players[b].id, parse_result(text), rnd))
        if n_players % 2:
            games.append(Game(players[order[-1]].id, None, parse_result(None, has_opponent=False), rnd))
    return Event(tuple(players), tuple(games), (), period, f"random {seed}")


def random_fesa_event(seed: int, n_players: int = 16, rounds: int = 5, handicaps: float = 0.4,
                      kinds: tuple[float, float, float, float] = (0.5, 0.2, 0.2, 0.1)) -> tuple[Event, tuple]:
    """A FESA tournament as they come: established players, players still rated by performance
    (with their history), new players with and without an NSR grade, weak players near the
    bottom of the grade scale, handicap games given by the stronger player, byes.

    Returns the event and its history rows."""
    from xl_elo.federations.fesa.tables import FESA_GRADES, FESA_HANDICAPS
    from xl_elo.model import HistoryGame

    Player = get("fesa").Player
    rng = np.random.default_rng(seed)
    strength = rng.normal(1300, 550, n_players).clip(30, 2700)
    players, history = [], []
    codes = list(FESA_HANDICAPS)
    for i in range(n_players):
        kind = rng.choice(["established", "history", "nsr", "new"], p=list(kinds))
        pid = f"s{i:02d}"
        if kind == "established":
            rating = float(max(1, int(strength[i] + rng.normal(0, 80))))
            grade = FESA_GRADES[max(0, int(np.searchsorted([g.lb for g in FESA_GRADES], rating)) - 1)].grade
            players.append(Player(pid, f"Player {i}", rating, int(rng.integers(9, 120)),
                                  bonus_count=int(rng.integers(0, 101)), grade=grade if rng.random() < 0.7 else None))
        elif kind == "history":
            n = int(rng.integers(1, 8))
            rows = [HistoryGame(pid, float(min(3500, max(0, int(rng.normal(strength[i], 250))))),
                                float(rng.choice([0.0, 0.5, 1.0])))
                    for _ in range(n)]
            history += rows
            players.append(Player(pid, f"Player {i}", float(max(1, int(strength[i]))), n))
        elif kind == "nsr":
            grade = FESA_GRADES[int(rng.integers(8, 24))].grade
            players.append(Player(pid, f"Player {i}", None, 0, nsr_grade=grade))
        else:
            players.append(Player(pid, f"Player {i}", None, 0))
    games = []
    for rnd in range(1, rounds + 1):
        order = rng.permutation(n_players)
        for a, b in zip(order[0::2], order[1::2], strict=False):
            if strength[a] < strength[b]:
                a, b = b, a
            d = strength[a] - strength[b]
            code = None
            if rng.random() < handicaps and d > 60:
                code = codes[min(len(codes) - 1, int(d // 150))]
                d = 0.0
            p = 1 / (1 + 10 ** (-d / 400))
            u = rng.random()
            score = 1.0 if u < p - 0.03 else 0.5 if u < p + 0.03 else 0.0
            games.append(get("fesa").Game(players[a].id, players[b].id, parse_result(score), rnd, handicap=code))
        if n_players % 2:
            games.append(Game(players[order[-1]].id, None, parse_result(None, has_opponent=False), rnd))
    return Event(tuple(players), tuple(games), tuple(history), None, f"random FESA {seed}"), tuple(history)


def random_uscf_event(seed: int, n_players: int = 20, rounds: int = 5, period: str = "2026-10") -> Event:
    """A US Chess section as clubs have them: established players (some with a higher highest, an
    Original Life Master), provisional ones (some with 8 games or fewer, some whose games were all
    wins or all losses), unrated adults and juniors; a forfeit now and then, a bye for the odd one."""
    rng = np.random.default_rng(seed)
    Player = get("uscf").Player
    strength = rng.normal(1500, 400, n_players).clip(150, 2600)
    players = []
    for i in range(n_players):
        kind = rng.choice(["established", "provisional", "unrated"], p=[0.55, 0.3, 0.15])
        pid, name = f"u{i:03d}", f"Player {i}"
        r = float(int(strength[i] + rng.normal(0, 80)))
        if kind != "unrated" and i % 4 == 1:  # US Chess keeps the decimal (rules 10.9)
            r += 0.45
        if kind == "established":
            highest = float(int(r + rng.integers(0, 300))) if rng.random() < 0.4 else None
            players.append(Player(pid, name, r, int(rng.choice([26, 30, 45, 120, 600])), highest=highest,
                                  life_master=bool(r > 2200 and rng.random() < 0.5)))
        elif kind == "provisional":
            games = int(rng.choice([1, 3, 4, 6, 8, 9, 12, 20, 25]))
            record = rng.choice([None, "all wins", "all losses"], p=[0.7, 0.15, 0.15])
            players.append(Player(pid, name, r, games, record=None if record is None else str(record)))
        else:
            born = int(rng.choice([1970, 1990, 2008, 2012, 2016, 2019]))
            players.append(Player(pid, name, None, None, birth_year=born if rng.random() < 0.7 else None))
    games = []
    for rnd in range(1, rounds + 1):
        order = rng.permutation(n_players)
        for a, b in zip(order[0::2], order[1::2], strict=False):
            p = 1 / (1 + 10 ** (-(strength[a] - strength[b]) / 400))
            u = rng.random()
            score = 1.0 if u < p - 0.1 else 0.5 if u < p + 0.1 else 0.0
            text = "+" if rng.random() < 0.03 else score
            games.append(Game(players[a].id, players[b].id, parse_result(text), rnd))
        if n_players % 2:
            games.append(Game(players[order[-1]].id, None, parse_result(None, has_opponent=False), rnd))
    return Event(tuple(players), tuple(games), (), period, f"random US Chess {seed}")
