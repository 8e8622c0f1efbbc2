"""What a risk-tag or module chip shows: the label in the page's language, not the id.

The id stays in the filter URL and in the chip's ``title``/``data-id``; only the visible text
is translated. Labels come from the same sources the reports use: the risk vocabulary
(`load_vocabulary`, read once per process) and the renderer's ``modules`` table
(`prdigest.render.i18n.labels`), with the files analyzer's Chinese module names as the
fallback for zh. Anything unknown (a repository-specific module, a tag added since) shows as is.
"""

from __future__ import annotations

from typing import Literal

from prdigest.analyzers.file_rules import module_name_zh
from prdigest.analyzers.risk_vocabulary import load_vocabulary
from prdigest.render.i18n import labels

ChipKind = Literal["risk", "module"]


def risk_label(tag: str, lang: str) -> str:
    spec = load_vocabulary().tags.get(tag)
    if spec is None:
        return tag
    return spec.label_zh if lang == "zh" else spec.label_en


def module_label(module: str, lang: str) -> str:
    shown = labels(lang).lookup("modules", module)
    if shown == module and lang == "zh":
        return module_name_zh(module) or module
    return shown


def chip_label(kind: ChipKind, value: str, lang: str) -> str:
    """The visible text of a chip or a filter option (``kind`` is ``risk`` or ``module``)."""
    return risk_label(value, lang) if kind == "risk" else module_label(value, lang)
