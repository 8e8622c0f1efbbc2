"""The risk vocabulary file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import prdigest.analyzers.risks as risks_module
from prdigest.analyzers.risk_vocabulary import load_vocabulary, parse_vocabulary
from prdigest.errors import ConfigError


def test_packaged_vocabulary_covers_every_tag_the_rules_use() -> None:
    vocabulary = load_vocabulary()
    source = Path(risks_module.__file__).read_text(encoding="utf-8")
    used = set(re.findall(r'found\.add\(\s*"([a-z-]+)"', source))
    assert used, "rules must name tags"
    assert used <= set(vocabulary.tags)
    assert vocabulary.get("runtime-image-impact").label_zh == "运行时镜像影响"
    assert vocabulary.get("future-version-regression-risk").label_en == "future-version regression risk"
    assert all(spec.label_zh and spec.label_en and spec.description for spec in vocabulary.tags.values())


@pytest.mark.parametrize(
    "text",
    [
        "not = [toml",
        "x = 1",
        '[[tag]]\nid = "a"\nlabel_zh = "甲"\nlabel_en = "a"\ndescription = "d"\nseverity = "urgent"\n',
        '[[tag]]\nid = "a"\nlabel_zh = ""\nlabel_en = "a"\ndescription = "d"\nseverity = "low"\n',
        '[[tag]]\nid = "a"\nlabel_zh = "甲"\nlabel_en = "a"\ndescription = "d"\nseverity = "low"\n' * 2,
    ],
)
def test_bad_vocabulary_is_reported(text: str) -> None:
    with pytest.raises(ConfigError):
        parse_vocabulary(text)


def test_vocabulary_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "tags.toml"
    path.write_text('[[tag]]\nid = "x"\nlabel_zh = "叉"\nlabel_en = "x"\ndescription = "d"\nseverity = "high"\n')
    vocabulary = load_vocabulary(path)
    assert list(vocabulary.tags) == ["x"]
    with pytest.raises(ConfigError):
        vocabulary.get("missing")
