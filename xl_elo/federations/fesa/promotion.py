"""FESA promotions after a tournament (rules 6.10).

The tournament's change is spread equally over its games and the games are walked one by
one with the player's game count ``t`` after each: nothing below 9 games; from 9 to 17 the
rule "UB of the grade above"; from 18 the UB rule, the MP run and the LB run (with MP
reached), runs carried between tournaments and restarted at each promotion. Then the
"bound to get it" simulation. Dan promotions carry a note to check the games against the
MP of the grade below; 5 dan and above a note that the Japan Shogi Association must agree.

Decisions where rules 6.10 is silent (also in the issue note):
- a game below LB ends both runs and clears ``mp_reached``;
- a performance-mode player walks all his games at his new rating from empty runs;
- the simulation of "bound to get it" loses K of the running simulated rating each game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from xl_elo.federations.fesa import grades as fesa_grades
from xl_elo.federations.fesa.tables import FESA_GRADES, FESA_K_BANDS

#: Below this many games no grade is given (rules 6.10).
FIRST_GRADE_GAMES: Final = 9
#: From this many games the runs count (rules 6.10).
RUN_GAMES: Final = 18
#: Games simulated for "bound to get it" (rules 6.10).
SIMULATED_GAMES: Final = 20
#: Dan promotions: games against the MP of the grade below (rules 6.10).
DAN_GAMES: Final = {"1 dan": 7, "2 dan": 7, "3 dan": 7, "4 dan": 8, "5 dan": 8}
JSA_FROM: Final = "5 dan"


@dataclass
class Promotion:
    """A player's grade and runs after a tournament, with the reasons for each promotion."""

    grade: str | None
    lb_run: int = 0
    mp_run: int = 0
    mp_reached: bool = False
    reasons: list[str] = field(default_factory=list)

    @property
    def note(self) -> str:
        """The promotions and the conditions to check, one sentence each."""
        notes = list(self.reasons)
        for reason in self.reasons:
            grade = reason.split(": ", 1)[0].removeprefix("promoted to ").split(" (")[0]
            if grade in DAN_GAMES:
                below = FESA_GRADES[fesa_grades.grade_index(grade) - 1]
                notes.append(
                    f"check for {grade}: {DAN_GAMES[grade]} games against {below.mp} or better "
                    "(MP of the grade below), against more than one opponent"
                )
            if fesa_grades.grade_index(grade) >= fesa_grades.grade_index(JSA_FROM):
                notes.append(f"{grade} needs the Japan Shogi Association's agreement")
        return "; ".join(notes)


def _k(rating: float) -> int:
    for lowest, k in FESA_K_BANDS:
        if rating >= lowest:
            return k
    return FESA_K_BANDS[-1][1]


def _upper_bound(i: int) -> int | None:
    """UB of the grade at table position i: the next grade's LB (rules 6.9)."""
    return FESA_GRADES[i + 1].lb if i + 1 < len(FESA_GRADES) else None


class _Walker:
    def __init__(self, grade: str | None, lb_run: int, mp_run: int, mp_reached: bool):
        self.p = Promotion(grade, lb_run, mp_run, mp_reached)
        self.index = fesa_grades.grade_index(grade)  # position of the grade, -1 for none

    def next_grade(self) -> int | None:
        i = self.index + 1
        return i if i < len(FESA_GRADES) else None

    def promote(self, i: int, reason: str) -> None:
        self.index = i
        self.p.grade = FESA_GRADES[i].grade
        self.p.reasons.append(f"promoted to {self.p.grade}: {reason}")
        self.p.lb_run = self.p.mp_run = 0
        self.p.mp_reached = False

    def game(self, t: int, r: float) -> bool:
        """Walk one game; True if it promoted. Several promotions in one game make one reason."""
        start = len(self.p.reasons)
        promoted = self._game(t, r)
        if len(self.p.reasons) - start > 1:
            last = self.p.reasons[-1].split(": ", 1)[1]
            count = len(self.p.reasons) - start
            del self.p.reasons[start:]
            self.p.reasons.append(f"promoted to {self.p.grade} ({count} grades in one game): {last}")
        return promoted

    def _game(self, t: int, r: float) -> bool:
        promoted = False
        if t < FIRST_GRADE_GAMES:
            return False
        while True:
            n = self.next_grade()
            if n is None:
                return promoted
            row = FESA_GRADES[n]
            if t < RUN_GAMES:
                above = n + 1 if n + 1 < len(FESA_GRADES) else None
                ub_above = _upper_bound(above) if above is not None else None
                if ub_above is not None and r >= ub_above:
                    self.promote(n, f"reached {ub_above} (UB of {FESA_GRADES[above].grade}) at game {t}")  # type: ignore[index]
                    promoted = True
                    continue
                return promoted
            ub = _upper_bound(n)
            if ub is not None and r >= ub:
                self.promote(n, f"reached UB of {row.grade} ({ub})")
                promoted = True
                continue
            p = self.p
            if r >= row.mp:
                p.mp_run += 1
                p.lb_run += 1
                p.mp_reached = True
            elif r >= row.lb:
                p.lb_run += 1
                p.mp_run = 0
            else:
                p.lb_run = p.mp_run = 0
                p.mp_reached = False
                return promoted
            if row.n_mp is not None and p.mp_run >= row.n_mp:
                self.promote(n, f"{p.mp_run} games at or above MP of {row.grade} ({row.mp})")
            elif row.n_lb is not None and p.mp_reached and p.lb_run >= row.n_lb:
                self.promote(n, f"{p.lb_run} games at or above LB of {row.grade} ({row.lb}) with MP reached")
            else:
                return promoted
            promoted = True
            # rules 6.10: the same game is tested again against the new next grade


def promote(
    grade: str | None,
    rating_after: float | None,
    *,
    games_before: int,
    walk: Sequence[float],
    lb_run: int = 0,
    mp_run: int = 0,
    mp_reached: bool = False,
    performance_mode: bool = False,
    history: Sequence[tuple[float, float]] = (),
) -> Promotion:
    """Grade and runs after a tournament (rules 6.10).

    ``walk`` holds the rating after each game of the tournament (before + i * change / n)
    and ``games_before`` the game count before it. A performance-mode player walks his
    whole history at ``rating_after`` from empty runs.
    """
    if performance_mode:
        if rating_after is None:
            return Promotion(grade)
        w = _Walker(grade, 0, 0, False)
        for t in range(1, len(history) + 1):
            w.game(t, rating_after)
        return w.p
    w = _Walker(grade, lb_run, mp_run, mp_reached)
    t = games_before
    for r in walk:
        t += 1
        w.game(t, r)
    if rating_after is not None and t >= RUN_GAMES and walk:
        _bound_to_get_it(w, t, rating_after)
    return w.p


def _bound_to_get_it(w: _Walker, t: int, rating: float) -> None:
    """Promote now if 20 more games each losing K points would promote (rules 6.10)."""
    n = w.next_grade()
    if n is None or rating - _k(rating) < FESA_GRADES[n].lb:
        # the first simulated game already falls below the next grade's LB: it clears the runs,
        # and every later one is lower still, so no simulated game can promote
        return
    sim = _Walker(w.p.grade, w.p.lb_run, w.p.mp_run, w.p.mp_reached)
    r = rating
    for j in range(1, SIMULATED_GAMES + 1):
        r -= _k(r)
        if sim.game(t + j, r):
            n = w.next_grade()
            if n is not None:
                w.promote(n, "bound to get it")
            return
