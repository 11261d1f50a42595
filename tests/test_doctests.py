"""Every system's public entry has a worked example in its docstring, run here (as skillratings runs its
examples): its federation's own figures where it publishes them, else figures computed by hand from the rules."""

from __future__ import annotations

import doctest
import importlib

import pytest

from xl_elo.federations import registry


@pytest.mark.parametrize("code", list(registry()))
def test_every_systems_example_runs(code):
    module = importlib.import_module(registry()[code].PACKAGE)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{code}: no example in its docstring"
    assert result.failed == 0
