"""Chat shorthand spelled out for the rules: "im from toronto" reads as "I'm from toronto"."""

from __future__ import annotations

import re

from .lexicons import KIN_AS_NAME_EN_ALT, SCHOOL_YEAR_EN

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
    "luv": "love", "appt": "appointment", "wanna": "want to", "gonna": "going to",
    "bf": "boyfriend", "gf": "girlfriend", "hubby": "husband", "kiddo": "kid", "kiddos": "kids",
    # French
    "jsuis": "je suis", "jsui": "je suis", "chui": "je suis", "chuis": "je suis", "jai": "j'ai",
    "anniv": "anniversaire", "aprem": "après-midi", "exo": "exercice",
}  # fmt: skip
# Shortened words that need the word before them to be read: "la semaine pro", "le mois pro".
_AFTER = re.compile(r"\b(?P<head>(?:la\s+)?(?:semaine|fois)|(?:le\s+)?(?:mois|week-?end))\s+pro\b(?!['-])")
# Lower case, or capitalised to open a sentence ("Dont", "Im"): "IM" is an instant message, "U" a
# letter or a grade, "Jai" a name.
_NO_CAPITAL = frozenset({"u", "jai"})
_FORMS = {
    form: full
    for word, full in _WORDS.items()
    for form in {word, word if word in _NO_CAPITAL else word.capitalize()}
}
_SHORTHAND = re.compile(
    r"(?<![\w'@#/.-])(?:"
    + "|".join(sorted(map(re.escape, _FORMS), key=len, reverse=True))
    + r")(?![\w'@/-]|\.\w)"
)


# The emphatic "do" ("I do live in Lyon", "we do have a dog") says the verb louder, nothing more:
# the rules read the verb alone. Not "do" as a verb of its own ("I do yoga", "I do not").
_EMPHATIC_DO = re.compile(
    r"\b(?P<who>[Ii]|[Ww]e)\s+do\s+(?:(?:really|actually|still|also)\s+)?(?=(?:live|love|like|work|have|want|enjoy|play|"
    r"speak|know|miss|need|own|prefer|hate|care|eat|cook|run|remember)\b)"
)


# A name or a relative before an "'s" that may be "is" or "has" ("Tom's", "my son's"), or a parent
# named as chat names one's own ("mom's in hospital").
_WHO_BEFORE_S = (
    r"\b(?P<who>(?:[Mm]y|[Oo]ur)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+|(?<![\w'’])[A-ZÀ-Ý][a-zà-ÿ-]+|"
    rf"(?<![\w'’]){KIN_AS_NAME_EN_ALT})['’]s\s+"
)
# Words that are words of their own, shorthand only where what follows tells: "ill be off tomorrow"
# (not "ill with the flu"), "were getting married" opening a sentence (not "they were late"), "my sis".
_TOLD_BY_WHAT_FOLLOWS = (
    (re.compile(r"(?<![\w'])[Ii]ll(?=\s+(?:be|have|do|send|call|check|try|bring|take|see\s+you)\b)"), "I'll"),
    (re.compile(r"(?:^|(?<=[.!?]\s))[Ww]ere(?=\s+(?:\w+ing|going|gonna|moving|getting|having)\b)"), "we're"),
    (re.compile(r"\b(?P<my>[Mm]y)\s+sis\b"), r"\g<my> sister"),
    (re.compile(r"\b(?P<my>[Mm]y)\s+bro\b"), r"\g<my> brother"),
    # "Tom's allergic to nuts", "my son's sick": the "'s" of "is" after a name or a relative, where
    # only "is" can stand ("Tom's back hurts" and "Sam's home" are Tom's and Sam's).
    (
        re.compile(
            _WHO_BEFORE_S + r"(?=(?:(?:very|severely|deathly|also|still|really|now|so)\s+)?"
            r"(?:allergic|pregnant|moving|expecting|visiting|retiring|vegan|vegetarian|sick|ill|getting\s+(?:married|divorced|engaged)|starting|leaving|"
            r"flying|engaged|divorced|recovering|turning|in\s+(?:the\s+)?hospital|from|coming|going|"
            # "Lisa's back from maternity leave" (not "Tom's back hurts")
            r"back(?=\s+(?:from|on|home|tomorrow|today|next|to\s+work|at\s+work|in\s+the\s+office)\b))\b"
            # "Sofia's leaving drinks", "Tom's going-away party", "Ana's moving day": Sofia's own things
            r"(?!\s+(?:drinks|do|party|parties|day|van|boxes|present|gift|card)\b|-)"
            # "my daughter's in 3rd grade"
            rf"|in\s+{SCHOOL_YEAR_EN})"
        ),
        r"\g<who> is ",
    ),
    # "my mum's been in hospital since Sunday", "Tom's been promoted": before "been", "'s" is "has".
    (
        re.compile(_WHO_BEFORE_S + r"(?=been\b)"),
        r"\g<who> has ",
    ),
)


def spelled_out(text: str) -> str:
    """`text` with chat's shorthand written out ("im" -> "I'm", "u" -> "you", "bday" -> "birthday"),
    and the emphatic "do" left out ("I do live in Lyon" -> "I live in Lyon"), for the rules to
    read; the rest as it is."""
    text = _SHORTHAND.sub(lambda match: _FORMS[match.group(0)], text)
    for pattern, full in _TOLD_BY_WHAT_FOLLOWS:
        text = pattern.sub(full, text)
    text = _EMPHATIC_DO.sub(lambda match: match.group("who") + " ", text)
    return _AFTER.sub(
        lambda m: (
            m.group("head") + (" prochaine" if m.group("head").endswith(("semaine", "fois")) else " prochain")
        ),
        text,
    )
