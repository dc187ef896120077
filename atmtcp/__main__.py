"""``python -m atmtcp``: the same command line as the ``atmtcp`` console script (:func:`atmtcp.cli.entry`)."""
from .cli import entry

if __name__ == "__main__":
    entry()
