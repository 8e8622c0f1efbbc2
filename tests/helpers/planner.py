"""A Python function of any size for histories whose PRs grow, revert and restore it."""

from __future__ import annotations


def plan_source(steps: int, *, name: str = "plan", fallback: bool = False) -> str:
    """``def <name>(tasks, budget)`` choosing ``steps`` tasks, one line each, with an optional
    fallback when none fits."""
    lines = [f"def {name}(tasks, budget):", "    chosen = []"]
    lines += [f"    chosen.append(tasks[{i}] if len(tasks) > {i} else None)" for i in range(steps)]
    if fallback:
        lines += ["    if not chosen:", "        chosen = tasks[:1]"]
    lines += ["    return [t for t in chosen if t is not None and t.cost <= budget]", ""]
    return "\n".join(lines)
