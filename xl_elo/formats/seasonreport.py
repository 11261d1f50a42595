"""A season's outputs in text (rules 14.5): each player's history, and one player's calculation page.

The calculation page is laid out as FIDE's per-player calculations are (ratings.fide.com): period by
period (or event by event), each event with the player's rating at its start, game by game (the
opponent, his rating as it counts, the result, the expected score, the game's change), the event's
sum, then the period's change as the rules round it and the rating after: a page to post at the club.
It takes plain data (:class:`xl_elo.season.UnitCalculation` records, built by the season); nothing here
rates anything.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from xl_elo.formats.writers import format_cell, shown

#: The widest line the page prints (an 80-column terminal, an A4 page in a monospaced font).
WIDTH = 78


def history_json(system: str, units: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]],
                 lists: Mapping[str, Sequence[float | None]], names: Mapping[str, str]) -> str:
    """A season as JSON: its units, each player's history and the list after each unit (rules 14.5)."""
    doc = {"federation": system, "units": list(units), "history": [dict(r) for r in rows],
           "lists": [{"id": pid, "name": names.get(pid, ""), "ratings": list(ratings)}
                     for pid, ratings in lists.items()]}
    return json.dumps(doc, ensure_ascii=False, indent=1, default=_plain) + "\n"


def _plain(value: Any) -> Any:
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    raise TypeError(f"{value!r} is not JSON")


def _figure(value: Any, places: int = 2) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float):
        return f"{value:.{places}f}"
    return str(value)


def player_page(system: str, pid: str, name: str, units: Sequence[Any], names: Mapping[str, str]) -> str:
    """One player's season as FIDE's calculation pages lay it out (rules 14.5): ``units`` are his
    :class:`xl_elo.season.UnitCalculation` records; ``names`` each player's name by id."""
    lines = [f"{name or pid} ({pid}), {system.upper()}: the season's calculation", ""]
    if not units:
        return "\n".join(lines + ["No rated game in the season.", ""])
    for uc in units:
        row = uc.row
        u = uc.unit
        when = f" ({u.start:%Y-%m-%d} to {u.end:%Y-%m-%d})" if u.start and u.end and u.start != u.end else \
            (f" ({u.start:%Y-%m-%d})" if u.start else "")
        k = row.get("k")
        lines.append(f"{u.key}{when}: rating before {shown(row.get('rating_before')) or 'unrated'}"
                     + (f", K {format_cell(k)}" if k is not None else ""))
        total = 0.0
        summed = True
        for ev in uc.events:
            c = ev.calculation
            head = f"  {ev.event}" if ev.event and ev.event != u.key else ""
            if c.rating_before is not None and c.rating_before != row.get("rating_before"):
                head = f"{head or '  games'}: rating at its start {shown(c.rating_before)}"
            if head:
                lines.append(head)
            lines.append(f"    {'opponent':<28}{'rating':>7}{'result':>8}{'expected':>10}{'change':>10}")
            for g, other in zip(c.games, ev.opponents, strict=True):
                who = f"{names.get(other) or other}"[:27]
                counted = shown(g.counts_as if g.counts_as is not None else g.opponent) or "unrated"
                lines.append(f"    {who:<28}{counted:>7}{format_cell(g.score):>8}{_figure(g.expected):>10}"
                             f"{_figure(g.change):>10}" + (f"  {g.note}" if g.note else ""))
            changes = [g.change for g in c.games if g.change is not None]
            if changes:
                total += sum(changes)
            else:
                summed = False
            said = f"    score {format_cell(c.score)}"
            if c.expected is not None:
                said += f", expected {_figure(c.expected)}"
            if changes:
                said += f", sum of the changes {_figure(sum(changes))}"
            lines.append(said)
        after = row.get("rating_after")
        change = row.get("change")
        tail = f"  {u.key}: "
        if summed and len(uc.events) > 1:
            tail += f"total {_figure(total)}, "
        tail += (f"change {format_cell(change)}, " if change is not None else "") + \
            f"rating after {shown(after) or 'unrated'}"
        if row.get("note"):
            tail += f" ({row['note']})"
        lines += [tail, ""]
    return "\n".join(lines)
