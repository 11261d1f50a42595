"""LibreOffice work started in the background when the tests are collected (conftest.py), read by a fixture.

A module whose tests read many recalculated workbooks (test_workbooks.py, test_season_templates.py) declares one
:class:`Background` with the function that prepares them; its recalculation runs in a child process while the other
tests run. In a parallel run (pytest-xdist, the README's command), the workers share one: the first worker to collect
starts it in a folder named for the run, the others wait for its manifest there, and the controlling process ends it
and removes the folder when the run ends (:func:`end_run`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from xl_elo.formats.libreoffice import soffice

#: The variable pytest-xdist sets in each worker: the run's id, shared by its workers.
RUN = "PYTEST_XDIST_TESTRUNUID"
#: Seconds between two looks for a shared preparation's manifest.
POLL = 0.2


def _folder(run: str, name: str) -> Path:
    return Path(tempfile.gettempdir()) / f"xl-elo-tests-{run}-{name}"


def _prepare_into(prepare: Callable[[Path], dict[str, Any]], base: Path) -> None:
    """The child process: prepare, then write the manifest (or the error) beside the files."""
    os.setpgrp()  # its own process group: its LibreOffice runs end with it if the tests are interrupted
    try:
        done = prepare(base)
        (base / "manifest.tmp").write_text(json.dumps(done, default=str), encoding="utf-8")
        (base / "manifest.tmp").replace(base / "manifest.json")
    except BaseException:  # reported by the fixture
        (base / "error.txt").write_text(traceback.format_exc(), encoding="utf-8")


class Background:
    """One module's background preparation: :meth:`start` at collection, :meth:`result` in its fixture."""

    def __init__(self, name: str, prepare: Callable[[Path], dict[str, Any]], seconds: float) -> None:
        self.name, self.prepare, self.seconds = name, prepare, seconds
        self.base: Path | None = None
        self.child: Any = None
        self.owned = False

    def start(self) -> None:
        import multiprocessing

        if self.base is not None or soffice() is None or "fork" not in multiprocessing.get_all_start_methods():
            return
        run = os.environ.get(RUN)
        if run:
            base = _folder(run, self.name)
            try:
                base.mkdir()
            except FileExistsError:  # another worker of this run started it
                self.base = base
                return
        else:
            base = Path(tempfile.mkdtemp(prefix=f"xl-elo-{self.name}-"))
        self.child = multiprocessing.get_context("fork").Process(target=_prepare_into, args=(self.prepare, base),
                                                                 name=self.name)
        self.child.start()
        (base / "pid").write_text(str(self.child.pid), encoding="utf-8")
        self.base, self.owned = base, True

    def result(self, folder: Callable[[], Path]) -> dict[str, Any]:
        """The manifest, waiting for it; prepared here (in ``folder()``) when no child could be started."""
        self.start()
        if self.base is None:  # no fork on this platform, or no LibreOffice: in this process
            return json.loads(json.dumps(self.prepare(folder()), default=str))
        manifest, error = self.base / "manifest.json", self.base / "error.txt"
        for _ in range(int(self.seconds / POLL)):  # a generous bound, never a test's verdict on speed
            if manifest.exists() or error.exists():
                break
            if self.child is not None and not self.child.is_alive() and not manifest.exists() and not error.exists():
                pytest.fail(f"preparing {self.name} ended (exit code {self.child.exitcode}) without a result")
            time.sleep(POLL)
        else:
            pytest.fail(f"{self.name} was not prepared in {self.seconds:g} s")
        if error.exists():
            pytest.fail(f"preparing {self.name} failed:\n{error.read_text(encoding='utf-8')}")
        return json.loads(manifest.read_text(encoding="utf-8"))

    def stop(self) -> None:
        """End the child and remove its files, unless the run's workers share them (:func:`end_run` does)."""
        if os.environ.get(RUN) or self.base is None:
            return
        _end(self.base)
        if self.child is not None:
            self.child.join(10)
        self.base, self.child = None, None


def _end(base: Path) -> None:
    pid = base / "pid"
    if pid.exists() and not (base / "manifest.json").exists() and not (base / "error.txt").exists():
        with contextlib.suppress(OSError, ValueError):
            os.killpg(int(pid.read_text(encoding="utf-8")), signal.SIGKILL)
    shutil.rmtree(base, ignore_errors=True)


def end_run(run: str) -> None:
    """The controlling process of a parallel run, at its end: every shared preparation ended and removed."""
    for base in Path(tempfile.gettempdir()).glob(f"xl-elo-tests-{run}-*"):
        _end(base)
