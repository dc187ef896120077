"""The suite's order on several workers (``make test``: ``pytest -n 2 --dist worksteal``): the tests marked
``slow`` (the quick-mode notebooks and atlas, a few seconds to a minute each) come first, so that they run
while the short tests fill the other worker, instead of running last, alone. pytest-xdist's ``worksteal``
hands each worker half of the list and lets an idle worker take half of what another has not started.

jsonschema (imported by nbformat, thus papermill) builds the IRI grammar of rfc3987-syntax when that package
is installed (jupyter brings it): about 1 s of every process that imports it, for a format no notebook schema
uses (python-jsonschema/jsonschema#1428). Hidden here, as in the Snakefile, the workers do not build it."""
import sys

sys.modules.setdefault("rfc3987_syntax", None)


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: the order within each part stays
