"""docs/architecture.md stays true: every package is a room of the doc and a layer of the
import contract, and the names its recipes use exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from prdigest.analyzers import defaults
from prdigest.render import formats
from prdigest.sources import protocol
from prdigest.words import languages

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PACKAGES = sorted(p.name for p in (ROOT / "src" / "prdigest").iterdir() if p.is_dir() and (p / "__init__.py").exists())


def _layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers")
    return [name.strip() for layer in layers for name in layer.split("|")]


def test_every_package_is_a_room_of_the_doc_and_a_layer_of_the_contract() -> None:
    layered = _layers()
    for package in PACKAGES:
        assert f"prdigest.{package}" in layered, f"prdigest.{package} is in no layer of the import contract"
        assert f"`prdigest.{package}`" in DOC, f"docs/architecture.md does not describe prdigest.{package}"


def test_the_source_recipe_names_the_protocol_members() -> None:
    members = re.search(r"five members of\s+`prdigest.sources.protocol.Source` \(([^)]*\)[^)]*)\)", DOC)
    assert members is not None
    for name in re.findall(r"`(\w+)", members.group(1)):
        assert hasattr(protocol.Source, name), f"Source has no member {name}"


def test_the_analyzer_format_and_language_recipes_name_real_things() -> None:
    assert "DEFAULT_ANALYZER_MODULES" in DOC
    assert defaults.DEFAULT_ANALYZER_MODULES
    assert "REPORT_FORMATS" in DOC
    assert formats.REPORT_FORMATS
    assert formats.FEED_FORMATS
    for lang in languages():
        folder = ROOT / "src" / "prdigest" / "words" / lang
        for name in re.findall(r"`(\w+\.toml)`", DOC.split("**Add a language.**", 1)[1].split("\n\n", 1)[0]):
            assert (folder / name).exists(), f"words/{lang}/{name} named by the language recipe is missing"


def test_every_module_the_doc_names_exists() -> None:
    """A renamed or removed module must take its sentence in the doc with it."""
    named = set(re.findall(r"`((?:[a-z_]+/)+[a-z_0-9]+\.py)`", DOC))
    assert "pipeline/worker_pool.py" in named
    for path in (n.removeprefix("prdigest/") for n in named):
        if path.startswith(("benchmarks/", "tests/")):
            assert (ROOT / path).exists(), path
        elif path.startswith("store/migrations/versions/"):
            assert (ROOT / "src" / "prdigest" / path).exists() or "NNNN" in path, path
        else:
            assert (ROOT / "src" / "prdigest" / path).exists(), path
