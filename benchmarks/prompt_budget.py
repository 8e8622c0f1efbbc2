"""LLM prompt size and completeness per PR size class, next to pr-agent's anchors.

pr-agent 0.43 ``describe`` (TARGETS.md, a real C++/Python repository) sends a median of
1,628 prompt tokens for small PRs (1–2 files), 6,212 for medium (5–12) and 30,322 for large
(30+). Our prompt carries the whole story instead of a capped excerpt, so the target is: at
most pr-agent's median per class, with 100% of the facts, the PR body and the review threads
present and every changed file named; never over the budget (default 16,000 tokens).

Per class it prints the median estimated prompt tokens, the anchor, and the share of PRs
whose facts / body / threads reached the prompt in full, and the share of files named. For
the large class it also prints how many PRs need file-group summaries (their diff does not
fit even compressed) and the calls they would use (groups + the final call; ``--group-calls``
caps the groups), with the largest group prompt, which must stay within the budget too.

Run on a real history (a database ``prdigest sync`` + ``analyze`` wrote; it is copied, never
written): ``.venv/bin/python benchmarks/prompt_budget.py --db /work/base/encode+httpx.db``.
Without ``--db`` it runs on generated PRs of 1 to 3,000 files.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from prdigest.models.facts import Facts, FileFact, FilesFacts, SymbolChange, SymbolsFacts
from prdigest.models.narrative import RelatedNote
from prdigest.models.pullrequest import FileChange, PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.llm.groups import group_messages, groups_room, plan_groups
from prdigest.narrate.llm.prompt import _discussion_text, _facts_text, _related, build_prompt, clean_body
from prdigest.words import Lang

CLASSES = (("small", 1, 2, 1628), ("medium", 5, 12, 6212), ("large", 30, 10**9, 30322))
SIZES = (1, 2, 8, 12, 40, 300, 3000)
LAYOUT = (  # path pattern, category, share of files
    ("vllm/model_executor/layers/mod{i}/kernel_{i}.py", "source", 0.35),
    ("csrc/ops/op_{i}.cu", "source", 0.1),
    ("tests/kernels/test_mod_{i}.py", "test", 0.3),
    ("requirements/extra_{i}.txt", "config", 0.05),
    ("docker/Dockerfile.variant{i}", "infra", 0.05),
    ("docs/source/feature_{i}.md", "docs", 0.15),
)
CODE = [
    "if self.quant_config is not None and layer.weight.dtype == torch.float16:",
    "return torch.ops._C.fused_moe(hidden_states, topk_weights, topk_ids, **kwargs)",
    "assert x.shape[-1] % self.block_size == 0, f'bad shape {x.shape}'",
    "self.max_num_batched_tokens = max(self.max_num_batched_tokens, 8192)",
    "logger.warning_once('falling back to the %s backend', backend.name)",
    "for expert_id in range(self.num_local_experts):",
    "scales = scales.to(device=layer.weight.device, dtype=torch.float32)",
    "out = torch.empty((num_tokens, hidden_size), dtype=dtype, device=device)",
]


@dataclass
class Measured:
    tokens: list[int] = field(default_factory=list)
    facts: list[bool] = field(default_factory=list)
    body: list[bool] = field(default_factory=list)
    threads: list[bool] = field(default_factory=list)
    named: list[float] = field(default_factory=list)
    diff_lines: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    over_budget: int = 0
    grouped: int = 0  # PRs that need file-group summaries
    calls: list[int] = field(default_factory=list)  # calls of those PRs (groups + the final one)
    group_tokens: list[int] = field(default_factory=list)  # each group prompt's tokens


def _hunk(rng: random.Random, start: int, added: int, removed: int, indent: str) -> str:
    lines = [f" {indent}{rng.choice(CODE)}" for _ in range(3)]
    lines += [f"-{indent}{rng.choice(CODE)}" for _ in range(removed)]
    lines += [f"+{indent}    {rng.choice(CODE)}" for _ in range(added)]
    lines += [f" {indent}{rng.choice(CODE)}" for _ in range(3)]
    header = f"@@ -{start},{6 + removed} +{start},{6 + added} @@ def forward_{start}(self, x):"
    return header + "\n" + "\n".join(lines)


def generated_pr(n_files: int, seed: int = 0) -> tuple[PullRequest, Facts]:
    rng = random.Random(seed + n_files)
    changes: list[FileChange] = []
    facts: list[FileFact] = []
    symbols: list[SymbolChange] = []
    plan = [pattern for pattern, _, share in LAYOUT for _ in range(max(1, round(share * n_files)))][:n_files]
    while len(plan) < n_files:
        plan.append(LAYOUT[0][0])
    categories = {pattern: category for pattern, category, _ in LAYOUT}
    per_file = 12 if n_files <= 2 else 20 if n_files <= 12 else 30
    for i, pattern in enumerate(plan):
        path = pattern.format(i=i)
        hunks, added, removed = [], 0, 0
        for h in range(rng.randint(1, 3)):
            a = rng.randint(1, per_file // 2)
            r = rng.randint(0, per_file // 3)
            hunks.append(_hunk(rng, 20 + 60 * h, a, r, "        "))
            added, removed = added + a, removed + r
            symbols.append(SymbolChange(path=path, name=f"Mod{i}.forward_{20 + 60 * h}", kind="method"))
        changes.append(FileChange(path=path, additions=added, deletions=removed, patch="\n".join(hunks) + "\n"))
        facts.append(
            FileFact(
                path=path,
                category=categories[pattern],  # type: ignore[arg-type]
                module=path.split("/")[0],
                additions=added,
                deletions=removed,
                is_key=i < 3,
            )
        )
    pr = PullRequest(
        repository="example/generated",
        number=40000 + n_files,
        title=f"[Kernel] Rework fused MoE dispatch ({n_files} files)",
        body="## Purpose\nFixes the fused MoE dispatch on FP16 weights.\n\n## Test Plan\npytest tests/kernels\n",
        files=changes,
        additions=sum(c.additions for c in changes),
        deletions=sum(c.deletions for c in changes),
    )
    all_facts = Facts(
        repository=pr.repository,
        number=pr.number,
        files=FilesFacts(files=facts, total_files=n_files, total_additions=pr.additions, total_deletions=pr.deletions),
        symbols=SymbolsFacts(symbols=symbols[:200]),
    )
    return pr, all_facts


def size_class(n_files: int) -> str | None:
    return next((name for name, low, high, _ in CLASSES if low <= n_files <= high), None)


def measure(
    pr: PullRequest,
    facts: Facts,
    related: list[RelatedNote],
    lang: Lang,
    budget: int,
    into: Measured,
    group_calls: int = 4,
) -> None:
    lists = narrate_extractive(pr, facts, related, lang, "full")
    started = time.perf_counter()
    prompt = build_prompt(pr, facts, related, lang, "full", budget=budget, lists=lists)
    into.seconds.append(time.perf_counter() - started)
    if prompt.digest.diff_left_out and group_calls > 0:
        # What the narrator does (narrator._summarize_groups): plan with the room kept.
        room = groups_room(budget)
        planned = build_prompt(pr, facts, related, lang, "full", budget=budget, lists=lists, groups_room=room)
        groups = plan_groups(pr, facts, planned.digest.diff_left_out, budget, group_calls)
        into.grouped += 1
        into.calls.append(len(groups) + 1)
        for group in groups:
            _messages, tokens = group_messages(pr, facts, group, lang, budget, planned.boundary)
            into.group_tokens.append(tokens)
            into.over_budget += tokens > budget
    user = prompt.messages[1]["content"]
    into.tokens.append(prompt.tokens)
    into.over_budget += prompt.tokens > budget
    fact_lines = _facts_text(pr, facts, related, _related(facts, related), lang)[0].splitlines()
    into.facts.append(all(line in user for line in fact_lines))
    body = clean_body(pr.body)
    into.body.append(all(line in user for line in body.splitlines()))
    threads = _discussion_text({i + 1: t for i, t in enumerate(facts.discussion.threads)})
    into.threads.append(all(line in user for line in threads.splitlines()))
    listed = max(len(pr.files), 1)
    into.named.append(len(prompt.digest.named) / listed if pr.files else 1.0)
    into.diff_lines.append(prompt.digest.lines_included / max(prompt.digest.lines_total, 1))


def real_prs(db: Path, limit: int) -> list[tuple[PullRequest, Facts, list[RelatedNote]]]:
    from prdigest.pipeline.related import related_from_store
    from prdigest.store import Store
    from prdigest.store.facts_store import get_facts

    work = Path(tempfile.mkdtemp(prefix="prompt-budget-")) / db.name
    shutil.copyfile(db, work)  # the history database is only ever read from a copy
    found = []
    with Store.open(f"sqlite:///{work}") as store:
        for summary in store.list_prs(limit=limit):
            pr = store.get_pr(summary.repository, summary.number)
            facts = get_facts(store, pr.repository, pr.number)
            if facts is not None:
                found.append((pr, facts, related_from_store(store, pr.repository, pr.number)))
    return found


def _share(values: list[bool] | list[float]) -> str:
    return f"{sum(values) / len(values):.0%}" if values else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    parser.add_argument("--budget", type=int, default=16000, help="[llm] token_budget")
    parser.add_argument("--db", type=Path, default=None, help="a synced and analyzed history (read from a copy)")
    parser.add_argument("--limit", type=int, default=400, help="newest PRs to measure from --db")
    parser.add_argument("--group-calls", type=int, default=4, help="[llm] group_calls")
    args = parser.parse_args()
    classes: dict[str, Measured] = {name: Measured() for name, *_ in CLASSES}
    if args.db is not None:
        items = real_prs(args.db, args.limit)
        source = f"{args.db.name}: the newest {len(items)} analyzed PRs"
    else:
        items = [(*generated_pr(n), []) for n in SIZES]
        source = "generated PRs of " + ", ".join(map(str, SIZES)) + " files"
    for pr, facts, related in items:
        name = size_class(max(len(pr.files), pr.changed_files_count or 0))
        if name is not None:
            measure(pr, facts, related, args.lang, args.budget, classes[name], args.group_calls)
    print(f"{source}; lang={args.lang} budget={args.budget:,}; tokens are the offline estimate (conservative)")
    print(
        f"{'class':<7} {'PRs':>4} {'median':>7} {'pr-agent':>9} {'max':>7} {'facts':>6} {'body':>6} {'threads':>8}"
        f" {'files named':>12} {'diff lines':>11} {'build s':>8}"
    )
    failures = []
    for name, _low, _high, anchor in CLASSES:
        m = classes[name]
        if not m.tokens:
            print(f"{name:<7} {0:>4}")
            continue
        median = int(statistics.median(m.tokens))
        print(
            f"{name:<7} {len(m.tokens):>4} {median:>7,} {anchor:>9,} {max(m.tokens):>7,} {_share(m.facts):>6}"
            f" {_share(m.body):>6} {_share(m.threads):>8} {_share(m.named):>12} {_share(m.diff_lines):>11}"
            f" {max(m.seconds):>8.3f}"
        )
        if median > anchor:
            failures.append(f"{name}: median {median:,} tokens > pr-agent's {anchor:,}")
        if m.over_budget:
            failures.append(f"{name}: {m.over_budget} prompts over the budget")
        for what, values in (("facts", m.facts), ("body", m.body), ("threads", m.threads)):
            if not all(values):
                failures.append(f"{name}: {what} cut in {len(values) - sum(values)} of {len(values)} PRs")
        if any(share < 1 for share in m.named) and name != "large":
            failures.append(f"{name}: a file not named")
    large = classes["large"]
    if large.tokens:
        if large.grouped:
            print(
                f"large: {large.grouped} of {len(large.tokens)} PRs need file-group summaries"
                f" (cap {args.group_calls}); calls per PR: median {statistics.median(large.calls):g},"
                f" max {max(large.calls)}; largest group prompt {max(large.group_tokens, default=0):,} tokens"
            )
        else:
            print(f"large: none of {len(large.tokens)} PRs needs file-group summaries (1 call each)")
    print("all targets met" if not failures else "MISSED:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
