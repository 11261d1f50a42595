"""A readable report of an event: the crosstable with ratings before and after.

In the style of FESA's tournament pages: one line per player with his games round by
round (opponent's number and result), his score, his rating before and after and the change.
"""

from __future__ import annotations

from typing import Any

from xl_elo import words
from xl_elo.formats.layout import grid, wrapped
from xl_elo.formats.writers import NAME_WIDTH, format_cell, shown
from xl_elo.model import Event, Results, facts

_MARK = {1.0: "+", 0.5: "=", 0.0: "-"}


#: The report's headings (English: each said in the language of the report).
HEADINGS = ("no", "name", "before", "score", "after", "change", "status", "note")
ROUND_BY_ROUND = "Games round by round:"
LEGEND = "Results: + win, = draw, - loss, (x) not rated or not counted for the player{facts}."


def phrases() -> None:
    """Ask for every phrase the report says (the catalogues list them: :func:`xl_elo.words.update`)."""
    for h in HEADINGS:
        words._(h, context="report")
    words._("r{round}", context="report", round=1)
    words._("Event")
    words._(LEGEND, facts="")
    words._(", [{mark}] {fact} given by the first-named player", mark="h", fact="handicap")
    words._(", [{mark}] {fact}", mark="p", fact="period")
    words._("Notes:", context="report")
    words._(ROUND_BY_ROUND, context="report")


def report(results: Results, event: Event, width: int | None = None, language: str | None = None) -> str:
    """The crosstable of an event with each player's rating before, after and change; fitted to ``width`` (None:
    one line a player, however wide): names cut, the notes after the table, and when the rounds do not fit
    beside the ratings, the games round by round in a table of their own, in blocks of rounds. In ``language`` (a
    catalogue's code; by default the language of the work, English unless :func:`xl_elo.words.use` says otherwise):
    its headings, statuses and notes in that language's words."""
    with words.use(language or words.language()):
        return _report(results, event, width)


def _report(results: Results, event: Event, width: int | None) -> str:
    _ = words._
    rows = results.by_id()
    places = next((c.places for c in results.spec if c.name == "rating_after"), None)  # the ratings' decimals
    number = {p.id: i + 1 for i, p in enumerate(event.players)}
    rounds = sorted({g.round for g in event.games if g.round is not None})
    cells: dict[str, dict[int | None, str]] = {p.id: {} for p in event.players}
    for g in event.games:
        if g.opponent is None:
            cells[g.player][g.round] = words.translate("bye")
            continue
        if g.result.score is None:
            mark_a = mark_b = g.result.kind.value
        else:
            mark_a, mark_b = _MARK[g.result.score], _MARK[1.0 - g.result.score]
        if not g.counts or (g.player, g.opponent) in results.uncounted:
            mark_a = f"({mark_a})"
        if not g.counts or (g.opponent, g.player) in results.uncounted:
            mark_b = f"({mark_b})"
        hcp = "".join(f"[{_cell_text(getattr(g, f.name))}]" for f in facts(type(g)) if getattr(g, f.name) is not None
                      and getattr(g, f.name) != f.default)
        cells[g.player][g.round] = f"{number[g.opponent]}{mark_a}{hcp}"
        cells[g.opponent][g.round] = f"{number[g.player]}{mark_b}{hcp}"
    notes = any(row.get("note") for row in rows.values())  # what a rating officer should know of a row
    inline = notes and width is None  # fitted to a width, the notes come after the table
    head = {h: _(h, context="report") for h in HEADINGS}
    header = [head["no"], head["name"], head["before"], *[_("r{round}", context="report", round=r) for r in rounds],
              head["score"], head["after"], head["change"], head["status"], *([head["note"]] if inline else [])]
    table = []
    for p in event.players:
        row = rows.get(p.id, {})
        before, after = row.get("rating_before"), row.get("rating_after")
        change = after - before if isinstance(before, (int, float)) and isinstance(after, (int, float)) else None
        name = p.name or p.id
        if width is not None and len(name) > NAME_WIDTH:
            name = name[:NAME_WIDTH - 3] + "..."
        table.append([
            str(number[p.id]), name, shown(before, places),
            *[cells[p.id].get(r, "") for r in rounds],
            format_cell(row.get("score")), shown(after, places),
            "" if change is None else shown(change, places, sign=True),
            str(words.translate_value(row.get("status", ""))),
            *([words.translate_notes(str(row.get("note") or ""))] if inline else []),
        ])
    widths = [max(len(h), *(len(r[j]) for r in table)) if table else len(h) for j, h in enumerate(header)]
    title = (f"{event.name or _('Event')} ({results.federation.upper()}"
             + (f", {results.period})" if results.period else ")"))
    lines = [title, ""]
    if width is None or sum(widths) + 2 * (len(widths) - 1) <= width:
        lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
        lines.append("  ".join("-" * w for w in widths))
        for r in table:
            lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    else:  # too wide: the ratings first, then the games round by round in blocks that fit
        k = len(rounds)
        main = [0, 1, 2, *range(3 + k, len(header))]
        lines.append(grid([header[j] for j in main], [[r[j] for j in main] for r in table], width,
                          right=[False] * len(main), keep=2, rule=True))
        lines += ["", _(ROUND_BY_ROUND, context="report"), ""]
        lines.append(grid([header[j] for j in (0, *range(3, 3 + k))], [[r[j] for j in (0, *range(3, 3 + k))]
                                                                          for r in table],
                          width, right=[False] * (k + 1), keep=1, rule=True))
    if notes and not inline:
        lines += ["", _("Notes:", context="report")]
        for p in event.players:
            note = rows.get(p.id, {}).get("note")
            if note:
                lines.append(wrapped(words.translate_notes(str(note)), width, indent="    ",
                                     first=f"  {number[p.id]} {p.name or p.id}: "))
    lines.append("")
    own = facts(type(event.games[0])) if event.games else ()
    said = "".join(_(", [{mark}] {fact} given by the first-named player", mark=f.name[0], fact=f.name) if f.sided
                   else _(", [{mark}] {fact}", mark=f.name[0], fact=f.name) for f in own)
    lines.append(wrapped(_(LEGEND, facts=said), width))
    return "\n".join(lines)


def _cell_text(value: Any) -> str:
    """A game's own fact as a crosstable cell shows it."""
    return format_cell(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
