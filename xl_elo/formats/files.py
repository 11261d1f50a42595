"""Reading and writing a user's files safely (rules 8: nothing a user typed is lost).

- An input must be a regular file within :data:`xl_elo.limits.FILE_BYTES`; a device, a
  folder or a pipe is refused before anything is read.
- Inputs that are one file (one name twice, a link, a hard link) or the same bytes (a copy)
  are found before anything is read (:func:`given_twice`): one event is counted once.
- An output is never written over an input: the real paths (links resolved) and the files
  themselves are compared, whatever transformation came between (a recalculated copy, a
  conversion). It must be a regular file or not exist yet; a read-only file is not replaced.
- An output is written to a temporary file beside it and moved into place only when
  complete, with the permissions a new file normally gets (the user's umask), or the ones the
  replaced file had. A failure names the output, never the temporary file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from xl_elo import limits
from xl_elo.model import InputError, Problem


class OutputError(ValueError):
    """An output that must not be written (over an input, a device, a read-only file)."""


def input_path(path: str | os.PathLike[str], what: str | None = None) -> Path:
    """Check that ``path`` is a readable regular file within the size limit; InputError otherwise."""
    p = Path(path)
    name = what or str(path) or p.name
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError([Problem(name, None, None, "the file does not exist")]) from None
    except NotADirectoryError:
        raise InputError([Problem(name, None, None, "the file does not exist (a file is named as a folder in "
                                                    "its path)")]) from None
    except OSError as exc:
        raise InputError([Problem(name, None, None, f"cannot be read ({exc.strerror})")]) from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError([Problem(name, None, None, "is a folder, not a file")])
    if not stat.S_ISREG(st.st_mode):
        raise InputError([Problem(name, None, None, "is not a regular file (a device or a pipe?): give a file")])
    if st.st_size > limits.FILE_BYTES.value:
        raise InputError([Problem(name, None, None, limits.FILE_BYTES.message(f"is {st.st_size:,} bytes long"))])
    return p


def read_bytes(path: str | os.PathLike[str], what: str | None = None) -> bytes:
    """The bytes of an input file (checked by :func:`input_path`)."""
    p = input_path(path, what)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError([Problem(what or str(path), None, None, f"cannot be read ({exc.strerror})")]) from None
    if len(data) > limits.FILE_BYTES.value:  # grown since it was checked
        raise InputError([Problem(what or str(path), None, None,
                                  limits.FILE_BYTES.message(f"is {len(data):,} bytes long"))])
    return data


def same_input(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> str | None:
    """Why two inputs are one: ``"the same name"``, ``"the same file"`` (a link, a hard link, another
    path to it) or ``"the same bytes"`` (a copy); None when they differ (or cannot be compared: their
    own problems are reported when they are read)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return None
    if not (stat.S_ISREG(sa.st_mode) and stat.S_ISREG(sb.st_mode)):  # a device, a folder: refused as such
        return None
    if os.path.normpath(a) == os.path.normpath(b):
        return "the same name"
    if (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino):
        return "the same file"
    if sa.st_size != sb.st_size or sa.st_size == 0 or sa.st_size > limits.FILE_BYTES.value:
        return None
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            while True:
                x, y = fa.read(1 << 20), fb.read(1 << 20)
                if x != y:
                    return None
                if not x:
                    return "the same bytes"
    except OSError:
        return None


def given_twice(paths: Sequence[str | os.PathLike[str]]) -> list[tuple[int, int, str]]:
    """Inputs that another input before them already is (:func:`same_input`): (the first's position,
    this one's, why), one per repeated input."""
    out = []
    for j in range(1, len(paths)):
        for i in range(j):
            why = same_input(paths[i], paths[j])
            if why is not None:
                out.append((i, j, why))
                break
    return out


def twice_words(first: str | os.PathLike[str], second: str | os.PathLike[str], why: str) -> str:
    """How a message says two inputs are one: ``a and b``, ``a and b are the same file``, ``... hold the
    same bytes (a copy?)``."""
    if why == "the same name":
        return f"{first} and {second}"
    if why == "the same file":
        return f"{first} and {second} are the same file"
    return f"{first} and {second} hold the same bytes: a copy?"


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Do two names give the same file (links resolved, or the same file already on disk)?"""
    return _same(Path(a), Path(b))


def _same(a: Path, b: Path) -> bool:
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str] | None] = ()) -> Path:
    """Refuse (:class:`OutputError`) an output over an input, a non-regular file or a read-only one."""
    given = os.fspath(path)
    if not given.strip():
        raise OutputError("the output file name is blank: give a file name")
    target = Path(given)
    if given.endswith((os.sep, "/")) or target.name in ("", ".", ".."):
        raise OutputError(f"{given} names a folder: give a file name (e.g. {os.path.join(given, 'results.csv')})")
    for other in inputs:
        if other is not None and _same(target, Path(other)):
            raise OutputError(f"refusing to write the output over the input file {other} ({given} is that file)")
    if target.exists() or target.is_symlink():
        try:
            st = target.stat()
        except FileNotFoundError:
            raise OutputError(f"refusing to write {given}: it is a link to a file that does not exist "
                              f"({os.readlink(target)}); give another name") from None
        except OSError as exc:
            raise OutputError(f"cannot write {given}: {exc.strerror}") from None
        if stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{given} is a folder: give a file name")
        if not stat.S_ISREG(st.st_mode):
            raise OutputError(f"refusing to write {given}: it is not a regular file (a device?)")
        # the mode bits, not os.access: for root every file is writable, and a file made read-only
        # on purpose is not replaced even then
        if not os.access(target, os.W_OK) or not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise OutputError(f"refusing to replace {given}: it is read-only (give another name, or make it "
                              "writable first)")
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.exists():
        raise OutputError(f"cannot write {given}: the folder {directory} does not exist")
    if not directory.is_dir():
        raise OutputError(f"cannot write {given}: {directory} is a file, not a folder")
    return target


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *,
                 inputs: Iterable[str | os.PathLike[str] | None] = ()) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` through a temporary file moved into place when complete."""
    target = check_output(path, inputs)
    directory = target.parent if str(target.parent) else Path(".")
    mode = _mode_for(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def temporary_beside(target: Path) -> Path:
    """A new empty temporary file beside ``target`` (for writers that need a path), 0600 until moved."""
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    os.close(fd)
    return Path(tmp)


def move_into_place(tmp: Path, target: Path) -> Path:
    """Give ``tmp`` the permissions ``target`` should have and move it there."""
    try:
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
