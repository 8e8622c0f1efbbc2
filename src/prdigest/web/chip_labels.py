"""What a risk-tag or module chip shows: the label in the page's language, not the id.

The id stays in the filter URL and in the chip's ``title``/``data-id``; only the visible text
is translated, from the same words the reports use (`prdigest.words`: the risk-tag names and
the ``modules`` table of labels). Anything unknown (a repository-specific module, a tag added
since) shows as is.
"""

from __future__ import annotations

from typing import Literal

from prdigest.words import labels

ChipKind = Literal["risk", "module"]


def risk_label(tag: str, lang: str) -> str:
    return labels(lang).risk_tag(tag)


def module_label(module: str, lang: str) -> str:
    return labels(lang).lookup("modules", module)


def chip_label(kind: ChipKind, value: str, lang: str) -> str:
    """The visible text of a chip or a filter option (``kind`` is ``risk`` or ``module``)."""
    return risk_label(value, lang) if kind == "risk" else module_label(value, lang)
