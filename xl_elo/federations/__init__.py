"""One module per federation, found by name or alias (``find_federation("swiss")``)."""

from __future__ import annotations

from typing import Final

#: Canonical federation codes, in the order the command line lists them.
FEDERATIONS: Final = ("fide", "fse", "fqe", "ffe", "fesa")

_ALIASES: Final = {
    "fide": "fide",
    "fse": "fse", "ssb": "fse", "swiss": "fse", "sschb": "fse",
    "fqe": "fqe", "quebec": "fqe", "québec": "fqe",
    "ffe": "ffe", "french": "ffe", "france": "ffe",
    "fesa": "fesa", "shogi": "fesa",
}


def find_federation(name: str) -> str:
    """The federation code for a name or alias (``"SSB"`` -> ``"fse"``); ValueError if unknown."""
    key = str(name).strip().lower()
    try:
        return _ALIASES[key]
    except KeyError:
        raise ValueError(f"unknown federation {name!r}; expected one of {', '.join(FEDERATIONS)}") from None
