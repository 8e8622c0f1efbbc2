"""Model text made safe to store: no HTML, no ``javascript:`` / ``data:`` / ``vbscript:`` links.

Every format reads the stored narrative, JSON included, and a JSON consumer may put the
text straight into a page; so the text is cleaned once, before it is stored, rather than
escaped by each renderer. What is removed:

* HTML comments and tags of HTML elements (``<script>…</script>`` and ``<style>`` with their
  content); a type like ``List<int>`` or ``a < b > c`` is not a tag and stays;
* Markdown links and images whose target uses a dangerous scheme keep their text only;
  autolinks (``<javascript:…>``) and bare dangerous URIs lose the scheme.
"""

from __future__ import annotations

import re

_DANGEROUS_SCHEME = r"(?:j\s*a\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t|v\s*b\s*s\s*c\s*r\s*i\s*p\s*t|d\s*a\s*t\s*a|file)\s*:"
_ELEMENTS = (
    "a|abbr|address|area|article|aside|audio|b|base|bdi|bdo|blockquote|body|br|button|canvas|caption|center|cite|"
    "code|col|colgroup|data|datalist|dd|del|details|dfn|dialog|div|dl|dt|em|embed|fieldset|figcaption|figure|font|"
    "footer|form|frame|frameset|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|kbd|label|legend|li|link|main|map|"
    "mark|marquee|math|meta|meter|nav|noscript|object|ol|optgroup|option|output|p|param|picture|pre|progress|q|s|"
    "samp|script|section|select|slot|small|source|span|strong|style|sub|summary|sup|svg|table|tbody|td|template|"
    "textarea|tfoot|th|thead|time|title|tr|track|u|ul|var|video|wbr|xmp|plaintext|applet|base|basefont|bgsound|"
    "blink|isindex|keygen|listing|menu|menuitem|nobr|noembed|noframes|portal|rp|rt|ruby|spacer|strike|tt"
)
_RAW_BLOCK = re.compile(r"<(script|style|iframe|noscript|template|xmp)\b[^>]*>.*?(?:<\s*/\s*\1\s*>|$)", re.I | re.S)
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
_TAG = re.compile(rf"</?(?:{_ELEMENTS})\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*>", re.I)
# Any tag carrying an attribute assignment or an event handler, whatever its name.
_ATTR_TAG = re.compile(r"</?[A-Za-z][\w:-]*\s+[^<>]*(?:=|\bon\w+)[^<>]*>", re.I)
_MD_LINK = re.compile(rf"(!?)\[([^\]]*)\]\(\s*<?\s*{_DANGEROUS_SCHEME}(?:[^()]|\([^()]*\))*\)", re.I)
_AUTOLINK = re.compile(rf"<{_DANGEROUS_SCHEME}[^>]*>", re.I)
# Bare: script schemes anywhere, ``data:`` only as a data URI ("the data: field" is prose).
_BARE = re.compile(
    r"\b(?:j\s*a\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t|v\s*b\s*s\s*c\s*r\s*i\s*p\s*t)\s*:|\bdata:\s*[a-z]+/[\w.+-]+[;,]", re.I
)
_CLOSING = re.compile(r"</[A-Za-z][\w:-]*\s*>")
_REF_DEF = re.compile(rf"^\s*\[[^\]]+\]:\s*<?\s*{_DANGEROUS_SCHEME}.*$", re.I | re.M)
_MAX_PASSES = 5


def sanitize(text: str) -> str:
    """`text` without HTML and dangerous links; repeated until nothing changes, so removing
    one piece cannot form another (``<scr<script>ipt>``)."""
    for _ in range(_MAX_PASSES):
        cleaned = _once(text)
        if cleaned == text:
            return cleaned
        text = cleaned
    # Still changing: adversarial nesting. Drop every angle bracket rather than loop on.
    return _once(text).replace("<", "").replace(">", "")


def _once(text: str) -> str:
    text = _COMMENT.sub("", text)
    text = _RAW_BLOCK.sub("", text)
    text = _TAG.sub("", text)
    text = _ATTR_TAG.sub("", text)
    text = _CLOSING.sub("", text)
    text = _REF_DEF.sub("", text)
    text = _MD_LINK.sub(lambda m: m.group(2), text)
    text = _AUTOLINK.sub("", text)
    return _BARE.sub("", text)
