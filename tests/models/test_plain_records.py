"""A plain record's JSON is byte for byte the model's (what the store would write)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from prdigest.models.plain_records import PlainCommit, PlainFileChange, PlainPullRequest, PlainSameNumberCommit
from prdigest.models.states import FileStatus, IncompleteReason, PRState
from prdigest.store.record_texts import WITHOUT_TEXTS

_AWKWARD = 'tab\t quote" backslash\\ nul\x00 bell\x07 del\x7f sep\u2028 naïve 修复 emoji 🎉 \ufffd'


def _record() -> PlainPullRequest:
    when = datetime.fromtimestamp(1_700_000_000, UTC)
    return PlainPullRequest(
        repository="example-org/example-project",
        number=42,
        title=f"Fix {_AWKWARD}",
        body=f"Body\n\n{_AWKWARD}\r\n",
        author="Zoë",
        state=PRState.OPEN,
        created_at=datetime(2024, 2, 29, 23, 59, 58, 123456, tzinfo=timezone(timedelta(hours=5, minutes=30))),
        updated_at=when,
        merged_at=datetime(2024, 1, 1, 0, 0, 1, 5, tzinfo=UTC),
        closed_at=datetime(2024, 1, 1, 12, 0, tzinfo=timezone(timedelta(hours=-7))),
        url="https://github.com/example-org/example-project/pull/42",
        base_ref="main",
        head_ref="feature-x",
        base_sha="a" * 40,
        head_sha="b" * 40,
        merge_commit_sha=None,
        additions=3,
        deletions=1,
        files=[
            PlainFileChange(
                path="app/core.py",
                status=FileStatus.RENAMED,
                previous_path="app/old core.py",
                additions=3,
                deletions=1,
                patch=f"@@ -1 +1 @@\n-{_AWKWARD}\n+x\n",
                content_before="left out of the JSON",
                content_after=_AWKWARD,
            ),
            PlainFileChange(path="logo.png", status=FileStatus.ADDED, binary=True, truncated=True),
        ],
        files_truncated=True,
        changed_files_count=None,
        commits=[
            PlainCommit(sha="c" * 40, author="A", author_email=None, co_authors=["B <b@x>"], committed_at=when),
            PlainCommit(sha="d" * 40, author="Ä", author_email="a@x", committed_at=None, message=_AWKWARD),
        ],
        incomplete=[IncompleteReason.NUMBER_COLLISION.value],
        same_number_commits=[PlainSameNumberCommit(sha="e" * 40, committed_at=when, subject="Fix (#42)")],
    )


def test_a_plain_records_json_is_the_models_json_without_texts() -> None:
    plain = _record()
    model = plain.to_model()
    assert plain.record_json() == model.model_dump_json(exclude=WITHOUT_TEXTS)
    assert model.files[0].content_after == _AWKWARD  # the texts reach the model


def test_empty_notes_are_left_out_as_the_model_leaves_them_out() -> None:
    plain = PlainPullRequest(repository="o/n", number=1, title="t", files=[PlainFileChange(path="a")])
    plain.commits.append(PlainCommit(sha="f" * 40, author="x"))
    assert '"incomplete"' not in plain.record_json()
    assert plain.record_json() == plain.to_model().model_dump_json(exclude=WITHOUT_TEXTS)


def test_ascii_texts_are_escaped_as_pydantic_escapes_them() -> None:
    # ASCII text takes a faster escaper, which would write DEL as \u007f: pydantic does not.
    for text in ("plain", 'q"uote \\ back\tslash\n\x00\x1f', "del \x7f", "", "\x7f"):
        plain = PlainPullRequest(repository="o/n", number=1, title=text, body=text)
        plain.files.append(PlainFileChange(path=text or "p", patch=text))
        plain.commits.append(PlainCommit(sha="f" * 40, author=text, message=text, co_authors=[text, "x"]))
        assert plain.record_json() == plain.to_model().model_dump_json(exclude=WITHOUT_TEXTS), repr(text)
