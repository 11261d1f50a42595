"""The function wizard's help in French, for LibreOffice Calc (CalcAddIns.xcu).

Every function carries its French help beside its English one: the common functions in
:mod:`xl_elo.frontends.functions` (made from the systems' declarations where they name them),
each system's own functions in its declaration (:class:`xl_elo.federations.contract.SheetFunction`).
Where a text is missing, the English shows (tests/test_addin.py checks that none is). Sections
are those of the rules document, docs/rules.md.
"""

from __future__ import annotations

from typing import Any


def _said(words: Any) -> str:
    return str(words() if callable(words) else words)


def function_help(function: Any) -> tuple[str, dict[str, str]]:
    """A function's French description and argument help (English where a text is missing)."""
    description = _said(function.french) or function.description
    return description, {a.name: _said(a.french) or a.doc for a in function.args}
