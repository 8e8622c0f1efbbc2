"""Every string given to a report or feed part loses its control characters, however it is
given: a field, a list, nested raw data, JSON; defaults and parts already made stay as they are."""

from __future__ import annotations

from prdigest.models.feed import Feed
from prdigest.models.report import Discussion, Header, RiskTagItem, ThreadLine

ESC = "\x1b[2J"
CLEAN = "\ufffd[2J"


def test_a_string_field_is_made_printable() -> None:
    header = Header(repository="o/r", number=1, title=f"a{ESC}b\r\nc", state="open", state_label="open")
    assert header.title == f"a{CLEAN}b\nc"


def test_strings_in_lists_and_nested_raw_data_are_made_printable() -> None:
    discussion = Discussion.model_validate(
        {
            "overview": f"o{ESC}",
            "approvals": [f"x{ESC}", "y"],
            "threads": [{"topic": f"t{ESC}", "kind": "k", "kind_label": "K", "outcome": "o", "outcome_label": "O"}],
        }
    )
    assert discussion.overview == f"o{CLEAN}"
    assert discussion.approvals == [f"x{CLEAN}", "y"]
    assert discussion.threads[0].topic == f"t{CLEAN}"


def test_json_input_is_made_printable() -> None:
    item = RiskTagItem.model_validate_json('{"tag": "t\\u001b", "label": "l\\u0007"}')
    assert (item.tag, item.label, item.evidence) == ("t\ufffd", "l\ufffd", "")


def test_a_part_given_as_an_instance_is_kept() -> None:
    line = ThreadLine(topic="t", kind="k", kind_label="K", outcome="o", outcome_label="O")
    discussion = Discussion(overview="o", threads=[line])
    assert discussion.threads == [line]
    assert (discussion.review_data, discussion.approvals, discussion.highlights) == (True, [], [])


def test_the_feed_is_made_printable_too() -> None:
    feed = Feed.model_validate({"repository": f"o/r{ESC}", "lang": "en", "items": []})
    assert feed.repository == f"o/r{CLEAN}"
