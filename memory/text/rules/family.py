"""Rules for relatives, pets and others named: their names, jobs and who the speaker has ("we have two
kids"); what happens to them is family_news.py's."""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.models import MemoryType

from ..dates import DATE_SLOT, PLACEHOLDER
from ..facts import Predicate
from ..lexicons import (
    FAMILY_WORD,
    KIN_AS_NAME_EN,
    NATIONALITIES,
    NOBODY_EN,
    RELATIVES_EN,
    RELATIVES_FR,
    is_occupation_en,
    is_occupation_fr,
)
from ..normalize import regex
from ..phrases import NAME_CAPTURE, name_from_phrase, noun_phrase, trim_phrase
from ..rewrite import article_fr, capitalize_first, of_fr, possessive_en, third_person
from .base import Hit, Item, OneOf, Rule
from .family_news import (
    NEWS,
    OTHER_CONFIDENCE,
    RELATIVE_CONFIDENCE,
    relative_of,
    tells_of_news_of_someone_named,
)

__all__ = ["FAMILY", "tells_of_someone_named"]


_NAMED_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN})(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+name\s+is|\s+goes\s+by)\s+"
    + NAME_CAPTURE
)
# "my manager is Priya": a capitalised name that ends the clause ("my wife is French" is no name).
_IS_NAMED_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN})\s+is\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+(?:\s+[A-ZÀ-Ý][\w'-]+)?))"
    r"(?=\s*(?:[.,!?;:)]|$)|\s+(?:and|but|so)\s)"
)
# The same said name first: "Priya is my manager", "Léa is my little sister". Kin and roles at work
# only: "Coffee is my best friend" and "Netflix is my therapist" say what a thing is to the speaker.
_NAME_IS_MY_EN = regex(
    r"^\W*(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+(?:\s+[A-ZÀ-Ý][\w'-]+)?))\s+is\s+(?P<poss>my|our)\s+"
    r"(?P<rel>(?:little\s+|big\s+|older\s+|younger\s+|twin\s+|new\s+)?(?:sister|brother|son|daughter|mom|mum|mother|"
    r"dad|father|cousin|aunt|uncle|niece|nephew|grandmother|grandfather|grandma|grandpa|boss|manager|team\s+lead|"
    r"tech\s+lead|mentor|supervisor|colleague|coworker|co-worker|teammate|roommate|cofounder|co-founder|landlord|"
    # a best friend only with since when ("Maya is my best friend since kindergarten"; "Coffee is my
    # best friend" says what coffee is to the speaker)
    r"landlady|(?:best|oldest|childhood)\s+friend(?=\s+(?:since|for|from)\s)))"
    r"(?=\s*(?:[.,!?;:)]|$)|\s+(?:and|but|so)\s|(?<=friend)\s)"
)
_NOT_A_NAME = NATIONALITIES | {"catholic", "christian", "muslim", "jewish", "hindu", "buddhist", "atheist"}
# "my daughter Léa": the name must be capitalised as written, or "my dog loves walks" would name it.
# Names listed together, each capitalised as written: "Mochi and Tofu", "Léo, Ana and Sam".
_NAMES_LISTED = (
    r"(?-i:(?P<names>[A-ZÀ-Ý][\w'-]+(?:(?:\s*,\s*|\s*,?\s+and\s+|\s*&\s*)[A-ZÀ-Ý][\w'-]+){1,5}))\b"
)
# Pets or relatives named together: "my turtles are named Bubbles and Squirt", "our kids are called
# Léo, Ana and Sam".
_NAMED_TOGETHER_EN = regex(
    rf"\b(?:my|our)\s+(?:(?:two|three|four|five|\d)\s+)?(?P<rel>{RELATIVES_EN})s\s*"
    # "... are named A and B", or named after a comma: "our two cats, Mochi and Tofu"
    r"(?:\s(?:are\s+(?:named|called)|names\s+are)\s+|,\s*)" + _NAMES_LISTED
)
# "I just adopted two kittens, Salt and Pepper", "we got two cats named Mochi and Tofu".
_GOT_NAMED_TOGETHER_EN = regex(
    r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:adopted|got|rescued|brought\s+home)\s+"
    rf"(?:two|three|four|\d)\s+(?:[\w'-]+\s+)?(?P<rel>{RELATIVES_EN})s\s*(?:,\s*|\s+(?:named|called)\s+)"
    + _NAMES_LISTED
)
_NAMES_APART = regex(r"\s*,?\s+and\s+|\s*[,&]\s*")
# "we named the puppy Mochi", "I called my new kitten Pixel": the name given is the relative's name.
_GAVE_NAME_EN = regex(
    rf"\b(?:i|we)\s+(?:just\s+|finally\s+|officially\s+)?(?:named|called)\s+(?:the|our|my)\s+(?:new\s+)?"
    rf"(?P<rel>{RELATIVES_EN})\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
# "I adopted a third dog named Pepper", "we got a kitten called Miso": one had, and their name.
_GOT_NAMED_EN = regex(
    r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:adopted|got|rescued|have|brought\s+home)\s+(?:a|an|another)\s+"
    # what the one had is like: "a very loud cat called Miso", "a second rescue dog named Pepper"
    rf"(?:(?:new|second|third|fourth|little|baby|rescue)\s+)?(?:(?-i:[a-z][\w'-]*)\s+){{0,3}}?(?P<rel>{RELATIVES_EN})"
    # what kind, said after a comma: "a new puppy, a golden retriever named Max"
    r"(?:\s*,\s*(?:a|an)\s+(?:(?-i:[a-z][\w'-]*)\s+){0,2}?(?-i:[a-z][\w'-]*))?"
    r"\s+(?:named|called)\s+"
    r"(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
# "j'ai un chat qui s'appelle Moustache", "on a adopté une chienne nommée Lune".
_GOT_NAMED_FR = regex(
    r"\b(?:j'ai|nous\s+avons|on\s+a)\s+(?:adopté\s+|recueilli\s+|eu\s+)?(?P<poss>un|une)\s+"
    rf"(?:(?-i:[a-zà-ÿ][\w'-]*)\s+){{0,2}}?(?P<rel>{RELATIVES_FR})\s+(?:(?-i:[a-zà-ÿ][\w'-]*)\s+)?"
    r"(?:qui\s+s'appelle|nommée?|appelée?)\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
# (not the speaker's own "I'm" after it: "nobody tell my boss I'm playing Zelda")
_APPOSITION_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN}),?\s+(?!I['’])(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
_NAMED_FR = regex(
    rf"\b(?P<poss>mon|ma|mes|notre)\s+(?P<rel>{RELATIVES_FR})\s+(?:s'appelle|se\s+nomme|est\s+appelée?|c'est)\s+"
    + NAME_CAPTURE
)
_APPOSITION_FR = regex(
    rf"\b(?P<poss>mon|ma|mes|notre)\s+(?P<rel>{RELATIVES_FR}),?\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
# What the named relative does, after "my daughter Léa": a verb phrase of at least two words.
_PREDICATE = re.compile(r"^,?\s+(?P<said>(?-i:[a-zà-ÿ])[\w'-]*\s+\S.*)$")
# Nor a new clause's subject: "RIP my cat Luna, she was 17" says her age, not "Luna she was 17".
_NOT_A_PREDICATE = regex(
    r"^(?:and|or|but|who|which|that|is\s+called|et|ou|mais|qui|que|s'appelle|"
    r"he|she|they|it|i|we|you|il|elle|ils|elles|je|on|nous|vous)\b"
)
# "we have two kids" / "nous avons deux enfants": the speaker's family as much as "I have".
_HAVE_EN = regex(
    r"\b(?:i|we)(?:\s+have|\s+have\s+got|'ve\s+got|(?P<got>\s+got))\s+"
    r"(?P<object>(?:a|an|one|two|three|four|five|six|\d{1,2})\s+.+)"
)
_DATED_TAIL = regex(rf"\s*(?:\b(?:on|in|at|during|over|around|since)\s+)?{DATE_SLOT}.*$")
_HAVE_FR = regex(
    r"\b(?:j'ai|nous\s+avons|on\s+a)\s+(?P<object>(?:un|une|deux|trois|quatre|cinq|six|\d{1,2})\s+.+)"
)


def _what_they_do(hit: Hit) -> tuple[str, MemoryType] | None:
    """What follows a named relative ("… Léa starts school in Lyon next September"), rewritten in
    the third person, and its kind: an event when it holds a date. None when nothing is said."""
    said = _PREDICATE.match(hit.clause.text[hit.match.end() :])
    if said is None or _NOT_A_PREDICATE.match(said.group("said")):
        return None
    phrase = trim_phrase(said.group("said"))
    if len(phrase.split()) < 2:
        return None
    kind = MemoryType.EVENT if PLACEHOLDER.search(phrase) else MemoryType.FACT
    return third_person(phrase, hit.speaker, hit.french, named=True), kind


def _named_relative(strict: bool, with_predicate: bool) -> Callable[[Hit], list[Item]]:
    """ "Mickael's sister is called Léa" / "La sœur de Mickael s'appelle Léa", and with an
    apposition what the relative does: "Mickael's daughter Léa starts school ..."."""

    def make(hit: Hit) -> list[Item]:
        name = name_from_phrase(hit.group("name"), strict=strict)
        if not name:
            return []  # the wording matched: no other wording of a named relative is tried
        relative = hit.words("rel")
        confidence = hit.confidence(RELATIVE_CONFIDENCE)
        named = relative_of(hit, relative)
        if hit.french:
            verb = "s'appellent" if hit.group("poss").lower() == "mes" else "s'appelle"
            content = f"{named} {verb} {name}"
        else:
            content = f"{named} is called {name}"
        relation = relative.casefold()
        items = [
            Item(
                content,
                MemoryType.FACT,
                confidence,
                [relative],
                [name],
                predicate=Predicate.RELATIVE,
                object=name,
                relation=relation,
            )
        ]
        said = _what_they_do(hit) if with_predicate else None
        if said is not None:
            text, kind = said
            who = f"{named}, {name}," if hit.french else f"{named} {name}"
            # The relative is the subject here: "Mickael's daughter Léa" EVENT "starts school in ...".
            predicate = Predicate.EVENT if kind is MemoryType.EVENT else Predicate.STATED
            content = f"{who} {text}"
            subject = who.rstrip(",")
            items.append(
                Item(
                    content,
                    kind,
                    confidence,
                    [relative],
                    [name],
                    predicate=predicate,
                    object=text,
                    subject=subject,
                )
            )
        return items

    return make


_SPEAKER_CLAUSE_EN = regex(r"\s+(?:(?:that|who|whom)\s+)?(?:i|we)\s+(?!and\b).*$")


# A clause of its own after "and", with its own subject and verb: "a Roomba and the cat is terrified of
# it" has a Roomba, not a cat; "a dog and the kids love him" a dog.
_NEXT_SUBJECT_CLAUSE_EN = regex(
    r"\s+and\s+(?:the|my|our|his|her|their)\s+[\w-]+\s+(?:is|are|was|were|has|have|had|loves?|hates?|likes?|"
    r"adores?|gets?|got|seems?)\b.*$"
)


def _has(hit: Hit) -> Item | None:
    """ "I have two kids", "j'ai un chat": only when it names relatives or pets."""
    had = hit.phrase if hit.french else _NEXT_SUBJECT_CLAUSE_EN.sub("", hit.phrase)
    relative = FAMILY_WORD.search(had)
    if not relative:
        return None
    verb = "a" if hit.french else "has"
    # "3 nephews I adore": who they are, without what the speaker says of them
    phrase = had if hit.french else _SPEAKER_CLAUSE_EN.sub("", had)
    if hit.match.groupdict().get("got"):  # only the English wording has "got"
        # "I got a puppy last week": the date is the getting's (the event says it), not the having's.
        phrase = _DATED_TAIL.sub("", phrase).strip() or phrase
    content = f"{hit.speaker} {verb} {hit.third(phrase)}"
    confidence = hit.confidence(RELATIVE_CONFIDENCE)
    relation = relative.group(0).casefold()
    return Item(
        content, MemoryType.FACT, confidence, [hit.phrase], predicate=Predicate.HAS, relation=relation
    )


# "I don't have any kids", "we have no pets": the newest word on whom the speaker has.
_HAVE_NONE_EN = regex(
    r"\b(?:i|we)\s+(?:(?:don't|do\s+not)\s+have\s+(?:any\s+)?|have\s+no\s+)"
    r"(?P<who>kids|children|pets|siblings|brothers|sisters)\b(?!\s+(?:yet|with|here|today|tonight|this))"
)


def _has_none(hit: Hit) -> Item:
    """ "Mickael has no kids"."""
    who = hit.group("who").lower()
    confidence = hit.confidence(RELATIVE_CONFIDENCE)
    return Item(
        f"{hit.speaker} has no {who}",
        MemoryType.FACT,
        confidence,
        [who],
        predicate=Predicate.HAS,
        object=f"has no {who}",
        relation=who,
    )


def tells_of_someone_named(text: str) -> bool:
    """Whether a clause may tell what happened to someone it names ("Sam got promoted"): such a
    clause needs no word of the speaker's to be read."""
    return tells_of_news_of_someone_named(text) or _NAMED_JOB_EN.search(text) is not None


def _is_named(hit: Hit) -> list[Item]:
    """ "my manager is Priya": named as with "is called", unless the word says what they are."""
    if hit.group("name").split()[0].casefold() in _NOT_A_NAME:
        return []
    return _named_relative(strict=True, with_predicate=False)(hit)


def _named_together(hit: Hit) -> Item:
    """ "Nate's turtles are called Bubbles and Squirt"."""
    names = [name for name in _NAMES_APART.split(hit.group("names")) if name]
    relatives = f"{hit.words('rel')}s"
    said = ", ".join(names[:-1]) + f" and {names[-1]}"
    return Item(
        f"{relative_of(hit, relatives)} are called {said}",
        MemoryType.FACT,
        hit.confidence(RELATIVE_CONFIDENCE),
        [relatives],
        names,
        predicate=Predicate.RELATIVE,
        object=said,
        relation=relatives.casefold(),
    )


def _named_relatives(named: re.Pattern[str], apposition: re.Pattern[str], french: bool) -> OneOf:
    """ "my sister is called Léa", else "my sister Léa ...": the first wording that matches wins."""
    return OneOf(
        (
            Rule(named, _named_relative(strict=False, with_predicate=False), french=french, object_groups=()),
            *(
                (
                    Rule(
                        _GOT_NAMED_FR,
                        _named_relative(strict=True, with_predicate=False),
                        french=True,
                        object_groups=(),
                    ),
                )
                if french
                else (
                    Rule(_NAMED_TOGETHER_EN, _named_together, french=False, object_groups=()),
                    Rule(_GOT_NAMED_TOGETHER_EN, _named_together, french=False, object_groups=()),
                    Rule(_IS_NAMED_EN, _is_named, french=False, object_groups=()),
                    Rule(_NAME_IS_MY_EN, _is_named, french=False, object_groups=()),
                    Rule(
                        _GAVE_NAME_EN,
                        _named_relative(strict=True, with_predicate=False),
                        french=False,
                        object_groups=(),
                    ),
                    Rule(
                        _GOT_NAMED_EN,
                        _named_relative(strict=True, with_predicate=False),
                        french=False,
                        object_groups=(),
                    ),
                )
            ),
            Rule(
                apposition, _named_relative(strict=True, with_predicate=True), french=french, object_groups=()
            ),
        )
    )


# What a relative does: "My wife is a doctor", "ma sœur est infirmière".
_RELATIVE_JOB_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN})\s+(?P<be>is|was)\s+(?:now\s+|also\s+)?(?P<art>an?)\s+"
    + r"(?P<object>.+)"
)
# What someone named does: "Sarah is a designer", "Sam is our new tech writer at Acme".
_NAMED_JOB_EN = regex(
    r"^\W*(?-i:(?P<name>[A-ZÀ-Ý][a-zà-ÿ'-]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ'-]+)?))\s+is\s+(?:now\s+|also\s+)?"
    r"(?P<art>an?|our|my|the)\s+(?P<new>new\s+)?(?P<object>.+)"
)
_RELATIVE_JOB_FR = regex(
    rf"\b(?P<poss>mon|ma|notre)\s+(?P<rel>{RELATIVES_FR})\s+est\s+(?:maintenant\s+|aussi\s+)?(?P<object>[^\W\d_][\w-]*"
    # and of what: "prof de maths", "prof d'anglais", "infirmière en pédiatrie"
    r"(?:\s+(?:de\s+|d'|en\s+)(?!(?:la|le|les|l')\b)[^\W\d_][\w-]*)?)"
)


def _relative_job(hit: Hit) -> Item | None:
    """ "Mickael's wife is a doctor", "La sœur de Mickael est infirmière": a fact of the speaker's family."""
    relative = " ".join(hit.group("rel").split()).lower()
    if hit.french:
        job = hit.phrase
        if not is_occupation_fr(job.split()[0]):
            return None
        possessive = hit.group("poss").lower()
        content = capitalize_first(
            f"{article_fr(possessive, relative)}{relative} {of_fr(hit.speaker)} est {job}"
        )
    else:
        job = noun_phrase(hit.phrase, 6)
        if not job or not is_occupation_en(job):
            return None
        # "my grandpa was a coal miner in Wales": a job held before, as said
        be = hit.group("be").lower()
        content = f"{possessive_en(hit.speaker)} {relative} {be} {hit.group('art').lower()} {job}"
    return Item(content, MemoryType.FACT, hit.confidence(RELATIVE_CONFIDENCE), [relative, job])


def _named_job(hit: Hit) -> Item | None:
    """ "Sarah is a designer"; "Sarah is the new designer" for "our new designer" (the speaker's
    team, not the speaker's own)."""
    name = hit.group("name")
    if name.split()[0].casefold() in NOBODY_EN or name.casefold() in KIN_AS_NAME_EN:
        return None
    if _NAME_IS_MY_EN.match(hit.clause.text):
        return None  # "Priya is our new manager": the speaker's manager, named as such above
    job = noun_phrase(hit.phrase, 6)
    if not job or not is_occupation_en(job):
        return None
    article = hit.group("art").lower()
    said = f"{article} {job}" if article in ("a", "an") else f"the {hit.words('new').lower()} {job}"
    content = " ".join(f"{name} is {said}".split())
    # Said of someone else: never a line of the speaker's profile.
    return Item(content, MemoryType.FACT, hit.confidence(OTHER_CONFIDENCE), [job], [name], subject=name)


# Who or what the speaker leans on: "My friends, family and mentors are my rocks", "my wife is my
# rock", "my journal's pretty much my rock". A question asks who supports them.
_SUPPORT_EN = regex(
    r"^\W*(?:and\s+|but\s+|honestly,?\s+)?(?P<who>(?:my|our)\s+[^.!?;:]{2,60}?)\s*(?P<be>\s+is|\s+are|'s|\s+has\s+(?:always\s+)?been|"
    r"\s+have\s+(?:always\s+)?been)\s+(?:(?:pretty\s+much|really|always|truly|honestly|totally|definitely)\s+)*(?:my|our)\s+"
    r"(?P<what>rocks?|anchors?|support\s+system|biggest\s+supporters?|biggest\s+fans?|backbone|lifeline)\b"
)


def _support(hit: Hit) -> Item | None:
    """ "Ana's friends and family are Ana's rocks (support for Ana)"."""
    be = hit.words("be").lstrip("'")
    plural = be == "are" or be.startswith("have")
    who = capitalize_first(hit.third(hit.group("who").strip(), named=False))
    what = " ".join(hit.group("what").split())
    content = (
        f"{who} {'are' if plural else 'is'} {possessive_en(hit.speaker)} {what} (support for {hit.speaker})"
    )
    return Item(content, MemoryType.FACT, hit.confidence(RELATIVE_CONFIDENCE), [what])


FAMILY = (
    _named_relatives(_NAMED_EN, _APPOSITION_EN, french=False),
    _named_relatives(_NAMED_FR, _APPOSITION_FR, french=True),
    *NEWS,
    Rule(_RELATIVE_JOB_EN, _relative_job, french=False),
    Rule(_NAMED_JOB_EN, _named_job, french=False),
    Rule(_SUPPORT_EN, _support, french=False, object_groups=()),
    Rule(_RELATIVE_JOB_FR, _relative_job, french=True),
    Rule(_HAVE_EN, _has, french=False, max_words=12, lists=True, check_object=False),
    Rule(_HAVE_NONE_EN, _has_none, french=False, object_groups=()),
    Rule(_HAVE_FR, _has, french=True, max_words=12, lists=True, check_object=False),
)
