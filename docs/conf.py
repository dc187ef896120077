"""Sphinx configuration of the atmtcp documentation site (``make docs``; output in docs/_build/html)."""
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

import atmtcp  # noqa: E402

project = "atmtcp"
author = "the atmtcp developers"
copyright = "2026, the atmtcp developers"
release = version = atmtcp.__version__

extensions = [
    "myst_nb",                 # Markdown pages and the executed quickstart notebook
    "sphinx.ext.autodoc",      # the API reference from the docstrings
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",     # numpydoc-style sections
    "sphinx.ext.viewcode",
    "sphinx_design",           # collapsed answers of the exercises
    "atmtcp_docs",             # pages generated from the package and figures/ (docs/_ext)
]

exclude_patterns = ["_build", "modelling", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints", "generated/quickstart.stamp", "generated/tcp-settings.md"]
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"      # the quickstart is executed by atmtcp_docs with papermill; nothing else runs
nb_merge_streams = True

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"show-inheritance": False}
napoleon_numpy_docstring = True
napoleon_google_docstring = False

html_theme = "pydata_sphinx_theme"
html_title = f"atmtcp {release}"
html_theme_options = {
    "navigation_depth": 2,
    "header_links_before_dropdown": 5,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_static_path = ["_static"]
html_css_files = ["atmtcp.css"]   # wide tables scroll, code wraps, the page contents fit
templates_path = ["_templates"]
# the whole site in the left sidebar on every page (the theme's own lists only the current section's pages)
html_sidebars = {"**": ["sidebar-nav-site"]}
html_last_updated_fmt = None
