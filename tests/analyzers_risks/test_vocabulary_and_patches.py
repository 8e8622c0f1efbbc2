"""The risk vocabulary file and the patch-line reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prdigest.analyzers.risks as risks_module
from prdigest.analyzers.patch_lines import changed_lines
from prdigest.analyzers.risk_vocabulary import load_vocabulary, parse_vocabulary
from prdigest.errors import ConfigError
from prdigest.models.pullrequest import FileChange
from prdigest.words import labels, languages, words


def test_packaged_vocabulary_covers_every_tag_the_rules_use() -> None:
    vocabulary = load_vocabulary()
    source = Path(risks_module.__file__).read_text(encoding="utf-8")
    used = set(re.findall(r'found\.add\(\s*"([a-z-]+)"', source))
    assert used, "rules must name tags"
    assert used <= set(vocabulary.tags)
    assert labels("zh").risk_tag("runtime-image-impact") == "运行时镜像影响"
    assert labels("en").risk_tag("future-version-regression-risk") == "future-version regression risk"
    assert all(spec.description for spec in vocabulary.tags.values())
    for lang in languages():  # every tag has a name in every language
        assert set(vocabulary.tags) == set(words(lang).table("risk_tags", "risk_tags")), lang


@pytest.mark.parametrize(
    "text",
    [
        "not = [toml",
        "x = 1",
        '[[tag]]\nid = "a"\ndescription = "d"\nseverity = "urgent"\n',
        '[[tag]]\nid = "a"\ndescription = ""\nseverity = "low"\n',
        '[[tag]]\nid = "a"\ndescription = "d"\nseverity = "low"\n' * 2,
    ],
)
def test_bad_vocabulary_is_reported(text: str) -> None:
    with pytest.raises(ConfigError):
        parse_vocabulary(text)


def test_vocabulary_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "tags.toml"
    path.write_text('[[tag]]\nid = "x"\ndescription = "d"\nseverity = "high"\n')
    vocabulary = load_vocabulary(path)
    assert list(vocabulary.tags) == ["x"]
    with pytest.raises(ConfigError):
        vocabulary.get("missing")


def test_patch_lines_numbered_and_fallback_for_cut_patches() -> None:
    good = changed_lines(FileChange(path="a.py", patch="@@ -1,2 +1,2 @@\n ctx\n-old\n+new"))
    assert [(line.kind, line.number, line.text) for line in good] == [("-", 2, "old"), ("+", 2, "new")]
    cut = changed_lines(FileChange(path="a.py", patch="@@ -1,9 +1,9 @@\n ctx\n-old\n+new"))
    assert [(line.kind, line.number, line.text) for line in cut] == [("-", None, "old"), ("+", None, "new")]
    assert changed_lines(FileChange(path="a.py")) == []


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["@@ -1,2 +1,2 @@", "@@ x", " c", "-a", "+b", "+++ b/x", "--- a/x", "\\ No newline"]),
        max_size=20,
    )
    | st.lists(st.text(max_size=30), max_size=10)
)
def test_patch_lines_never_crash(pieces: list[str]) -> None:
    for line in changed_lines(FileChange(path="a.py", patch="\n".join(pieces))):
        assert line.kind in ("+", "-")
        assert line.number is None or line.number >= 0
