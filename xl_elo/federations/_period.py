"""What the period-based federations share: player attributes as arrays, per-player sums.

FIDE (SPEC 2) and FSE (SPEC 3) rate a whole period at once with
``R_new = R_old + round(sum K * (score - expected))`` over games between rated players.
This module turns an :class:`~xl_elo.model.Event` into arrays once and sums per player
with ``np.bincount``; the federation modules supply the expected score, K and rounding.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from xl_elo.model import Event, GameArrays

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class PlayerArrays:
    """Columns of the players table as arrays (NaN = blank)."""

    rating: FloatArray
    games: IntArray
    age: FloatArray
    """Period year - birth year; NaN when either is unknown."""
    ever_2400: BoolArray

    @property
    def rated(self) -> BoolArray:
        return ~np.isnan(self.rating)

    @classmethod
    def build(cls, event: Event) -> PlayerArrays:
        players = event.players
        n = len(players)
        rating = np.fromiter((np.nan if p.rating is None else p.rating for p in players), np.float64, n)
        games = np.fromiter((p.games for p in players), np.int64, n)
        year = event.year
        birth = np.fromiter((np.nan if p.birth_year is None else p.birth_year for p in players), np.float64, n)
        age = (year - birth) if year is not None else np.full(n, np.nan)
        ever = np.fromiter((p.ever_2400 for p in players), np.bool_, n)
        return cls(rating, games, age, ever)


@dataclass(frozen=True)
class Sides:
    """Every rated game seen from both players, restricted by a mask."""

    who: IntArray
    against: IntArray
    score: FloatArray
    n_players: int

    @classmethod
    def build(cls, arrays: GameArrays) -> Sides:
        who, against, score = arrays.both_sides()
        return cls(who, against, score, arrays.n_players)

    def select(self, keep: BoolArray) -> Sides:
        return Sides(self.who[keep], self.against[keep], self.score[keep], self.n_players)

    def count(self) -> IntArray:
        return np.bincount(self.who, minlength=self.n_players).astype(np.int64)

    def total(self, weights: npt.ArrayLike) -> FloatArray:
        return np.bincount(self.who, weights=np.asarray(weights, dtype=np.float64), minlength=self.n_players)


#: Largest rating difference the direct lookup covers (ratings run from 0 to 3500, SPEC 1.4).
MAX_DIFFERENCE = 3500


def table_by_difference(lower: npt.NDArray[np.float64], values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A published table by range (lowest difference -> value) spread over every whole difference."""
    diffs = np.arange(MAX_DIFFERENCE + 1, dtype=np.float64)
    return values[np.searchsorted(lower, diffs, side="right") - 1]


def signed_lookup(d: npt.NDArray[np.float64], lower: npt.NDArray[np.float64], values: npt.NDArray[np.int64],
                  by_difference: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The higher-rated side's table value for |d|, 100 minus it for the lower-rated side.

    Whole differences (the usual case) are one array lookup; others go through the ranges.
    """
    a = np.abs(d)
    if a.size and np.array_equal(a, np.floor(a)) and a.max(initial=0) <= MAX_DIFFERENCE:
        higher = by_difference[a.astype(np.intp)]
    else:
        higher = values[np.searchsorted(lower, a, side="right") - 1]
    return np.where(d >= 0, higher, 100 - higher)
