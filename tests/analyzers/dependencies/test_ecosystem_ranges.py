"""What one requirement of go.mod, Cargo.toml or package.json admits, by its ecosystem's rules:
Go's minimum versions, Cargo's caret default (0.x minors break), npm's ranges."""

from __future__ import annotations

import pytest

from prdigest.analyzers.dependencies.ecosystems import (
    Ecosystem,
    ManifestEntry,
    admission,
    admission_delta,
    kinds_of,
    named_versions,
    read_go_mod,
    semantic,
)


def _entry(spec: str) -> ManifestEntry:
    return ManifestEntry("pkg", spec, "dependencies", "runtime")


@pytest.mark.parametrize(
    ("ecosystem", "spec", "admitted", "refused"),
    [
        ("go", "v1.36.8", ["1.36.8", "1.37.0", "2.0.0"], ["1.36.6"]),  # a minimum (MVS)
        ("cargo", "1.2.3", ["1.2.3", "1.9.0"], ["1.2.2", "2.0.0"]),  # "1.2.3" is ^1.2.3
        ("cargo", "0.11", ["0.11.0", "0.11.9"], ["0.12.0", "0.10.5"]),  # 0.x: the minor is the series
        ("cargo", "=0.8.4", ["0.8.4"], ["0.8.5"]),
        ("cargo", "~2.3", ["2.3.0", "2.3.9"], ["2.4.0", "2.2.0"]),
        ("cargo", ">= 1.0, < 1.5", ["1.0.0", "1.4.9"], ["1.5.0"]),
        ("npm", "^1.15.6", ["1.15.6", "1.99.0"], ["1.15.5", "2.0.0"]),
        ("npm", "1.5.10", ["1.5.10"], ["1.5.11"]),  # a bare npm version is exact
        ("npm", "1.x || >=3.1.0 <4", ["1.2.0", "3.5.0"], ["2.0.0", "4.0.0"]),
        ("npm", "1.2.3 - 2.3", ["1.2.3", "2.3.9"], ["2.4.0"]),
    ],
)
def test_what_a_requirement_admits(ecosystem: Ecosystem, spec: str, admitted: list[str], refused: list[str]) -> None:
    found = admission(ecosystem, _entry(spec))
    assert found is not None
    for version in admitted:
        assert found.admits(semantic(version)), version
    for version in refused:
        assert not found.admits(semantic(version)), version


@pytest.mark.parametrize(
    ("ecosystem", "before", "after", "kinds", "admitted", "excluded"),
    [
        ("go", "v1.36.6", "v1.36.8", ["floor-raised"], [], ["v1.36.6"]),
        ("cargo", "0.11", "0.12", ["cap-relaxed", "floor-raised"], ["0.12.0"], ["0.11.0"]),
        ("cargo", "=1.0.5", "1.0.5", ["unpinned"], [], []),
        ("cargo", "=1.0.0-rc.3", "=1.0.0-rc.4", ["pin-changed"], ["1.0.0-rc.4"], ["1.0.0-rc.3"]),
        ("npm", "^1.4.1", "1.5.10", ["pinned"], [], ["1.4.1"]),
        ("npm", "^4.0.0", "^2.11.9", ["cap-tightened", "floor-lowered", "downgraded"], ["2.11.9"], ["4.0.0"]),
        ("npm", "^1.2.0", "github:example/pkg", ["other"], [], []),  # no range: nothing admitted is claimed
        ("npm", "^1.2.0", "^1.2.0", [], [], []),
    ],
)
def test_the_kinds_and_versions_of_a_change(
    ecosystem: Ecosystem, before: str, after: str, kinds: list[str], admitted: list[str], excluded: list[str]
) -> None:
    old, new = _entry(before), _entry(after)
    assert kinds_of(ecosystem, old, new) == kinds
    versions = named_versions(ecosystem, [before, after])
    assert admission_delta(ecosystem, old, new, versions) == (admitted, excluded)


def test_go_mod_directives() -> None:
    side = read_go_mod(
        "module example.org/m\n\ngo 1.22\ntoolchain go1.22.4\n\nrequire example.org/a v1.0.0\n"
        "require (\n\texample.org/b v0.2.0 // indirect\n)\n"
        "replace example.org/a => ../a\nreplace example.org/c v1.0.0 => example.org/d v1.1.0\n"
        "exclude example.org/e v1.0.0\n"
    )
    assert [(e.name, e.spec, e.group, e.source) for e in side.entries] == [
        ("go", "1.22", "go", ""),  # the language version, a requirement on "go"
        ("example.org/a", "v1.0.0", "require", ""),
        ("example.org/b", "v0.2.0", "indirect", ""),
        ("example.org/a", "", "replace", "=> ../a"),
        ("example.org/c", "=v1.1.0", "replace", "=> example.org/d"),
    ]
