"""Print requirements/constraints.txt anew from ``pip freeze`` of the project's environment (``make lock``).

The pins of packages the environment does not hold (an optional extra not installed here, such as ``validate``'s
ns3 and cppyy, whose first install compiles for several minutes) are kept from the previous file, so that a
lock taken without every extra does not drop their pins; each kept pin is named on stderr as not re-checked.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==\S+$")


def pins(text: str) -> dict[str, str]:
    """{normalized name: pin line} of the ``name==version`` lines of ``text``."""
    found = {}
    for line in text.splitlines():
        match = PIN.match(line.strip())
        if match:
            found[normalized(match.group(1))] = line.strip()
    return found


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them: lower case, runs of ``-``, ``_`` and ``.`` as one ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def merged(frozen: str, previous: str, skip: str = "atmtcp") -> tuple[str, list[str]]:
    """The new constraints text (every pin of ``frozen``, then each pin of ``previous`` whose package
    ``frozen`` lacks, sorted as pip freeze sorts) and the kept pins; ``skip`` (the project itself) is left out."""
    now, before = pins(frozen), pins(previous)
    kept = [line for name, line in before.items() if name not in now and name != normalized(skip)]
    lines = [line for name, line in now.items() if name != normalized(skip)] + kept
    return "\n".join(sorted(lines, key=lambda line: line.split("==")[0].lower())) + "\n", kept


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "requirements/constraints.txt"
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--exclude-editable"], check=True,
                            capture_output=True, text=True).stdout
    text, kept = merged(frozen, target.read_text() if target.exists() else "")
    target.write_text(text)
    for line in kept:
        print(f"make lock: kept {line} from the previous lock (not installed here, not re-checked)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
