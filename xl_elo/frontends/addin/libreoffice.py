"""Try the extension in a real LibreOffice, headless: a throwaway profile, one LibreOffice run.

:func:`run_job` installs the extension into a fresh profile with ``unopkg add`` (as a user
does), starts ``soffice --headless`` on it, and a UNO client (``unoclient.py``, on a Python
that has LibreOffice's ``uno`` module) types the job's formulas into a sheet, recalculates
and reads the answers back. Used by tests/test_addin.py; nothing of the user's own
LibreOffice profile is touched. (Installing through the ExtensionManager over UNO instead,
in the same process, failed here on 7.4 with a DeploymentException, as root and as nobody.)
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

CLIENT = Path(__file__).resolve().parent / "unoclient.py"


class LibreOfficeMissing(RuntimeError):
    """LibreOffice or its Python bridge is not installed."""


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def uno_python() -> str | None:
    """A Python that can ``import uno`` (Debian: /usr/bin/python3 with python3-uno), or None."""
    candidates = ["/usr/bin/python3", "/usr/lib/libreoffice/program/python", shutil.which("python3")]
    for exe in dict.fromkeys(c for c in candidates if c):
        if not Path(exe).is_file():
            continue
        probe = subprocess.run([exe, "-c", "import uno, unohelper"], capture_output=True, timeout=60, check=False)
        if probe.returncode == 0:
            return exe
    return None


def missing() -> str | None:
    """Why the extension cannot be tried here, or None."""
    if soffice() is None:
        return "LibreOffice (soffice) is not installed (Debian: libreoffice-calc-nogui)"
    if uno_python() is None:
        return "no Python with LibreOffice's uno module (Debian: python3-uno)"
    return None


def _as_user(work: Path) -> list[str]:
    """The command prefix that runs LibreOffice as an ordinary user: ``unopkg`` refuses a user
    install as root ("Cannot run unopkg as root without --shared or --bundled option"), and a
    shared install would change the LibreOffice of every user, so as root everything runs as
    ``nobody`` in a folder of its own (its pipes, the work folder handed over to it, started in it:
    the caller's folder may be one nobody cannot enter, a checkout in root's home or a mktemp -d)."""
    if os.geteuid() != 0:
        return []
    nobody = pwd.getpwnam("nobody")
    for path in [work, *work.rglob("*")]:
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    return ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups",
            "env", f"HOME={work / 'home'}"]


def run_job(oxt: str | Path, job: dict[str, Any], timeout: float = 180) -> dict[str, Any]:
    """Install ``oxt`` into a fresh profile with ``unopkg add``, start LibreOffice, run ``job``
    through the UNO client (see unoclient.py), stop LibreOffice; the client's result, with timings."""
    why = missing()
    if why:
        raise LibreOfficeMissing(why)
    exe, python = soffice(), uno_python()
    assert exe is not None and python is not None
    unopkg = shutil.which("unopkg") or str(Path(os.path.realpath(exe)).with_name("unopkg"))
    timings: dict[str, float] = {}
    # as root LibreOffice runs as nobody: its folder must be one nobody can reach (not a private TMPDIR)
    reachable = "/tmp" if os.geteuid() == 0 and Path("/tmp").is_dir() else None
    with tempfile.TemporaryDirectory(prefix="xl-elo-calc-", dir=reachable) as tmp:
        work = Path(tmp)
        (work / "profile" / "user").mkdir(parents=True)
        (work / "home").mkdir()
        shutil.copyfile(oxt, work / "xl-elo.oxt")
        shutil.copyfile(CLIENT, work / CLIENT.name)
        job = dict(job)
        if job.get("save_as"):
            job["save_as"] = str(work / Path(job["save_as"]).name)
        (work / "job.json").write_text(json.dumps(job), encoding="utf-8")
        runas = _as_user(work)
        profile = f"-env:UserInstallation={(work / 'profile').as_uri()}"

        start = time.monotonic()
        # every process starts in the work folder: nobody cannot enter the caller's (a private checkout), and
        # unopkg, a shell script, stops when it cannot
        add = subprocess.run([*runas, unopkg, "add", profile, str(work / "xl-elo.oxt")], cwd=work,
                             capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False)
        timings["unopkg_add"] = time.monotonic() - start
        if add.returncode != 0:
            raise RuntimeError(f"unopkg add failed:\n{(add.stderr or add.stdout).strip()}")

        pipe = f"xlelo_{os.getpid()}_{secrets.token_hex(4)}"
        start = time.monotonic()
        office = subprocess.Popen(
            [*runas, exe, "--headless", "--invisible", "--norestore", "--nologo", "--nodefault", "--nolockcheck",
             profile, f"--accept=pipe,name={pipe};urp;StarOffice.ComponentContext"], cwd=work,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        ok = False
        try:
            client = subprocess.run([*runas, python, str(work / CLIENT.name), pipe, str(work / "job.json"),
                                     str(work / "result.json")], cwd=work, capture_output=True, text=True,
                                    timeout=timeout, check=False)
            if client.returncode != 0 or not (work / "result.json").exists():
                raise RuntimeError(f"the UNO client failed:\n{client.stderr.strip() or client.stdout.strip()}")
            result: dict[str, Any] = json.loads((work / "result.json").read_text(encoding="utf-8"))
            ok = True
        finally:
            try:  # the client ends LibreOffice when it is done; after a failure it may be left waiting
                office.wait(timeout=30 if ok else 1)
            except subprocess.TimeoutExpired:
                os.killpg(office.pid, signal.SIGKILL)  # our own soffice, in its own process group
                office.wait(timeout=30)
        timings["soffice_run"] = time.monotonic() - start
        result.setdefault("timings", {}).update(timings)
        return result
