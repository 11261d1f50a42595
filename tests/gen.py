"""Reproducible synthetic events for the tests (and the same shapes as bench/)."""

from __future__ import annotations

import numpy as np

from xl_elo.core import parse_result
from xl_elo.model import Event, Game, Player


def random_event(seed: int, n_players: int = 40, rounds: int = 7, unrated: float = 0.15, *,
                 federation: str = "fide", period: str = "2026-10") -> Event:
    """Players of mixed strength, some unrated; pairings random each round; results by strength."""
    rng = np.random.default_rng(seed)
    players = []
    strength = rng.normal(1750, 300, n_players).clip(900, 2750)
    for i in range(n_players):
        rated = rng.random() >= unrated
        rating = float(int(strength[i] + rng.normal(0, 60))) if rated else None
        games = int(rng.choice([0, 5, 12, 20, 24, 25, 29, 30, 80, 400])) if rated else 0
        fields = dict(id=f"p{i:03d}", name=f"Player {i}", rating=rating, games=games)
        if federation in ("fide", "fse"):
            fields["birth_year"] = int(rng.choice([1960, 1985, 2000, 2008, 2010, 2013]))
            fields["ever_2400"] = bool(rating is not None and rating > 2350 and rng.random() < 0.5)
        if federation == "ffe":
            fields["category"] = str(rng.choice(["junior", "senior"]))
            if rating is None and rng.random() < 0.5:
                fields["archive_perf"] = float(round(max(1000.0, rng.normal(1400, 200)), 3))  # Pj >= 1000 (rules 5.5)
                fields["archive_games"] = int(rng.integers(1, 8))
        players.append(Player(**fields))
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
