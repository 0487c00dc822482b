"""Rules for favourites: "my favorite movie is Dune", "fav food: ramen", "mon plat préféré est le riz"."""

from __future__ import annotations

from memory.models import MemoryType

from ..facts import Predicate
from ..normalize import regex
from ..phrases import is_object
from ..rewrite import article_fr, capitalize_first, of_fr, possessive_en
from .base import OBJECT, Hit, Item, Rule

__all__ = ["FAVORITES"]

_CONFIDENCE = 0.75

_FAVORITE_EN = regex(
    # "my go-to order is a flat white": the one the speaker always picks
    r"\bmy\s+(?:all[- ]time\s+|absolute\s+|very\s+)?(?P<word>favou?rite|fave|fav|preferred|go-to)\s+"
    r"(?P<cat>[^\W\d_][\w' -]{0,40}?)\s+"
    r"(?P<be>is|are|was|were|has\s+always\s+been|has\s+to\s+be|would\s+be)\s+" + OBJECT
)
# A favourite given as a label, as chat and #introductions posts do: "favorite movie of all time:
# Spirited Away", "fav food: ramen".
_FAVORITE_LABEL_EN = regex(
    r"^\W*(?:my\s+)?(?:all[- ]time\s+)?(?:favou?rite|fave|fav)\s+(?P<cat>[^\W\d_][\w' -]{0,40}?)"
    r"(?:\s+(?:of\s+all\s+time|ever|rn|right\s+now|atm|these\s+days))?\s*(?P<be>:)\s*" + OBJECT
)
# "this" or "that" before what it names in two words or more: the thing is said, whatever is shown.
_SHOWN_AND_NAMED = regex(r"^(?:this|that)\s+(?=[\w'-]+\s+[\w'-]+)")
_FAVORITE_FR = regex(
    r"\b(?P<poss>mon|ma|mes)\s+(?P<cat>[^\W\d_][\w' -]{0,40}?)\s+(?P<adj>préférée?s?|favorie?s?|fétiches?)"
    r"\s*(?:,\s*)?(?P<be>est|sont|c'est|ce\s+sont|reste|:)\s*" + OBJECT
)


def _favorite_en(hit: Hit) -> Item | None:
    category, verb = hit.words("cat"), hit.words("be").lower()
    if verb == ":":
        verb = "are" if category.endswith("s") and not category.endswith("ss") else "is"
    phrase = _SHOWN_AND_NAMED.sub("the ", hit.phrase)  # "this amazing chocolate tart" (in a picture)
    if not is_object(phrase, False):
        return None
    favorite = hit.third(phrase)
    word = "go-to" if (hit.match.groupdict().get("word") or "").lower() == "go-to" else "favorite"
    content = f"{possessive_en(hit.speaker)} {word} {category} {verb} {favorite}"
    return _favorite(hit, content, category, favorite, f"favorite {category}")


def _favorite_fr(hit: Hit) -> Item:
    category, possessive = hit.words("cat"), hit.group("poss").lower()
    verb = "sont" if possessive == "mes" else "est"
    favorite = f"{article_fr(possessive, category)}{category} {hit.group('adj')} {of_fr(hit.speaker)}"
    liked = hit.third(hit.phrase)
    content = capitalize_first(f"{favorite} {verb} {liked}")
    return _favorite(hit, content, category, liked, f"{category} {hit.group('adj')}")


def _favorite(hit: Hit, content: str, category: str, favorite: str, label: str) -> Item:
    confidence = hit.confidence(_CONFIDENCE)
    keys = [category, hit.phrase]
    return Item(
        content,
        MemoryType.PREFERENCE,
        confidence,
        keys,
        predicate=Predicate.FAVORITE,
        object=favorite,
        relation=label,
    )


# In the order the preferences' table tries them.
FAVORITES = (
    Rule(_FAVORITE_EN, _favorite_en, french=False, check_object=False),
    Rule(_FAVORITE_LABEL_EN, _favorite_en, french=False, check_object=False),
    Rule(_FAVORITE_FR, _favorite_fr, french=True),
)
