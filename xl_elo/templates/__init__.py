"""Template workbooks that rate an event or period with native spreadsheet formulas.

``build_all(directory)`` writes ``fide_period.xlsx``, ``fse_period.xlsx``, ``fqe_event.xlsx``,
``ffe_period.xlsx``, ``fesa_tournament.xlsx`` and ``published_tables.xlsx``. Each template has
an instructions sheet (English and French), the input sheets of the data contract (SPEC 8:
``players``, ``games`` and, for FESA, ``history``), a ``results`` sheet whose columns are the
engine's results table, and helper sheets with every intermediate. Only functions that both
Excel 2016+ and LibreOffice 7.4 compute are used; no macro, no UDF. The published tables
(``xl_elo.tables``) are written into a ``lists`` sheet from the package's one transcription.
"""

from __future__ import annotations

from xl_elo.templates.build import TEMPLATES, build_all, build_template

__all__ = ["TEMPLATES", "build_all", "build_template"]
