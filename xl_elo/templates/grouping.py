"""Per-player sums over the game sides without a scan of every side per player (issue #27).

A spec sums a player's games as every spreadsheet user would: ``SUMIFS(side_score, side_who,
(ROW()-1), side_counts, 1)`` on the player's row. Each such cell reads every side of the room
(6,000 rows in a 3,000-game template), and all of them again after any typed result: the
slowest part of a template once it is filled.

:func:`group_by_player` keeps the specs as they are written and changes how the builder writes
those sums. The ``by_player`` sheet lists the sides grouped by player (a player's sides on
consecutive rows, in the order of the games): the sides sheet numbers each side among its
player's (``occ``) and gives its row there (``at``), the work sheet counts each player's sides
(``bpn``) and gives his first and last rows (``bpa``, ``bpb``). ``by_player`` copies each column
the sums read, then keeps each sum as a running total down the player's rows (``run1`` ...,
restarting at his first row); the player's sum is the total on his last row:
``INDEX(bp_run2, last)``. The grouping depends on the ids only, so a typed result or rating
recomputes the copies and the running totals, never a scan per player. Every template,
present and future, gets it: a SUMIFS or COUNTIFS is rewritten when it has the criterion
``side_who, (ROW()-1)``, its other criteria are numbers and every range it reads is a column
of a sheet laid out as the sides (a spec's ``Sheet(grouped=False)`` keeps its sums as written).

Two things LibreOffice 7.4 does not do, which decided this layout (its threaded calculation of
shared formulas): it may compute ``SUM(INDEX(x,a):INDEX(x,b))`` before the cells of ``x``
(wrong totals), and a running total that reads another sheet's cells through INDEX is
computed one cell at a time (slow): hence the copies, then the totals over the copies' row.
And a third: a copy of a column that itself depends on ``by_player`` (a second pass over the
players' sums: the CFC's opponents at their temporary ratings, the DWZ's Sonderwertung, a
ladder's later periods), computed as one group, reads some of its cells before they are
computed; such copies are written cell by cell (``Col.shared``, found through the formulas'
dependencies by :func:`_after_grouping`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from xl_elo.templates.spec import Col, Sheet, Template
from xl_elo.words import _

POS = "(ROW()-1)"
_CALL = re.compile(r"(?<![A-Za-z0-9_.])(SUMIFS|COUNTIFS)\(")
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
SHEET = "by_player"
PREFIX = "bp_"


def _arguments(text: str, start: int) -> tuple[list[str], int]:
    """The top-level arguments of the call whose ``(`` ends just before ``start``, and the index after its ``)``."""
    depth, quoted, args, begin = 0, False, [], start
    for i in range(start, len(text)):
        ch = text[i]
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                args.append(text[begin:i])
                return args, i + 1
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(text[begin:i])
            begin = i + 1
    raise ValueError(f"unbalanced call in {text}")


def rewrite(formula: str, aligned: set[str], used: dict[str, Any]) -> str:
    """``formula`` with each per-player SUMIFS/COUNTIFS over the sides as a sum over the player's rows of
    ``by_player``; each running sum it needs is added to ``used`` (its column name -> what it sums)."""
    out, i = [], 0
    while True:
        m = _CALL.search(formula, i)
        if m is None:
            out.append(formula[i:])
            return "".join(out)
        args, end = _arguments(formula, m.end())
        args = [rewrite(a, aligned, used) for a in args]
        new = _grouped(m.group(1), [a.strip() for a in args], aligned, used)
        out.append(formula[i:m.start()])
        out.append(new if new is not None else f"{m.group(1)}({','.join(args)})")
        i = end


_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


Running = tuple[str | None, tuple[tuple[str, str], ...]]
"""What a running sum adds up: the column summed (None: a count) and the criteria (column, value)."""


def _grouped(func: str, args: list[str], aligned: set[str], used: dict[str, Running]) -> str | None:
    total = args[0] if func == "SUMIFS" else None
    pairs = args[1:] if func == "SUMIFS" else args
    if len(pairs) % 2 or not pairs:
        return None
    criteria = [(pairs[k], pairs[k + 1]) for k in range(0, len(pairs), 2)]
    if ("side_who", POS) not in criteria:
        return None
    others = tuple(sorted(c for c in criteria if c != ("side_who", POS)))
    ranges = [r for r, _ in others] + ([total] if total is not None else [])
    if any(not _NAME.match(r) or r not in aligned for r in ranges) or any(not _NUMBER.match(v) for _, v in others):
        return None
    n, b = (f"INDEX(w_{k},{POS})" for k in ("bpn", "bpb"))
    if total is None and not others:
        return n
    key = (total, others)
    name = next((k for k, v in used.items() if v == key), None)
    if name is None:
        name = f"run{len(used) + 1}"
        used[name] = key
    return f"IF({n}=0,0,INDEX({PREFIX}{name},{b}))"


def _running(total: str | None, others: tuple[tuple[str, str], ...]) -> tuple[str, str]:
    """The running sum down a player's rows of ``by_player`` (title, formula): 0 before his first row."""
    test = ",".join(f"IF(ISNUMBER([{r}]),[{r}]={v},FALSE)" for r, v in others)
    value = "1" if total is None else f"N([{total}])"
    add = f"IF(AND({test}),{value},0)" if others else value
    where = _(" and ").join(f"{r} = {v}" for r, v in others)
    if total is None:
        title = _("count where {condition}, running down the player's rows", condition=where) if where else \
            _("count, running down the player's rows")
    else:
        title = _("sum of {column} where {condition}, running down the player's rows", column=total,
                  condition=where) if where else _("sum of {column}, running down the player's rows", column=total)
    return (title,
            f'=IF([side]="","",IF([start]=1,0,[{{name}}@prev])+{add})')


def _formulas(t: Template) -> list[tuple[Any, str, Any]]:
    """Every formula a rewrite may touch: (owner, attribute or index, formula)."""
    out: list[tuple[Any, str, Any]] = []
    for s in t.sheets:
        if s.grouped:
            out.extend((c, "formula", c.formula) for c in s.columns)
    for k, f in enumerate(t.player_checks):
        out.append((t.player_checks, str(k), f))
    return out


def group_by_player(t: Template) -> Template:
    """Rewrite ``t``'s per-player sums over the sides as sums over each player's rows of ``by_player``
    (module docstring); ``t`` itself when it has none. The spec's columns keep their names and meaning."""
    t = copy.deepcopy(t)
    sides = next((s for s in t.sheets if s.name == "sides"), None)
    work = next((s for s in t.sheets if s.name == "work"), None)
    if sides is None or work is None or SHEET in {s.name for s in t.sheets}:
        return t
    aligned = {s.prefix + c.name for s in t.sheets if (s.first, s.last) == (sides.first, sides.last)
               for c in s.columns}
    used: dict[str, Any] = {}
    for owner, key, formula in _formulas(t):
        if isinstance(formula, str):
            new: Any = rewrite(formula, aligned, used)
        elif any(rewrite(formula(r), aligned, used) != formula(r) for r in (sides.first, sides.last)):
            new = _wrapped(formula, aligned, used)
        else:
            new = formula
        if isinstance(owner, list):
            owner[int(key)] = new
        else:
            setattr(owner, key, new)
    if not used:
        return t
    sides.add(
        Col("occ", "its number among the player's sides", '=IF(N([who])<1,"",COUNTIF([who@first]:[who],[who]))',
            "8"),
        Col("at", "its row on the by_player sheet", '=IF([occ]="","",INDEX(w_bpa,[who])+[occ]-1)', "8"),
    )
    work.add(
        Col("bpn", "sides of the player", f"=COUNTIF(side_who,{POS})", "8"),
        Col("bpa", "his first row on by_player", "=SUM([bpn@first]:[bpn])-[bpn]+1", "8"),
        Col("bpb", "his last row on by_player", "=[bpa]+[bpn]-1", "8"),
    )
    grouped = Sheet(SHEET, PREFIX, sides.first, sides.last, leading=[("row", lambda r: r - sides.first + 1)])
    grouped.add(
        Col("side", "side (row of the sides sheet - 1)",
            f'=IF(ROW()-{sides.first - 1}>MAX(w_bpb),"",MATCH(ROW()-{sides.first - 1},side_at,0))', "8"),
        Col("who", "player (position)", '=IF([side]="","",INDEX(side_who,[side]))', "8"),
        Col("start", "his first row", '=IF([side]="","",IF(N([who@prev])=[who],0,1))', "8"),
    )
    read = sorted({r for total, others in used.values() for r in [total, *(c for c, _ in others)] if r})
    t.sheets.insert(t.sheets.index(sides) + 1, grouped)
    later = _after_grouping(t, read)
    for name in read:
        # a copy of a column that reads a player's sums (a second pass: CFC's opponents at their temporary rating)
        # is written cell by cell: LibreOffice 7.4's threaded calculation of such a copy as one group reads some
        # of its cells before they are computed (module docstring)
        grouped.add(Col(name, _("{name}, grouped by player", name=name), f'=IF([side]="","",INDEX({name},[side]))', "8",
                        shared=False if name in later else None))
    for name, (total, others) in used.items():
        title, formula = _running(total, others)
        grouped.add(Col(name, title, formula.replace("{name}", name), "8"))
    return t


_WORD = re.compile(r"(?<![A-Za-z0-9_.$])([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_(])")


def _texts(c: Col, s: Sheet) -> list[str]:
    """A column's formula as written at its sheet's first and last rows (and each block's)."""
    if not callable(c.formula):
        return [c.formula]
    rows = {s.first, s.last, *(r for block in c.blocks or () for r in block)}
    return [c.formula(r) for r in sorted(rows)]


def _reads(text: str, sheet: Sheet, sheets: dict[str, Sheet], known: set[str]) -> set[str]:
    """The workbook names of the computed columns (and names computed once) a formula reads."""
    out = set()
    for m in re.finditer(r"\[(?:([a-z_][a-z0-9_]*):)?([a-z0-9_]+)(?:@[a-z0-9]+)?\]", text):
        other = sheets.get(m.group(1) or sheet.name)
        if other is not None:
            out.add(other.prefix + m.group(2))
    plain = re.sub(r'"[^"]*"', "", re.sub(r"\[[^\]]*\]", "", text))
    out.update(w for w in _WORD.findall(plain) if w in known or w.startswith(PREFIX))
    return out


def _after_grouping(t: Template, read: list[str]) -> set[str]:
    """The columns of ``read`` that depend, through any chain of columns and names, on a column of ``by_player``:
    their copies there would form a second pass over the same sheet."""
    sheets = {s.name: s for s in t.sheets}
    formulas: dict[str, list[str]] = {s.prefix + c.name: _texts(c, s) for s in t.sheets for c in s.columns}
    formulas.update({name: [f] for name, f in t.names.items()})
    known = set(formulas)
    owner = {s.prefix + c.name: s for s in t.sheets for c in s.columns}
    graph = {name: set().union(*(_reads(f, owner.get(name, sheets["work"]), sheets, known) for f in texts))
             for name, texts in formulas.items()}
    memo: dict[str, bool] = {}

    def grouped(name: str, path: frozenset[str] = frozenset()) -> bool:
        if name not in memo:
            memo[name] = name.startswith(PREFIX) or any(
                grouped(d, path | {name}) for d in graph.get(name, ()) if d not in path)
        return memo[name]

    return {name for name in read if grouped(name)}


def _wrapped(formula: Callable[[int], str], aligned: set[str], used: dict[str, Any]) -> Callable[[int], str]:
    return lambda r: rewrite(formula(r), aligned, used)
