"""The catalogues kept in line with what the templates and reports say: ``python -m xl_elo.templates.catalogues``.

Builds every template in English (a room of one printed page and one of several pages, between them every phrase a
template says) and the norm sheets, and asks the reports' phrases (:func:`report_phrases`), then writes
``xl_elo/locale/xl_elo.pot`` (every phrase, in the order first asked) and brings each ``<language>.po`` in line with
it: a new phrase added untranslated, a phrase no longer said kept as obsolete (``#~``), every translation kept
(:mod:`xl_elo.words`).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from xl_elo.templates.spec import Capacity
from xl_elo.words import HEADER, LOCALE, SOURCE, Entry, read_po, recording, write_po


def rooms_said() -> tuple[Capacity, ...]:
    """A room of one printed page and one of several pages: built with :func:`grouped`, between them every phrase a
    template says."""
    return (Capacity(4, 4, 4, 2), Capacity(41, 4, 4, 2))


def grouped() -> contextlib.AbstractContextManager[None]:
    """Inside it a template is built as a large room is, its sums grouped by player, whatever its size."""
    from xl_elo.templates.workbook import grouped_from

    return grouped_from(0)


def asked_phrases() -> dict[tuple[str | None, str], str]:
    """Every phrase the templates and the reports say, in the order first asked (built in English, the rooms small)."""
    from xl_elo.templates import build_book, sheet_names, template_names  # the templates say most of them

    with recording() as (asked, _missing), grouped():
        for name in template_names():
            if name != "tables":
                for room in rooms_said():
                    build_book(name, room, SOURCE)
        for name in sheet_names():  # the norm sheets
            build_book(name, None, SOURCE)
        report_phrases()
    return asked


def report_phrases() -> None:
    """Ask for every phrase the reports say: the crosstable, a season's workbook and its players' pages, the norms'
    table and the norm sheet's words and reasons (the engine's, read back)."""
    from xl_elo.formats import report, seasonbook, seasonreport
    from xl_elo.templates import normsheet

    report.phrases()
    seasonbook.phrases()
    seasonreport.phrases()
    normsheet.phrases()


def update(out: Path = LOCALE) -> list[Path]:
    """Write ``xl_elo.pot`` (every phrase asked for) and bring each language's ``.po`` in line with it: a new phrase
    added untranslated, a phrase no longer asked for kept as obsolete (``#~``), every translation kept."""
    asked = asked_phrases()
    pot = [Entry(msgid, context=context, flags={"python-brace-format"} if "{" in msgid else set())
           for context, msgid in asked]
    write_po(out / "xl_elo.pot", pot, HEADER.format(language=""))
    written = [out / "xl_elo.pot"]
    for path in sorted(out.glob("*.po")):
        old = {(e.context, e.msgid): e for e in read_po(path) if e.msgid}
        entries = []
        for e in pot:
            kept = old.pop((e.context, e.msgid), None)
            entries.append(Entry(e.msgid, kept.msgstr if kept else "", e.context, kept.comments if kept else [],
                                 (kept.flags if kept else set()) | e.flags))
        entries += [Entry(e.msgid, e.msgstr, e.context, e.comments, e.flags, obsolete=True)
                    for e in old.values() if e.msgstr]
        write_po(path, entries, HEADER.format(language=path.stem))
        written.append(path)
    return written




if __name__ == "__main__":
    for written in update():
        print(written)
