"""pyproject.toml and environment.yml declare the same dependencies (names and minimum versions)."""
import re
import tomllib
from pathlib import Path

import yaml  # pyyaml is a runtime dependency of atmtcp (pyproject [project.dependencies])

ROOT = Path(__file__).resolve().parent.parent
REQ = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*(?:>=\s*([0-9][0-9A-Za-z.\-]*))?\s*$")


def parse(requirement):
    """``"numba>=0.60"`` -> ``("numba", "0.60")``; a bare name gives ``(name, None)``."""
    match = REQ.match(requirement)
    assert match, f"unsupported requirement syntax: {requirement!r} (use name>=version)"
    name, version = match.groups()
    return re.sub(r"[-_.]+", "-", name).lower(), version


def pyproject_requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"]) + list(project["optional-dependencies"]["dev"])
    return dict(parse(r) for r in reqs)


def conda_requirements():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    out = {}
    for dep in env["dependencies"]:
        if isinstance(dep, dict):      # the pip: section ("-e .") installs atmtcp itself
            continue
        name, version = parse(dep)
        if name in ("python", "pip"):
            continue
        out[name] = version
    return out


def test_same_packages_and_minimum_versions():
    """Packaging: environment.yml's conda dependencies equal pyproject's dependencies + dev extra, with the same minimum versions."""
    assert conda_requirements() == pyproject_requirements()


def test_every_requirement_has_a_minimum_version():
    """Packaging: every dependency states a minimum version."""
    for name, version in {**pyproject_requirements(), **conda_requirements()}.items():
        assert version, f"{name} has no minimum version"


def test_python_version_agrees():
    """Packaging: environment.yml's python pin equals pyproject's requires-python."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pins = [d for d in env["dependencies"] if isinstance(d, str) and parse(d)[0] == "python"]
    assert len(pins) == 1
    assert project["requires-python"].replace(" ", "") == ">=" + parse(pins[0])[1]


def test_environment_installs_atmtcp_with_pip():
    """Packaging: environment.yml installs the package itself with pip (-e .)."""
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_sections = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert pip_sections and "-e ." in pip_sections[0]


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
