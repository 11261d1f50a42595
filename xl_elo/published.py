"""The published tables (rules 7) beside the values our formulas give.

Each :class:`~xl_elo.tableview.TableView` holds a table as the federation printed it (read from
:mod:`xl_elo.tables`, never copied) and, for ``--compare``, the same rows recomputed from the
rules, with every row where the two differ marked. Each system declares its own tables
(``PUBLISHED_TABLES``); the ``xl-elo tables`` command and the published-tables workbook show them
in the registry's order.
"""

from __future__ import annotations

from collections.abc import Callable

from xl_elo.federations import registry
from xl_elo.tableview import TableView

__all__ = ["TableView", "builders", "get_table", "table_names"]


def builders() -> dict[str, Callable[[], TableView]]:
    """Every system's published tables, by the name ``xl-elo tables NAME`` takes."""
    out: dict[str, Callable[[], TableView]] = {}
    for module in registry().values():
        out.update(module.PUBLISHED_TABLES)
    return out


def table_names() -> list[str]:
    """Names of the published tables."""
    return list(builders())


def get_table(name: str) -> TableView:
    """One published table with its recomputation; ValueError for an unknown name."""
    found = builders()
    key = name.strip().lower()
    if key not in found:
        raise ValueError(f"unknown table {name!r}; expected one of {', '.join(found)}")
    return found[key]()
