"""Report HTML looks its labels up by subscript (`render.html`): a label missing from a
language's words still fails, naming it, instead of rendering as nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.narrate.extractive.seed_records import cupy_facts, cupy_pr
from tests.words.pseudo import PSEUDO, build_pseudo_catalog

from prdigest.errors import ConfigError
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.build import build_report
from prdigest.render.html import render_report_html
from prdigest.words import Catalog


def _without_label(root: Path, key: str) -> Catalog:
    build_pseudo_catalog(root)
    labels = root / PSEUDO / "labels.toml"
    lines = labels.read_text(encoding="utf-8").splitlines()
    table = ""
    kept: list[str] = []
    for line in lines:
        if line.startswith("["):
            table = line
        if not (table == "[fields]" and line.startswith(f'"{key}" =')):
            kept.append(line)
    assert len(kept) == len(lines) - 1
    labels.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return Catalog(root)


def test_a_missing_label_is_an_error_naming_it(tmp_path: Path) -> None:
    whole = build_pseudo_catalog(tmp_path / "whole")
    pr, facts = cupy_pr(), cupy_facts()
    narrative = narrate_extractive(pr, facts, [], PSEUDO, "full", catalog=whole)
    report = build_report(pr, facts, narrative, PSEUDO, "full", catalog=whole)
    assert "<li>⟦Repository⟧" in render_report_html(report, catalog=whole)
    cut = _without_label(tmp_path / "cut", "repository")
    with pytest.raises(ConfigError, match=r"has no key 'repository'"):
        render_report_html(report, catalog=cut)
