"""Splits cleaned text into sentences and clauses, and tells statements from questions, hedges and hearsay."""

from __future__ import annotations

import re

from .lexicons import (
    FINITE_VERBS_EN,
    MONTH_NUMBERS,
    MONTHS_EN,
    NOBODY_EN,
    WEEKDAYS_EN,
    WEEKDAYS_FR,
)
from .normalize import regex

__all__ = [
    "MAX_CLAUSE_CHARS",
    "SENTENCE_BREAK",
    "co_subject",
    "is_hedged",
    "is_hypothetical",
    "is_polite_request",
    "is_unasserted",
    "opens_relative_clause",
    "split_clauses",
    "split_sentences",
    "strip_filler",
]

MAX_CLAUSE_CHARS = 1_000  # a clause longer than this is read only this far
_MAX_QUESTION_TAIL_WORDS = 6

# What may begin the second day of a range: "Jan 3", "23 Dec", "3 janvier"; and what may end the
# first ("Dec 20", "20 déc").
_MONTH = r"(?i:" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\b"
_MONTH_OR_DAY = r"\d|" + _MONTH
_NOT_AFTER_A_DAY = r"(?<!\d)" + "".join(f"(?<!(?i:{re.escape(month)}))" for month in MONTH_NUMBERS)
# A title's full stop ("Dr. Smith", "Mr. Robot") ends no sentence.
SENTENCE_BREAK = re.compile(
    # Not after a title or an initial: "Dr. Smith", "George R.R. Martin", "J.K. Rowling".
    r"(?<=[.!?…])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\bSt\.)(?<!\b[A-Z]\.)\s+|\n+|;\s*|\s•\s"
    # a spaced dash, but not one between two days ("Dec 20 - Jan 3", "20 - 23 Dec": a range), nor one
    # before a month ("booked the venue for our wedding — June 12, 2027": when it is)
    # (the dash is looked for first: the day's words are looked behind only where one is)
    r"|(?=\s[-–—]\s(?!" + _MONTH + r"))"
    r"(?:" + _NOT_AFTER_A_DAY + r"\s[-–—]\s|\s[-–—]\s(?!" + _MONTH_OR_DAY + r"))"
    # Chat ends a sentence with an emoji as often as with a full stop: "won the hackathon 🏆 our
    # project was ...".
    r"|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\ufe0f?\s+(?=\w)"
)
_BULLET = re.compile(r"^\s*(?:[-*•>]+|\d{1,3}[.)])\s+")
# A time adverb may stand first: "I used to love coffee but now I hate it", "yesterday I fixed the
# tests, today I'm on the export" (two days, two clauses).
_FIRST_PERSON_AHEAD = (
    r"(?=(?:(?:now|nowadays|these\s+days|lately|today|tonight|tomorrow|yesterday|this\s+(?:morning|afternoon|evening)|"
    r"maintenant|aujourd'hui|hier|demain|ce\s+(?:matin|soir))\s+)?"
    r"(?:i|my|we|let's|je|j'|moi|mon|ma|mes|nous|on\s+(?:a|va|part|doit|avait)|c'est\s+décidé|"
    r"remember|don't\s+forget|n'oublie|retiens|souviens)\b)"
)
_CLAUSE_BREAK = regex(
    r"\s*(?:,\s*(?:and|but|so|then|also|because|mais|et|donc|puis|car|sinon|alors)?|"
    r"\b(?:and|but|so|then|because|plus|mais|et|donc|puis|car|parce\s+que|alors|sinon)\b)\s+"
    + _FIRST_PERSON_AHEAD
    # an introduction's next part, its "I'm" left out: "I'm Priya, joining the data team as ...",
    # "Based in Toronto, originally from Pune"
    + r"|\s*,\s+(?=(?:originally\s+from|based\s+(?:in|out\s+of)|joining\s+(?:the|a|an|our))\b)"
    # a move after "but" or a comma, its "I" left out: "I used to live in Toronto but moved to Vancouver" says
    # where the speaker lives now (`with_dropped_subject` gives the "I" back). Only a move: "I applied
    # but got rejected" is one event.
    + r"|(?:\s*,?\s*\bbut|\s*,)\s+(?=(?:then\s+|later\s+|eventually\s+)?(?:just\s+|recently\s+|finally\s+)?"
    r"(?:moved|relocated)\s+(?:back\s+)?(?:to|here|there)\b)"
    # and where one lives now or grew up, after where one is from: "I'm from Hamburg but living in
    # Copenhagen", "I'm from Nigeria but grew up in London"
    r"|\s*,?\s*\bbut\s+(?=(?:now\s+|currently\s+)?(?:living|based|live)\s+in\b|grew\s+up\s+(?:in|near)\b)"
    # the move after where one lived, "before" it (`_MOVE_TOLD_AFTER`)
    r"|(?P<move_after>\s+before\s+)(?=(?:moving|relocating)\s+(?:back\s+)?(?:to|here)\b)"
)
# "I used to live in Madrid before moving to Lyon in 2019" says, as "..., but moved to Lyon in 2019"
# does, where one was and where one went since: a move that came after a home told in the past (not
# "I'll sell the car before moving to Lyon", a move to come), read as "I moved to Lyon in 2019" (and
# "relocating" as "moved": one word for the event rules).
_HOME_TOLD_IN_PAST = regex(r"\b(?:used\s+to\s+live|lived|grew\s+up)\s+(?:in|near|on)\b")
_MOVE_AS_SAID = regex(r"^(?:moving|relocating)\b")
# A diet, and what it leaves in said after "but" (rules/preferences.py reads them as one).
_DIET_BEFORE = regex(r"\b(?:vegetarian|vegan|pescatarian)\W*$")
_BUT_EATS = regex(r"\s*,?\s*but\s+i\s+(?:still\s+)?eat\b")
# A reason said last, after a comma, as someone's thing and no clause of its own: "I can't play this
# weekend, my brother's wedding", "off Friday, my kid's recital".
_REASON_LAST = regex(r"(?:my|our)\s+[\w-]+['’]s\s+[\w-]+(?:\s+[\w-]+)?\W*")
# Chat's filler words, said before what a clause says ("ok so", "btw", "du coup").
# A greeting to the room: "hey team", "morning all", "good morning folks", "salut tout le monde";
# "morning" alone only before a comma or a stop ("morning runs are my thing" keeps it).
_GREETING = (
    r"(?:hey|hi|hello|yo|hiya|howdy|morning|evening|afternoon|gm|good\s+(?:morning|afternoon|evening)|"
    r"salut|bonjour|bonsoir|coucou|hola)\s+(?:all|everyone|everybody|folks|guys|gals|team|y'all|people|peeps|"
    r"gang|fam|friends|fellas|tout\s+le\s+monde|à\s+tous|les\s+amis|les\s+gars|la\s+team|l'équipe)(?![\w'])|"
    r"(?:good\s+)?(?:morning|evening|afternoon)(?=\s*[,!.:])"
)
_FILLERS = (
    rf"{_GREETING}|ok|okay|so|btw|oh|hey|hi|hello|well|also|and|but|anyway|alright|yeah|yep|yup|yes|wow|omg|lol|fyi|psa|"
    # a return to the chat before the news: "back online, landed in Montreal", "made it, home safe"
    r"(?:(?:i'm\s+|ok\s+)?back(?:\s+online)?|made\s+it|home\s+safe)(?=\s*,)|"
    # a game's end and cheers: "gg, finally hit Platinum"
    r"gg|ggs|ggwp|gz|yay|woo+|woohoo|phew|"
    r"heads\s+up|fwiw|(?:friendly\s+|quick\s+|gentle\s+)?reminder(?:\s+that)?|"
    # a post's heading: "quick update:", "recap of my weekend:", "so update on my life:"
    r"(?:(?:quick|small|little|life|weekend|weekly)\s+)?(?:update|recap)(?:\s+(?:of|on)\s+(?:my|the|our)\s+\w+)?(?=\s*:)|"
    # a list's next item: "last thing, Aisha's contract is signed", "one more thing: ..."
    r"(?:(?:one\s+)?last|one\s+more|another)\s+thing(?=\s*[,:])|"
    r"just\s+so\s+(?:you|u)\s+know|please\s+note(?:\s+that)?|"
    # a correction's lead: what follows is what holds ("scratch that, the meeting is on Friday")
    r"(?:actually\s+)?scratch\s+that|correction(?=\s*:)|(?:(?:my|sorry|oops)[\s,]+)?(?:bad|typo)(?=\s*[,:!])|"
    r"alors|bon|du\s+coup|au\s+fait|sinon|et|mais|donc|bref|ah|euh|hmm"
)
# What may open a clause before its subject without being a clause of its own: a filler or a time
# said first ("so", "yesterday", "last week", "hier", "la semaine dernière"), a day named alone
# included ("Friday, I adopted a dog", "Vendredi, j'ai adopté un chien").
_LEAD = (
    rf"(?:{_FILLERS}|then|actually|yesterday|today|tonight|tomorrow|recently|finally|"
    r"(?:going|moving)\s+forward|from\s+now\s+on|effective\s+immediately|"
    r"earlier|lately|(?:last|this|next|on|in|en|depuis|dès|pendant)\s+\w+|(?:a\s+)?(?:few|couple\s+of|\w+)\s+\w+\s+ago|\w+\s+ago|"
    r"the\s+other\s+day|hier|aujourd'hui|demain|ce\s+matin|ce\s+soir|(?:la|le)\s+\w+\s+derni[eè]re?|"
    r"\w+\s+derni[eè]re?|\x00\d+\x00|" + "|".join(WEEKDAYS_EN + WEEKDAYS_FR) + r")"
)
# A clause that is only that ("Yesterday, I adopted a dog"): the time belongs to the next one.
_LEAD_ONLY = regex(rf"\s*(?:{_LEAD},?\s*){{1,3}}")
# Someone said before "and I" as part of one subject ("my wife and I", "Tim and I"), maybe after a
# lead: not a clause of its own.
_CO_SUBJECT = regex(
    rf"\s*(?:{_LEAD},?\s+){{0,2}}"
    # no verb among its words: "my name is Camille and I ..." is two clauses
    r"(?P<who>(?:my|our)\s+(?:(?!(?:is|are|was|were|has|have|had)\b)[\w'-]+\s+){0,2}?(?!(?:is|are|was|were)\b)[\w'-]+"
    r"|(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)\s*"
)
_QUESTION_START = regex(
    r"^(?:(?:so|and|but|ok|okay|hey|et|alors|bon|mais)[\s,]+)*(?:"
    r"(?:do|does|did|don't|doesn't|didn't|can|could|would|will|shall|should|is|are|am|was|were|have|has|"
    r"haven't|isn't|aren't|wasn't|weren't|won't|can't|couldn't|wouldn't|shouldn't|hasn't)\s+"
    r"(?:you|i|we|he|she|they|it|u|there)\b|"
    r"(?:what|what's|who|who's|whom|whose|which|where|where's|why|how|how's)\b|"
    r"est-ce\b|qu'est-ce\b|(?:quel|quelle|quels|quelles|qui|quoi|où|pourquoi|comment|combien)\b|"
    r"(?:as|es|est|avez|sais|savez|connais|connaissez|peux|pouvez|aimes|aimez)-(?:tu|vous|il|elle|je)\b)"
)
# News told as a question: "did you know I play the cello?", "you know I'm vegan, right?" is not.
_TOLD_AS_A_QUESTION = regex(
    r"^(?:did|do)\s+(?:you|u|ya)\s+know\s+(?:that\s+)?(?P<told>(?:i|i'm|i've|we|we're|my|our)\b.*)$"
)
# A question after the last comma of a sentence without "?": a question word and its inversion, or
# the listener asked ("did you ...", "wbu"). Not a relative clause: "..., where I met my wife".
_ASKED_TAIL = regex(
    r"^(?:(?:what|who|where|why|how|when)\s+(?:did|do|does|is|are|was|were|can|could|should|would|will|have|has)\s+"
    r"(?:you|i|we|he|she|they|it|u|ya)\b|(?:do|does|did|can|could|would|will|are|have)\s+(?:you|u|ya)\b|"
    r"(?:what|how)\s+about\s+(?:you|u)\b|wbu\b|hbu\b|what's\s+up\b|how's\s+it\s+going\b)"
)
_POLITE_REQUEST = regex(
    r"^(?:\W*(?:hey|hi|ok|okay|so|please|bot)\W+)*(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?:remember|note|keep\s+in\s+mind|not\s+forget|memori[sz]e|save|remind\s+me)|"
    r"^(?:tu\s+peux|peux-tu|pourrais-tu|tu\s+pourrais|vous\s+pouvez|pouvez-vous|pourriez-vous)\s+"
    r"(?:bien\s+)?(?:retenir|noter|te\s+souvenir|vous\s+souvenir|mémoriser|garder)"
)
# First-person statements after these are not the speaker's facts: "if I were rich", "she said I'm late".
_HYPOTHETICAL = regex(
    r"\b(?:if|unless|suppose|supposing|imagine|imagining|assuming|whether|pretend|hypothetically|"
    r"what\s+if|in\s+theory|si|s'il|imaginons|supposons|admettons|au\s+cas\s+où)\b"
    # "Let's say I live in Tokyo", "disons que j'habite à Lyon": a supposition right before the clause
    # (not the proposal of "let's say Friday, I'll book the room").
    r"|\b(?:let'?s|let\s+us)\s+say(?:\s+that)?\W*$|\b(?:disons|mettons)(?:\s+que|\s+qu')?\W*$"
)
_REPORTED_SPEECH = regex(
    r"\b(?:he|she|they|someone|somebody|il|elle|ils|elles|quelqu'un)\s+"
    r"(?:said|says|say|thinks|think|thought|told|tells|claims|claimed|wrote|dit|disait|pense|croit|a\s+dit)\b|"
    # "people think I'm a doctor", "my mom thinks I'm lazy": what others believe of the speaker (what
    # "the doctor said" is told as fact).
    r"\b(?:(?:people|everyone|everybody|nobody|others|folks|you|les\s+gens|tout\s+le\s+monde)\s+(?:always\s+|still\s+)?"
    r"(?:say|says|said|disent)|(?:people|everyone|everybody|nobody|others|folks|you|my\s+[\w'-]+|the\s+[\w'-]+|"
    r"les\s+gens|tout\s+le\s+monde)\s+(?:always\s+|still\s+)?(?:think|thinks|thought|assume|assumes|assumed|believe|"
    r"believes|believed|expect|expects|expected|pensent|croient))\b|"
    r"\b(?:according\s+to|selon)\b|"
    # "I never said I live in Paris": what follows is denied, not said; "I wouldn't say I'm a gamer",
    # "I don't think I'm allergic", "not that I'm complaining": doubted or denied.
    r"\b(?:never|didn't|did\s+not)\s+(?:say|said|claim|claimed)\b"
    r"|\b(?:wouldn't|would\s+not|won't|can't|cannot|couldn't)\s+(?:really\s+)?(?:say|call\s+myself)\b"
    r"|\b(?:don't|do\s+not)\s+(?:really\s+)?(?:think|believe)\b|\bnot\s+that\b|\bi\s+doubt\b"
    r"|\bnot\s+sure\s+(?:if|that|whether)\b"
)
_HEDGE = regex(
    r"\b(?:maybe|perhaps|probably|i\s+think|i\s+guess|i\s+suppose|not\s+sure|might|peut-être|"
    r"je\s+pense|je\s+crois|sans\s+doute|probablement)\b"
)
# What a relative clause hangs on: a wh-word or an indefinite ("what I like", "something I love"), or
# a noun phrase opened by a determiner ("a job I enjoy"), right before the subject.
_DETERMINER_EN = (
    r"(?:a|an|the|this|that|these|those|my|your|his|her|our|their|every|each|some|any|no|one|all)"
)
_RELATIVE_HEAD_EN = regex(
    r"(?:\b(?:what|whatever|which|something|anything|everything|nothing|someone|stuff)\s+"
    rf"|\b{_DETERMINER_EN}\s+(?:[\w'-]+\s+){{0,2}}?(?P<noun>[\w'-]+)\s+)$"
)
# A noun phrase after a preposition ("at the weekend I ...") or a noun of time ("every day I ...")
# sets the scene of a main clause.
_PLACE_OR_TIME_EN = regex(
    rf"\b(?:at|on|in|during|after|before|for|by|over|since|until|through)\s+{_DETERMINER_EN}\s+"
    r"(?:[\w'-]+\s+){0,2}$"
)
_TIME_NOUN_EN = regex(
    r"days?|mornings?|nights?|evenings?|afternoons?|weeks?|weekends?|months?|years?|summers?|winters?|"
    r"springs?|autumns?|falls?|times?|moment|today|now|seasons?|holidays?|semesters?|terms?|"
    + "|".join(f"{day}s?" for day in WEEKDAYS_EN)
    + "|"
    + "|".join(month.lower() for month in MONTHS_EN)
)
_NOT_A_HEAD_EN = frozenset(
    "and but or so because cause then when if as since though although while than of for with at after "
    "before to from in on about like god gosh goodness".split()
)
# An emoji's shortcode too ("morning all :wave: ...").
# ... and a mention of the whole room: "@here the deploy freeze starts Dec 18", "@channel".
_LEADING_FILLER = regex(
    rf"^(?:(?:(?:{_FILLERS})\b|:[a-z0-9_+-]+:|@(?:here|channel|everyone|all)\b)(?:[\s,!.]|:(?![a-z0-9_+-]+:))*)+"
)


def split_sentences(text: str) -> list[tuple[str, bool]]:
    """Sentences with a flag saying whether they are questions (which are never learned from)."""
    out: list[tuple[str, bool]] = []
    for piece in SENTENCE_BREAK.split(text):
        sentence = _BULLET.sub("", piece).strip()
        if not sentence or not any(ch.isalpha() for ch in sentence[:MAX_CLAUSE_CHARS]):
            continue
        stripped = sentence.rstrip(" )\"'*_~")
        told = _TOLD_AS_A_QUESTION.match(stripped)
        if told:
            # "did you know I play the cello?" tells, it does not ask.
            out.append((told.group("told").rstrip("?!. "), False))
            continue
        if stripped.endswith("?") or stripped.endswith("?!"):
            # "I love pizza, do you?": only the short tail after the last comma is the question.
            head, comma, tail = stripped.rpartition(",")
            if (
                comma
                and len(tail.split()) <= _MAX_QUESTION_TAIL_WORDS
                and not _QUESTION_START.search(head.strip())
            ):
                out.append((head, False))
            out.append((sentence, True))
            continue
        # Chat leaves out the question mark: "back from Lisbon, what did I miss" asks only at the end.
        head, comma, tail = stripped.rpartition(",")
        if comma and len(tail.split()) <= _MAX_QUESTION_TAIL_WORDS and _ASKED_TAIL.match(tail.strip()):
            sentence = head
        out.append((sentence, bool(_QUESTION_START.search(sentence))))
    return out


# A sentence that opens with someone named and goes on about them as "she" or "he": "Sarah is our
# new designer, she starts Monday". The pronoun's clause is read as said of the name.
_NAMED_FIRST_EN = regex(
    r"^\W*(?-i:(?P<name>[A-ZÀ-Ý][a-zà-ÿ'-]+))\s+(?:is|was|has|will|just|joined|started|got)\b"
)
_PRONOUN_BREAK_EN = regex(r"\s*,\s*(?:and\s+)?(?=(?:she|he)\s+(?:starts|joins|is|will)\b)")
_PRONOUN_SUBJECT_EN = regex(r"^(?:she|he)\b")
_CAPITALISED = re.compile(r"\b[A-ZÀ-Ý][a-zà-ÿ'-]+")
# A day or a month opening a sentence names no one either ("March is busy, she starts Monday").
_NOT_SOMEONE = NOBODY_EN | {w.casefold() for w in (*WEEKDAYS_EN, *MONTHS_EN)}


def _named_first(sentence: str) -> str | None:
    """The name a sentence opens with, when it is the only name said up to the first "she"/"he"."""
    named = _NAMED_FIRST_EN.match(sentence)
    if named is None or named.group("name").casefold() in _NOT_SOMEONE:
        return None
    pronoun = _PRONOUN_BREAK_EN.search(sentence, named.end())
    said = sentence[named.end() : pronoun.start() if pronoun else len(sentence)]
    if any(w.casefold() not in _NOT_SOMEONE for w in _CAPITALISED.findall(said)):
        return None  # "Sarah told Tom she ...": whose "she" is open
    return named.group("name")


# News told of someone named as they told it: "Caroline told me she's moving to Sweden" is read as
# "Caroline's moving to Sweden" (the "she" is the one who told it).
_REPORTED_OF_NAME_EN = regex(
    r"^\W*(?-i:(?P<name>[A-ZÀ-Ý][a-zà-ÿ'-]+))\s+(?:just\s+|also\s+)?(?:told\s+(?:me|us)|said|mentioned|texted\s+me|"
    r"let\s+(?:me|us)\s+know)\s+(?:that\s+)?(?P<pronoun>she|he)\b(?=['’]s\b|\s+(?:is|was|has|had|just|got|will|'ll)\b)"
)


def split_clauses(sentence: str) -> list[tuple[str, str]]:
    """(clause, sentence text before it): split before each new first-person subject, and before a
    "she"/"he" that goes on about the one person the sentence opened with (then named: "Sarah
    starts Monday"); news told of someone named is read as said of them."""
    reported = _REPORTED_OF_NAME_EN.match(sentence)
    if reported is not None and reported.group("name").casefold() not in _NOT_SOMEONE:
        rest = sentence[reported.end("pronoun") :]
        if rest[:2] in ("'s", "’s"):  # "she's moving": "is"; "she's got a new job": "has"
            rest = (" has" if rest[2:].lstrip().startswith("got ") else " is") + rest[2:]
        sentence = reported.group("name") + rest
    named = _named_first(sentence)
    if named is not None and (pronoun := _PRONOUN_BREAK_EN.search(sentence)):
        rest = sentence[pronoun.end() :]
        said_of = _PRONOUN_SUBJECT_EN.sub(named, rest, count=1)
        head = sentence[: pronoun.start()]
        return [
            *_first_person_clauses(head),
            *((clause, f"{head}, {before}") for clause, before in _first_person_clauses(said_of)),
        ]
    return _first_person_clauses(sentence)


def _first_person_clauses(sentence: str) -> list[tuple[str, str]]:
    """`split_clauses` but for the pronoun: split before each new first-person subject."""
    parts: list[tuple[str, str]] = []
    start = 0
    moved_from = -1  # where a move told after a past home starts (`_HOME_TOLD_IN_PAST`)
    for match in _CLAUSE_BREAK.finditer(sentence):
        head = sentence[start : match.start()]
        if _LEAD_ONLY.fullmatch(head) or (_CO_SUBJECT.fullmatch(head) and match.group(0).strip() == "and"):
            continue  # "Yesterday, I ...", "Last week my brother and I ...": one clause
        if _REASON_LAST.fullmatch(sentence, match.end()):
            continue  # "I can't play this weekend, my brother's wedding": why, said last
        if _DIET_BEFORE.search(head) and _BUT_EATS.match(sentence, match.start()):
            continue  # "I'm vegetarian but I eat fish": what the diet leaves in, one clause
        if match.group("move_after"):
            if not _HOME_TOLD_IN_PAST.search(head):
                continue
            moved_from = match.end()
        parts.append((sentence[start : match.start()], sentence[:start]))
        start = match.end()
    parts.append((sentence[start:], sentence[:start]))
    return [
        (
            " ".join(_moved_here_as_told(_moved_as_told(clause, moved_from == len(before)), before).split()),
            before,
        )
        for clause, before in parts
        if clause.strip()
    ]


# "I live in Seattle, moved here last year": where "here" is, said in the clause before.
_MOVED_HERE = regex(r"^(?P<move>(?:\w+\s+){0,2}?(?:moved|relocated)\s+(?:back\s+)?)(?:here|there)\b")
_LIVES_IN_A_PLACE = regex(
    r"\b(?:live|lives|living|based)\s+in\s+(?P<place>(?-i:[A-ZÀ-Ý][\w'-]*)(?:\s+(?-i:[A-ZÀ-Ý][\w'-]*)){0,3})"
)


def _moved_here_as_told(clause: str, before: str) -> str:
    """ "moved here last year" after "I live in Seattle": "moved to Seattle last year"."""
    move, home = _MOVED_HERE.match(clause), _LIVES_IN_A_PLACE.search(before)
    if move is None or home is None:
        return clause
    return f"{move.group('move')}to {home.group('place')}{clause[move.end() :]}"


def _moved_as_told(clause: str, after_a_past_home: bool) -> str:
    """ "moving to Lyon in 2019", told after a past home: "I moved to Lyon in 2019"."""
    return _MOVE_AS_SAID.sub("I moved", clause) if after_a_past_home else clause


def co_subject(before: str) -> str | None:
    """Who shares the subject with "I" when `before` is all that came before it in the clause
    ("Last week my brother and " -> "my brother"), else None."""
    head, joined, _ = before.rstrip().rpartition(" ")
    if joined and before.rstrip().endswith(" and") and (found := _CO_SUBJECT.fullmatch(head)):
        return " ".join(found.group("who").split())
    return None


def is_polite_request(sentence: str) -> bool:
    """Whether a question is really a request to remember: "can you remember that ...?"."""
    return bool(_POLITE_REQUEST.search(sentence))


# Words that take back what was just said: "I'm moving to Berlin jk", "jk I'm staying".
_JOKING = r"jk|j/k|just\s+kidding|kidding|je\s+rigole|c'est\s+une\s+blague"
_TAKEN_BACK = regex(rf"(?:\b(?:{_JOKING})|(?<!\w)/s)\W*$")  # "... jk", "I love Mondays /s"
_TAKES_BACK_THE_LAST = regex(rf"^\W*(?:{_JOKING})\b")  # "I'm moving. jk I'm staying"


def kept_sentences(text: str) -> list[tuple[str, bool]]:
    """`split_sentences(text)` without the sentences taken back as they end ("... jk", "... /s") or
    by the next one's opening ("I'm moving to Berlin. jk I'm staying")."""
    sentences = split_sentences(text)
    if not sentences:
        return []
    following = [s for s, _ in sentences[1:]] + [""]
    return [
        (sentence, question)
        for (sentence, question), after in zip(sentences, following, strict=True)
        if not (_TAKEN_BACK.search(sentence) or _TAKES_BACK_THE_LAST.search(after))
    ]


def is_hypothetical(context: str) -> bool:
    """Whether `context` opens a hypothetical ("if", "suppose", "si"...)."""
    return bool(_HYPOTHETICAL.search(context))


def is_unasserted(context: str) -> bool:
    """Whether what follows `context` is not asserted by the speaker: a hypothetical, reported
    speech ("he said"), or the inside of an open quote."""
    # "people think I'm a doctor but I'm a nurse", "idk if I mentioned but I'm colorblind": after
    # "but" the speaker speaks again.
    own = _CONTRAST.split(context)[-1]
    return bool(_HYPOTHETICAL.search(own) or _REPORTED_SPEECH.search(own)) or context.count('"') % 2 == 1


_CONTRAST = regex(r"\b(?:but|though|although|however|mais|sauf\s+que)\b")


def opens_relative_clause(before: str) -> bool:
    """Whether the subject after `before` opens a relative clause ("a job I enjoy every day", "that's
    what I like to hear", "the things I love make it fun"): what follows says which thing is meant,
    not what the speaker likes. A phrase of time before it ("every day I run") is no such noun."""
    found = _RELATIVE_HEAD_EN.search(before)
    if found is None or _PLACE_OR_TIME_EN.search(before):
        return False
    noun = found.group("noun")
    if noun is None:
        return True
    # "the thing is I love it", "a dog and I", "oh my god I love it": no noun the clause hangs on.
    word = noun.lower()
    return not (_TIME_NOUN_EN.fullmatch(word) or word in FINITE_VERBS_EN or word in _NOT_A_HEAD_EN)


def is_hedged(text: str) -> bool:
    """Whether `text` hedges ("maybe", "I think", "peut-être"): what it says is less certain."""
    return bool(_HEDGE.search(text))


def strip_filler(text: str) -> str:
    """`text` without leading chat filler ("ok so", "btw", "du coup")."""
    return _LEADING_FILLER.sub("", text)
