"""Prompt size per PR against pr-agent's anchors (TARGETS.md: LLM prompt per PR).

Builds the LLM narrator's prompt for generated PRs of 1 to 3,000 files with realistic hunks
and prints, per PR: estimated prompt tokens, the budget, the share of changed files named
or counted, the share of changed lines that reached the prompt, the build time, and the
ratio to pr-agent 0.43 ``describe`` (median 1,628 tokens for 1–2 files, 6,212 for 5–12,
30,322 for 30+). Targets: no prompt over its budget, every file named or counted, < 1 s
for 3,000 files, ≤ 50% of the anchor.

Run: ``.venv/bin/python benchmarks/prompt_budget.py [--lang zh|en] [--cap 12000]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from prdigest.models.facts import Facts, FileFact, FilesFacts, SymbolChange, SymbolsFacts
from prdigest.models.pullrequest import FileChange, PullRequest
from prdigest.narrate.llm.prompt import build_prompt, prompt_budget

SIZES = (1, 2, 8, 12, 40, 300, 3000)
ANCHORS = ((1, 2, 1628), (5, 12, 6212), (30, 10**9, 30322))
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
    # Small PRs change few lines per file; big ones are mostly mechanical edits.
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
        repository="vllm-project/vllm",
        number=40000 + n_files,
        title=f"[Kernel] Rework fused MoE dispatch ({n_files} files)",
        body="## Purpose\nFixes the fused MoE dispatch on FP16 weights.\n\n## Test Plan\npytest tests/kernels\n" * 3,
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


def anchor_for(n_files: int) -> int | None:
    return next((tokens for low, high, tokens in ANCHORS if low <= n_files <= high), None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    parser.add_argument("--cap", type=int, default=12000, help="[llm] token_budget (the maximum)")
    args = parser.parse_args()
    print(f"lang={args.lang} cap={args.cap}; tokens are the offline estimate (conservative)")
    print(
        f"{'files':>6} {'tokens':>7} {'budget':>7} {'named':>6} {'counted':>8} {'lines in':>9} {'build s':>8}"
        f" {'anchor':>7} {'ratio':>6}"
    )
    failures = []
    for n in SIZES:
        pr, facts = generated_pr(n)
        budget = prompt_budget(pr, args.cap)
        started = time.perf_counter()
        prompt = build_prompt(pr, facts, [], args.lang, "full", budget=budget)
        seconds = time.perf_counter() - started
        digest = prompt.digest
        named_share = (len(digest.named) + digest.counted) / len(pr.files)
        lines_share = digest.lines_included / max(digest.lines_total, 1)
        anchor = anchor_for(n)
        ratio = f"{prompt.tokens / anchor:.2f}" if anchor else "-"
        print(
            f"{n:>6} {prompt.tokens:>7} {budget:>7} {len(digest.named):>6} {digest.counted:>8}"
            f" {lines_share:>8.0%} {seconds:>8.3f} {anchor or '-':>7} {ratio:>6}"
        )
        if prompt.tokens > budget:
            failures.append(f"{n} files: {prompt.tokens} tokens over the budget {budget}")
        if named_share < 1:
            failures.append(f"{n} files: only {named_share:.0%} of the files named or counted")
        if anchor and prompt.tokens > anchor / 2:
            failures.append(f"{n} files: {prompt.tokens} tokens > 50% of pr-agent's {anchor}")
        if seconds > 1.0:
            failures.append(f"{n} files: prompt built in {seconds:.2f} s (> 1 s)")
    print("all targets met" if not failures else "MISSED:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
