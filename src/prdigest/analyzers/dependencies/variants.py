"""CUDA-variant families: several distributions that are builds of one package.

``nixl-cu12`` / ``nixl-cu13``, ``cupy-cuda12x`` / ``cupy-cuda13x``, ``nvidia-cublas-cu12``
and ``humming-kernels[cu12]`` / ``humming-kernels[cu13]`` are each one family ("nixl",
"cupy", "nvidia-cublas", "humming-kernels") in several variants ("cu12", "cu13"). A plain
``nixl`` is the family's base (variant ``None``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from packaging.utils import canonicalize_name

# nixl-cu12, nvidia-cublas-cu12, foo_cu118
_NAME_CU = re.compile(r"^(?P<family>.+?)[-_.]cu(?P<major>\d{2,3})$")
# cupy-cuda12x, cupy-cuda11x, jax-cuda12-plugin is left alone (no trailing version token)
_NAME_CUDA = re.compile(r"^(?P<family>.+?)[-_.]cuda(?P<major>\d{2,3})x?$")
# extras such as [cu12], [cuda12], [cu128]
_EXTRA_CU = re.compile(r"^cu(?:da)?(?P<major>\d{2,3})x?$")


@dataclass(frozen=True)
class Variant:
    family: str
    variant: str | None  # "cu12"; None for the plain package


def _variant_token(major: str) -> str:
    # cu128 / cu129 are CUDA 12 builds: keep the major for comparison, the full tag for display.
    return f"cu{major}"


def variant_of(name: str, extras: Iterable[str] = ()) -> Variant:
    """The family and variant of a distribution name (and its extras)."""
    return _variant_of(name, tuple(extras))


@lru_cache(maxsize=4096)  # every word of every added line is asked about (rewrites)
def _variant_of(name: str, extras: tuple[str, ...]) -> Variant:
    canonical = canonicalize_name(name)
    for pattern in (_NAME_CU, _NAME_CUDA):
        match = pattern.match(canonical)
        if match:
            return Variant(family=canonicalize_name(match.group("family")), variant=_variant_token(match["major"]))
    cuda_extras = sorted(_variant_token(m.group("major")) for extra in extras if (m := _EXTRA_CU.match(extra.lower())))
    if cuda_extras:
        return Variant(family=canonical, variant="+".join(cuda_extras))
    return Variant(family=canonical, variant=None)


def is_variant(name: str, extras: Iterable[str] = ()) -> bool:
    return variant_of(name, extras).variant is not None
