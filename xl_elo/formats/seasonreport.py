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

from xl_elo import words
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


#: The page's words (each said in the language of the work: :mod:`xl_elo.words`).
TITLE = "{name} ({id}), {system}: the season's calculation"
NO_GAME = "No rated game in the season."
BEFORE = "rating before {rating}"
AT_START = "rating at its start {rating}"
GAMES = "games"
SPAN = "{start} to {end}"
UNRATED = "unrated"
HEADINGS = ("opponent", "rating", "result", "expected", "change")
SCORE = "score {score}"
EXPECTED = "expected {expected}"
SUM = "sum of the changes {sum}"
TOTAL = "total {total}"
CHANGE = "change {change}"
AFTER = "rating after {rating}"
#: The engines' notes of a game (:class:`xl_elo.federations.contract.GameLine`), as they write them, each read back
#: into the page's language (:func:`xl_elo.words.translate`).
GAME_NOTES = ("no DWZ: not counted", "no DWZ: not counted (give the first DWZ he gets in this tournament)",
              "upset gain", "unrated opponent: not counted", "not compatible: ignored", "unrated opponent: not rated",
              "unrated opponent: counts {rating}", "RD {rd}, g {g}")


def phrases() -> None:
    """Ask for every phrase the page says (the catalogues list them: :mod:`xl_elo.templates.catalogues`)."""
    _ = words._
    _(TITLE, context="season", name="", id="", system="")
    _(NO_GAME, context="season")
    for phrase in (BEFORE, AT_START, AFTER):
        _(phrase, context="season", rating="")
    _(GAMES, context="season")
    _(SPAN, context="season", start="", end="")
    _(UNRATED, context="season")
    for h in HEADINGS:
        _(h, context="season")
    _(SCORE, context="season", score="")
    _(EXPECTED, context="season", expected="")
    _(SUM, context="season", sum="")
    _(TOTAL, context="season", total="")
    _(CHANGE, context="season", change="")
    for note in GAME_NOTES:
        _(note, rating="", rd="", g="")


def player_page(system: str, pid: str, name: str, units: Sequence[Any], names: Mapping[str, str]) -> str:
    """One player's season as FIDE's calculation pages lay it out (rules 14.5): ``units`` are his
    :class:`xl_elo.season.UnitCalculation` records; ``names`` each player's name by id. In the language of the work
    (:func:`xl_elo.words.use`): its words, and each engine's note read back into it."""
    def _(msgid: str, **params: Any) -> str:
        return words._(msgid, context="season", **params)

    def rating(value: Any) -> str:
        return shown(value) or _(UNRATED)

    lines = [_(TITLE, name=name or pid, id=pid, system=system.upper()), ""]
    if not units:
        return "\n".join(lines + [_(NO_GAME), ""])
    head = [_(h) for h in HEADINGS]
    # the opponent's name, then the figures right-aligned, each column as wide as its heading needs
    widths = [28, *(max(w, len(h) + 1) for w, h in zip((7, 8, 10, 10), head[1:], strict=True))]
    for uc in units:
        row = uc.row
        u = uc.unit
        when = f" ({_(SPAN, start=f'{u.start:%Y-%m-%d}', end=f'{u.end:%Y-%m-%d}')})" if u.start and u.end and \
            u.start != u.end else (f" ({u.start:%Y-%m-%d})" if u.start else "")
        k = row.get("k")
        lines.append(f"{u.key}{when}: {_(BEFORE, rating=rating(row.get('rating_before')))}"
                     + (f", K {format_cell(k)}" if k is not None else ""))
        total = 0.0
        summed = True
        for ev in uc.events:
            c = ev.calculation
            title = f"  {ev.event}" if ev.event and ev.event != u.key else ""
            if c.rating_before is not None and c.rating_before != row.get("rating_before"):
                title = f"{title or '  ' + _(GAMES)}: {_(AT_START, rating=shown(c.rating_before))}"
            if title:
                lines.append(title)
            lines.append("    " + head[0].ljust(widths[0]) + "".join(h.rjust(w) for h, w in zip(head[1:], widths[1:],
                                                                                              strict=True)))
            for g, other in zip(c.games, ev.opponents, strict=True):
                who = f"{names.get(other) or other}"[:widths[0] - 1]
                counted = rating(g.counts_as if g.counts_as is not None else g.opponent)
                figures = (counted, format_cell(g.score), _figure(g.expected), _figure(g.change))
                lines.append("    " + who.ljust(widths[0]) + "".join(f.rjust(w) for f, w in zip(figures, widths[1:],
                                                                                               strict=True))
                             + (f"  {words.translate_notes(g.note)}" if g.note else ""))
            changes = [g.change for g in c.games if g.change is not None]
            if changes:
                total += sum(changes)
            else:
                summed = False
            said = [_(SCORE, score=format_cell(c.score))]
            if c.expected is not None:
                said.append(_(EXPECTED, expected=_figure(c.expected)))
            if changes:
                said.append(_(SUM, sum=_figure(sum(changes))))
            lines.append("    " + ", ".join(said))
        after = row.get("rating_after")
        change = row.get("change")
        tail = []
        if summed and len(uc.events) > 1:
            tail.append(_(TOTAL, total=_figure(total)))
        if change is not None:
            tail.append(_(CHANGE, change=format_cell(change)))
        tail.append(_(AFTER, rating=rating(after)))
        note = f" ({words.translate_notes(str(row['note']))})" if row.get("note") else ""
        lines += [f"  {u.key}: " + ", ".join(tail) + note, ""]
    return "\n".join(lines)
