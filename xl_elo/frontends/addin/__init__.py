"""xl-elo's functions in LibreOffice Calc: the extension (``xl-elo extension`` writes ``xl-elo.oxt``).

- :mod:`xl_elo.frontends.addin.build`: builds the extension from :data:`xl_elo.frontends.functions.FUNCTIONS`;
- :mod:`xl_elo.frontends.addin.calls`: how a Calc call reaches a function and back (plain Python);
- ``xl_elo_calc.py``: the UNO component, copied into the extension;
- :mod:`xl_elo.frontends.addin.french`: the function wizard's help in French;
- :mod:`xl_elo.frontends.addin.libreoffice` and ``unoclient.py``: try the extension in a headless LibreOffice.

Nothing here is imported by ``import xl_elo``.
"""
