"""Only what pyproject.toml cannot say: a wheel that carries the prebuilt kernel
(``atmtcp/kernel/prebuilt/``, a CPython extension module) is tagged for this Python and platform,
not as pure Python (``build_backend/atmtcp_build.py``)."""
from pathlib import Path

from setuptools import Distribution, setup

PREBUILT = Path(__file__).resolve().parent / "atmtcp" / "kernel" / "prebuilt"


class KernelDistribution(Distribution):
    def has_ext_modules(self):
        return any(PREBUILT.glob("*.so"))


setup(distclass=KernelDistribution)
