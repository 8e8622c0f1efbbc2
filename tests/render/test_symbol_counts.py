"""Capped symbol lists say how many they leave out: "等 N 个" / "and N more", in every format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from prdigest.models.facts import Facts, FileFact, SymbolChange, SymbolsFacts
from prdigest.models.narrative import Length
from prdigest.models.report import Report
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.build import build_report
from prdigest.render.html import render_report_html
from prdigest.render.json_schema import render_report_json
from prdigest.render.markdown import render_report_markdown
from prdigest.words import Lang

KERNEL = "flashinfer/gemm/kernels/rubin.py"
HELPER = "flashinfer/gemm/utils.py"


def _report(seeds: Any, lang: Lang, length: Length) -> Report:
    pr = seeds.humming_pr()
    base: Facts = seeds.humming_facts()
    kernel = [SymbolChange(path=KERNEL, name=f"Kernel{i}", kind="class", change="added") for i in range(20)]
    kernel.insert(3, SymbolChange(path=KERNEL, name="old_entry", kind="function", change="removed"))
    kernel.append(SymbolChange(path=KERNEL, name="_private_helper", kind="function", change="modified"))
    helper = [SymbolChange(path=HELPER, name="ceil_div", kind="function", change="modified")]
    files = base.files.model_copy(
        update={
            "files": [
                FileFact(path=KERNEL, category="source", type="core-logic", additions=900, is_key=True),
                FileFact(path=HELPER, category="source", type="core-logic", additions=4, deletions=1, is_key=True),
            ]
        }
    )
    facts = base.model_copy(update={"files": files, "symbols": SymbolsFacts(symbols=kernel + helper)})
    return build_report(pr, facts, narrate_extractive(pr, facts, [], lang, length), lang, length)


def test_report_counts_the_symbols_it_leaves_out(seeds: Any) -> None:
    full = _report(seeds, "zh", "full")
    assert len(full.key_symbols) == 8
    assert full.key_symbols_more == 23 - 8  # 22 in the kernel file, 1 in the helper
    kernel = next(f for f in full.key_files if f.path == KERNEL)
    # the removed entry point first, the private helper never among the six shown
    assert kernel.symbols[0] == "old_entry"
    assert len(kernel.symbols) == 6
    assert "_private_helper" not in kernel.symbols
    assert kernel.symbols_more == 22 - 6
    helper = next(f for f in full.key_files if f.path == HELPER)
    assert (helper.symbols, helper.symbols_more) == (["ceil_div"], 0)
    brief = _report(seeds, "zh", "brief")
    assert next(f for f in brief.key_files if f.path == KERNEL).symbols_more == 22 - 3


@pytest.mark.parametrize(
    ("lang", "total_text", "file_text"), [("zh", "等 23 个", "等 22 个"), ("en", "and 15 more", "and 16 more")]
)
def test_every_format_shows_the_count(seeds: Any, lang: Lang, total_text: str, file_text: str) -> None:
    report = _report(seeds, lang, "full")
    md = render_report_markdown(report)
    symbols_line = next(line for line in md.splitlines() if line.startswith(("关键符号", "Key symbols")))
    assert symbols_line.endswith(total_text)
    kernel_line = next(line for line in md.splitlines() if line.startswith(f"- `{KERNEL}`"))
    shown = ", ".join(f"`{name}`" for name in ("old_entry", "Kernel0", "Kernel1", "Kernel2", "Kernel3", "Kernel4"))
    assert f"{shown} {file_text}" in kernel_line  # names as code, the count after a space
    # the helper lists all of its one symbol
    assert "等 1 个" not in md
    assert "and 0 more" not in md
    html = render_report_html(report)
    assert f"</code> {total_text}</p>" in html
    assert file_text in html.split(KERNEL, 1)[1]
    data = json.loads(render_report_json(report))
    assert data["key_symbols_more"] == 15
    assert [f["symbols_more"] for f in data["key_files"]] == [16, 0]
