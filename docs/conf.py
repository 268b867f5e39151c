"""Sphinx configuration of BlurApp's documentation: MyST Markdown pages, the furo theme, and the
Python API reference from the docstrings (autodoc, their NumPy-style sections read by napoleon)."""

from __future__ import annotations

import sys
from pathlib import Path

# Build from a checkout without installing: the blurapp package beside this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import blurapp

project = "BlurApp"
author = "The BlurApp developers"
copyright = "the BlurApp developers"
version = release = blurapp.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
# The performance tables are included into performance.md, not pages of their own.
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "*.ipynb", "performance/*.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
# Links between pages as the Markdown has them (`[…](command-line.md#…)`) with anchors for headings.
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
# The docstrings are NumPy style (Parameters, Returns, Raises, … underlined): napoleon makes
# those sections field lists; read as plain reStructuredText they would be page headings.
napoleon_google_docstring = False
napoleon_numpy_docstring = True
# Types from the annotations for the parameters a docstring describes; the others (a dataclass's
# fields, described in its prose) would be bare lists of names.
autodoc_typehints_description_target = "documented_params"
# In docstrings `name` is a Python object, as numpydoc has it: a link where it resolves, code
# where it does not (never text that typography rewrites, `--json` into an en dash).
default_role = "py:obj"

html_theme = "furo"
html_title = f"BlurApp {release}"
html_static_path = ["_static"]
