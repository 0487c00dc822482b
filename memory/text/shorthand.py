"""Chat shorthand spelled out for the rules: "im from toronto" reads as "I'm from toronto"."""

from __future__ import annotations

import re

__all__ = ["spelled_out"]

# Words chat types without their apostrophe, or shortened, that mean one thing only. Not "its",
# "ill", "id", "were", "wed", "well", "shed": each is a word of its own too.
_WORDS = {
    "im": "I'm", "ive": "I've", "dont": "don't", "didnt": "didn't", "doesnt": "doesn't", "cant": "can't",
    "isnt": "isn't", "wasnt": "wasn't", "arent": "aren't", "werent": "weren't", "havent": "haven't",
    "hasnt": "hasn't", "wouldnt": "wouldn't", "couldnt": "couldn't", "shouldnt": "shouldn't",
    "thats": "that's", "whats": "what's", "youre": "you're", "theyre": "they're", "u": "you",
    "ur": "your", "bday": "birthday", "b-day": "birthday", "tmrw": "tomorrow", "tmr": "tomorrow",
    "tonite": "tonight", "yrs": "years", "wks": "weeks", "mins": "minutes", "hrs": "hours",
}  # fmt: skip
# Lower case, or capitalised to open a sentence ("Dont", "Im"): "IM" is an instant message, "U" a
# letter or a grade.
_FORMS = {
    form: full
    for word, full in _WORDS.items()
    for form in {word, word.capitalize() if len(word) > 1 else word}
}
_SHORTHAND = re.compile(
    r"(?<![\w'@#/.-])(?:"
    + "|".join(sorted(map(re.escape, _FORMS), key=len, reverse=True))
    + r")(?![\w'@/-]|\.\w)"
)


def spelled_out(text: str) -> str:
    """`text` with chat's shorthand written out ("im" -> "I'm", "u" -> "you", "bday" -> "birthday"),
    for the rules to read; the rest as it is."""
    return _SHORTHAND.sub(lambda match: _FORMS[match.group(0)], text)
