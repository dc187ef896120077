# `make test` and `make reproduce` work on a fresh machine with only Python 3.11: they create
# .venv/ and install atmtcp into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 2

.PHONY: setup warm wheel wheel-check test test-slurm reproduce quick atlas atlas-quick validate report bench docs test-docs clean clean-cache lock

$(BIN)/atmtcp: pyproject.toml requirements/constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements/constraints.txt -e '.[dev]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	-git rev-parse --is-inside-work-tree >/dev/null 2>&1 && \
		git config filter.strip-notebook-outputs.clean "$(PYTHON) scripts/strip_notebook.py"
	touch $(BIN)/atmtcp

setup: $(BIN)/atmtcp

# Compile the kernel (or load it from numba's cache) once, before the commands below start several
# processes at once: on an empty cache each of them would compile its own copy (minutes of CPU each).
# Then build it ahead of time (seconds), so that simulating processes start without numba. First the
# package's bytecode: the test suite starts about 90 Python processes, and where Python writes none
# (PYTHONDONTWRITEBYTECODE, a read-only checkout) each compiled the modules it imports again (0.11 s).
warm: setup
	$(BIN)/python -m compileall -q atmtcp
	$(BIN)/atmtcp warm

# A wheel whose users need no compile: it carries the kernel built ahead of time for x86-64-v3 CPUs and this
# Python (build_backend/atmtcp_build.py; about 5 minutes on 2 cores), into dist/. `make wheel-check` installs it
# into a fresh virtual environment and times the first `atmtcp run` (scripts/check_wheel.sh).
wheel: setup
	PIP_CONSTRAINT=$(abspath requirements/constraints.txt) $(BIN)/python -m build --wheel

wheel-check:
	scripts/check_wheel.sh $(PYTHON) $(lastword $(sort $(wildcard dist/atmtcp-*.whl)))

# --dist worksteal: an idle worker takes tests another has not started (tests/conftest.py puts the slow ones first)
test: warm
	$(BIN)/python -m pytest -n $(CORES) --dist worksteal tests

# Snakemake prints each job as it starts and "N of M steps (P%) done" as jobs finish (a job's own
# progress bar goes to logs/experiments/<id>.log; a failed job's log is printed). Both end with the
# HTML report, report.html. `quick` runs every rule on shortened runs (config/quick.yaml) into
# data/results/quick/ and figures/quick/ (untracked), with the report in report-quick.html.
# After an interrupt, `make reproduce` resumes: Snakemake reruns the incomplete jobs, and each experiment
# keeps its finished grid points (data/results/.points/). Extra Snakemake flags: make reproduce SNAKEFLAGS=...
SNAKEFLAGS ?=
SNAKEMAKE = PATH=$(abspath $(BIN)):$$PATH $(BIN)/snakemake --cores $(CORES) --printshellcmds --show-failed-logs \
	--rerun-incomplete $(SNAKEFLAGS)

reproduce: warm
	$(SNAKEMAKE)
	@$(MAKE) --no-print-directory report

quick: warm
	$(SNAKEMAKE) --configfile config/quick.yaml
	@$(MAKE) --no-print-directory report REPORT_ARGS='--configfile config/quick.yaml' REPORT=report-quick.html

# The atlas (issue 28, docs/atlas.md): every policy x TCP x the papers' scenarios, not part of `reproduce`.
# `make atlas` writes data/results/atlas.*.nc, figures/atlas/ and notebooks/executed/atlas.ipynb;
# `make atlas QUICK=1` (or `make atlas-quick`) the same with short runs into the quick folders.
QUICK ?=
atlas: warm
	$(SNAKEMAKE) atlas $(if $(QUICK),--configfile config/quick.yaml)

atlas-quick:
	@$(MAKE) --no-print-directory atlas QUICK=1

# The validation (issue 37, docs/validation.md): the papers' scenarios in ns-3 (and YATS) beside ours, not part
# of `reproduce`. Installs the optional extra `validate` (the ns3 wheel, which builds cppyy: several minutes the
# first time), then writes data/results/validation.*.nc and figures/validation/. `make validate QUICK=1`:
# short runs, two seeds, into the quick folders. `make validate YATS=<prefix>` adds the YATS scenarios
# (benchmarks/yats/build.sh <prefix> builds YATS); without it the YATS rows of the last table are kept.
# --forcerun validation_table: the table is tracked, so in a fresh clone Snakemake would find it up to date and
# leave its missing results unmade ("Nothing to be done"); forcing the table makes the missing results first.
YATS ?=
VALIDATION_FIGURES = $(if $(QUICK),figures/quick,figures)/validation
VALIDATION_RESULTS = $(if $(QUICK),data/results/quick,data/results)
validate: warm
	$(BIN)/python -m pip install --quiet -c requirements/constraints.txt -e '.[validate]'
	@mkdir -p $(VALIDATION_RESULTS)
	@if [ -f $(VALIDATION_FIGURES)/validation.csv ]; then \
	  cp $(VALIDATION_FIGURES)/validation.csv $(VALIDATION_RESULTS)/validation.carried.csv; fi
	ATMTCP_YATS=$(YATS) $(SNAKEMAKE) validate --forcerun validation_table $(if $(QUICK),--configfile config/quick.yaml)

REPORT ?= report.html
report: setup
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/snakemake --report $(REPORT) --report-stylesheet report/report.css $(REPORT_ARGS)
	@echo "Report: $(abspath $(REPORT))"

bench: setup
	$(BIN)/atmtcp bench --record

# The documentation site (Sphinx, MyST-NB; docs/): built from the sources, the tracked figures/ and the
# quickstart notebook executed with short runs (no simulation of the papers re-runs), into
# docs/_build/html (untracked). Every warning is an error. `make test-docs` opens every page in Debian's
# headless Chromium (apt-get install chromium) and checks that each image loads and each internal link
# resolves (scripts/check_docs.py).
$(VENV)/.docs: $(BIN)/atmtcp requirements/constraints.txt
	$(BIN)/python -m pip install --quiet -c requirements/constraints.txt -e '.[docs]'
	touch $@

docs: warm $(VENV)/.docs
	rm -rf docs/_build
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "Documentation: $(abspath docs/_build/html/index.html)"

test-docs: docs
	$(BIN)/python scripts/check_docs.py docs/_build/html

# The quick workflow through a real single-node SLURM started here (root on Debian; see
# scripts/test_slurm.sh and docs/cluster.md). Not part of `make test` (tests/workflow/test_cluster.py checks the
# profile and the rules' resources there, without SLURM). Other Snakemake targets than the default
# one: make test-slurm TARGET=atlas (the atlas, quick). After `warm`, as `quick`: the jobs use this
# checkout's compiled kernel; without it every job would compile its own (minutes each, past the
# quick jobs' 15-minute limit on a busy machine).
TARGET ?=
test-slurm: warm
	TARGET='$(TARGET)' bash scripts/test_slurm.sh

# figures/ is tracked (the documentation shows it); `make reproduce` rewrites it.
clean:
	rm -rf $(VENV) data/results/*.nc data/results/quick .snakemake logs report.html report-quick.html \
		notebooks/executed figures/quick docs/_build docs/generated

# The kernel's numba cache lives in a folder named by a hash of its sources (atmtcp/kernel/jit.py);
# every kernel edit leaves an old folder behind. This removes them all.
clean-cache:
	rm -rf atmtcp/kernel/__pycache__/numba-* atmtcp/kernel/__pycache__/aot-*

# The exact versions `make` installs (requirements/constraints.txt) and conda's environment.yml, both
# from the same pins; pyproject.toml keeps the ranges for library users. Regenerate after changing the
# dependencies: make lock (with the docs extra installed, so that its pins are kept too; the pins of extras not
# installed here, such as validate's ns3, are kept from the previous lock and named on the way).
lock: $(VENV)/.docs
	$(BIN)/python scripts/lock_pins.py requirements/constraints.txt
	$(BIN)/python scripts/environment_yml.py requirements/constraints.txt > environment.yml
