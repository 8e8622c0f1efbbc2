"""The JSON object the model must return: the prose of a `Narrative`, section by section.

The model writes prose only. Structure that the facts decide (file categories, relation
kinds, thread kinds and outcomes) is not asked for: threads and related items are
answered by their index / number and the narrator fills the rest from the facts. Each
section is validated on its own so one bad section does not throw away the others.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, cast

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from prdigest.models.narrative import SECTION_FIELDS, SECTIONS, SectionName

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4000)]
Note = Annotated[str, StringConstraints(strip_whitespace=True, max_length=4000)]


class _Out(BaseModel):
    # Extra keys from chatty models are ignored rather than failing the section.
    model_config = ConfigDict(extra="ignore")


class StepOut(_Out):
    title: Text
    detail: Text


class FileRoleOut(_Out):
    path: Text
    role: Text


class ExcerptNoteOut(_Out):
    path: Text
    note: Text


class HighlightOut(_Out):
    topic: Text
    who: Note = ""
    summary: Text


class ThreadNoteOut(_Out):
    thread: int = Field(description="the thread number from the facts")
    topic: Text
    note: Note = ""


class ImpactOut(_Out):
    users: Note = ""
    system: Note = ""
    team: Note = ""


class RelatedOut(_Out):
    number: int = Field(description="the related item's number from the facts")
    note: Text


class RiskNoteOut(_Out):
    item: int = Field(description="the risk's number in the facts' risk list")
    text: Text


class PointOut(_Out):
    text: Note = Field(default="", description="empty when there is nothing worth saying")
    facts: list[str] = Field(default_factory=list, description="ids of the facts it rests on, e.g. risk:version-lock")


class VerdictOut(_Out):
    level: Note = Field(default="", description="read-in-depth, quick-read or skip; the facts' own level to agree")
    reason: Note = ""
    facts: list[str] = Field(default_factory=list)


class JudgementOut(_Out):
    lesson: PointOut = Field(default_factory=PointOut)
    watch_next: PointOut = Field(default_factory=PointOut)
    action: PointOut = Field(default_factory=PointOut)
    verdict: VerdictOut = Field(default_factory=VerdictOut)


# Fields an answer may leave out: judging is optional (a model that makes no judgement has
# said nothing wrong), so a missing one is an empty one, never a reason to ask again.
OPTIONAL_FIELDS: dict[str, Any] = {"judgement": {}}


class LLMAnswer(_Out):
    """The whole answer: the prose fields of a `Narrative` (`SECTION_FIELDS`, tests keep them
    the same), each shaped for the model to write."""

    one_line: Text
    recommendation: Text
    motivation: Text
    implementation: list[StepOut]
    file_roles: list[FileRoleOut]
    excerpt_notes: list[ExcerptNoteOut]
    discussion_highlights: list[HighlightOut]
    thread_lines: list[ThreadNoteOut]
    risks: list[RiskNoteOut]
    impact: ImpactOut
    related: list[RelatedOut]
    feed_title: Text
    feed_paragraph: Text
    judgement: JudgementOut


ALL_SECTIONS = SECTIONS

_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    name: TypeAdapter(cast(Any, Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation))
    for name, info in LLMAnswer.model_fields.items()
}
_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n(.*)\n\s*```\s*$", re.DOTALL)
MAX_ERROR_CHARS = 1200

SectionValues = dict[SectionName, dict[str, Any]]


def extract_json_object(content: str) -> dict[str, Any]:
    """The JSON object in a model's answer, tolerating a code fence or chatter around it."""
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("the answer contains no JSON object")
    try:
        value = json.loads(text[start : end + 1])
    except json.JSONDecodeError as exc:
        raise ValueError(f"the answer is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(value, dict):
        raise ValueError("the answer is not a JSON object")
    return value


def parse_answer(content: str, sections: tuple[SectionName, ...]) -> tuple[SectionValues, dict[SectionName, str]]:
    """Valid sections (field -> value) and an error message per invalid section."""
    try:
        data = extract_json_object(content)
    except ValueError as exc:
        return {}, dict.fromkeys(sections, str(exc))
    values: SectionValues = {}
    errors: dict[SectionName, str] = {}
    for section in sections:
        fields: dict[str, Any] = {}
        problems: list[str] = []
        for name in SECTION_FIELDS[section]:
            if name not in data and name not in OPTIONAL_FIELDS:
                problems.append(f"{name}: missing")
                continue
            try:
                fields[name] = _ADAPTERS[name].validate_python(data.get(name, OPTIONAL_FIELDS.get(name)))
            except ValidationError as exc:
                problems.extend(_describe(name, exc))
        if problems:
            errors[section] = "; ".join(problems)[:MAX_ERROR_CHARS]
        else:
            values[section] = fields
    return values, errors


def _describe(name: str, exc: ValidationError) -> list[str]:
    # Location and message only: pydantic's own text would echo the (untrusted) input.
    out = []
    for error in exc.errors()[:5]:
        where = ".".join(str(part) for part in (name, *error["loc"]))
        out.append(f"{where}: {error['msg']}")
    return out


def strict_schema(sections: tuple[SectionName, ...]) -> dict[str, Any]:
    """The JSON schema of the answer for `sections`, in the strict subset servers accept for
    ``response_format: json_schema`` (every property required, no other keys, no defaults)."""
    schema = LLMAnswer.model_json_schema()
    defs = schema.get("$defs", {})
    wanted = [name for section in sections for name in SECTION_FIELDS[section]]
    properties = {name: _strict(schema["properties"][name], defs) for name in wanted}
    return {"type": "object", "properties": properties, "required": wanted, "additionalProperties": False}


_DROPPED_KEYWORDS = frozenset({"default", "title", "minLength", "maxLength"})


def _strict(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    # Inlined rather than $ref'd: not every server (llama.cpp's grammar, older vLLM) follows refs.
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    out = {key: value for key, value in node.items() if key not in _DROPPED_KEYWORDS}
    if out.get("type") == "object":
        props = {name: _strict(child, defs) for name, child in node.get("properties", {}).items()}
        out["properties"] = props
        out["required"] = list(props)
        out["additionalProperties"] = False
    elif out.get("type") == "array":
        out["items"] = _strict(node.get("items", {}), defs)
    return out


def answer_keys(sections: tuple[SectionName, ...]) -> str:
    """The keys to return and their shapes, tersely: ``a, b[{c,d}], e{f,g}, h[str]``.

    Generated from `LLMAnswer`'s JSON schema (so it never drifts from the validator) and
    about a third cheaper in tokens than a JSON example.
    """
    schema = LLMAnswer.model_json_schema()
    defs = schema.get("$defs", {})
    wanted = [name for section in sections for name in SECTION_FIELDS[section]]
    return ", ".join(name + _shape(schema["properties"][name], defs) for name in wanted)


def _shape(node: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    kind = node.get("type")
    if kind == "object":
        return "{" + ",".join(name + _shape(child, defs) for name, child in node.get("properties", {}).items()) + "}"
    if kind == "array":
        inner = _shape(node.get("items", {}), defs)
        return f"[{inner or 'str'}]"
    return ""
