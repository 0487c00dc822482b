"""Understanding chat text for memories: extraction, dates, the third-person rewrite, and word lists.

`extract` turns one chat message into memories, each also a `Fact` (subject, predicate, object);
`read_facts` reads such facts back from a stored memory's text (the model writes memories too).
Modules, one job each: `normalize` (cleanup, language), `sentences` (sentences, clauses, hedges),
`date_patterns` and `dates` (date expressions, and what they mean), `rewrite` (third-person
grammar), `lexicons`, `phrases` (object phrases and names), `subjects`, `facts`, `kind_notes`
(kind memories' text), `rules` (the extraction rules as a table), `extraction` (the entry point),
`addressing` (a name said to its bearer, not of them), `zones` (time zones as chat names them),
`credentials` (secrets a memory must never hold), `shorthand` (chat's shorthand spelled out),
`small_talk` (the words a keyword search of a message leaves out).
"""

from __future__ import annotations

from .addressing import names_in, only_addressed
from .credentials import REDACTED, credential_in, credential_values, without_credentials
from .dates import date_mentions, resolve_relative_dates
from .extraction import Extracted, extract, extract_unguarded, is_forget_request
from .facts import Fact, Predicate, clean_value, read_facts
from .kind_notes import KindNote, read_kind_note
from .rewrite import renamed
from .small_talk import topic_words

__all__ = [
    "REDACTED",
    "Extracted",
    "Fact",
    "KindNote",
    "Predicate",
    "clean_value",
    "credential_in",
    "credential_values",
    "date_mentions",
    "extract",
    "extract_unguarded",
    "is_forget_request",
    "names_in",
    "only_addressed",
    "read_facts",
    "read_kind_note",
    "renamed",
    "resolve_relative_dates",
    "topic_words",
    "without_credentials",
]
