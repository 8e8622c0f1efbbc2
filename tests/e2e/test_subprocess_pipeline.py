"""The whole pipeline as a user types it, each step a separate ``prdigest`` process:
sync git → analyze → facts → report → feed → publish, on the story repository."""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.e2e.driver import RunPrdigest
from tests.e2e.repos import FEATURE_PR, OPEN_PR, RELAX_PR, RESTORE_PR, STORY_REPO

ALL_PRS = set(range(FEATURE_PR, OPEN_PR + 1))


def _ok(completed: subprocess.CompletedProcess[str]) -> str:
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    return completed.stdout


def test_pipeline_through_the_console_script(run_prdigest: RunPrdigest, story_repo: Path, tmp_path: Path) -> None:
    db = tmp_path / "pipeline.db"
    synced = _ok(run_prdigest("sync", "git", story_repo, "--db", db))
    assert re.search(rf"synced {len(ALL_PRS)} pull requests .*\({len(ALL_PRS)} new, 0 updated", synced), synced
    again = _ok(run_prdigest("sync", "git", story_repo, "--db", db))
    assert "(0 new, 0 updated" in again

    assert f"analyzed {len(ALL_PRS)} pull requests (0 already current)" in _ok(run_prdigest("analyze", "--db", db))
    assert f"analyzed 0 pull requests ({len(ALL_PRS)} already current)" in _ok(run_prdigest("analyze", "--db", db))

    facts = _ok(run_prdigest("facts", f"{STORY_REPO}#{RELAX_PR}", "--lang", "en", "--db", db))
    assert re.search(
        r"dependency cupy-cuda13x: .*<14\.1\.0 -> .*!=14\.1\.0 \(cap turned into an exact exclusion\)", facts
    ), facts
    assert "newly admits: 14.1.1" in facts
    assert "symbols: none identified" in facts

    report_file = tmp_path / "out" / "relax.zh.brief.md"
    _ok(
        run_prdigest(
            "report",
            f"{STORY_REPO}#{RELAX_PR}",
            "--lang",
            "zh",
            "--length",
            "brief",
            "--no-llm",
            "--out",
            report_file,
            "--db",
            db,
        )
    )
    report = report_file.read_text(encoding="utf-8")
    assert report.startswith(f"# PR #{RELAX_PR} 简要报告")
    assert f"PR #{RESTORE_PR} " in report

    en_json = json.loads(
        _ok(
            run_prdigest(
                "report", f"{STORY_REPO}#{RESTORE_PR}", "--lang", "en", "--format", "json", "--no-llm", "--db", db
            )
        )
    )
    assert en_json["lang"] == "en"
    assert en_json["length"] == "full"
    assert any(note["number"] == FEATURE_PR and note["relation"] == "restores" for note in en_json["related"])

    atom = ET.fromstring(
        _ok(run_prdigest("feed", STORY_REPO, "--lang", "zh", "--format", "atom", "--no-llm", "--db", db))
    )
    entries = atom.findall("{http://www.w3.org/2005/Atom}entry")
    assert len(entries) == len(ALL_PRS)

    site = tmp_path / "site"
    published = run_prdigest("publish", STORY_REPO, "--out", site, "--no-llm", "--db", db)
    _ok(published)
    reports = site / "reports"
    for number in ALL_PRS:
        for lang in ("zh", "en"):
            for length in ("full", "brief"):
                for ext in ("md", "html", "json"):
                    assert (reports / f"{number}.{lang}.{length}.{ext}").is_file(), (number, lang, length, ext)
    index = (site / "index.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)]+)\)", index):
        assert (site / target).is_file(), target
    restored = json.loads((reports / f"{FEATURE_PR}.zh.full.json").read_text(encoding="utf-8"))
    assert {note["relation"] for note in restored["related"]} == {"reverted-by", "restored-by"}
