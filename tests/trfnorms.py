"""Writing small TRF reports for the norm tests: each player line laid out at FIDE's columns (C.04 Annex 2),
from a readable description, so that a test states its tournament as an arbiter would read its crosstable."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: The other side of each result code.
MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "W": 1.0, "D": 0.5, "L": 0.0, "U": 1.0, "F": 1.0,
          "H": 0.5, "Z": 0.0, " ": 0.0}


@dataclass
class P:
    """A player: start rank, name, rating (0 unrated), title, federation, sex, FIDE id."""

    rank: int
    name: str
    rating: int = 0
    title: str = ""
    fed: str = ""
    sex: str = "m"
    fide_id: int = 0
    rounds: dict[int, tuple[int, str, str]] = field(default_factory=dict)
    """round -> (opponent start rank or 0, colour w/b/-, result code)."""


class Event:
    """Players and their games; each game entered once, from either side."""

    def __init__(self, players: Sequence[P], rounds: int | None = None, tags: dict[str, str] | None = None):
        self.players = {p.rank: p for p in players}
        self.declared = rounds
        self.tags = dict(tags or {})

    def game(self, rnd: int, white: int, black: int, result: str) -> None:
        """White's result code: 1 = 0 + - W D L."""
        self.players[white].rounds[rnd] = (black, "w", result)
        self.players[black].rounds[rnd] = (white, "b", MIRROR[result])

    def bye(self, rnd: int, rank: int, code: str = "U") -> None:
        self.players[rank].rounds[rnd] = (0, "-", code)

    def text(self) -> str:
        lines = [f"012 {self.tags.pop('012', 'Norm test')}"]
        lines += [f"{k} {v}" for k, v in self.tags.items()]
        if self.declared:
            lines.append(f"XXR {self.declared}")
        last = max((r for p in self.players.values() for r in p.rounds), default=0)
        for p in sorted(self.players.values(), key=lambda q: q.rank):
            pts = sum(POINTS[c] for _, _, c in p.rounds.values())
            rating = f"{p.rating:4d}" if p.rating else "    "
            fid = f"{p.fide_id:11d}" if p.fide_id else " " * 11
            line = (f"001 {p.rank:4d} {p.sex or ' '}{p.title:>3} {p.name:<33.33} {rating} {p.fed or '   ':3} {fid} "
                    f"{'':10} {pts:4.1f} {p.rank:4d}")
            for r in range(1, last + 1):
                if r in p.rounds:
                    opp, colour, code = p.rounds[r]
                    line += f"  {opp:4d} {colour} {code}" if opp else f"  0000 - {code}"
                else:
                    line += " " * 10
            lines.append(line.rstrip())
        return "\n".join(lines) + "\n"


def round_robin(players: Sequence[P], results: dict[tuple[int, int], str]) -> Event:
    """A single round-robin (Berger's circle): ``results[(a, b)]`` is a's result against b (default a draw)."""
    ranks = [p.rank for p in players]
    n = len(ranks)
    odd = n % 2
    circle = ranks + ([0] if odd else [])
    m = len(circle)
    ev = Event(players, m - 1)
    for r in range(1, m):
        for k in range(m // 2):
            a, b = circle[k], circle[m - 1 - k]
            if 0 in (a, b):
                ev.bye(r, a or b, "Z")
                continue
            white, black = (a, b) if (r + k) % 2 else (b, a)
            res = results.get((white, black)) or (MIRROR[results[(black, white)]] if (black, white) in results
                                                  else "=")
            ev.game(r, white, black, res)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return ev
