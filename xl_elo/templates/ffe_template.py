"""The FFE template (built in the next step)."""
from __future__ import annotations

from xl_elo.templates import book as b


def ffe() -> b.Book:
    raise NotImplementedError
