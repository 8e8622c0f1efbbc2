"""Change kinds and version admission, judged through packaging."""

from __future__ import annotations

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from prdigest.analyzers.dependencies.admission import admission_delta, versions_considered
from prdigest.analyzers.dependencies.change_kinds import change_kinds
from prdigest.analyzers.dependencies.rewrites import rewrites_in_line
from prdigest.analyzers.dependencies.variants import variant_of


@pytest.mark.parametrize(
    ("old", "new", "kinds"),
    [
        ("cupy-cuda13x<14.1.0", "cupy-cuda13x!=14.1.0", ["cap-to-exclusion"]),
        ("foo", "foo<2", ["cap-added"]),
        ("foo<2", "foo<3", ["cap-relaxed"]),
        ("foo<2", "foo<=2", ["cap-relaxed"]),
        ("foo<3", "foo<2", ["cap-tightened"]),
        ("foo<3", "foo", ["cap-relaxed"]),
        ("foo~=1.4", "foo~=1.4,<1.9", ["cap-tightened"]),  # ~=1.4 caps below 2
        ("foo>=1", "foo>=1.2", ["floor-raised"]),
        ("foo>=1.2", "foo>=1", ["floor-lowered"]),
        ("foo>=1", "foo>1", ["floor-raised"]),
        ("foo", "foo!=1.3", ["exclusion-added"]),
        ("foo!=1.3", "foo", ["exclusion-removed"]),
        ("foo>=1", "foo==1.4", ["pinned"]),
        ("foo==1.4", "foo>=1.4", ["unpinned"]),
        ("foo==1.4", "foo==1.5", ["pin-changed"]),
        ("foo[a]==1", "foo[b]==1", ["extras-changed"]),
        ("foo==1; python_version<'3.12'", "foo==1", ["markers-changed"]),
        ("nixl[cu13]>=0.7", "nixl[cu12]>=0.7", ["variant-renamed", "extras-changed"]),
        ("foo>=1", "foo >= 1", []),
        ("foo @ https://a.example/foo-1.whl", "foo @ https://a.example/foo-2.whl", ["other"]),
    ],
)
def test_change_kinds(old: str, new: str, kinds: list[str]) -> None:
    assert change_kinds(Requirement(old), Requirement(new)) == kinds


def test_admission_of_cap_to_exclusion() -> None:
    versions = [Version(v) for v in ("14.0.1", "14.1.0", "14.1.1", "15.0.0")]
    admitted, excluded = admission_delta(SpecifierSet("<14.1.0"), SpecifierSet("!=14.1.0"), versions)
    assert admitted == ["14.1.1", "15.0.0"]
    assert excluded == []
    admitted, excluded = admission_delta(SpecifierSet("!=14.1.0"), SpecifierSet("<14.1.0"), versions)
    assert (admitted, excluded) == ([], ["14.1.1", "15.0.0"])


def test_versions_considered_prefers_mentions_near_the_package() -> None:
    texts = ["Bump CuPy to 14.1.1. Unrelated: CUDA 12.8 and Python 3.11 are used; torch 2.9.0."]
    found = versions_considered(texts, ["cupy-cuda13x", "cupy"], [SpecifierSet("!=14.1.0")])
    assert [str(v) for v in found] == ["14.1.0", "14.1.1"]


def test_versions_far_from_name_count_in_the_same_series() -> None:
    texts = ["Images moved to 14.2.0 and 3.0.0 today.\nThe cupy wheel."]
    found = versions_considered(texts, ["cupy"], [SpecifierSet("<14.1.0")])
    assert [str(v) for v in found] == ["14.1.0", "14.2.0"]


@pytest.mark.parametrize(
    ("name", "extras", "family", "variant"),
    [
        ("nixl-cu12", (), "nixl", "cu12"),
        ("nixl_cu13", (), "nixl", "cu13"),
        ("cupy-cuda12x", (), "cupy", "cu12"),
        ("nvidia-cublas-cu12", (), "nvidia-cublas", "cu12"),
        ("humming-kernels", ("cu13",), "humming-kernels", "cu13"),
        ("nixl", (), "nixl", None),
        ("cuda-python", (), "cuda-python", None),
    ],
)
def test_variant_families(name: str, extras: tuple[str, ...], family: str, variant: str | None) -> None:
    found = variant_of(name, extras)
    assert (found.family, found.variant) == (family, variant)


def test_rewrites_in_code_lines() -> None:
    sed = r"sed -i 's/^humming-kernels\[cu13\]/humming-kernels[cu12]/' requirements/cuda.txt; \\"
    [rewrite] = rewrites_in_line(sed)
    assert rewrite.describe() == "humming-kernels[cu13] -> humming-kernels[cu12]"
    py = 'req = req.replace("humming-kernels[cu13]", "humming-kernels[cu12]")'
    assert rewrites_in_line(py) == [rewrite]
    assert rewrites_in_line("sed -i 's/torch==2.9.0/torch==2.9.1/' x")[0].describe() == "torch==2.9.0 -> torch==2.9.1"
    assert rewrites_in_line('tensorizer = ["tensorizer==2.10.1"]') == []
    assert rewrites_in_line('if "humming-kernels[cu13]" in req:') == []
