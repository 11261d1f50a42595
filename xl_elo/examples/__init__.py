"""Worked examples shipped with xl-elo (the demo and the tests use them)."""
