"""The project's rules document (docs/rules.md), written from the constants the code uses.

``xl_elo/rules.md`` is the text with placeholders (``{fide.K_NEW}``); :func:`render` fills
them from the federation modules, the published tables and the data contract, so no figure of
the rules is typed twice. ``python -m xl_elo.rulesdoc > docs/rules.md`` writes the document
(a test checks that the committed one is this output), ``xl-elo rules 2.3`` prints a section,
and :func:`section_numbers` lets a test check that every section the code cites exists.
"""

from __future__ import annotations

import re
import sys
from importlib import resources
from typing import Any

from xl_elo import core, model, schema, tables
from xl_elo.core import RESULT_SPELLINGS, ResultKind


def _spellings(kind: ResultKind) -> str:
    return ", ".join(f"`{k}`" for k, r in RESULT_SPELLINGS.items() if r.kind is kind)


def _values() -> dict[str, Any]:
    from xl_elo.federations import registry
    from xl_elo.federations.fesa import grades, newton, promotion
    from xl_elo.published import get_table, table_names

    mods = registry()
    fqe, fesa = mods["fqe"], mods["fesa"]
    bands = tables.FESA_K_BANDS
    k_text = []
    for j, (low, k) in enumerate(bands):
        if j == 0:
            k_text.append(f"{low} and more: {k}")
        elif j == len(bands) - 1:
            k_text.append(f"below {bands[j - 1][0]}: {k}")
        else:
            k_text.append(f"{low} to {bands[j - 1][0] - 1}: {k}")
    conversions = "; ".join(
        f"{system.upper()}: Elo = {a} × {system.upper()} + {b}" if a > 0 else f"{system.upper()}: Elo = {b} − {-a} × "
        f"{system.upper()}" for system, (a, b, _) in tables.FFE_CONVERSIONS.items())
    table_lines = "\n".join(f"- `{name}`: {get_table(name).title} ({get_table(name).source})" for name in table_names())
    return {
        "core": core, "model": model, "schema": schema, **mods,
        "result_spellings": _spellings(ResultKind.PLAYED), "forfeit_spellings": _spellings(ResultKind.FORFEIT),
        "bye_spellings": _spellings(ResultKind.BYE),
        "fide_dp_top": f"+{tables.FIDE_DP_TABLE[100]}", "fide_dp_bottom": f"−{-tables.FIDE_DP_TABLE[0]}",
        "fqe_permanent": fqe.PROVISIONAL_GAMES + 1,
        "conversions": conversions,
        "fesa_k_bands": "; ".join(k_text),
        "fesa_pro_base": grades.PRO_BASE, "fesa_pro_step": grades.PRO_STEP,
        "fesa_handicaps": ", ".join(f"{name} ({code}) {value:g}"
                                    for code, (name, value) in tables.FESA_HANDICAPS.items()),
        "promo_first": promotion.FIRST_GRADE_GAMES, "promo_runs": promotion.RUN_GAMES,
        "promo_sim": promotion.SIMULATED_GAMES, "promo_jsa": promotion.JSA_FROM,
        "fesa_beyond": fesa.BEYOND_THE_PROGRAM,
        "fesa_scale_band": tables.FESA_SCALE_TOP[0], "fesa_scale_end": tables.FESA_SCALE_TOP[1],
        "newton": newton,
        "tables": table_lines,
        "player_columns": ", ".join(f"`{c}`" for c in schema.PLAYER_COLUMNS),
        "game_columns": ", ".join(f"`{c}`" for c in schema.GAME_COLUMNS),
        "history_columns": ", ".join(f"`{c}`" for c in schema.HISTORY_COLUMNS),
        "result_columns": ", ".join(f"`{c}`" for c in model.RESULT_COLUMNS),
    }


def render() -> str:
    """The rules document with every figure filled in from the code's constants."""
    text = (resources.files("xl_elo") / "rules.md").read_text(encoding="utf-8")
    values = _values()

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
