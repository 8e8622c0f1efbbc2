"""Words of the web UI's own chrome (report text comes from the renderer)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_ZH: Final = {
    "site": "prdigest",
    "repositories": "仓库",
    "search": "搜索",
    "search_placeholder": "搜索标题、正文、评论与报告",
    "feed": "阅读流",
    "filters": "筛选",
    "verdict": "结论",
    "risk": "风险标记",
    "module": "模块",
    "author": "作者",
    "since": "起始日期",
    "until": "截止日期",
    "any": "全部",
    "apply": "应用",
    "reset": "清除",
    "previous": "上一页",
    "next": "下一页",
    "page": "第 {n} 页",
    "read-in-depth": "值得精读",
    "quick-read": "值得快速精读",
    "skip": "不值得精读",
    "not-analyzed": "未分析",
    "full": "完整报告",
    "brief": "简要报告",
    "lineage": "关联脉络",
    "no_lineage": "没有已知的关联 PR。",
    "no_results": "没有结果。",
    "no_items": "没有符合条件的 PR。",
    "prs": "个 PR",
    "analyzed": "已分析",
    "atom": "Atom 订阅",
    "report": "报告",
    "open_on_github": "在 GitHub 上查看",
    "not_found": "未找到",
    "results_for": "搜索结果：",
    "language": "语言",
    "length": "篇幅",
    "json": "JSON",
}

_EN: Final = {
    "site": "prdigest",
    "repositories": "Repositories",
    "search": "Search",
    "search_placeholder": "Search titles, bodies, comments and reports",
    "feed": "Feed",
    "filters": "Filters",
    "verdict": "Verdict",
    "risk": "Risk tag",
    "module": "Module",
    "author": "Author",
    "since": "From",
    "until": "To",
    "any": "Any",
    "apply": "Apply",
    "reset": "Reset",
    "previous": "Previous",
    "next": "Next",
    "page": "Page {n}",
    "read-in-depth": "Read in depth",
    "quick-read": "Quick read",
    "skip": "Skip",
    "not-analyzed": "Not analyzed",
    "full": "Full report",
    "brief": "Brief report",
    "lineage": "Lineage",
    "no_lineage": "No related PRs known.",
    "no_results": "No results.",
    "no_items": "No pull requests match.",
    "prs": "PRs",
    "analyzed": "analyzed",
    "atom": "Atom feed",
    "report": "Report",
    "open_on_github": "Open on GitHub",
    "not_found": "Not found",
    "results_for": "Results for",
    "language": "Language",
    "length": "Length",
    "json": "JSON",
}

UI_WORDS: Final = MappingProxyType({"zh": MappingProxyType(_ZH), "en": MappingProxyType(_EN)})


def words(lang: str) -> MappingProxyType[str, str]:
    return UI_WORDS["en" if lang == "en" else "zh"]
