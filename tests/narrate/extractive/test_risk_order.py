"""The risk bullets of a report: most severe first, review concerns and specific findings
before generic ones, and a pointer to the risk tags when some bullets are cut."""

from __future__ import annotations

import pytest

from prdigest.analyzers.risk_vocabulary import load_vocabulary
from prdigest.models.facts import Facts, FileFact, FilesFacts, RisksFacts, RiskTag
from prdigest.models.narrative import Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.words import Lang, labels

REPO = "acme/widgets"
SOURCE = FileFact(path="widgets/cache.py", category="source", module="cache", additions=30, deletions=5)

# Listed least important first, the order in which a careless cut would lose the review point last.
TAG_IDS = [
    "large-change",
    "missing-regression-test",
    "ci-change",
    "dependency-upgrade",
    "generated-or-lock-only",
    "platform-detection-assumption",
    "dependency-constraint-change",
    "duplicated-logic-across-files",
    "error-message-regression",
    "unresolved-review-concern",
]


def _tag(tag_id: str, severity: str | None = None) -> RiskTag:
    vocab = load_vocabulary().tags[tag_id]
    return RiskTag(
        tag=tag_id,
        label_zh=labels("zh").risk_tag(tag_id),
        label_en=labels("en").risk_tag(tag_id),
        evidence=f"evidence of {tag_id}",
        severity=severity or vocab.severity,  # type: ignore[arg-type]
    )


def _risks(tags: list[RiskTag], lang: Lang, length: Length = "full") -> list[str]:
    facts = Facts(
        repository=REPO,
        number=7,
        files=FilesFacts(files=[SOURCE], total_files=1),
        risks=RisksFacts(tags=tags),
    )
    pr = PullRequest(repository=REPO, number=7, title="fix: widget cache")
    return narrate_extractive(pr, facts, [], lang, length).risks


def _marker(tag_id: str, lang: Lang) -> str:
    """What identifies a tag's bullet: its English evidence, or its label in another language
    (old facts' English evidence is not shown there)."""
    return f"evidence of {tag_id}" if lang == "en" else labels(lang).risk_tag(tag_id) + "（"


EN = Lang("en")


def _position(bullets: list[str], tag_id: str, lang: Lang = EN) -> int:
    marker = _marker(tag_id, lang)
    return next(i for i, b in enumerate(bullets) if b.startswith(marker) or marker in b)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_nine_or_more_tags_keep_the_review_concern_and_say_how_many_were_cut(lang: Lang) -> None:
    bullets = _risks([_tag(t) for t in TAG_IDS], lang)
    shown = [t for t in TAG_IDS if any(b.startswith(_marker(t, lang)) or _marker(t, lang) in b for b in bullets)]
    assert len(shown) == 8
    assert "unresolved-review-concern" in shown
    assert set(TAG_IDS) - set(shown) <= {"ci-change", "dependency-upgrade", "generated-or-lock-only", "large-change"}
    # high before medium before low; within a severity, the fixed priority of kinds
    order = [_position(bullets, t, lang) for t in shown]
    assert shown[order.index(min(order))] == "error-message-regression"
    at = {t: _position(bullets, t, lang) for t in shown}
    assert at["unresolved-review-concern"] < at["duplicated-logic-across-files"]
    assert at["duplicated-logic-across-files"] < at["dependency-constraint-change"]
    assert at["dependency-constraint-change"] < at["platform-detection-assumption"]
    assert at["platform-detection-assumption"] < at["missing-regression-test"]
    if lang == "zh":
        assert not any("evidence of" in b for b in bullets)  # no English detail in a Chinese report
    assert len(bullets) == 9
    expected = "另有 2 项风险见风险标记。" if lang == "zh" else "2 more in the risk tags."
    assert bullets[-1] == expected


def test_severity_raised_by_a_rule_outranks_the_kind_priority() -> None:
    tags = [_tag("unresolved-review-concern"), _tag("large-change", "high")]
    bullets = _risks(tags, "en")
    assert _position(bullets, "large-change") < _position(bullets, "unresolved-review-concern")
    assert len(bullets) == 2  # nothing cut, no pointer


def test_brief_report_keeps_three_and_points_to_the_rest() -> None:
    bullets = _risks([_tag(t) for t in TAG_IDS], "en", "brief")
    assert len(bullets) == 4
    assert bullets[-1] == "7 more in the risk tags."
    assert any("evidence of unresolved-review-concern" in b for b in bullets[:3])
