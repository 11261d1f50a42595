"""The project's rules document (docs/rules.md), written from the constants the code uses.

``xl_elo/rules.md`` holds the common chapters and each system's chapter is the ``rules.md``
beside its module, all with placeholders (``{fide.K_NEW}``); :func:`render` puts the chapters
in order and fills them from the systems' modules, the published tables and the data contract,
so no figure of the rules is typed twice. ``python -m xl_elo.rulesdoc > docs/rules.md`` writes the document
(a test checks that the committed one is this output), ``xl-elo rules 2.3`` prints a section,
and :func:`section_numbers` lets a test check that every section the code cites exists.
"""

from __future__ import annotations

import re
import sys
from importlib import resources
from typing import Any

from xl_elo import core, model, schema
from xl_elo.core import RESULT_SPELLINGS, ResultKind


def _spellings(kind: ResultKind) -> str:
    return ", ".join(f"`{k}`" for k, r in RESULT_SPELLINGS.items() if r.kind is kind)


def _values() -> dict[str, Any]:
    """Every placeholder's value: the core's, each system's module by its code (a chapter quotes its own
    constants: ``{fide.K_NEW}``), and what each system computes for its own text (its ``rules_values``)."""
    import calendar
    import importlib

    from xl_elo.federations import registry
    from xl_elo.published import get_table, table_names

    mods = registry()
    table_lines = "\n".join(f"- `{name}`: {get_table(name).title} ({get_table(name).source})" for name in table_names())
    values: dict[str, Any] = {
        "core": core, "model": model, "schema": schema,
        **{code: importlib.import_module(m.PACKAGE) for code, m in mods.items()},
        "result_spellings": _spellings(ResultKind.PLAYED), "forfeit_spellings": _spellings(ResultKind.FORFEIT),
        "bye_spellings": _spellings(ResultKind.BYE),
        "tables": table_lines,
        "player_columns": ", ".join(f"`{c}`" for c in schema.PLAYER_COMMON),
        "player_facts": "; ".join(f"{m.CODE.upper()}: " + ", ".join(f"`{f.name}`" for f in model.facts(m.Player))
                                  for m in mods.values() if model.facts(m.Player)),
        "game_columns": ", ".join(f"`{c}`" for c in schema.GAME_COLUMNS),
        "game_facts": "; ".join(f"{m.CODE.upper()}: " + ", ".join(f"`{f.name}`" for f in model.facts(m.Game))
                                for m in mods.values() if model.facts(m.Game)) or "none yet",
        "history_columns": ", ".join(f"`{c}`" for c in schema.HISTORY_COLUMNS),
        "result_columns": ", ".join(f"`{c}`" for c in model.RESULT_COLUMNS),
        "season_cadences": "; ".join(f"{m.CODE.upper()}: " + (
            f"periods of {m.CADENCE.unit} starting in {', '.join(calendar.month_name[k] for k in m.CADENCE.starts)}"
            if m.CADENCE.months > 1 else f"{'a' if m.CADENCE.unit[0] not in 'aeiou' else 'an'} {m.CADENCE.unit}")
            for m in mods.values()),
        "season_history_columns": ", ".join(f"`{c}`" for c in model.SEASON_HISTORY_COLUMNS),
    }
    for module in mods.values():
        own = module.rules_values
        if own is not None:
            values.update(own())
    return values


def _chapters() -> list[tuple[int, str]]:
    """The document's chapters in order: the common ones (``xl_elo/rules.md``) and each system's own
    (``rules.md`` beside its module), by chapter number."""
    from xl_elo.federations import registry

    common = (resources.files("xl_elo") / "rules.md").read_text(encoding="utf-8")
    parts = re.split(r"(?m)^(?=## \d+\. )", common)
    head, chapters = parts[0], [(_number(c), c) for c in parts[1:]]
    for module in registry().values():  # a system's file may hold more than one chapter (FIDE: 2 and 13)
        text = (resources.files(module.PACKAGE) / "rules.md").read_text(encoding="utf-8")
        for part in re.split(r"(?m)^(?=## \d+\. )", text):
            if part.strip():
                chapters.append((_number(part), part.rstrip() + "\n\n"))
    chapters.sort(key=lambda c: c[0])
    return [(0, head), *chapters]


def _number(chapter: str) -> int:
    m = re.match(r"## (\d+)\. ", chapter)
    if m is None:
        raise ValueError(f"a rules chapter must start with its heading '## N. ...', not {chapter[:40]!r}")
    return int(m.group(1))


def _contents(chapters: list[tuple[int, str]]) -> str:
    """The contents line: each chapter linked by its heading's anchor."""
    links = []
    for _, text in chapters[1:]:
        title = text.splitlines()[0][3:]
        number, _, name = title.partition(". ")
        short = name.split(",")[0]
        anchor = re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
        links.append(f"[{number} {short}](#{anchor})")
    lines = [""]
    for link in links:  # lines of at most about 110 characters, as the document wraps its text
        if lines[-1] and len(lines[-1]) + len(link) + len(" · ") > 110:
            lines[-1] += " ·"
            lines.append("")
        lines[-1] += (" · " if lines[-1] else "") + link
    return "\n".join(lines)


def render() -> str:
    """The rules document with every figure filled in from the code's constants."""
    chapters = _chapters()
    text = "".join(c for _, c in chapters).rstrip() + "\n"
    values = {**_values(), "contents": _contents(chapters)}

    def fill(m: re.Match[str]) -> str:
        expr, fmt = m.group(1), m.group(2) or ""
        head, *attrs = expr.split(".")
        value: Any = values[head]
        for a in attrs:
            value = getattr(value, a)
        return format(value, fmt)

    return re.sub(r"\{([a-z_][a-z0-9_.]*)(?::([^}]*))?\}", fill, text, flags=re.IGNORECASE)


def sections(text: str | None = None) -> dict[str, str]:
    """Section number -> its text (``"2.3"`` -> the section on FIDE's K), chapters too (``"2"``)."""
    text = text if text is not None else render()
    out: dict[str, str] = {}
    for m in re.finditer(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? (.*?)$", text, re.M):
        start = m.start()
        level = len(m.group(1))
        rest = text[m.end():]
        stop = re.search(rf"^#{{2,{level}}} ", rest, re.M)
        out[m.group(2)] = text[start: m.end() + (stop.start() if stop else len(rest))].strip()
    return out


def section_numbers() -> set[str]:
    """Every section number of the document."""
    return set(sections())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        sys.stdout.write(render())
        return 0
    found = sections()
    for a in args:
        if a not in found:
            sys.stderr.write(f"no section {a} (sections: {', '.join(sorted(found, key=_order))})\n")
            return 2
        sys.stdout.write(found[a] + "\n\n")
    return 0


def _order(number: str) -> tuple[int, ...]:
    return tuple(int(x) for x in number.split("."))


__all__ = ["render", "section_numbers", "sections"]

if __name__ == "__main__":
    raise SystemExit(main())
