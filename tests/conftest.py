"""The suite's order on several workers (``make test``: ``pytest -n 2 --dist worksteal``): the tests marked
``slow`` (the quick-mode notebooks and atlas, a few seconds to a minute each) come first, so that they run
while the short tests fill the other worker, instead of running last, alone. pytest-xdist's ``worksteal``
hands each worker half of the list and lets an idle worker take half of what another has not started.

jsonschema (imported by nbformat, thus papermill) builds the IRI grammar of rfc3987-syntax when that package
is installed (jupyter brings it): about 1 s of every process that imports it, for a format no notebook schema
uses (python-jsonschema/jsonschema#1428). Hidden here, as in the Snakefile, the workers do not build it.

Every test process keeps the experiments' caches (finished grid points, shared runs: ``ATMTCP_CACHE_DIR``) in a
folder of its own, removed at its end, not in the checkout's ``data/results/quick``: a run of the suite then
reads nothing an earlier run (or the user) left there, and leaves nothing behind."""
import atexit
import os
import shutil
import sys
import tempfile

sys.modules.setdefault("rfc3987_syntax", None)

_CACHES = tempfile.mkdtemp(prefix="atmtcp-test-caches-")
os.environ["ATMTCP_CACHE_DIR"] = _CACHES  # atmtcp.runner.CACHE_ENV; subprocesses inherit it
atexit.register(shutil.rmtree, _CACHES, ignore_errors=True)


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: the order within each part stays
