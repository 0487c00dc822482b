"""Trims the phrases rules capture and judges them: can this be what a memory is about, or a name?"""

from __future__ import annotations

import re

from .dates import PLACEHOLDER
from .lexicons import FINITE_VERBS_EN, NATIONALITIES, NOBODY_EN, NOT_A_NAME
from .normalize import regex

__all__ = [
    "NAME_CAPTURE",
    "TRAILING_PUNCTUATION",
    "first_word",
    "is_negated_call",
    "is_object",
    "name_from_phrase",
    "noun_phrase",
    "points_back",
    "trim_phrase",
    "up_to_the_next_clause",
    "without_the_listener",
    "without_what_is_shown",
]

_MAX_PHRASE_CHARS = 300

# Where a captured phrase stops being the statement: an aside, a smiley, "lol", ", thanks".
_CHAT_NOISE = regex(
    r"\s*(?:\(|\s-\s|:\)|:-\)|;\)|\blol\b|\blmao\b|\bhaha\w*|\bmdr\b|\bbtw\b|\btbh\b|\bngl\b|\bimo\b|\bimho\b|\bfyi\b|\bfwiw\b|\bjsyk\b|"
    r"\bunfortunately\b|\bsadly\b|,\s*(?:ugh|honestly)\b|\s+(?:ugh+|rip|fr|frfr)\W*$|\s(?:these\s+days|nowadays)\b|"
    # "... so no pad thai for me": what the speaker goes without because of it ("so I could be
    # closer to family" says why, and stays).
    r"\s+so\s+(?:no|not)\s|,\s*(?:thanks|thank\s+you|merci|"
    r"please|pls|s'il\s+te\s+pla[iî]t|stp|svp|right|you\s+know|tu\s+sais|though|by\s+the\s+way|anyway|sorry|désolée?|"
    r"en\s+fait|haha|lol|non|hein|ok|okay|wish\s+(?:me|us)\s+luck|pray\s+for\s+(?:me|us)|send\s+help|fingers\s+crossed|souhaite(?:z)?-(?:moi|nous)\s+bonne\s+chance)\b"
    # "..., it's so much fun", "..., that was wild": how the speaker feels about it, not what it was.
    r"|,\s*(?:it's|it\s+is|it\s+was|that's|that\s+was|so\s+much\s+fun|so\s+fun|so\s+cool)\s+(?:so\s+|really\s+|been\s+)?"
    r"(?:much\s+)?(?:fun|great|cool|amazing|awesome|wild|hard|tough|crazy|nice|good|exciting|intense|scary)\b)"
)
TRAILING_PUNCTUATION = " \t.,!?;:…\"'*_~-"


def trim_phrase(phrase: str | None) -> str:
    """A captured object phrase, trimmed of chat noise, bounded in length; "" when nothing is left."""
    if not phrase:
        return ""
    noise = _CHAT_NOISE.search(phrase)
    if noise:
        phrase = phrase[: noise.start()]
    phrase = phrase.strip(TRAILING_PUNCTUATION + "()[]")
    if len(phrase) > _MAX_PHRASE_CHARS:
        phrase = phrase[:_MAX_PHRASE_CHARS].rsplit(" ", 1)[0]
    # A phrase must hold a letter, or at least a date.
    if any(ch.isalpha() for ch in PLACEHOLDER.sub("", phrase)) or PLACEHOLDER.search(phrase):
        return phrase
    return ""


def quotes_closed(text: str) -> str:
    """`text` with the closing double quote its trimming took back: 'read "Dune".' trimmed of its
    full stop loses the quote with it."""
    last = text.rfind('"')
    # Only a quote that opens (at the start or after a space): 6'2" is a height.
    opens = last == 0 or (last > 0 and text[last - 1].isspace())
    return text + '"' if text.count('"') % 2 and opens else text


# Objects that point at the conversation rather than at something: "I love it", "I like you".
_NOT_OBJECTS_EN = frozenset(
    "it that this these those them him her you your yours u ya y'all it's that's what which".split()
)
_NOT_OBJECTS_FR = frozenset("ça ca cela ceci ce c' toi vous te t' ton ta tes votre vos que qu' quand".split())


def first_word(phrase: str) -> str:
    """The first word of `phrase`, lowercase ("" when it starts with none)."""
    match = re.match(r"[\w']+", phrase)
    return match.group(0).lower() if match else ""


# First words that make the phrase after a verb no object: a conjunction or a finite verb, left where
# the real object came before the subject ("the things I love makes writing fun", "what I've
# achieved and how far I've come").
_NO_OBJECT_START_EN = FINITE_VERBS_EN | {"and", "or", "but", "so", "because", "than"}


# "this" or "that" before a few words and a name is someone (or a pet) new, not what was just
# shown: "this amazing woman, Jean", "that kitten named Pixel". After a comma only a person is
# named so: "I got this one, Bob" speaks to Bob.
_SOMEONE_NAMED_EN = re.compile(
    r"(?i:this|that)\s+(?:[\w'-]+\s+){0,3}?(?:[\w'-]+\s+(?i:named|called)\s+|(?i:woman|man|guy|girl|boy|"
    r"lady|gentleman|kid|child|person|dude|fellow|friend|neighbou?r|teacher|coach|co-?worker|colleague|"
    r"veteran|student|artist|writer|author|musician|doctor|nurse|volunteer|mentor|stranger)\s*,\s*)[A-Z][\w'-]+"
)


def names_someone(phrase: str) -> bool:
    """Whether `phrase` opens on "this" or "that" and a person named then (see `_SOMEONE_NAMED_EN`)."""
    return bool(_SOMEONE_NAMED_EN.match(phrase.lstrip()))


def is_object(phrase: str, french: bool, not_objects: frozenset[str] = frozenset()) -> bool:
    """Whether `phrase` can be what a memory is about: not empty, not a pronoun pointing at the
    conversation, not about the listener; `not_objects` are more first words a rule refuses."""
    if not phrase:
        return False
    first = first_word(phrase)
    if french:
        return (
            first not in _NOT_OBJECTS_FR and first not in not_objects and not re.match(r"(?i)c'|t'", phrase)
        )
    # "this" points back at what was shown, unless someone is named after it.
    points_back = first in _NOT_OBJECTS_EN and not (first in ("this", "that") and names_someone(phrase))
    if points_back or first in _NO_OBJECT_START_EN or first in not_objects or _HOW_MUCH_EN.match(phrase):
        return False
    return not re.search(r"(?i)\b(?:you|your|yours)\b", phrase)


# How much, with nothing it is said of: "(who) I love more than anything", "I like it so much".
_HOW_MUCH_EN = regex(r"(?:more|less)\s+than\b|(?:so|very|too)\s+much\b|a\s+(?:lot|ton|bunch)\s*$")


# Words said to the listener: a note kept with them would have no one it is about ("remember, it
# leads you ...") or speak of someone else wherever it is read ("I'll send you the report").
# ("rendez-vous" is a meeting, not the listener.)
TO_THE_LISTENER = regex(
    r"\b(?:you|your|yours|yourself|tu|te|toi|ton|ta|tes|(?<!rendez-)vous|votre|vos)\b|\bt'"
)

# Where a clause's next part begins: a comma, a semicolon, a colon, a dash, or a conjunction that
# opens a clause of its own ("... for their next movie while you were winning").
_NEXT_PART = regex(
    r"(?=[,;:—–]|\s-\s|\s(?:while|whilst|when|because|since|but|though|although|so\s+that|pendant\s+que|"
    r"quand|parce\s+que|mais|alors\s+que)\s)"
)
# What the subject did next, in the same part: "took your advice and watched ...".
_AND_THEN = regex(r"\s+(?:and(?:\s+then)?|then|et(?:\s+puis)?|puis)\s+")


def without_what_was_told(said: str, subject: str = "I") -> str:
    """`said` without the relative clause that only tells the listener which thing is meant, where the
    thing itself is the news: "that pottery class I told you about", "the book you recommended",
    "the article you sent me" (`subject`: who "I" is by now, "I" itself or a name)."""
    who = rf"(?:{re.escape(subject)}|i|you)"
    return re.sub(
        rf"\s+(?:that\s+|which\s+)?{who}\s+(?:told|was\s+telling|mentioned|showed|recommended|suggested|sent|"
        rf"gave|lent)(?:\s+(?:to\s+)?(?:you|me|{re.escape(subject)}))?(?:\s+about)?(?=\s*(?:[,.;!?]|$|\x00))",
        "",
        said,
        flags=re.IGNORECASE,
    )


# A word after the subject, not only a date: "you sent Ana <date>" says nothing Ana did.
_SAYS_SOMETHING = re.compile(r"[^\W\d_]")


def without_the_listener(said: str, subject: str) -> str:
    """`said` up to its first part that speaks to the listener ("Ana baked a cake, you should try
    it" -> "Ana baked a cake"), or with what `subject` did next in that part ("Ana took your advice
    and watched Dune" -> "Ana watched Dune"); "" when that part is the statement itself ("Ana will
    call you on Friday", "Last week, Ana went hiking with you": the part cut held its `subject`).
    Whom "you" names is known only in its own conversation, and a note is read in others."""
    # The subject as a word: "Al" is not in "also".
    named = re.compile(rf"(?<!\w){re.escape(subject)}(?!\w)", re.IGNORECASE)
    said = without_what_was_told(said, subject)
    parts = _NEXT_PART.split(said)
    for n, part in enumerate(parts):
        listener = TO_THE_LISTENER.search(part)
        if not listener:
            continue
        kept = "".join(parts[:n])
        first = named.search(part)
        then = _AND_THEN.search(part, listener.end())
        again = named.search(part, listener.end())
        if (
            first
            and first.start() < listener.start()
            and then
            and not TO_THE_LISTENER.search(part, then.end())
        ):
            # "Joanna took your advice and watched Dune on Sunday": what the subject did next, dated.
            return f"{kept}{part[: first.end()]} {part[then.end() :]}".rstrip(" ,;:—–-")
        if (
            again
            and not TO_THE_LISTENER.search(part, again.start())
            and _SAYS_SOMETHING.search(part, again.end())
        ):
            # "John is so excited to tell you John started a yoga class": the news itself.
            return f"{kept}{part[again.start() :]}".rstrip(" ,;:—–-")
        kept = kept.rstrip(" ,;:—–-")
        lost_subject = first is not None and not named.search(kept)
        return "" if lost_subject else kept
    return said


_NOUN_PHRASE_END = regex(r"\s*(?:,|\b(?:and|but|so|because|who|which|that|et|mais|donc|car|qui|parce)\b)")
_LIST_END = regex(r"\s*\b(?:but|so|because|who|which|that|mais|donc|car|qui|parce)\b")


def noun_phrase(phrase: str, max_words: int = 10, lists: bool = False) -> str:
    """`phrase` up to the end of its noun phrase; `lists` keeps "X, Y and Z" together."""
    end = (_LIST_END if lists else _NOUN_PHRASE_END).search(phrase)
    phrase = phrase[: end.start()] if end else phrase
    return " ".join(phrase.split()[:max_words]).strip(TRAILING_PUNCTUATION)


# --------------------------------------------------------------------------- names

# Up to four words, in group `name`, after a title if one is said ("Dr. Smith").
_TITLE_WORDS = ("dr", "mr", "mrs", "ms", "prof")
NAME_CAPTURE = (
    rf"(?P<name>(?:(?:{'|'.join(_TITLE_WORDS)})\.?\s+)?[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){{0,3}})"
)
_NEGATED_CALL = regex(r"\b(?:don't|do\s+not|never|ne)\s+(?:\w+\s+)?$")
# Words after which a capitalised word was no name: "I'm Happy to help", "I'm Glad that ...".
_NOT_AFTER_A_NAME = frozenset(
    """to that about of than enough because with as if certified approved qualified based only fan fans
    user users native speaker side person kind type level right rn atm""".split()
)
_NAME_JOINERS = ("and", "et", "from", "de")
_TITLES = frozenset({*_TITLE_WORDS, *(f"{title}." for title in _TITLE_WORDS)})
_MAX_NAME_WORDS = 4


def is_negated_call(before: str) -> bool:
    """Whether the text before "call me X" negates it: "don't call me X", "ne m'appelle pas"."""
    return bool(_NEGATED_CALL.search(before))


# "I'm INFJ": a personality type, written in capitals.
_PERSONALITY_TYPE = re.compile(r"[IE][NS][TF][JP](?:-[AT])?")


def is_a_persons_name(name: str) -> bool:
    """Whether `name`, capitalised where a clause opens, is a person's name: not "Everyone",
    "If Maria" or "Networking"."""
    return name.split()[0].casefold() not in NOBODY_EN and name_from_phrase(name, strict=True) == name


def name_from_phrase(phrase: str, strict: bool) -> str:
    """Leading capitalised words of `phrase` (the first may be lowercase unless `strict`), or ''."""
    words = phrase.split()
    picked: list[str] = []
    for index, word in enumerate(words[:_MAX_NAME_WORDS]):
        core = word.strip("'-")
        if index == 0 and core.lower() in _TITLES and len(words) > 1 and words[1][:1].isupper():
            picked.append(core)  # "I'm Dr. Smith": the title goes with the name
            continue
        if not core:
            break
        if core.lower() in NOT_A_NAME or core.lower() in _NAME_JOINERS or _PERSONALITY_TYPE.fullmatch(core):
            break
        if not core[0].isupper() and (strict or index > 0):
            break
        picked.append(core)
    if not picked or (len(picked) == 1 and picked[0].lower() in _TITLES):
        return ""
    first = picked[0].lower()
    if any(word.lower().endswith("'s") for word in picked):
        return ""  # "I'm Paul's brother"
    if picked[0].islower() and first.endswith(("ing", "ed", "ly")):
        return ""  # "my name is spelled with two n's", "my name is being misspelled"
    # A capitalised adjective is no name: "I'm Jealous", "I'm Grateful", "I'm Available", "I'm
    # Unsure" (a name of six letters or more is seldom "Un..."; "Una" and "Unai" are short).
    if strict and first.startswith("un") and len(first) >= 6:
        return ""
    if strict and (
        first.endswith(("ing", "ed", "ly", "ous", "ful", "able", "ible", "less")) or first in NATIONALITIES
    ):
        return ""
    rest = words[len(picked) :]
    if strict and rest and rest[0].lower().strip(",.") in _NOT_AFTER_A_NAME:
        return ""
    name = " ".join(picked)
    if name.isupper() and len(name) > 3:
        name = name.title()  # "MICKAEL" shouted is Mickael; "TJ" and "JD" are initials
    return name[:1].upper() + name[1:]


# What points back into the conversation in the heart of a phrase (up to its first comma or "and"):
# "how uncomplicated it is", "having them around", "escaping to that world", "making this lately"
# name nothing once read elsewhere. "helping the community and making it better" still does.
_CORE_END = regex(r"\s*(?:[,;]|\s-\s|-\s|\s(?:and|but|because|so|since|et|mais|parce|car|donc)\b)")
_POINTS_BACK = regex(
    r"\b(?:it|them|these|those|ça|cela|ceci|ces)\b|\b(?:to|in|into|of|about|with|at|à|dans|de)\s+"
    r"(?:that|this|cette|ce|cet)\b|^(?:how|what|comment)\b.*\b(?:it|this|that)\b"
    # "this" or "that" standing alone for what was just shown (not "this summer")
    r"|\b(?:this|that)(?=\s*(?:$|[,.!?]|(?:lately|recently|now|so|too)\b))"
)
# "like this" after what is named: "a little doll like this" (in a picture) is a little doll.
_LIKE_WHAT_IS_SHOWN = regex(r"\s+like\s+(?:this|that|these|those)(?:\s+one)?\b")


def points_back(phrase: str) -> bool:
    """Whether the heart of `phrase` points back into the conversation (see `_POINTS_BACK`)."""
    end = _CORE_END.search(phrase)
    return bool(_POINTS_BACK.search(phrase[: end.start()] if end else phrase))


def without_what_is_shown(phrase: str) -> str:
    """`phrase` without a "like this" that points at a picture ("a little doll like this")."""
    return _LIKE_WHAT_IS_SHOWN.sub("", phrase)


# Where what a rule keeps ends and the speaker's next thought begins: "dairy, so no ice cream for
# me", "a dance studio 'cause I love dancing", "lancer un podcast parce que j'adore parler".
_NEXT_THOUGHT = regex(r"\s*[,;]|\s(?:'cause|cause|because|since|so|but|which|parce|car|mais|donc)\b")


def up_to_the_next_clause(phrase: str) -> str:
    """`phrase` up to where its next clause begins (see `_NEXT_THOUGHT`)."""
    end = _NEXT_THOUGHT.search(phrase)
    return phrase[: end.start()] if end else phrase
