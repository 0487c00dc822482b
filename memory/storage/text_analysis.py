"""The word analysis of full-text search on both backends: LanceDB's English analyser, in Python."""

from __future__ import annotations

from functools import lru_cache

from .base import fts_query_terms

# LanceDB's English stop words (NLTK's list), which it removes after stemming: "does" (stem
# "doe") and "only" ("onli") stay searchable there, so they do here.
STOP_WORDS = (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she "
    "her hers herself it its itself they them their theirs themselves what which who whom this that "
    "these those am is are was were be been being have has had having do does did doing a an the and "
    "but if or because as until while of at by for with about against between into through during "
    "before after above below to from up down in out on off over under again further then once here "
    "there when where why how all any both each few more most other some such no nor not only own "
    "same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn "
    "doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn"
).split()


@lru_cache(maxsize=1)
def _analyzer():  # type: ignore[no-untyped-def]
    # The analysis of the LanceDB FTS index: simple tokenizer, 40-character tokens, lower case,
    # English stemming, then its stop words, ASCII folding.
    import tantivy

    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.stemmer("english"))
        .filter(tantivy.Filter.custom_stopword(STOP_WORDS))
        .filter(tantivy.Filter.ascii_fold())
        .build()
    )


def analyze(text: str) -> list[str]:
    """The index terms of `text`, in order, repeats kept: what a row is found and ranked by (its
    length in BM25 is their count, a term's frequency its repeats)."""
    if not text:
        return []
    return [term for term in _analyzer().analyze(text) if term]


def query_terms(text: str) -> list[str]:
    """The distinct index terms of a query, in order (any user string: see `fts_query_terms`)."""
    words = fts_query_terms(text)
    return list(dict.fromkeys(analyze(words))) if words else []
