"""`Lang`: the one type of an output language code (``zh``, ``en``, or any folder added here).

A `Lang` is a language a `Catalog` has words for; which ones exist is found from the data
folders (see `prdigest.words.catalog`), so no code lists them. `DEFAULT_LANG` is the language
every command and page uses when none is asked for.
"""

from __future__ import annotations

from typing import NewType

Lang = NewType("Lang", str)

DEFAULT_LANG = Lang("zh")
