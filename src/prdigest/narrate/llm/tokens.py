"""A conservative offline token estimator for prompts (no tokenizer download).

Calibration (see STACK.md): BPE tokenizers of the cl100k / Qwen family spend about one
token per 2.3 characters of code and diffs, about one per 4–4.5 characters of English
prose and about one per CJK character. We estimate per line and over-count on purpose:

* code-like lines (many symbols, digits or diff markers): UTF-8 bytes / 2.3
* prose-like lines (symbols and digits under 10% of the characters): UTF-8 bytes / 3.5
* CJK characters and full-width punctuation: 1 token each (not counted in the bytes)
* a line's leading diff marker and indentation: 1 token per started 8 characters (BPE
  vocabularies merge runs of spaces)
* every line break: 1 token

Estimating line by line keeps the estimate additive: the estimate of a text joined with
newlines is the sum of its parts, so a prompt assembled from pieces never exceeds the sum
of the pieces' estimates.
"""

from __future__ import annotations

import math
import re

CODE_BYTES_PER_TOKEN = 2.3
PROSE_BYTES_PER_TOKEN = 3.5
# Chat formats add a few tokens per message (role markers, separators).
MESSAGE_OVERHEAD_TOKENS = 8
CUT_MARKER = "…"

_CJK = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")
_SYMBOLS = re.compile(r"[^\w\s]|\d")
_INDENT = re.compile(r"[+\- ]?[ \t]*")
# A line is prose when symbols and digits are rare; code and diffs are dense with them.
_PROSE_SYMBOL_SHARE = 0.10


def line_tokens(line: str) -> int:
    """Estimated tokens of one line, without its line break."""
    if not line:
        return 0
    cjk = len(_CJK.findall(line))
    rest = _CJK.sub("", line) if cjk else line
    if not rest:
        return cjk
    indent = _INDENT.match(rest)
    prefix = indent.end() if indent else 0
    size = len(rest[prefix:].encode("utf-8", "surrogatepass"))
    stripped = rest.strip()
    symbols = len(_SYMBOLS.findall(stripped))
    code_like = not stripped or stripped[0] in "+-@" or symbols > _PROSE_SYMBOL_SHARE * len(stripped)
    rate = CODE_BYTES_PER_TOKEN if code_like else PROSE_BYTES_PER_TOKEN
    return cjk + math.ceil(prefix / 8) + math.ceil(size / rate)


def estimate_tokens(text: str) -> int:
    """Estimated tokens of `text`: the sum of its lines plus one per line break."""
    if not text:
        return 0
    lines = text.split("\n")
    return sum(line_tokens(line) for line in lines) + len(lines) - 1


def estimate_messages(messages: list[dict[str, str]]) -> int:
    """Estimated prompt tokens of a chat request."""
    return sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD_TOKENS for m in messages)


def truncate_to_tokens(text: str, budget: int) -> tuple[str, bool]:
    """The longest line-wise prefix of `text` within `budget` tokens, and whether it was cut.

    A cut ends with a line "…"; a single line longer than the room left is cut by characters.
    """
    if estimate_tokens(text) <= budget:
        return text, False
    marker = line_tokens(CUT_MARKER)
    if budget < marker:
        return "", True
    kept: list[str] = []
    spent = marker
    for line in text.split("\n"):
        cost = line_tokens(line) + 1  # the line and the break before the next line
        if spent + cost > budget:
            room = budget - spent - 1
            if room > 4:
                low, high = 0, len(line)
                while low < high:  # longest prefix of the line within `room`
                    mid = (low + high + 1) // 2
                    if line_tokens(line[:mid]) <= room:
                        low = mid
                    else:
                        high = mid - 1
                if low:
                    kept.append(line[:low])
            break
        kept.append(line)
        spent += cost
    return "\n".join([*kept, CUT_MARKER]), True
