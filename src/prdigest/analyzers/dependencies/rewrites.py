"""Requirement rewrites written as code: ``sed`` lines, ``str.replace`` calls, mapping tuples.

A line rewrites a requirement when it names two forms of one package family, e.g.
``sed -i 's/^humming-kernels\\[cu13\\]/humming-kernels[cu12]/'`` or
``req.replace("humming-kernels[cu13]", "humming-kernels[cu12]")``: the family
``humming-kernels`` goes from variant ``cu13`` to ``cu12``. Such lines are not
requirement declarations, and the same rewrite in two files is a drift risk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from prdigest.analyzers.dependencies.variants import variant_of

# A distribution-name-like token, optional [extras], optional ==version.
_TOKEN = re.compile(
    r"(?<![\w.\-])(?P<name>[A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])"
    r"(?:\[(?P<extras>[A-Za-z0-9_,\s-]*)\])?"
    r"(?:\s*==\s*(?P<version>\d+(?:\.\d+)*[A-Za-z0-9.+-]*))?"
)


@dataclass(frozen=True)
class RewriteForm:
    variant: str | None
    version: str | None


@dataclass(frozen=True)
class Rewrite:
    family: str
    source: RewriteForm
    target: RewriteForm

    def describe(self) -> str:
        def form(value: RewriteForm) -> str:
            text = self.family + (f"[{value.variant}]" if value.variant else "")
            return text + (f"=={value.version}" if value.version else "")

        return f"{form(self.source)} -> {form(self.target)}"


_ESCAPED = re.compile(r"\\([\[\].*+?^$])")


def _unescape(line: str) -> str:
    # sed and regex escapes: humming-kernels\[cu13\] -> humming-kernels[cu13]
    return _ESCAPED.sub(r"\1", line) if "\\" in line else line


# A rewrite needs a CUDA variant token (cu12, cuda13x) or two pinned versions on the line;
# most added lines have neither and skip the tokenizer (the hot path on large PRs).
_MAY_REWRITE = re.compile(r"cu(?:da)?\d{2}|==.*==", re.I)


def rewrites_in_line(line: str) -> list[Rewrite]:
    """Rewrites a single line performs; empty when it names at most one form per family."""
    if not _MAY_REWRITE.search(line):
        return []
    forms: dict[str, list[RewriteForm]] = {}
    for match in _TOKEN.finditer(_unescape(line)):
        extras = [e.strip() for e in (match.group("extras") or "").split(",") if e.strip()]
        variant = variant_of(match.group("name"), extras)
        form = RewriteForm(variant=variant.variant, version=match.group("version"))
        bucket = forms.setdefault(variant.family, [])
        if form not in bucket:
            bucket.append(form)
    rewrites: list[Rewrite] = []
    for family, seen in forms.items():
        source, target = seen[0], seen[-1]
        # A rewrite changes the variant, or one pinned version into another; "pkg" next to
        # "pkg==1.0" (a TOML key and its value) is no rewrite.
        variant_changed = source.variant != target.variant
        version_changed = None not in (source.version, target.version) and source.version != target.version
        if variant_changed or version_changed:
            rewrites.append(Rewrite(family=family, source=source, target=target))
    return rewrites
