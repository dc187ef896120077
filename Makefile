# `make test` and `make reproduce` work on a fresh machine with only Python 3.11: they create
# .venv/ and install atmtcp into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 2

.PHONY: setup test reproduce quick bench clean

$(BIN)/atmtcp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(BIN)/atmtcp

setup: $(BIN)/atmtcp

test: setup
	$(BIN)/python -m pytest -n $(CORES) tests

reproduce: setup
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/snakemake --cores $(CORES) --printshellcmds

quick: setup
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/snakemake --cores $(CORES) --configfile config/quick.yaml

bench: setup
	$(BIN)/atmtcp bench

clean:
	rm -rf $(VENV) data/results/*.nc figures/*/ .snakemake
