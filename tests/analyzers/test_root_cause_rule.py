"""Which earlier PR a fix's bug came from, from its blame counts (issue 25)."""

from __future__ import annotations

from prdigest.analyzers.root_cause import RootCauseRule, find_root_cause
from prdigest.models.facts import LineOrigin, LineOrigins


def _origins(counts: dict[int, int]) -> LineOrigins:
    origins = [LineOrigin(commit=f"{n:040x}", number=n, path="a.py", lines=lines) for n, lines in counts.items()]
    total = sum(counts.values())
    return LineOrigins(commit="f" * 40, lines=total, lines_by_path={"a.py": total}, origins=origins)


def test_between_prs_that_wrote_as_many_lines_the_later_is_named() -> None:
    rule = RootCauseRule(min_lines=1, min_share=0.5, central_only=False)
    found = find_root_cause(_origins({2156: 1, 3204: 1}), own=3217, central={"a.py"}, rule=rule)
    assert found is not None
    assert found.number == 3204
    most = find_root_cause(_origins({2156: 2, 3204: 1}), own=3217, central={"a.py"}, rule=rule)
    assert most is not None
    assert most.number == 2156  # more lines still win
