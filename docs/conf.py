"""Sphinx configuration for the swervelib documentation.

Build (warnings are errors, as in CI)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The pages are MyST Markdown (``*.md``); ``api.md`` is generated from the docstrings by autodoc.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # document this checkout, not some other installed swervelib

import swervelib  # noqa: E402

project = "swervelib"
author = "swervelib developers"
copyright = "swervelib developers"
release = version = swervelib.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# -- MyST ----------------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
# "#" anchors for every heading down to ###, so pages can link to [x](page.md#a-heading).
myst_heading_anchors = 3

# -- autodoc -------------------------------------------------------------------------------------
# Type hints go into the parameter descriptions, not the signatures: many name wpimath, ntcore or
# vendor classes that have no documentation for Sphinx to link to, and the signatures stay short.
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
# The docstrings are written in reStructuredText with Google-style sections in a few places.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# References to classes outside swervelib (wpimath.geometry.Pose2d, ...) cannot be resolved without
# intersphinx, which needs the network: leave cross-references unchecked (Sphinx's default).
nitpicky = False

# -- HTML ----------------------------------------------------------------------------------------
html_theme = "alabaster"
html_title = f"swervelib {release}"
html_static_path: list[str] = []
