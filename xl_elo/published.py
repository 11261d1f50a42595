"""The published tables (rules 7) beside the values our formulas give.

Each :class:`TableView` holds a table as the federation printed it (read from
:mod:`xl_elo.tables`, never copied) and, for ``--compare``, the same rows recomputed from the
rules, with every row where the two differ marked. The ``xl-elo tables`` command and the
published-tables workbook show these views.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from xl_elo import tables as t
from xl_elo.core import expected_score, normal_cdf, round_half_away
from xl_elo.federations import fesa, ffe
from xl_elo.federations.fesa import grades as fesa_grades


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


def _fesa_k() -> TableView:
    rows = []
    cmp = []
    diff = []
    bands = t.FESA_K_BANDS
    for j, (lowest, k) in enumerate(bands):
        upper = bands[j - 1][0] if j else None
        low = lowest if lowest > -10**8 else None
        rows.append((low, upper, k))
        probe = [x for x in (low, None if upper is None else upper - 1) if x is not None]
        got = sorted({fesa.k_factor(x) for x in probe})
        cmp.append((low, upper, k, ", ".join(map(str, got))))
        diff.append(got != [k])
    return TableView(
        "fesa-k", "FESA K-factor by rating before the game", t.FESA_K_SOURCE,
        ("from", "below", "k"), rows, ("from", "below", "k", "engine k"), cmp, diff,
        "engine k: xl_elo.federations.fesa.k_factor at the band's two ends (rules 6.2)",
    )


def _fesa_grades() -> TableView:
    rows = []
    cmp = []
    diff = []
    for g in t.FESA_GRADES:
        ub = fesa_grades.upper_bound(g.grade)
        rows.append((g.grade, g.lb, g.mp, ub, g.n_lb, g.n_mp))
        pub_ub = t.FESA_PUBLISHED_UB.get(g.grade)
        pub_lb = t.FESA_PUBLISHED_LB_DIFFERENCES.get(g.grade, g.lb)
        cmp.append((g.grade, g.lb, pub_lb, ub, pub_ub))
        diff.append(pub_lb != g.lb or (pub_ub is not None and pub_ub != ub))
    return TableView(
        "fesa-grades", "FESA grade table: LB, MP, UB, #LB, #MP", t.FESA_GRADE_SOURCE,
        ("grade", "lb", "mp", "ub", "n_lb", "n_mp"), rows,
        ("grade", "lb", "lb printed", "ub = next lb", "ub printed"), cmp, diff,
        "UB is the next grade's LB (rules 6.9); FESA's English text prints 20 kyu's LB as 1 and stops at 5 dan",
    )


def _ffe_dp() -> TableView:
    ps = sorted(t.FFE_DP_TABLE, reverse=True)
    rows = [(p / 100, t.FFE_DP_TABLE[p]) for p in ps]
    normal = ffe.dp_normal(np.array(ps) / 100)
    raw = ffe.DP_SCALE * np.array([_quantile(p / 100) for p in ps])
    table = ffe.dp_table(np.array(ps) / 100)
    cmp = []
    diff = []
    for p, n, q, tb in zip(ps, normal, raw, table, strict=True):
        pub = t.FFE_DP_TABLE[p]
        cmp.append((p / 100, pub, round(float(q), 3), round(float(n), 3), round(float(tb), 3)))
        diff.append(int(round_half_away(q)) != pub)
    return TableView(
        "ffe-dp", "FFE D(P): bonus/malus by percentage scored", t.FFE_DP_SOURCE,
        ("p", "dp"), rows, ("p", "dp published", "(2000/7) Phi^-1(p)", "normal, bounded", "table, bounded"),
        cmp, diff,
        "marked: the published integer is not the normal quantile (2000/7) Phi^-1(P) rounded; "
        "the engine bounds D to +-470 (rules 5.4)",
    )


def _quantile(p: float) -> float:
    from xl_elo.core import normal_quantile

    return float(normal_quantile(p))


def _expected_rows(rows: tuple[tuple[int, int | None, int], ...]
                   ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[bool]]:
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


def _fqe_expected() -> TableView:
    pub, cmp, diff = _expected_rows(t.FQE_EXPECTED_ROWS)
    return TableView(
        "fqe-expected", "FQE expected score of the higher-rated player by rating difference",
        t.FQE_EXPECTED_SOURCE, ("from", "to", "expected"), pub,
        ("from", "to", "expected", "normal at from", "normal at to", "normal at middle, 2 dec."), cmp, diff,
        "normal: Elo's normal model Phi(d / (200 sqrt 2)); marked where the middle of the range rounds "
        "to another hundredth",
    )


def _fide_pd() -> TableView:
    pub, cmp, diff = _expected_rows(t.FIDE_PD_ROWS)
    return TableView(
        "fide-pd", "FIDE expected score (PD) of the higher-rated player by rating difference",
        t.FIDE_PD_SOURCE, ("from", "to", "expected"), pub,
        ("from", "to", "expected", "normal at from", "normal at to", "normal at middle, 2 dec."), cmp, diff,
        "normal: Elo's normal model Phi(d / (200 sqrt 2)); marked where the middle of the range rounds "
        "to another hundredth; the engine applies the 400-point rule (rules 2.2)",
    )


def _approx(name: str, rows: tuple[tuple[int, float, int, int, int], ...], k: int, step: float,
            title: str) -> TableView:
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


def _fesa_handicaps() -> TableView:
    rows = [(code, name, value) for code, (name, value) in t.FESA_HANDICAPS.items()]
    givers = (1200, 1680, 2000)
    cmp = [
        (code, name, value, *[int(fesa_grades.handicap_effect(r, code)) for r in givers])
        for code, name, value in rows
    ]
    return TableView(
        "fesa-handicaps", "FESA handicap values in grades", t.FESA_HANDICAP_SOURCE,
        ("code", "handicap", "grades"), rows,
        ("code", "handicap", "grades", *[f"points for a {r} giver" for r in givers]), cmp, [False] * len(rows),
        "points: rating - shift(rating, grades) on the fractional grade scale (rules 6.7)",
    )


def _ffe_conversions() -> TableView:
    rows = [(sys, f"Elo = {a} * {sys.upper()} + {b}" if a > 0 else f"Elo = {b} - {-a} * {sys.upper()}", desc)
            for sys, (a, b, desc) in t.FFE_CONVERSIONS.items()]
    cmp = [(sys, formula, float(ffe.from_elo(2000, sys)), float(ffe.to_elo(ffe.from_elo(2000, sys), sys)))
           for sys, formula, _ in rows]
    return TableView(
        "ffe-conversions", "FFE conversions from other rating systems", t.FFE_CONVERSION_SOURCE,
        ("system", "formula", "description"), rows,
        ("system", "formula", "2000 Elo in this system", "and back to Elo"), cmp, [False] * len(rows),
        "inverse: value = (Elo - b) / a (rules 5.11)",
    )


#: Every table of rules 7, by the name ``xl-elo tables NAME`` takes.
BUILDERS: dict[str, Callable[[], TableView]] = {
    "fesa-k": _fesa_k,
    "fesa-grades": _fesa_grades,
    "ffe-dp": _ffe_dp,
    "fqe-expected": _fqe_expected,
    "fide-pd": _fide_pd,
    "fide-k20-approx": lambda: _approx(
        "fide-k20-approx", t.FIDE_K20_APPROX, 20, 0.05, "FIDE approximation table, K = 20 (arbiter course)"),
    "fse-k24-approx": lambda: _approx(
        "fse-k24-approx", t.FSE_K24_APPROX, 24, 0.01, "FSE approximation table, K = 24 (arbiter course)"),
    "fesa-handicaps": _fesa_handicaps,
    "ffe-conversions": _ffe_conversions,
}


def table_names() -> list[str]:
    """Names of the published tables."""
    return list(BUILDERS)


def get_table(name: str) -> TableView:
    """One published table with its recomputation; ValueError for an unknown name."""
    key = name.strip().lower()
    if key not in BUILDERS:
        raise ValueError(f"unknown table {name!r}; expected one of {', '.join(BUILDERS)}")
    return BUILDERS[key]()
