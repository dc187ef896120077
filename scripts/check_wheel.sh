#!/usr/bin/env bash
# Install a built wheel into a fresh virtual environment, as a student would, and time its first run:
#   scripts/check_wheel.sh python3 dist/atmtcp-1.0.0-cp311-cp311-linux_x86_64.whl
# Prints which kernel the run used (the wheel's prebuilt one, or numba's JIT where this CPU cannot run it)
# and /usr/bin/time's wall time, CPU and peak memory of the first `atmtcp run --duration 1`. `make wheel-check`.
set -euo pipefail
python=${1:?usage: check_wheel.sh PYTHON WHEEL}
wheel=${2:?usage: check_wheel.sh PYTHON WHEEL (make wheel builds one into dist/)}
here=$(cd "$(dirname "$0")/.." && pwd)
venv=$(mktemp -d "${TMPDIR:-/tmp}/atmtcp-wheel-XXXXXX")
trap 'rm -rf "$venv"' EXIT
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -c "$here/requirements/constraints.txt" "$wheel"
cd "$venv"  # not the checkout: the installed package, not the sources, must run
"$venv/bin/python" -c "from atmtcp.kernel.entry import entry_kind, load_aot; import sys; \
print('kernel:', entry_kind(), getattr(load_aot(), '__file__', ''))"
/usr/bin/time -f "first run: %e s wall, %U s user, %S s system, %M KB peak" \
    "$venv/bin/atmtcp" run --duration 1
