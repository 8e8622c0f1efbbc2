"""Which versions a change newly admits or newly excludes.

The versions considered are those the PR itself talks about (title, body, comments, review
comments, commit messages, patches) in the same sentence as the package name, version-like tokens anywhere
in the PR in the same release series as the specifiers (major, or major.minor for 0.x), the specifiers' own versions,
and the released versions the caller knows (`AnalysisContext.known_versions`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from prdigest.analyzers.dependencies.change_kinds import spec_shape, specifier_versions
from prdigest.models.pullrequest import PullRequest

_VERSION_TOKEN = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+){1,3}(?:(?:a|b|rc|\.post|\.dev)\d+)?)(?![\w])(?!\.\d)")
# A version is "about" a package when written in the same sentence (or line).
_SENTENCE_BREAK = re.compile(r"(?<=[.!?;])\s+|\n+")


def pr_texts(pr: PullRequest) -> list[str]:
    """Every piece of free text and patch in the PR, in a stable order."""
    texts = [pr.title, pr.body]
    texts.extend(commit.message for commit in pr.commits)
    texts.extend(comment.body for comment in pr.comments)
    texts.extend(review.body for review in pr.reviews)
    texts.extend(c.body for thread in pr.review_threads for c in thread.comments)
    texts.extend(f.patch for f in pr.files if f.patch)
    return [t for t in texts if t]


def _parse_version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def _names_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    # Match the package in any separator spelling: cupy-cuda13x, cupy_cuda13x, CuPy.
    alternatives = sorted(
        {"[-_. ]?".join(re.escape(part) for part in re.split(r"[-_.]+", n) if part) for n in names if n},
        key=len,
        reverse=True,
    )
    alternatives = [a for a in alternatives if a]
    if not alternatives:
        return None
    return re.compile("(?:" + "|".join(alternatives) + ")", re.IGNORECASE)


def _series(version: Version) -> tuple[int, ...]:
    # 0.x releases break like majors do: 0.6 and 0.10 are different series
    return version.release[:2] if version.major == 0 else version.release[:1]


class VersionMentions:
    """The sentences of a PR's texts that hold a version token, each with its versions: read
    once per PR, on first ask (every dependency change of the PR asks; most PRs have none)."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._texts = texts

    @cached_property
    def sentences(self) -> list[tuple[str, tuple[Version, ...]]]:
        found: list[tuple[str, tuple[Version, ...]]] = []
        for text in self._texts:
            # A token never spans a sentence break (whitespace), and what borders a sentence
            # is whitespace in the text: a text without a token has no sentence with one.
            if _VERSION_TOKEN.search(text) is None:
                continue
            for sentence in _SENTENCE_BREAK.split(text):
                versions = tuple(
                    version
                    for match in _VERSION_TOKEN.finditer(sentence)
                    if (version := _parse_version(match.group(1))) is not None
                )
                if versions:
                    found.append((sentence, versions))
        return found


def mentioned_versions(
    texts: Iterable[str] | VersionMentions, names: Iterable[str], series: set[tuple[int, ...]]
) -> set[Version]:
    """Versions written near one of ``names``, or anywhere when in one of the ``series``."""
    mentions = texts if isinstance(texts, VersionMentions) else VersionMentions(texts)
    pattern = _names_pattern(names)
    found: set[Version] = set()
    for sentence, versions in mentions.sentences:
        near = pattern is not None and pattern.search(sentence) is not None
        for version in versions:
            if near or _series(version) in series:
                found.add(version)
    return found


def versions_considered(
    texts: Iterable[str] | VersionMentions,
    names: Iterable[str],
    specifiers: Iterable[SpecifierSet],
    known: Iterable[str] = (),
) -> list[Version]:
    own: set[Version] = set()
    for spec in specifiers:
        own.update(v for text in specifier_versions(spec) if (v := _parse_version(text)) is not None)
    considered = own | mentioned_versions(texts, names, {_series(v) for v in own})
    considered.update(v for text in known if (v := _parse_version(text)) is not None)
    return sorted(considered)


def admission_delta(old: SpecifierSet, new: SpecifierSet, versions: Iterable[Version]) -> tuple[list[str], list[str]]:
    """(newly admitted, newly excluded) among ``versions``."""
    admitted: list[str] = []
    excluded: list[str] = []
    for version in versions:
        # prereleases=True: judge the text of the specifier, not pip's pre-release policy
        was = old.contains(version, prereleases=True)
        now = new.contains(version, prereleases=True)
        if now and not was:
            admitted.append(str(version))
        elif was and not now:
            excluded.append(str(version))
    return admitted, excluded


def _specifier_of(requirement: str) -> SpecifierSet | None:
    line = requirement.split("#", 1)[0].strip()
    try:
        return Requirement(line).specifier
    except InvalidRequirement:
        return None


def upper_bounded(requirement: str) -> bool:
    """True when the requirement has a cap or an exact pin: later releases are not admitted."""
    spec = _specifier_of(requirement)
    if spec is None:
        return False
    shape = spec_shape(spec)
    return shape.pin is not None or shape.cap is not None


def exact_pin(requirement: str) -> bool:
    """True when the requirement names one release (``==1.2.3``), not a range with a cap."""
    spec = _specifier_of(requirement)
    if spec is None:
        return False
    shape = spec_shape(spec)
    return shape.pin is not None and shape.cap is None


def admits_every_later(requirement: str, version: str) -> bool:
    """True when the requirement admits every release after ``version``: no cap, no pin, and no
    exclusion above it (``>=5.9.0,<=5.10.1`` does not; ``>=5.9.0,!=5.9.3`` does past 5.9.3)."""
    spec = _specifier_of(requirement)
    start = _parse_version(version)
    if spec is None or start is None:
        return False
    shape = spec_shape(spec)
    if shape.pin is not None or shape.cap is not None:
        return False
    for excluded in shape.exclusions:
        # "!=1.2.*" excludes from 1.2 on; compare with the release it names
        named = _parse_version(excluded.removesuffix(".*"))
        if named is not None and named > start:
            return False
    return spec.contains(start, prereleases=True)
