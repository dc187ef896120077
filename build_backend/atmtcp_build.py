"""atmtcp's build backend: setuptools', and a wheel that carries the kernel compiled ahead of time.

``python -m build --wheel`` (``make wheel``) compiles the kernel for a baseline CPU
(``atmtcp warm --portable``: x86-64-v3, Python's version of the build) into
``atmtcp/kernel/prebuilt/`` before setuptools packs the wheel, so that a user who installs the
wheel runs simulations at once, without numba compiling for minutes. That needs the package's own
dependencies (numba above all) and a C compiler at build time, and 4 minutes and 2.2 GB on 2 cores:
so only wheels do it. An editable install (``pip install -e .``, ``make setup``) and an sdist are
setuptools' own, and compile on first use or by ``atmtcp warm`` as before. ``ATMTCP_WHEEL_KERNEL=0``
builds a wheel without the prebuilt kernel (pure Python; it then compiles on first use).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (every hook not defined below is setuptools')

ROOT = Path(__file__).resolve().parent.parent


def _wants_kernel() -> bool:
    return os.environ.get("ATMTCP_WHEEL_KERNEL", "1") != "0"


def get_requires_for_build_wheel(config_settings=None):
    """setuptools' requirements, and where the wheel carries the kernel, the package's own
    dependencies: the build runs the package to compile it."""
    requires = _setuptools.get_requires_for_build_wheel(config_settings)
    if _wants_kernel():
        requires += tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return requires


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Compile the kernel for the baseline CPU into ``atmtcp/kernel/prebuilt/`` (unless
    ``ATMTCP_WHEEL_KERNEL=0``, which removes any prebuilt module), then pack the wheel."""
    if _wants_kernel():
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        subprocess.run([sys.executable, "-m", "atmtcp", "warm", "--portable"], cwd=ROOT, env=env, check=True)
    else:
        for module in (ROOT / "atmtcp" / "kernel" / "prebuilt").glob("*"):
            module.unlink()
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
