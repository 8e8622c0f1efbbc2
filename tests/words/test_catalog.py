"""The words catalog: languages found from folders, every language with the same keys, and a
missing key an error that names it."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from prdigest.errors import ConfigError
from prdigest.models.narrative import SECTIONS
from prdigest.words import CATALOG, DEFAULT_LANG, Catalog, Lang, MissingWord, labels, languages, phrases, words


def test_languages_are_the_packaged_folders_default_first() -> None:
    assert languages()[0] == DEFAULT_LANG
    assert set(languages()) == {"zh", "en"}


def test_every_language_has_every_key_of_every_other() -> None:
    assert CATALOG.missing_keys() == {lang: [] for lang in languages()}


def test_a_language_has_all_its_files_and_texts() -> None:
    for lang in languages():
        said = words(lang)
        assert set(said.files) == {"labels", "phrases", "risk_tags", "web", "llm"}, lang
        sections = {f"prompts/section-{name}" for name in SECTIONS}
        assert set(said.texts) == {
            "prompts/system",
            "prompts/user",
            "prompts/retry",
            "prompts/group-system",
            "prompts/group",
            *sections,
        }, lang


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "words"
    packaged = Path(str(resources.files("prdigest.words")))
    for lang in languages():
        shutil.copytree(packaged / lang, root / lang)
    return root


def test_a_missing_key_is_found_and_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    path = root / "en" / "labels.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('none_identified = "none identified"\n', ""), "utf-8")
    catalog = Catalog(root)
    assert catalog.missing_keys()["en"] == ["labels [text] none_identified"]
    with pytest.raises(MissingWord, match=r"en/labels\.toml \[text\] has no key 'none_identified'"):
        catalog.labels("en").text("none_identified")
    assert catalog.labels("zh").text("none_identified") == "未识别"


def test_a_missing_table_and_text_are_named() -> None:
    with pytest.raises(MissingWord, match=r"zh/labels\.toml has no table \[nope\]"):
        labels("zh").tables["nope"]
    with pytest.raises(MissingWord, match="prompts/nope"):
        words("zh").text("prompts/nope")


def test_a_missing_property_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    info = root / "zh" / "language.toml"
    info.write_text(
        "\n".join(line for line in info.read_text("utf-8").splitlines() if not line.startswith("html_lang")),
        encoding="utf-8",
    )
    with pytest.raises(MissingWord, match=r"zh/language\.toml has no key 'html_lang'"):
        Catalog(root).words("zh")


def test_an_unknown_language_names_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="unsupported language 'fr'; choose one of zh, en"):
        labels("fr")


def test_a_folder_without_language_file_is_not_a_language(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "notes").mkdir()
    assert Catalog(root).languages() == (Lang("zh"), Lang("en"))


def test_language_properties_drive_typography() -> None:
    zh, en = phrases("zh"), phrases("en")
    # Chinese puts a space where a filled-in Latin word meets a Chinese character; English capitalizes.
    assert zh.labels.info.space_between_scripts
    assert not en.labels.info.space_between_scripts
    assert en.sentence("a change") == "A change."
    assert zh.sentence("a change") == "a change。"


def test_a_templates_space_goes_between_chinese_on_both_sides() -> None:
    zh = phrases("zh")
    # "修改 {files} 中的…": the spaces are for a Latin value, not for a count in Chinese.
    assert zh.say("gist", "comments", files="`a`") == "修改 `a` 中的注释、文档字符串或格式"
    assert (
        zh.say("gist", "comments", files="`a`、`b` 等 3 个文件")
        == "修改 `a`、`b` 等 3 个文件中的注释、文档字符串或格式"
    )
    assert zh.say("gist", "comments", files="新文件") == "修改新文件中的注释、文档字符串或格式"
    # nor after Chinese punctuation: "（`v1` → `v2`）等 4 项"
    moved = zh.say("gist", "dependency_move", package="`a`", before="`v1`", after="`v2`")
    assert zh.say("gist", "more_files", first=moved, count=3, total=4).startswith("`a`（`v1` → `v2`）等")


def test_the_wheel_carries_the_words() -> None:
    # Package data: hatch ships every file under src/prdigest, so the folders are read through importlib.
    root = resources.files("prdigest.words")
    for lang in languages():
        assert root.joinpath(lang, "language.toml").is_file()
        assert root.joinpath(lang, "prompts", "system.md").is_file()


def test_a_word_file_is_parsed_when_first_asked_for_and_its_errors_named_then(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "en" / "web.toml").write_text("[nav\n", encoding="utf-8")
    (root / "en" / "llm.toml").write_text("[system]\nkey = 3\n", encoding="utf-8")
    catalog = Catalog(root)
    # the labels and phrases read without the broken files ...
    assert catalog.labels("en").text("none_identified") == "none identified"
    assert "web" in catalog.words("en").files
    # ... which say what is wrong when they are used
    with pytest.raises(ConfigError, match=r"en/web\.toml is not valid TOML"):
        catalog.words("en").file("web")
    with pytest.raises(ConfigError, match=r"en/llm\.toml: \[system\] must be a table of texts"):
        catalog.words("en").table("llm", "system")
    assert catalog.words("en").file("labels") is catalog.words("en").file("labels")
