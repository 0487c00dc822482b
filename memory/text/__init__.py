"""Understanding chat text for memories: extraction, dates, the third-person rewrite, and word lists.

Modules, one job each: `normalize` (cleanup, language), `sentences` (sentences, clauses, hedges),
`dates`, `rewrite` (third-person grammar), `lexicons`, `phrases` (object phrases and names),
`subjects`, `rules` (the extraction rules as a table), `extraction` (the entry point).
"""

from __future__ import annotations

from .dates import date_mentions, resolve_relative_dates
from .extraction import Extracted, extract, extract_unguarded
from .rewrite import renamed

__all__ = [
    "Extracted",
    "date_mentions",
    "extract",
    "extract_unguarded",
    "renamed",
    "resolve_relative_dates",
]
