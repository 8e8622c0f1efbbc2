"""Requirement texts are parsed once and version mentions read once per PR."""

from __future__ import annotations

from packaging.version import Version

from prdigest.analyzers.dependencies.admission import VersionMentions, mentioned_versions, versions_considered
from prdigest.analyzers.dependencies.requirement_lines import ParsedRequirement, parse_requirement_text


def test_a_requirement_text_is_parsed_once() -> None:
    first = parse_requirement_text("httpx[http2]>=0.23,<1 ; python_version >= '3.8'")
    assert isinstance(first, ParsedRequirement)
    assert parse_requirement_text("httpx[http2]>=0.23,<1 ; python_version >= '3.8'") is first
    assert parse_requirement_text("  httpx[http2]>=0.23,<1 ; python_version >= '3.8'  ") == first
    bad = parse_requirement_text("not a requirement ===")
    assert not isinstance(bad, ParsedRequirement)
    assert parse_requirement_text("not a requirement ===") is bad


_TEXTS = [
    "Bump rich to 13.7. Also tried 13.8.0rc1; it fails.",
    "no versions here at all",
    "numpy 1.26.4 and 2.0.0 were released\nrich v13.9 next",
    "@@ -1 +1 @@\n-rich==13.6\n+rich==13.7",
    "1.2.3.4.5 is not one, nor 1.2. ; 3.4 is",
]


def test_mentions_read_once_find_what_each_read_finds() -> None:
    mentions = VersionMentions(iter(_TEXTS))  # an iterator: read once, then kept
    for names, series in [({"rich"}, set()), ({"numpy"}, {(2,)}), (set(), {(1,), (3,)}), ({"absent"}, set())]:
        assert mentioned_versions(mentions, names, series) == mentioned_versions(_TEXTS, names, series)
    assert mentions.sentences is mentions.sentences
    assert all(versions for _sentence, versions in mentions.sentences)  # only sentences with a version
    near_rich = mentioned_versions(mentions, {"rich"}, set())
    assert Version("13.7") in near_rich
    assert Version("13.8.0rc1") not in near_rich  # another sentence, without the name


def test_versions_considered_takes_the_mentions() -> None:
    from packaging.specifiers import SpecifierSet

    specs = [SpecifierSet(">=13.6"), SpecifierSet(">=13.7")]
    assert versions_considered(VersionMentions(_TEXTS), {"rich"}, specs) == versions_considered(_TEXTS, {"rich"}, specs)
