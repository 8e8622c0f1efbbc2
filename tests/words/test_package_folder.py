"""The packaged catalog's folder is what `importlib.resources` names (found without loading it)."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources

from prdigest.words import CATALOG


def test_catalog_root_is_what_importlib_resources_answers() -> None:
    root = resources.files("prdigest.words")
    assert CATALOG.root == root
    assert type(CATALOG.root) is type(root)


def test_importing_the_words_does_not_load_importlib_resources() -> None:
    code = (
        "import sys, prdigest.words\n"
        "print(sorted(m for m in ('importlib.resources', 'tempfile', 'zipfile') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
