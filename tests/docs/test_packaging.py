"""pyproject.toml, requirements/constraints.txt and environment.yml agree: every dependency has a minimum
version, the pins satisfy it, and environment.yml installs the same pins."""
import re
import tomllib
from pathlib import Path

import yaml  # pyyaml is a runtime dependency of atmtcp (pyproject [project.dependencies])

ROOT = Path(__file__).resolve().parents[2]
REQ = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*(?:>=\s*([0-9][0-9A-Za-z.\-]*))?\s*$")


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse(requirement):
    """``"numba>=0.60"`` -> ``("numba", "0.60")``; a bare name gives ``(name, None)``."""
    match = REQ.match(requirement)
    assert match, f"unsupported requirement syntax: {requirement!r} (use name>=version)"
    name, version = match.groups()
    return normal(name), version


def pyproject_requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    return dict(parse(r) for r in reqs)


def pins():
    out = {}
    for line in (ROOT / "requirements" / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            out[normal(name)] = version.strip()
    return out


def release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3])


def test_every_requirement_has_a_minimum_version():
    """Packaging: every dependency states a minimum version."""
    for name, version in pyproject_requirements().items():
        assert version, f"{name} has no minimum version"


def test_every_requirement_is_pinned_at_or_above_its_minimum():
    """Packaging: requirements/constraints.txt pins every dependency of pyproject, each at or above the
    minimum pyproject states (`make lock` writes the pins from the environment `make` installed)."""
    pinned = pins()
    for name, minimum in pyproject_requirements().items():
        assert name in pinned, f"{name} is not pinned in requirements/constraints.txt"
        assert release(pinned[name]) >= release(minimum), f"{name}=={pinned[name]} is below {minimum}"


def test_environment_installs_the_same_pins():
    """Packaging: environment.yml takes Python from conda-forge and installs atmtcp with pip, pinned to
    exactly the versions of requirements/constraints.txt (`make lock` writes both from one freeze)."""
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip_sections = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert sorted(normal(d.split("=")[0]) for d in conda) == ["pip", "python"]
    assert pip_sections and pip_sections[0][0] == "-e .[dev]"
    yml_pins = {normal(line.split("==")[0]): line.split("==")[1] for line in pip_sections[0][1:]}
    assert yml_pins == pins()


def test_python_version_agrees():
    """Packaging: environment.yml's Python is the lowest pyproject allows (the one the pins were made with)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    python = [d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python")]
    assert python == ["python=" + project["requires-python"].replace(" ", "").removeprefix(">=")]


def test_console_script_run_prints_everything_before_its_fast_exit():
    """``atmtcp run`` ends without the interpreter's teardown (:func:`atmtcp.cli.entry`); its
    whole output still arrives, and a bad flag still exits 2."""
    import subprocess
    import sys
    from pathlib import Path
    script = Path(sys.executable).with_name("atmtcp")
    ok = subprocess.run([str(script), "run", "--duration", "0.01", "--sources", "20"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "efficiency" in ok.stdout and ok.stdout.rstrip().endswith("-")
    assert "D20->SW2" in ok.stdout  # the last port row, after the summary lines
    bad = subprocess.run([str(script), "run", "--sources", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--sources" in bad.stderr


def test_the_release_is_one_version_everywhere():
    """pyproject.toml, atmtcp.__version__, CITATION.cff, .zenodo.json and the CHANGELOG's newest entry
    name the same version, and the citation files the same release date (issue 40)."""
    import json
    import atmtcp
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    citation = (ROOT / "CITATION.cff").read_text()
    zenodo = json.loads((ROOT / ".zenodo.json").read_text())
    newest = re.search(r"^## (\S+) \((\d{4}-\d\d-\d\d)\)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert atmtcp.__version__ == version == zenodo["version"] == newest.group(1)
    assert re.search(rf"^version: {re.escape(version)}$", citation, re.M)
    assert re.search(rf"^date-released: {newest.group(2)}$", citation, re.M)
    assert zenodo["publication_date"] == newest.group(2)


def test_binder_builds_from_the_repositorys_pins():
    """binder/ (repo2docker): the Python of pyproject.toml, and a postBuild that installs atmtcp with
    requirements/constraints.txt and builds the kernel (`atmtcp warm`), stopping at the first failing step."""
    import os
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    python = project["requires-python"].replace(" ", "").removeprefix(">=")
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == f"python-{python}"
    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    steps = [line for line in post_build.read_text().splitlines() if line and not line.startswith("#")]
    assert steps == ["set -euo pipefail", "python -m pip install --no-cache-dir -c requirements/constraints.txt -e .",
                     "atmtcp warm"]


def test_lock_keeps_the_pins_of_extras_not_installed_and_takes_the_rest_from_the_environment():
    """``make lock`` (scripts/lock_pins.py): a pin the environment holds comes from ``pip freeze``; a pin of a
    package it lacks (an extra such as ``validate`` not installed) is kept from the previous lock and reported;
    the project itself is never pinned; names compare as PEP 503 does."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("lock_pins", ROOT / "scripts" / "lock_pins.py")
    lock_pins = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lock_pins)
    frozen = "numpy==2.4.6\nMarkupSafe==3.0.4\natmtcp==1.0.0\n"
    previous = "markupsafe==3.0.3\nnumpy==2.4.5\nns3==3.44.post0\nCPyCppyy==1.13.0\n"
    text, kept = lock_pins.merged(frozen, previous)
    assert text == "CPyCppyy==1.13.0\nMarkupSafe==3.0.4\nns3==3.44.post0\nnumpy==2.4.6\n"
    assert kept == ["ns3==3.44.post0", "CPyCppyy==1.13.0"]
