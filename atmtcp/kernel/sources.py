"""Which kernel this is, and where its compiled forms live. Plain Python: a process that runs
the ahead-of-time kernel (:mod:`atmtcp.kernel.entry`) reads this without importing numba.

Both compiled forms are named by a hash of every kernel source file, so an edit to any of them
makes both stale at once: numba's on-disk cache (:mod:`atmtcp.kernel.jit`) and the
ahead-of-time extension module (:mod:`atmtcp.kernel.aot`).
"""
import hashlib
import os
import platform
import sys
import sysconfig
from pathlib import Path

KERNEL_DIR = Path(__file__).resolve().parent


def hash_sources(paths) -> str:
    """16 hex digits of the SHA-256 of the files ``paths`` (sorted), read as bytes."""
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(paths))).hexdigest()[:16]


def host_cpu_key() -> str:
    """12 hex digits naming this machine's instruction set: the architecture and the CPU flags
    Linux reports (on other systems, the processor's name). The ahead-of-time module holds
    code compiled for this host's CPU (as numba's cache does), so another CPU must not load it.
    ``NUMBA_CPU_NAME`` (numba's own setting, e.g. ``znver3`` to count instructions with a valgrind
    that cannot decode AVX-512) names another target, and so another module."""
    description = platform.machine() + platform.processor() + os.environ.get("NUMBA_CPU_NAME", "")
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            description += next((line for line in cpuinfo if line.startswith("flags")), "")
    except OSError:
        pass
    return hashlib.sha256(description.encode()).hexdigest()[:12]


SOURCE_HASH = hash_sources(KERNEL_DIR.glob("*.py"))
CACHE_DIR = KERNEL_DIR / "__pycache__" / f"numba-{SOURCE_HASH}"
"""numba's on-disk cache of the kernel (JIT)."""
AOT_MODULE = "atmtcp_kernel_aot"
AOT_DIR = KERNEL_DIR / "__pycache__" / f"aot-{SOURCE_HASH}-{host_cpu_key()}-py{sys.version_info[0]}{sys.version_info[1]}"
AOT_PATH = AOT_DIR / (AOT_MODULE + sysconfig.get_config_var("EXT_SUFFIX"))
"""The ahead-of-time extension module of this kernel, for this CPU and Python."""

PORTABLE_CPU = "x86-64-v3"
"""The CPU a wheel's prebuilt kernel is compiled for (:func:`prebuilt_path`): the x86-64 level of
2013 (Haswell) and later processors, AVX2 and FMA included (the x86-64 psABI's micro-architecture
levels). Measured against this host's own build in docs/speed.md."""
PORTABLE_FLAGS = frozenset(
    "cx16 lahf_lm popcnt sse4_1 sse4_2 ssse3 "          # x86-64-v2
    "avx avx2 bmi1 bmi2 f16c fma abm movbe xsave".split())  # x86-64-v3 (abm: Linux's name for lzcnt)
"""The flags Linux's /proc/cpuinfo shows on a CPU that runs code built for :data:`PORTABLE_CPU`."""
PREBUILT_DIR = KERNEL_DIR / "prebuilt"
"""Where a wheel carries its ahead-of-time kernel (``atmtcp warm --portable`` writes it)."""


def prebuilt_path(cpu: str = PORTABLE_CPU) -> Path:
    """The prebuilt ahead-of-time module of this kernel for ``cpu`` and this Python: named by the
    kernel's source hash, so an edited kernel never loads a stale one."""
    return PREBUILT_DIR / f"{AOT_MODULE}-{SOURCE_HASH}-{cpu}{sysconfig.get_config_var('EXT_SUFFIX')}"


def cpu_flags(cpuinfo: str = "/proc/cpuinfo") -> frozenset[str]:
    """The CPU flags Linux reports (empty where there is no ``cpuinfo``)."""
    try:
        with open(cpuinfo) as lines:
            return frozenset(next((line for line in lines if line.startswith("flags")), "").partition(":")[2].split())
    except OSError:
        return frozenset()


def runs_portable(flags: frozenset[str] | None = None) -> bool:
    """Whether this CPU runs code built for :data:`PORTABLE_CPU` (an x86-64 with all of
    :data:`PORTABLE_FLAGS`), so that a wheel's prebuilt kernel may be loaded."""
    flags = cpu_flags() if flags is None else flags
    return platform.machine() in ("x86_64", "AMD64") and PORTABLE_FLAGS <= flags


SEAL = b"atmtcp-sha256:"
"""What ends a sealed file, followed by the SHA-256 of all bytes before it (:func:`seal`)."""


def seal(path: Path) -> None:
    """Append :data:`SEAL` and the SHA-256 of ``path``'s bytes to it. A shared library ignores bytes
    after its last section, so the sealed module loads as before, and :func:`seal_problem` can tell a
    whole file from a truncated or overwritten one before anything maps it into memory (a truncated
    extension module kills the process with SIGBUS when it is loaded)."""
    data = path.read_bytes()
    with open(path, "ab") as f:
        f.write(SEAL + hashlib.sha256(data).digest())


def seal_problem(path: Path) -> str | None:
    """What is wrong with the sealed file ``path`` (one short phrase), or None if it is whole."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    tail = len(SEAL) + hashlib.sha256().digest_size
    if len(data) < tail or data[-tail:-tail + len(SEAL)] != SEAL:
        return f"is damaged (no checksum at its end; {len(data)} bytes)"
    if hashlib.sha256(data[:-tail]).digest() != data[-tail + len(SEAL):]:
        return "is damaged (its checksum does not match its contents)"
    return None
