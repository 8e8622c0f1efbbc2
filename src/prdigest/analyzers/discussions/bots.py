"""Who is a bot, and which comments are automation noise rather than discussion.

Bots are recognised by the source's flag, a ``[bot]`` / ``-bot`` login suffix, or a
known login. Noise: merge-bot notices (rebase needed, merge conflicts, pre-commit
failures, CLA, welcome text), slash commands (``/ci run``, ``/ready``) and one-word
human acknowledgements ("LGTM", "+1", "thanks").
"""

from __future__ import annotations

import re

KNOWN_BOTS = frozenset(
    {
        "mergify",
        "github-actions",
        "dependabot",
        "dependabot-preview",
        "renovate",
        "codecov",
        "codecov-commenter",
        "gemini-code-assist",
        "copilot-pull-request-reviewer",
        "copilot",
        "coderabbitai",
        "sourcery-ai",
        "netlify",
        "vercel",
        "sonarcloud",
        "pre-commit-ci",
        "allcontributors",
        "stale",
        "k8s-ci-robot",
        "facebook-github-bot",
        "pytorchbot",
        "pytorch-bot",
        "bors",
        "mergeable",
        "claassistant",
        "cla-bot",
    }
)

# Bots whose line comments are code review: their substantive points become threads.
CODE_REVIEW_BOTS = frozenset(
    {"gemini-code-assist", "copilot-pull-request-reviewer", "copilot", "coderabbitai", "sourcery-ai"}
)


def _base_login(login: str) -> str:
    lowered = login.strip().lower()
    for suffix in ("[bot]", "-bot", "_bot"):
        if lowered.endswith(suffix) and len(lowered) > len(suffix):
            return lowered[: -len(suffix)]
    return lowered


def is_bot(login: str, flagged: bool = False) -> bool:
    """True for automation accounts."""
    lowered = login.strip().lower()
    if flagged or lowered.endswith(("[bot]", "-bot", "_bot")):
        return True
    return _base_login(login) in KNOWN_BOTS


def is_code_review_bot(login: str) -> bool:
    return _base_login(login) in CODE_REVIEW_BOTS


_NOTICE = re.compile(
    r"needs? (?:a )?rebase|please rebase|rebase (?:is )?(?:needed|required)|has merge conflicts|"
    r"merge conflicts?|conflicts? (?:must|need to) be resolved|pre-commit (?:checks? )?(?:has |have )?failed|"
    r"pre-commit\.ci|failed (?:the )?pre-commit|\bCLA\b|contributor license agreement|"
    r"thank you for (?:your )?contribut|thanks for (?:your )?contribut|👋|welcome to|"
    r"documentation preview|codecov report|coverage (?:report|is)|this pull request is now in conflict|"
    r"deploy preview|has been automatically marked as stale|\bstale\b|"
    r"^\s*/\w[\w-]*|mergify|ready label|auto-?merge",
    re.I | re.M,
)
_SLASH_COMMAND = re.compile(r"^\s*(?:@\w[\w-]*\s+)?/[\w-]+(?:\s+[\w./:-]+){0,3}\s*$")
_MENTION_COMMAND = re.compile(r"^\s*@(?:mergifyio|dependabot|renovate|pytorchbot|bors)\b", re.I)
_ACK = re.compile(
    r"^\s*(?:lgtm|looks good(?: to me)?|ship it|\+1|👍|🚀|🎉|thanks?(?: you)?|thx|ty|nice|great|done|"
    r"approved?|merged?|ok(?:ay)?|sgtm|same|ack|fixed|updated|rebased|ping|gentle ping|bump|"
    r"谢谢|感谢|好的|可以|赞|收到)[\s!.,:;~]*(?:[@\w-]+)?[\s!.]*$",
    re.I,
)


def is_slash_command(text: str) -> bool:
    """``/ci run``, ``/ready``, ``@mergifyio rebase``: orders to automation."""
    return bool(_SLASH_COMMAND.match(text) or _MENTION_COMMAND.match(text))


def is_bot_notice(text: str) -> bool:
    """A bot comment that announces state (conflicts, CI, CLA, welcome), not a review point."""
    return bool(_NOTICE.search(text)) or is_slash_command(text)


def is_trivial(text: str) -> bool:
    """A human comment with nothing to discuss: empty, acknowledgement, emoji, command."""
    stripped = text.strip()
    if not stripped or is_slash_command(stripped) or _ACK.match(stripped):
        return True
    words = re.findall(r"\w+", stripped)
    return len(words) <= 1 and "?" not in stripped
