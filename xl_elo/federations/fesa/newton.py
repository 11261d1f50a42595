"""The performance rating as FESA's program computes it, in single floats (rules 6.5, 6.11).

Newton's method on ``g(x) = sum(res - E(x, or))`` from the first game's opponent rating,
every operation a single-float one: ``y = (or - x) / 400``, ``u = 10 ** y``,
``E = 1 / (1 + u)``, ``a = sum(res - E)``, ``b = sum(u E E)``, the step
``a / b / (ln 10 / 400)`` capped at 800 points. It stops when the step is smaller than a
tolerance that starts at 0.001 and grows by 0.0001 at every step (both single floats), and
the answer is ``guess + step`` rounded halves to even. Sums run in the games' order.

Some lists make the capped steps jump back and forth between two ratings; the program then
goes on until its tolerance passes 800, after 7,642,953 steps, and the answer depends on
where that step lands. :func:`solve` finds the loop, then the step where the tolerance
lets it out, without running the steps in between: the same answer, at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from xl_elo.core import f32, round_half_even

#: The step cap, in rating points (rules 6.5).
STEP_CAP: Final = 800.0
#: ``ln 10 / 400`` in single floats.
_SLOPE: Final = f32(f32(math.log(10.0)) / 400.0)
#: The stopping tolerance: its start, and what it grows by at every step (single floats).
TOLERANCE_START: Final = 0.001
TOLERANCE_GROWTH: Final = 0.0001
_TOLERANCE_START: Final = f32(TOLERANCE_START)
_TOLERANCE_STEP: Final = f32(TOLERANCE_GROWTH)
#: Steps the loop takes before a repeat of its state is searched for: lists seen converge in
#: fewer than ten.
_MAX_STATES: Final = 100_000


def _tolerance_runs() -> tuple[tuple[int, Fraction, Fraction, int | None], ...]:
    """The tolerance at each step, as runs ``(first step, value there, increment, last step)``.

    The tolerance is a single float to which 0.0001 is added at every step. Between two
    powers of two every sum rounds by the same amount, so each run is an arithmetic series;
    the last run has increment 0 (the sum has stopped growing) and no last step.
    """
    runs: list[tuple[int, Fraction, Fraction, int | None]] = []
    step, value = 1, f32(_TOLERANCE_START + _TOLERANCE_STEP)
    while True:
        increment = f32(value + _TOLERANCE_STEP) - value
        if increment == 0.0:
            runs.append((step, Fraction(value), Fraction(0), None))
            return tuple(runs)
        top = 2.0 ** math.frexp(value)[1]  # the next power of two
        more = math.ceil((Fraction(top) - Fraction(value)) / Fraction(increment)) - 1
        runs.append((step, Fraction(value), Fraction(increment), step + more))
        step += more + 1
        value = f32(value + more * increment + _TOLERANCE_STEP)


_RUNS: Final = _tolerance_runs()


def tolerance(step: int) -> float:
    """The stopping tolerance at a step (1 = the first), as the program's running single-float sum."""
    for first, value, increment, last in _RUNS:
        if last is None or step <= last:
            return float(value + (step - first) * increment)
    raise AssertionError("unreachable: the last run has no end")


def first_step_above(size: float) -> int | None:
    """The first step whose tolerance exceeds ``size`` (None: never, the tolerance stops growing below it)."""
    v = Fraction(size)
    for first, value, increment, last in _RUNS:
        if value > v:
            return first
        if last is None:
            return None
        if value + (last - first) * increment > v:
            return first + int((v - value) // increment) + 1
    return None


def _step(guess: float, games: Sequence[tuple[float, float]]) -> float:
    """One Newton step from ``guess``, capped at 800, in single floats."""
    a = b = 0.0
    for rating, score in games:
        y = f32(f32(rating - guess) / 400.0)
        u = f32(10.0 ** y)
        e = f32(1.0 / f32(1.0 + u))
        a = f32(a + f32(score - e))
        b = f32(b + f32(f32(u * e) * e))
    if b == 0.0:  # every expected score 0 or 1 to single precision: only a cap can move
        return math.copysign(STEP_CAP, a)
    step = f32(f32(a / b) / _SLOPE)
    return max(-STEP_CAP, min(STEP_CAP, step))


def _answer(guess: float, step: float) -> int:
    return max(1, int(round_half_even(f32(guess + step))))


def solve(games: Sequence[tuple[float, float]]) -> int:
    """The performance of ``(opponent rating, result)`` games in this order, at least 1 (rules 6.5, 6.11).

    Needs a list with mixed results (all losses and all wins are settled by the caller).
    """
    guess = f32(float(games[0][0]))
    seen: dict[float, int] = {}
    path: list[tuple[float, float]] = []
    step_no = 0
    while True:
        step_no += 1
        if guess in seen:
            return _leave_loop(path[seen[guess]:], seen[guess] + 1, step_no)
        step = _step(guess, games)
        if abs(step) < tolerance(step_no):
            return _answer(guess, step)
        if len(path) >= _MAX_STATES:
            raise ArithmeticError("the performance rating did not settle (rules 6.12)")
        seen[guess] = len(path)
        path.append((guess, step))
        guess = f32(guess + step)


def _leave_loop(loop: list[tuple[float, float]], start: int, now: int) -> int:
    """The answer of a loop of states first taken at step ``start``, the loop found again at step ``now``.

    State ``t`` of the loop comes back at steps ``start + t + k * len(loop)``; the program
    leaves at the first such step (not yet tried) whose tolerance exceeds that state's step.
    """
    period = len(loop)
    best: tuple[int, int] | None = None
    for t, (guess, step) in enumerate(loop):
        first = first_step_above(abs(step))
        if first is None:
            continue
        at = max(first, now)
        at += (start + t - at) % period
        if best is None or at < best[0]:
            best = (at, _answer(guess, step))
    if best is None:
        raise ArithmeticError("the performance rating never settles (rules 6.12)")
    return best[1]
