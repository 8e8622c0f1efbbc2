"""Sentences that said more than their evidence (#26's false statements per report): a body of
trailers called a template, a commit message with a body said to repeat the title, a changelog
called configuration, another repository's issue written as this one's, the soonest of several
fixes said of them all."""

from __future__ import annotations

from prdigest.models.facts import (
    Facts,
    FileFact,
    FilesFacts,
    LineageFacts,
    Reference,
    ReferencesFacts,
    RootCause,
)
from prdigest.models.pullrequest import Commit, PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.extractive.verdict import verdict_paragraph
from prdigest.words import Lang, phrases

REPO = "acme/widgets"
SOURCE = FileFact(path="src/cache.py", category="source", module="cache", additions=4, deletions=1, is_key=True)


def _pr(body: str, message: str | None = None) -> PullRequest:
    title = "Make the cache smaller"
    commit = Commit(sha="c" * 40, author="dev", message=message or f"{title} (#1)")
    return PullRequest(repository=REPO, number=1, title=title, body=body, commits=[commit])


def _facts(files: list[FileFact], references: list[Reference] | None = None) -> Facts:
    return Facts(
        repository=REPO,
        number=1,
        files=FilesFacts(files=files, total_files=len(files)),
        references=ReferencesFacts(references=references or []),
    )


def test_a_body_of_trailers_is_no_template() -> None:
    for body in ("Co-authored-by: Ada <ada@example.com>", "Signed-off-by: bot <bot@example.com>"):
        en = narrate_extractive(_pr(body), _facts([SOURCE]), [], "en", "full").motivation
        zh = narrate_extractive(_pr(body), _facts([SOURCE]), [], "zh", "full").motivation
        assert "template" not in en
        assert en.startswith("The PR body gives no motivation.")
        assert "模板" not in zh
        assert zh.startswith("PR 正文没有说明动机。")
    template = "## Checklist\n- [x] tests\n<!-- describe the change -->"
    en = narrate_extractive(_pr(template), _facts([SOURCE]), [], "en", "full").motivation
    assert en.startswith("The PR body holds only the template")


def test_a_commit_message_with_a_body_is_not_said_to_repeat_the_title() -> None:
    body = "Bumps the cache from 1 to 2.\n\nSigned-off-by: bot <bot@example.com>"
    message = f"Make the cache smaller (#1)\n\n{body}"
    en = narrate_extractive(_pr(body, message), _facts([SOURCE]), [], "en", "full").motivation
    zh = narrate_extractive(_pr(body, message), _facts([SOURCE]), [], "zh", "full").motivation
    assert "only repeats the title" not in en
    assert "commit message" not in en
    assert "只是标题" not in zh
    assert "提交说明" not in zh
    # A message that is its subject and trailers only does repeat the title.
    bare = narrate_extractive(_pr(""), _facts([SOURCE]), [], "en", "full").motivation
    assert "The commit message only repeats the title." in bare


def test_a_changelog_beside_configuration_is_not_called_configuration() -> None:
    config = FileFact(path="Cargo.toml", category="config", module="config", additions=1, deletions=1, is_key=True)
    docs = FileFact(path="CHANGELOG.md", category="docs", module="docs", additions=3, deletions=0, is_key=True)
    en = narrate_extractive(_pr(""), _facts([config, docs]), [], "en", "full").one_line
    zh = narrate_extractive(_pr(""), _facts([config, docs]), [], "zh", "full").one_line
    assert "CHANGELOG.md" not in en
    assert "changes the configuration `Cargo.toml` and the documentation" in en
    assert "CHANGELOG.md" not in zh
    assert "修改配置 `Cargo.toml`，并更新文档" in zh
    alone = narrate_extractive(_pr(""), _facts([config]), [], "en", "full").one_line
    assert alone.endswith("changes the configuration `Cargo.toml`")


def test_another_repositorys_reference_keeps_its_repository() -> None:
    refs = [Reference(repository="other/lib", number=66, target_kind="issue", evidence="see other/lib#66")]
    notes = narrate_extractive(_pr("See other/lib#66."), _facts([SOURCE], refs), [], "en", "full").related
    assert [n.note for n in notes] == ["This PR mentions other/lib#66."]
    zh = narrate_extractive(_pr("See other/lib#66."), _facts([SOURCE], refs), [], "zh", "full").related
    assert "other/lib#66" in zh[0].note
    own = [Reference(repository=REPO, number=7, target_kind="issue")]
    notes = narrate_extractive(_pr("See #7."), _facts([SOURCE], own), [], "en", "full").related
    assert notes[0].note.startswith("This PR mentions #7")


def test_fixes_at_different_times_each_keep_their_own_gap() -> None:
    def fix(number: int, days: int) -> RootCause:
        return RootCause(repository=REPO, number=number, lines=2, of_lines=2, days_between=days)

    facts = Facts(repository=REPO, number=1, lineage=LineageFacts(fixed_by=[fix(4, 0), fix(9, 26)]))
    en = verdict_paragraph(facts, "full", phrases(Lang("en")))
    zh = verdict_paragraph(facts, "full", phrases(Lang("zh")))
    assert "Within a day, #4, #9" not in en
    assert "#4 (within a day), #9 (26 days later) fixed code this PR wrote (git blame)." in en
    assert "#4（一天之内）、#9（26 天后）修复了本 PR 写入的代码（git blame）。" in zh
    same = Facts(repository=REPO, number=1, lineage=LineageFacts(fixed_by=[fix(4, 3), fix(9, 3)]))
    assert "3 days later, #4, #9 fixed code" in verdict_paragraph(same, "full", phrases(Lang("en")))
