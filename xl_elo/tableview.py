"""A published table beside the values the rules give (rules 7): the view ``xl-elo tables`` prints
and the published-tables workbook shows, and the builders several systems' tables share.

Each system declares its tables (``PUBLISHED_TABLES``: name -> a function giving the view);
:mod:`xl_elo.published` lists them in the registry's order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from xl_elo import tables as t
from xl_elo.core import expected_score, normal_cdf, round_half_away


@dataclass(frozen=True)
class TableView:
    """A published table and its recomputation."""

    name: str
    title: str
    source: t.Source
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    compare_columns: tuple[str, ...]
    compare_rows: list[tuple[Any, ...]]
    differs: list[bool]
    """One flag per row: the published value differs from the computed one."""
    note: str
    """How the computed columns are obtained, and what the differences mean."""

    @property
    def differing_rows(self) -> list[tuple[Any, ...]]:
        return [r for r, d in zip(self.compare_rows, self.differs, strict=True) if d]


def expected_rows(rows: tuple[tuple[int, int | None, int], ...]
                  ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[bool]]:
    """A published expected-score table by rating difference (from, to, hundredths) beside Elo's
    normal model at the range's ends and middle (rules 1.2, 7)."""
    pub = []
    cmp = []
    diff = []
    sigma = 200.0 * math.sqrt(2.0)
    for lo, hi, pct in rows:
        pub.append((lo, hi, pct / 100))
        ends = [lo] + ([hi] if hi is not None else [])
        values = [round(float(normal_cdf(d / sigma)), 4) for d in ends]
        mid = (lo + hi) / 2 if hi is not None else lo
        computed = int(round_half_away(100 * float(normal_cdf(mid / sigma))))
        cmp.append((lo, hi, pct / 100, *values, *([None] if hi is None else []), computed / 100))
        diff.append(computed != pct)
    return pub, cmp, diff


def approx(name: str, rows: tuple[tuple[int, float, int, int, int], ...], k: int, step: float,
           title: str) -> TableView:
    """An arbiter course's approximation table (difference, expected, win, draw, loss) beside the
    logistic expected score and K times (result - expected) (rules 1.2, 1.3, 7)."""
    pub = [tuple(r) for r in rows]
    cmp = []
    diff = []
    for d, e_pub, win, draw, loss in rows:
        e = float(expected_score(d, 0))
        e_round = round(float(round_half_away(e / step)) * step, 2)
        changes = [int(round_half_away(k * (s - e))) for s in (1.0, 0.5, 0.0)]
        cmp.append((d, e_pub, round(e, 4), e_round, win, changes[0], draw, changes[1], loss, changes[2]))
        diff.append(e_round != e_pub or changes != [win, draw, loss])
    return TableView(
        name, title, t.APPROX_SOURCE, ("difference", "expected", "win", "draw", "loss"), pub,
        ("difference", "expected", "logistic", f"logistic to {step:g}", "win", "K(1-E)",
         "draw", "K(0.5-E)", "loss", "K(0-E)"),
        cmp, diff,
        f"logistic E (rules 1.2) at the difference; the changes are K * (result - E) with K = {k} "
        f"rounded half away from zero (rules 1.3); the expected column is E rounded to {step:g}",
    )
