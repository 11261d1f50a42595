"""The FESA template (built in the next step)."""
from __future__ import annotations

from xl_elo.templates import book as b


def fesa() -> b.Book:
    raise NotImplementedError
