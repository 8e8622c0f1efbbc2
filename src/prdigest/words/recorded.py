"""The risk-tag labels a facts record stores (``RiskTag.label_zh`` / ``label_en``).

Facts schema 2 keeps each tag's label in Chinese and English next to its id, so search finds
a PR by either name and old records render as they were written. This is the only place that
knows those two fields' languages; everything else asks `Labels.risk_tag`.
"""

from __future__ import annotations

from prdigest.words.catalog import CATALOG, Catalog
from prdigest.words.lang import Lang

_ZH = Lang("zh")
_EN = Lang("en")


def recorded_labels(label_zh: str, label_en: str) -> dict[Lang, str]:
    """A stored tag's labels by language, for `Labels.risk_tag`."""
    return {_ZH: label_zh, _EN: label_en}


def labels_to_record(tag: str, catalog: Catalog = CATALOG) -> tuple[str, str]:
    """``(label_zh, label_en)`` of vocabulary tag `tag`, as the analyzer stores them."""
    return catalog.labels(_ZH).risk_tag(tag), catalog.labels(_EN).risk_tag(tag)
