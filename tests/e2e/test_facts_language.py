"""``prdigest facts --lang``: evidence and reasons in the chosen language, rendered by the same
sentences the reports use."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import Cli
from tests.e2e.repos import RELAX_PR, STORY_REPO

from prdigest.facts_view.evidence import key_reason, risk_evidence
from prdigest.words import DEFAULT_LANG, labels

RELAX = f"{STORY_REPO}#{RELAX_PR}"


def test_facts_text_speaks_the_chosen_language(run_cli: Cli, story_db: Path) -> None:
    from prdigest.models.facts import Facts

    facts = Facts.model_validate(run_cli.facts(RELAX, story_db))
    tag = next(t for t in facts.risks.tags if t.tag == "future-version-regression-risk")
    key = next(f for f in facts.files.files if f.is_key)
    zh_out = run_cli("facts", RELAX, "--db", story_db).stdout  # default: the default language, as report/feed
    en_out = run_cli("facts", RELAX, "--lang", "en", "--db", story_db).stdout

    zh_sentence = risk_evidence(tag, labels("zh"))
    assert "放行" in zh_sentence  # the Chinese sentence, not the English fallback
    assert f"风险 future-version-regression-risk ({tag.label_zh})" in zh_out
    assert zh_sentence in zh_out
    for english in ("verdict:", "files:", "symbols:", "tests changed", "risk "):
        assert not any(line.lstrip().startswith(english) or f"  {english}" in line for line in zh_out.splitlines())
    assert tag.evidence not in zh_out
    assert key_reason(key, labels("zh")) in zh_out
    assert key.key_reason
    assert key.key_reason not in zh_out
    assert "做出了一项依赖决策" in zh_out  # verdict reasons too

    assert zh_out == run_cli("facts", RELAX, "--lang", DEFAULT_LANG, "--db", story_db).stdout
    assert risk_evidence(tag, labels("en")) in en_out
    assert key_reason(key, labels("en")) in en_out
    assert "放行" not in en_out


def test_facts_rejects_an_unknown_language(run_cli: Cli, story_db: Path) -> None:
    result = run_cli("facts", RELAX, "--lang", "fr", "--db", story_db, code=2)
    assert "fr" in result.output
