"""The risk vocabulary file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import prdigest.analyzers.risks as risks_module
from prdigest.analyzers.risk_vocabulary import load_vocabulary, parse_vocabulary
from prdigest.errors import ConfigError
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
