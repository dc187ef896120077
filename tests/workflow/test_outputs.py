"""Every path atmtcp writes is checked before any work (issue 38, item 1): a regular file or nothing,
in a folder that exists or can be made, writable; never a folder, device, FIFO, socket or symbolic
link, nor an empty path. The bad paths are made in a temporary folder; no real device is touched."""
from __future__ import annotations

import os
import socket
import stat

import pytest

from atmtcp.cli import main
from atmtcp.paths import OutputError, check_output


def _fifo(folder):
    path = folder / "fifo"
    os.mkfifo(path)
    return path


def _socket(folder):
    path = folder / "sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.close()  # the socket file stays
    return path


def _symlink(folder):
    target = folder / "precious.txt"
    target.write_text("keep me")
    link = folder / "link.nc"
    link.symlink_to(target)
    return link


def _folder(folder):
    path = folder / "a-folder"
    path.mkdir()
    return path


def _under_a_file(folder):
    (folder / "plain").write_text("x")
    return folder / "plain" / "x.nc"


BAD = {"FIFO": (_fifo, "FIFO"), "socket": (_socket, "socket"), "symbolic link": (_symlink, "symbolic link"),
       "folder": (_folder, "folder"), "below a file": (_under_a_file, "is a file, not a folder")}


def _state(path):
    return os.lstat(path).st_mode, (os.readlink(path) if os.path.islink(path) else None)


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_output_is_refused_before_any_work(kind, tmp_path, capsys):
    make, words = BAD[kind]
    path = make(tmp_path)
    before = _state(path) if os.path.lexists(path) else None
    with pytest.raises(OutputError) as refused:
        check_output(path, "output")
    assert words in str(refused.value) and refused.value.field == "output"
    code = main(["experiment", "goyal1998.sd_z_sweep", "--quick", "--output", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--output" in err and words in err, err
    assert (_state(path) if os.path.lexists(path) else None) == before  # untouched
    assert not list(tmp_path.rglob(".points")) and not list(tmp_path.rglob(".runs"))
    if kind == "symbolic link":
        assert (tmp_path / "precious.txt").read_text() == "keep me"


def test_an_empty_output_is_refused(capsys):
    with pytest.raises(OutputError, match="empty path"):
        check_output("", "output")
    assert main(["experiment", "goyal1998.sd_z_sweep", "--quick", "--output", ""]) == 2
    err = capsys.readouterr().err
    assert "--output" in err and "empty path" in err and len(err.strip().splitlines()) == 1


def test_a_device_is_refused(tmp_path, monkeypatch):
    """A character device (as /dev/null is), seen through a stand-in: no real device is opened."""
    path = tmp_path / "null"
    path.write_text("")
    real = os.lstat

    def as_device(p, *args, **kwargs):
        info = real(p, *args, **kwargs)
        if os.fspath(p) == os.fspath(path):
            return os.stat_result((stat.S_IFCHR | 0o666,) + tuple(info)[1:])
        return info
    monkeypatch.setattr(os, "lstat", as_device)
    with pytest.raises(OutputError, match="character device"):
        check_output(path, "--output")


def test_a_history_below_a_file_is_refused(tmp_path, capsys):
    assert main(["bench", "--history", str(_under_a_file(tmp_path))]) == 2
    assert "--history" in capsys.readouterr().err


def test_a_good_output_and_its_new_folder(tmp_path):
    path = tmp_path / "new" / "deeper" / "x.nc"
    assert check_output(path, "output") == path and path.parent.is_dir()
    path.write_text("old")
    assert check_output(path, "output") == path  # an existing regular file is replaced, atomically
