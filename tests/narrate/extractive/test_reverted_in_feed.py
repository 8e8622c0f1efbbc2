"""A reverted PR's feed paragraph says, right after its verdict, that it was reverted and when."""

from __future__ import annotations

from datetime import UTC, datetime

from prdigest.models.facts import Facts, LineageEvent, LineageFacts
from prdigest.narrate.extractive.verdict import verdict_paragraph
from prdigest.words import Lang, phrases


def _facts(reverted: list[LineageEvent]) -> Facts:
    return Facts(repository="acme/lib", number=10, lineage=LineageFacts(reverted_by=reverted))


def test_the_revert_and_its_date_follow_the_verdict() -> None:
    event = LineageEvent(repository="acme/lib", number=12, title="Revert x", merged_at=datetime(2026, 5, 2, tzinfo=UTC))
    zh = verdict_paragraph(_facts([event]), "brief", phrases(Lang("zh")))
    en = verdict_paragraph(_facts([event]), "brief", phrases(Lang("en")))
    assert "之后已被 #12 回退（2026-05-02）。" in zh
    assert "Reverted later by #12 (2026-05-02)." in en
    assert zh.index("回退") < zh.index("。", zh.index("回退"))  # one sentence of its own


def test_a_pr_never_reverted_says_nothing_of_it() -> None:
    en = verdict_paragraph(_facts([]), "brief", phrases(Lang("en")))
    assert "Reverted" not in en


def test_the_days_to_the_revert_are_said_when_known() -> None:
    when = datetime(2026, 5, 2, tzinfo=UTC)
    for days, en_words, zh_words in (
        (0, "Reverted within a day by #12 (2026-05-02).", "一天之内已被 #12 回退（2026-05-02）。"),
        (1, "Reverted a day later by #12 (2026-05-02).", "1 天后已被 #12 回退（2026-05-02）。"),
        (9, "Reverted 9 days later by #12 (2026-05-02).", "9 天后已被 #12 回退（2026-05-02）。"),
    ):
        event = LineageEvent(repository="acme/lib", number=12, merged_at=when, days_after=days)
        assert en_words in verdict_paragraph(_facts([event]), "brief", phrases(Lang("en")))
        assert zh_words in verdict_paragraph(_facts([event]), "brief", phrases(Lang("zh")))
