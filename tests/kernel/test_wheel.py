"""A wheel's prebuilt kernel (issue 39): which CPUs load it, that it is found where the host's own
module is absent, and that only wheels make the build compile (``build_backend/atmtcp_build.py``).
Building a wheel takes minutes, so it is not done here: ``make wheel`` and ``make wheel-check``."""
from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import pytest

from atmtcp.kernel import entry, sources

ROOT = Path(__file__).resolve().parents[2]


def test_a_cpu_with_every_x86_64_v3_flag_runs_the_portable_kernel(monkeypatch):
    monkeypatch.setattr(sources.platform, "machine", lambda: "x86_64")
    assert sources.runs_portable(sources.PORTABLE_FLAGS | {"avx512f"})
    for missing in ("avx2", "fma", "movbe", "sse4_2"):
        assert not sources.runs_portable(sources.PORTABLE_FLAGS - {missing}), missing
    monkeypatch.setattr(sources.platform, "machine", lambda: "aarch64")
    assert not sources.runs_portable(sources.PORTABLE_FLAGS)


def test_cpu_flags_are_read_from_cpuinfo(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu avx2 fma\nbugs\t\t: none\n")
    assert sources.cpu_flags(str(cpuinfo)) == {"fpu", "avx2", "fma"}
    assert sources.cpu_flags(str(tmp_path / "absent")) == frozenset()


def test_the_prebuilt_module_is_named_by_the_kernel_and_the_python():
    path = sources.prebuilt_path()
    assert path.parent == sources.PREBUILT_DIR
    assert sources.SOURCE_HASH in path.name and sources.PORTABLE_CPU in path.name
    assert path.name.endswith(sources.sysconfig.get_config_var("EXT_SUFFIX"))


def test_the_hosts_module_comes_first_and_the_prebuilt_only_on_a_cpu_that_runs_it(monkeypatch):
    monkeypatch.setattr(entry, "runs_portable", lambda: True)
    assert entry.aot_paths() == [sources.AOT_PATH, sources.prebuilt_path()]
    monkeypatch.setattr(entry, "runs_portable", lambda: False)
    assert entry.aot_paths() == [sources.AOT_PATH]


def test_a_prebuilt_module_loads_where_the_hosts_is_absent(tmp_path, monkeypatch, capsys):
    """A wheel's install: no module of the host's, the prebuilt one in the package (here a copy of
    the host's module under the prebuilt name: the same format)."""
    if not sources.AOT_PATH.exists():
        pytest.skip("no ahead-of-time module to copy (make warm)")
    prebuilt = tmp_path / sources.prebuilt_path().name
    shutil.copyfile(sources.AOT_PATH, prebuilt)
    monkeypatch.setattr(entry, "AOT_PATH", tmp_path / "absent.so")
    monkeypatch.setattr(entry, "prebuilt_path", lambda: prebuilt)
    monkeypatch.setattr(entry, "runs_portable", lambda: True)
    module = entry.load_aot()
    assert module is not None and Path(module.__file__) == prebuilt
    monkeypatch.setattr(entry, "runs_portable", lambda: False)
    assert entry.load_aot() is None
    assert capsys.readouterr().err == ""


def _backend(monkeypatch, kernel: str | None):
    if kernel is None:
        monkeypatch.delenv("ATMTCP_WHEEL_KERNEL", raising=False)
    else:
        monkeypatch.setenv("ATMTCP_WHEEL_KERNEL", kernel)
    monkeypatch.syspath_prepend(str(ROOT / "build_backend"))
    sys.modules.pop("atmtcp_build", None)
    return importlib.import_module("atmtcp_build")


@pytest.mark.filterwarnings("ignore:Support for `\\[tool.setuptools\\]`")  # (an older setuptools in the venv)
def test_only_a_wheel_needs_the_packages_dependencies_to_build(monkeypatch):
    backend = _backend(monkeypatch, None)
    wheel = " ".join(backend.get_requires_for_build_wheel())
    assert "numba" in wheel and "numpy" in wheel
    editable = " ".join(backend.get_requires_for_build_editable())
    assert "numba" not in editable
    assert "numba" not in " ".join(_backend(monkeypatch, "0").get_requires_for_build_wheel())
