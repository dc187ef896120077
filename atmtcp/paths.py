"""Checks of the paths atmtcp writes, made before any work (issue 38).

A result is written under a temporary name and renamed over its path (:func:`atmtcp.runner.write_atomically`),
and a rename replaces whatever has that name: a device such as ``/dev/null``, a FIFO, a socket, a
symbolic link. So an output must be a regular file or not exist yet, never a folder, a device, a FIFO,
a socket or a symbolic link, and its folder must exist or be creatable, and be writable (tried with a
probe file, which is what counts for root too). An empty path is refused. A refusal is an
:class:`OutputError`, a :class:`atmtcp.model.ModelError` naming the parameter (``--output``, ``output``,
...), which the command line prints in one line.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .model import ModelError


class OutputError(ModelError):
    """A path atmtcp would write is not a place for a file (see the module docstring)."""

    def __init__(self, parameter: str, path, reason: str):
        ValueError.__init__(self, f"{parameter} {str(path)!r}: {reason}")
        self.field = parameter


KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def check_output(path, parameter: str = "output") -> Path:
    """``path`` as a :class:`~pathlib.Path` if a file can be written there (see the module docstring),
    else :class:`OutputError` naming ``parameter``. The path's folder is created if it is missing."""
    path = check_target(path, parameter)
    check_folder(path.parent, parameter, of=path)
    return path


def check_target(path, parameter: str = "output") -> Path:
    """The part of :func:`check_output` that looks at ``path`` itself, not its folder: cheap enough
    to repeat just before every rename."""
    if path is None or str(path).strip() == "":
        raise OutputError(parameter, path if path is not None else "", "an empty path: name a file")
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        raise OutputError(parameter, path, f"a part of its folder {str(path.parent)!r} is a file, not a folder") from None
    except OSError as error:
        raise OutputError(parameter, path, f"cannot be examined ({error.strerror or error})") from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise OutputError(parameter, path, f"is a symbolic link (to {os.readlink(path)!r}), which writing would "
                                           "replace: name the file itself")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise OutputError(parameter, path, f"is {_kind(info.st_mode)}, not a file: name a file to write")
    return path


def check_folder(folder, parameter: str, of=None) -> Path:
    """``folder`` (created if missing) if files can be written in it, else :class:`OutputError` naming
    ``parameter`` (and the path ``of`` which it is the folder)."""
    folder = Path(folder) if str(folder) else Path(".")
    shown = of if of is not None else folder
    if str(folder).strip() == "":
        raise OutputError(parameter, folder, "an empty path: name a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise OutputError(parameter, shown, f"a part of its folder {str(folder)!r} is a file, not a folder") from None
    except OSError as error:
        raise OutputError(parameter, shown, f"its folder cannot be created ({error.strerror or error})") from None
    if not folder.is_dir():
        raise OutputError(parameter, shown, f"its folder {str(folder)!r} is not a folder")
    probe = folder / f".atmtcp-write-test-{os.getpid()}"
    try:
        probe.touch()
        probe.unlink()
    except OSError as error:
        raise OutputError(parameter, shown, f"cannot write there ({error.strerror or error})") from None
    return folder
