"""One requirement line, as written in a requirements file or a string literal.

`parse_requirements_line` understands the pip requirements-file syntax that matters for
change analysis: comments, ``-r``/``-c`` references, other options (ignored), per-line
options such as ``--hash``. The requirement itself is parsed by `packaging`; a line that
does not parse comes back as ``unparsable`` with the reason, never as an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

# A comment starts at "#" at the start of the line or after whitespace (pip's rule), so
# URL fragments such as "#egg=foo" stay part of the requirement.
_COMMENT = re.compile(r"(^|\s)#.*$")
_REFERENCE = re.compile(r"^(-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+|(?=\S))(\S+)\s*$")
_PER_LINE_OPTION = re.compile(r"\s--(hash|global-option|config-settings|install-option)[=\s]\S+")
# Lines made only of pip options that carry no requirement.
_OPTION_ONLY = re.compile(r"^-{1,2}[A-Za-z]")


@dataclass(frozen=True)
class ParsedRequirement:
    """A requirement that `packaging` accepted."""

    text: str  # the requirement as written, comments and per-line options removed
    requirement: Requirement

    @property
    def name(self) -> str:
        return canonicalize_name(self.requirement.name)

    @property
    def normalized(self) -> str:
        return str(self.requirement)


@dataclass(frozen=True)
class Reference:
    """A ``-r``/``-c`` line: another file the requirements include or constrain with."""

    option: str  # "-r" or "-c"
    target: str


@dataclass(frozen=True)
class Unparsable:
    text: str
    reason: str


LineResult = ParsedRequirement | Reference | Unparsable | None


def strip_comment(line: str) -> str:
    return _COMMENT.sub("", line).strip()


# Kept by text, like functools caches: one file's lines come back in PR after PR, and both
# results are frozen (no caller changes a `Requirement`; equal texts give equal results).
@lru_cache(maxsize=4096)
def parse_requirement_text(text: str) -> ParsedRequirement | Unparsable:
    """Parse one requirement string (no comment, no options)."""
    cleaned = text.strip()
    try:
        return ParsedRequirement(text=cleaned, requirement=Requirement(cleaned))
    except InvalidRequirement as exc:
        return Unparsable(text=cleaned, reason=str(exc).splitlines()[0] if str(exc) else "invalid")
    except Exception as exc:  # packaging may raise other errors on odd unicode; report, do not crash
        return Unparsable(text=cleaned, reason=f"{type(exc).__name__}: {exc}")


def parse_requirements_line(line: str) -> LineResult:
    """Parse one line of a requirements file; ``None`` for blank, comment or option lines."""
    body = strip_comment(line)
    if not body:
        return None
    reference = _REFERENCE.match(body)
    if reference:
        option = "-r" if reference.group(1) in ("-r", "--requirement") else "-c"
        return Reference(option=option, target=reference.group(2))
    if body.startswith("-e ") or body.startswith("--editable"):
        return None  # local editable installs name paths, not versions
    if _OPTION_ONLY.match(body):
        return None
    body = _PER_LINE_OPTION.sub("", " " + body).strip()
    return parse_requirement_text(body)


def logical_lines(text: str) -> list[str]:
    """Split a requirements file into lines, joining backslash continuations."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        if raw.rstrip().endswith("\\") and not raw.lstrip().startswith("#"):
            pending += raw.rstrip()[:-1] + " "
            continue
        lines.append(pending + raw)
        pending = ""
    if pending:
        lines.append(pending)
    return lines
