"""Hand-written answers to prdigest's own prompts: what a careful model would return for four
real-shaped PRs, in English and Chinese, written after reading the prompts prdigest sends.

They are the LLM path's ceiling: every sentence the facts support must reach the report.
A careful model still slips now and then; the slips kept here are the ones grounding must
catch, each with the rule that catches it (`REJECTED`): a PR number quoted from a linked
PR's body (untrusted text, not a fact of this PR), an argued verdict two levels away, an
action that cites no fact.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.feature_repo import FEATURE40_PR, FEATURE_REPO
from tests.e2e.repos import RELAX_PR, RESTORE_PR, SHELL_PR, STORY_REPO

RESTORE = f"{STORY_REPO}#{RESTORE_PR}"
RELAX = f"{STORY_REPO}#{RELAX_PR}"
SCRIPT = f"{STORY_REPO}#{SHELL_PR}"
FEATURE40 = f"{FEATURE_REPO}#{FEATURE40_PR}"


def point(text: str, *facts: str) -> dict[str, Any]:
    return {"text": text, "facts": list(facts)}


AGREE: dict[str, Any] = {"level": "", "reason": "", "facts": []}

EN: dict[str, dict[str, Any]] = {
    RESTORE: {
        "one_line": "Restores blossom quantization from #10 after the revert in #11 "
        "and caps cupy-cuda13x below 14.1.0.",
        "recommendation": "Merge, then bring back an install hint for a missing blossom-kernels and lift the CuPy cap "
        "once a fixed release is verified.",
        "motivation": "#10 added blossom quantization. "
        "#11 reverted it when the runtime image failed with a pytest import error. "
        "The failure stayed without blossom: the image pulls cupy-cuda13x 14.1.0 through lmcache, and that release "
        "imports pytest when torch walks the loaded modules. "
        "This PR restores #10 and caps CuPy below 14.1.0 instead.",
        "implementation": [
            {
                "title": "Cap CuPy",
                "detail": "`requirements/kv_connectors.txt` now asks for `cupy-cuda13x<14.1.0`, which keeps the faulty "
                "14.1.0 out. The cap also blocks every later release until it is lifted.",
            },
            {
                "title": "Restore the registration",
                "detail": "`infer/quant/__init__.py` lists blossom again and `requirements/cuda.txt` adds "
                "`blossom-kernels[cu13]==0.2.0`.",
            },
            {
                "title": "Rewrite the extra for CUDA 12",
                "detail": "`setup.py` and a sed line in `docker/Dockerfile` both rewrite `blossom-kernels[cu13]` to "
                "`blossom-kernels[cu12]`. The two copies can drift apart.",
            },
            {
                "title": "Import on CUDA only",
                "detail": "`infer/quant/blossom.py` imports blossom only when `current_platform.is_cuda()` is true and "
                "drops `assert_blossom_available()`.",
            },
        ],
        "file_roles": [
            {"path": "infer/quant/blossom.py", "role": "The quantization method; its availability check is gone."},
            {"path": "requirements/kv_connectors.txt", "role": "Where the CuPy cap lives."},
            {"path": "setup.py", "role": "Rewrites the blossom extra for CUDA 12 builds."},
            {"path": "docker/Dockerfile", "role": "Repeats the CUDA 12 rewrite with sed."},
        ],
        "excerpt_notes": [
            {
                "path": "infer/quant/blossom.py",
                "note": "The platform guard replaces the try/except import and the install hint.",
            }
        ],
        "discussion_highlights": [],
        "thread_lines": [],
        "risks": [
            {
                "item": 1,
                "text": "Without `assert_blossom_available()`, a machine without blossom-kernels fails later with a "
                "NameError instead of the old install hint.",
            },
            {
                "item": 2,
                "text": "The CUDA 12 rewrite lives in `setup.py` and in the `docker/Dockerfile` sed line; a change to "
                "one must be copied to the other.",
            },
            {"item": 3, "text": "The `<14.1.0` cap also keeps out fixed CuPy releases until someone lifts it."},
        ],
        "impact": {
            "users": "Blossom quantization is back; without the kernels the error is less clear.",
            "system": "The kv connector image installs a CuPy below 14.1.0.",
            "team": "Someone has to lift the CuPy cap once a fixed release ships.",
        },
        "related": [
            {"number": 10, "note": "The feature this PR restores."},
            {"number": 11, "note": "The revert that showed blossom was not the cause."},
            {"number": 13, "note": "Relaxes this PR's cap to exclude only 14.1.0."},
        ],
        "feed_title": "Restoring blossom after a revert that missed the cause",
        "feed_paragraph": "Read in depth: the revert chain shows how a failure was pinned on the wrong PR. "
        "It also trades a clear install error for a NameError.",
        "judgement": {
            "lesson": point(
                "A revert that leaves the failure in place points at another cause: check what the runtime image "
                "pulls in before reverting a feature.",
                "linked:11",
                "related:11",
                "dep:cupy-cuda13x",
            ),
            "watch_next": point(
                "Whether a fixed CuPy release lets the cap become an exclusion, as #13 later did.",
                "dep:cupy-cuda13x",
                "linked:13",
            ),
            "action": point(
                "Restore an install hint for a missing blossom-kernels before the next release.",
                "risk:error-message-regression",
            ),
            "verdict": AGREE,
        },
    },
    RELAX: {
        "one_line": "Turns the cupy-cuda13x cap `<14.1.0` into the exclusion `!=14.1.0`, which admits 14.1.1.",
        "recommendation": "Merge: 14.1.1 fixes the pytest import, and only the faulty release stays out.",
        "motivation": "#12 capped cupy-cuda13x below 14.1.0 because 14.1.0 imports pytest at runtime. "
        "CuPy 14.1.1 fixes that, so the hard upper bound is no longer needed. "
        "The cap was put in place after #10 was reverted.",
        "implementation": [
            {
                "title": "Cap to exclusion",
                "detail": "`requirements/kv_connectors.txt` goes from `cupy-cuda13x<14.1.0` to "
                "`cupy-cuda13x!=14.1.0`. The comment above it now says why only 14.1.0 is excluded.",
            }
        ],
        "file_roles": [{"path": "requirements/kv_connectors.txt", "role": "Holds the relaxed CuPy requirement."}],
        "excerpt_notes": [],
        "discussion_highlights": [],
        "thread_lines": [],
        "risks": [
            {
                "item": 1,
                "text": "The exclusion admits 14.1.1 and every later release, so a future CuPy regression would reach "
                "the kv connector image unchecked.",
            }
        ],
        "impact": {
            "users": "The kv connector image moves from CuPy 14.0.1 to 14.1.1.",
            "system": "Only CuPy 14.1.0 stays excluded.",
            "team": "",
        },
        "related": [{"number": 12, "note": "Set the cap this PR relaxes."}],
        "feed_title": "From a CuPy cap to an exact exclusion",
        "feed_paragraph": "Worth a quick read: a cap turned into an exact exclusion once upstream shipped a fix.",
        "judgement": {
            "lesson": point(
                "Pin out a broken release with != rather than a cap, so fixed releases arrive without another PR.",
                "dep:cupy-cuda13x",
                "linked:12",
            ),
            "watch_next": point(
                "CuPy releases after 14.1.1: nothing holds them back now.", "risk:future-version-regression-risk"
            ),
            "action": point(
                "Keep the kv connector smoke test running on every change to these requirements.",
                "file:requirements/kv_connectors.txt",
            ),
            "verdict": {
                "level": "read-in-depth",
                "reason": "Together with #12 it is a complete dependency-governance example: cap, verify upstream, "
                "relax to an exclusion.",
                "facts": ["dep:cupy-cuda13x", "linked:12", "verdict"],
            },
        },
    },
    SCRIPT: {
        "one_line": "Adds `tools/install_x.sh`, which installs the cu12 or cu13 blossom-kernels wheel from the CUDA "
        "version torch reports.",
        "recommendation": "Merge, but make the script fail clearly when torch has no CUDA version.",
        "motivation": "The install script now picks the cu12 or cu13 wheel from the CUDA version torch reports.",
        "implementation": [
            {
                "title": "Ask torch for its CUDA version",
                "detail": "The script reads `torch.version.cuda` and keeps its major version.",
            },
            {
                "title": "Pick the wheel",
                "detail": "CUDA 12 installs `blossom-kernels[cu12]`; anything else installs `blossom-kernels[cu13]`.",
            },
        ],
        "file_roles": [{"path": "tools/install_x.sh", "role": "Chooses and installs the blossom kernels wheel."}],
        "excerpt_notes": [],
        "discussion_highlights": [],
        "thread_lines": [],
        "risks": [
            {
                "item": 1,
                "text": "On a CPU-only torch `torch.version.cuda` is None, so the script falls through to the cu13 "
                "wheel.",
            }
        ],
        "impact": {"users": "Installs pick the right wheel on CUDA 12 machines.", "system": "", "team": ""},
        "related": [],
        "feed_title": "An install script that trusts torch's CUDA version",
        "feed_paragraph": "Not worth a close read: one new install script. Its platform probe is the one thing to "
        "check.",
        "judgement": {
            "lesson": point(
                "A platform probe needs a branch for the answer it does not expect, here a torch without CUDA.",
                "risk:platform-detection-assumption",
            ),
            "watch_next": point("", ""),
            "action": point(
                "Exit with a message when `torch.version.cuda` is empty instead of installing the cu13 wheel.",
                "risk:platform-detection-assumption",
                "file:tools/install_x.sh",
            ),
            "verdict": {
                "level": "read-in-depth",
                "reason": "Platform detection bugs are subtle.",
                "facts": ["risk:platform-detection-assumption"],
            },
        },
    },
    FEATURE40: {
        "one_line": "Adds a plugin registry in `plugins/registry.py` and 29 built-in plugins that register by name.",
        "recommendation": "Read `plugins/registry.py` closely; the plugins are one pattern repeated.",
        "motivation": "Jobs can now name a plugin, and plugins register by name. "
        "Registering a name twice is an error, so two plugins cannot silently shadow each other. "
        "It builds on the engine skeleton of #1.",
        "implementation": [
            {
                "title": "The registry",
                "detail": "`register()` stores a handler under its name and refuses a second one; `lookup()` raises a "
                "LookupError that lists the known names.",
            },
            {
                "title": "Built-in plugins",
                "detail": "Each of `plugins/builtin/p_00.py` to `plugins/builtin/p_28.py` registers one handler that "
                "normalizes one field of a job.",
            },
            {"title": "Tests", "detail": "Eight test files check that the first eight handlers strip their field."},
        ],
        "file_roles": [
            {"path": "plugins/registry.py", "role": "Registers plugins by name and looks them up."},
            {"path": "plugins/builtin/p_00.py", "role": "The first built-in plugin; the others follow its pattern."},
        ],
        "excerpt_notes": [
            {"path": "plugins/registry.py", "note": "A second registration of a name raises ValueError."},
        ],
        "discussion_highlights": [],
        "thread_lines": [],
        "risks": [
            {
                "item": 1,
                "text": "Forty files and 820 lines, but most of it is the same plugin pattern 29 times.",
            }
        ],
        "impact": {
            "users": "Jobs can name one of 29 built-in plugins.",
            "system": "Plugins are looked up by name when a job runs.",
            "team": "New plugins follow the `plugins/builtin/p_00.py` pattern.",
        },
        "related": [{"number": 1, "note": "The engine skeleton this registry plugs into."}],
        "feed_title": "A plugin registry that refuses duplicate names",
        "feed_paragraph": "Read in depth: the registry is small and its duplicate-name check is the design point.",
        "judgement": {
            "lesson": point(
                "A registry that refuses a second registration of a name turns silent shadowing into an error at "
                "import time.",
                "file:plugins/registry.py",
            ),
            "watch_next": point(
                "Tests cover eight of the 29 plugins; the rest have none yet.", "tests", "risk:large-change"
            ),
            "action": point("Ship it behind a feature flag."),
            "verdict": AGREE,
        },
    },
}

# The group summaries of the 40-file feature, one per file group the narrator asks about.
GROUP_SUMMARIES: dict[str, dict[int, str]] = {
    "en": {
        1: "Built-in plugins p_06 to p_17: each registers one handler with @register and normalizes one job field "
        "in fourteen mechanical replace steps.",
        2: "Built-in plugins p_18 to p_28, the package init, eight tests and the docs page: the same handler "
        "pattern; the tests check that handlers strip their field.",
    },
    "zh": {
        1: "内置插件 p_06 至 p_17：每个用 @register 注册一个处理函数，以十四步机械替换规范化任务的一个字段。",
        2: "内置插件 p_18 至 p_28、包初始化、八个测试和文档页：同样的处理函数模式；"
        "测试检查处理函数会去掉字段两端空白。",
    },
}

ZH: dict[str, dict[str, Any]] = {
    RESTORE: {
        "one_line": "恢复 #10 的 blossom 量化支持，并把 cupy-cuda13x 限制在 14.1.0 以下。",
        "recommendation": "建议合并，随后为缺少 blossom-kernels 的环境恢复安装提示，并在确认修复版本后放宽 CuPy 限制。",
        "motivation": "#11 因运行镜像的 pytest 导入错误回退了 #10。回退之后同样的失败依旧存在：镜像经 lmcache 引入 "
        "cupy-cuda13x 14.1.0，该版本会在 torch 遍历已加载模块时导入 pytest。本 PR 恢复 #10，并改为限制 CuPy 版本。",
        "implementation": [
            {
                "title": "限制 CuPy",
                "detail": "在 `requirements/kv_connectors.txt` 中加入 `cupy-cuda13x<14.1.0`，挡住有问题的 14.1.0。",
            },
            {
                "title": "条件导入",
                "detail": "`infer/quant/blossom.py` 只在 CUDA 平台导入 blossom，"
                "并删除了 `assert_blossom_available()`。",
            },
        ],
        "file_roles": [],
        "excerpt_notes": [],
        "discussion_highlights": [],
        "thread_lines": [],
        "risks": [
            {
                "item": 1,
                "text": "删除 `assert_blossom_available()` 后，缺少依赖的用户会遇到 NameError，而不是清晰的安装提示。",
            }
        ],
        "impact": {
            "users": "blossom 量化重新可用。",
            "system": "kv connector 镜像安装低于 14.1.0 的 CuPy。",
            "team": "需要有人跟进 CuPy 修复版本。",
        },
        "related": [{"number": 11, "note": "这次回退说明 blossom 并非根因。"}],
        "feed_title": "回退未找到根因之后恢复 blossom",
        "feed_paragraph": "值得精读：这条回退链展示了故障如何被错怪到另一个 PR 上。",
        "judgement": {
            "lesson": point(
                "回退之后故障仍在，说明根因在别处：回退功能前先查运行镜像引入了什么。", "linked:11", "dep:cupy-cuda13x"
            ),
            "watch_next": point("CuPy 修复版本发布后，限制能否改为只排除 14.1.0。", "dep:cupy-cuda13x"),
            "action": point("在下个版本前为缺少 blossom-kernels 的环境恢复安装提示。", "risk:error-message-regression"),
            "verdict": AGREE,
        },
    },
    RELAX: {
        "one_line": "把 cupy-cuda13x 的上限 `<14.1.0` 改为精确排除 `!=14.1.0`，从而接纳 14.1.1。",
        "recommendation": "建议合并：14.1.1 修复了 pytest 导入问题，只需继续排除出问题的版本。",
        "motivation": "#12 因 14.1.0 在运行时导入 pytest 而限制了 cupy-cuda13x。"
        "CuPy 14.1.1 修复了根因，不再需要硬性上限。",
        "implementation": [],
        "file_roles": [],
        "excerpt_notes": [],
        "discussion_highlights": [],
        "thread_lines": [],
        "risks": [{"item": 1, "text": "精确排除会接纳 14.1.1 及之后所有版本，将来的回归会直接进入镜像。"}],
        "impact": {"users": "kv connector 镜像的 CuPy 从 14.0.1 升到 14.1.1。", "system": "", "team": ""},
        "related": [{"number": 12, "note": "设置了本 PR 放宽的上限。"}],
        "feed_title": "从版本上限到精确排除",
        "feed_paragraph": "值得快速精读：上游发布修复后，把上限改为精确排除。",
        "judgement": {
            "lesson": point(
                "用 != 排除坏版本而不是设上限，修复版本无需新 PR 即可进入。", "dep:cupy-cuda13x", "linked:12"
            ),
            "watch_next": point(
                "14.1.1 之后的 CuPy 版本：现在没有任何限制挡住它们。", "risk:future-version-regression-risk"
            ),
            "action": point("", ""),
            "verdict": AGREE,
        },
    },
    SCRIPT: {
        "one_line": "新增 `tools/install_x.sh`，按 torch 报告的 CUDA 版本安装 cu12 或 cu13 的 blossom-kernels。",
        "recommendation": "建议合并，但在 torch 没有 CUDA 版本时让脚本明确报错。",
        "motivation": "安装脚本现在根据 torch 报告的 CUDA 版本选择 cu12 或 cu13 的安装包。",
        "implementation": [],
        "file_roles": [],
        "excerpt_notes": [],
        "discussion_highlights": [],
        "thread_lines": [],
        "risks": [{"item": 1, "text": "CPU 版 torch 的 `torch.version.cuda` 为空，脚本会落到 cu13 分支。"}],
        "impact": {"users": "", "system": "", "team": ""},
        "related": [],
        "feed_title": "信任 torch CUDA 版本的安装脚本",
        "feed_paragraph": "不值得精读：只新增一个安装脚本，需要检查的是其中的平台探测。",
        "judgement": {
            "lesson": point(
                "平台探测要为意料之外的结果留分支，这里是没有 CUDA 的 torch。", "risk:platform-detection-assumption"
            ),
            "watch_next": point("", ""),
            "action": point("当 `torch.version.cuda` 为空时退出并给出提示。", "risk:platform-detection-assumption"),
            "verdict": AGREE,
        },
    },
    FEATURE40: {
        "one_line": "在 `plugins/registry.py` 新增插件注册表，并加入 29 个按名称注册的内置插件。",
        "recommendation": "建议细读 `plugins/registry.py`；内置插件都是同一模式的重复。",
        "motivation": "任务现在可以指定插件，插件按名称注册。重复注册同一名称会报错，两个插件不会悄悄互相覆盖。",
        "implementation": [],
        "file_roles": [],
        "excerpt_notes": [],
        "discussion_highlights": [],
        "thread_lines": [],
        "risks": [{"item": 1, "text": "共 40 个文件、820 行，但大部分是同一插件模式重复 29 次。"}],
        "impact": {"users": "任务可以使用 29 个内置插件之一。", "system": "", "team": ""},
        "related": [],
        "feed_title": "拒绝重复名称的插件注册表",
        "feed_paragraph": "值得精读：注册表很小，重复名称检查是其设计要点。",
        "judgement": {
            "lesson": point("拒绝重复注册同一名称，能把悄悄覆盖变成导入时的错误。", "file:plugins/registry.py"),
            "watch_next": point("29 个插件中只有 8 个有测试。", "tests"),
            "action": point("", ""),
            "verdict": AGREE,
        },
    },
}

# What grounding must reject of the answers above, and the rule that does it. A sentence
# with a mention the facts do not back keeps its words but the mention (rule: the neutral
# word replaces it); a judgement point or argued verdict is dropped whole.
REJECTED: dict[tuple[str, str], dict[str, str]] = {
    ("en", RELAX): {
        "The cap was put in place after #10 was reverted.": "unknown-number (#10 is only in a linked PR's body)",
    },
    ("en", SCRIPT): {
        "Platform detection bugs are subtle.": "verdict-too-far (skip → read-in-depth)",
    },
    ("en", FEATURE40): {
        "Ship it behind a feature flag.": "no-known-fact (the action cites no fact)",
    },
}
