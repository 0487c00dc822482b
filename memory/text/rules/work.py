"""Rules for the speaker's job, role and studies in English, and the news of a new or a left job that
the French rules (home_and_work_fr.py) read too."""

from __future__ import annotations

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import is_occupation_en
from ..normalize import regex
from ..rewrite import capitalize_first
from .base import OBJECT, Hit, Item, Rule
from .home_and_work import (
    ANYMORE,
    IDENTITY_CONFIDENCE,
    NOT_A_WORKPLACE,
    NOT_A_WORKPLACE_FR,
    identity_memory,
    place_said,
    verb_and_preposition_en,
)

__all__ = ["STUDIES_EN", "WORK_EN", "left_job", "new_job"]

# "I'm a charge nurse now": when it is so, not part of the job.
_WHEN_AFTER_A_JOB_EN = regex(r"\s+(?:now|these\s+days|currently|again|full[- ]time|part[- ]time)$")


def _occupation_en(hit: Hit) -> Item | None:
    said = _WHEN_AFTER_A_JOB_EN.sub("", hit.phrase)
    if not is_occupation_en(said):
        return None
    job = hit.third(said)
    # "the only designer on the team": the job is a designer's, "only" says how many there are.
    value = job.removeprefix("only ")
    return identity_memory(hit, f"{hit.speaker} is {hit.group('art').lower()} {job}", Predicate.JOB, value)


# How long the speaker has held their job: "I've been a nurse for 12 years", "… since 2019".
# (the time said is a date's placeholder by now, or still words: "for ages").
_HELD_FOR_EN = regex(r"\s+(?:(?:for|since)\s+\S|\x00)")


def _occupation_held_en(hit: Hit) -> Item | None:
    """ "Mickael has been a nurse for 12 years": the job, still theirs, and since when."""
    lasting = _HELD_FOR_EN.search(hit.phrase)
    if lasting is None:
        return None  # "I've been a teacher" may be over
    said = hit.phrase[: lasting.start()]
    if not is_occupation_en(said):
        return None
    content = f"{hit.speaker} has been {hit.group('art').lower()} {hit.third(hit.phrase)}"
    return identity_memory(hit, content, Predicate.JOB, hit.third(said))


# Roles in a group that are not jobs, held as "the" one: "I'm the DM for our campaign", "I'm a mod
# on this server", "I'm the captain of the rowing team".
_ROLES_EN = regex(
    r"^(?:(?:new|current|head|assistant|acting|official|unofficial)\s+)?(?:dm|gm|dungeon\s+master|game\s+master|"
    r"mod|moderator|admin|captain|co-captain|vice\s+captain|secretary|treasurer|host|organi[sz]er|coordinator|"
    r"team\s+lead|tech\s+lead|lead|owner|founder|co-founder|cofounder|maintainer|president|vice\s+president|"
    r"chair|coach|conductor|drummer|guitarist|singer|bassist|goalie|goalkeeper|point\s+of\s+contact|point\s+person|poc|"
    r"(?:on-call|release|incident|qa|design|project|engineering)\s+(?:lead|manager|captain)|"
    r"on-call|scrum\s+master|pm|product\s+owner)\s+(?:of|for|on|in|at)\s+\S"
    # the team's own lead: the group goes without saying ("I'm the tech lead now")
    r"|^(?:(?:new|current|acting)\s+)?(?:team|tech|engineering)\s+lead$"
)


def _role_en(hit: Hit) -> Item | None:
    """ "Mickael is the treasurer of the book club": who they are in a group, not their job."""
    said = _WHEN_AFTER_A_JOB_EN.sub("", hit.phrase)
    if not _ROLES_EN.match(said):
        return None
    return identity_memory(
        hit, f"{hit.speaker} is {hit.group('art').lower()} {hit.third(said)}", Predicate.ABOUT
    )


# What the speaker (or their team) is in charge of at work: "I'm taking over the billing service",
# "I lead the data team", "my team owns the search indexer". Not "I run late", "I manage".
_IN_CHARGE_EN = regex(
    r"\b(?P<who>i(?:'m|\s+am)\s+(?:now\s+|also\s+|currently\s+|still\s+)?(?:taking\s+over|in\s+charge\s+of|responsible\s+for|"
    r"the\s+(?:owner|dri|poc|point\s+of\s+contact)\s+(?:of|for|on)|coaching|"
    # "I'm running a Pathfinder campaign", "I'm running our book club" (not "I'm running a 10k")
    r"running(?=\s+(?:a|an|our|my|the)\s+(?:[\w&'-]+\s+){0,3}?(?:campaign|group|server|club|league|podcast|"
    r"newsletter|channel|guild|meetup|workshop|store|shop|business|company|bakery|cafe|café|restaurant)s?\b))|i\s+(?:now\s+|also\s+|currently\s+)?(?:maintain|lead|manage|own|coach|"
    # "I moderate the art channel" (not "I moderate my drinking")
    r"moderate(?=\s+(?:the|our|a|an|this|my)\s+(?:[\w#-]+\s+){0,3}?(?:channels?|server|subreddit|sub|forum|group|"
    r"community|discord|chat|stream)\b)|"
    # "I run a D&D group", "I run a small bakery" (not "I run a marathon", "I run a script")
    r"run(?!\s+(?:a|an|the|my|our)\s+(?:\d|marathon|half|race|5k|10k|mile|lap|bath|test|check|scan|query|script|errand|fever|"
    r"risk|tab|few|couple|lot|bit|quick|mile)))|"
    r"(?:my|our)\s+team\s+(?:now\s+|also\s+)?(?:owns|maintains|runs|manages|handles|is\s+responsible\s+for|is\s+in\s+charge\s+of))\s+"
    r"(?P<object>(?:the|our|my|all|a|an|two|three|\d+)\s+.+)"
)


def _about_as_said(hit: Hit, said: str) -> Item:
    """`said`, the speaker's own words about themselves, as a note of who they are in the third person."""
    return identity_memory(hit, capitalize_first(hit.third(said, named=False)), Predicate.ABOUT)


def _in_charge_en(hit: Hit) -> Item:
    """ "Priya is taking over the billing service from Tom", "Priya's team owns the search indexer"."""
    said = f"{hit.words('who')} {hit.phrase}"
    return _about_as_said(hit, said)


# What the speaker teaches, a job or a side one: "I teach high school chemistry", "I teach yoga at
# the Y", "I teach at Lincoln High" (not "I teach my kids to swim", "I teach myself").
_TEACHES_EN = regex(
    r"\bi\s+(?:now\s+|also\s+|currently\s+|still\s+)?teach\s+"
    r"(?P<object>(?!(?:my|our|his|her|him|them|their|you|your|myself|it|that|this|people|someone|others)\b).+)"
)


def _teaches_en(hit: Hit) -> Item:
    return identity_memory(hit, f"{hit.speaker} teaches {hit.third(hit.phrase)}", Predicate.ABOUT)


# Whom the speaker reports to at work: "I report to Lisa", "I now report directly to the CTO".
_REPORTS_TO_EN = regex(
    r"\bi\s+(?:now\s+|currently\s+|still\s+)?report\s+(?:directly\s+)?to\s+"
    r"(?P<object>(?!(?:you|it|that|this|work|the\s+police|duty)\b).+)"
)


def _reports_to_en(hit: Hit) -> Item:
    return identity_memory(hit, f"{hit.speaker} reports to {hit.third(hit.phrase)}", Predicate.ABOUT)


def _works_as_en(hit: Hit) -> Item:
    article = hit.group("art").strip().lower()
    job = hit.third(hit.phrase)
    return identity_memory(
        hit, f"{hit.speaker} works as {article + ' ' if article else ''}{job}", Predicate.JOB, job
    )


def new_job(hit: Hit) -> Item | None:
    """ "Mickael works at Stripe" / "Mickael travaille chez Acme", from the news of the job (the
    event rule keeps the news, dated)."""
    phrase = place_said(hit)
    not_a_workplace = NOT_A_WORKPLACE_FR if hit.french else NOT_A_WORKPLACE
    if not phrase or not_a_workplace.match(phrase):
        return None  # "I started working at 9am", "a job for the summer": when, not where
    verb = "travaille" if hit.french else "works"
    preposition = hit.words("prep").lower()
    return identity_memory(
        hit, f"{hit.speaker} {verb} {preposition} {hit.third(phrase)}", Predicate.WORKPLACE
    )


# "I'm at Anthropic now", said where the message speaks of work ("I don't work at Google anymore, I'm
# at Anthropic now"): the new workplace. Alone, "I'm at X now" is as often a shop or a bar.
_AT_NOW_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:now\s+)?(?P<prep>at)\s+(?P<object>(?-i:[A-Z])[\w&.'-]*(?:\s+(?-i:[A-Z])[\w&.'-]*){0,2})"
    r"\s+now\b"
)
_WORK_TALK_EN = regex(
    r"\b(?:work(?:s|ed|ing)?|job|company|employer|quit|left|joined|laid\s+off|hired|offer)\b"
)


def _at_now_en(hit: Hit) -> Item | None:
    """ "Mickael works at Anthropic", when what came before in the sentence spoke of work."""
    if not _WORK_TALK_EN.search(hit.clause.before + " " + hit.clause.text[: hit.match.start()]):
        return None
    return new_job(hit)


# "I'm joining the data team as a senior analyst", "I just joined Stripe as a PM": the job, and the news.
_JOINING_AS_EN = regex(
    r"\bi(?:'m|\s+am)?\s+(?:now\s+|officially\s+|just\s+|recently\s+)?(?P<verb>joining|joined)\s+"
    r"(?P<where>(?:the|a|an|our)\s+[^,;.!?]+?|(?-i:[A-Z])[\w&.-]+(?:\s+(?-i:[A-Z])[\w&.-]+)?)\s+"
    r"as\s+(?P<art>an?|the)\s+(?P<object>[^,;.!?]+)"
)


# When the news is, said after the job: "as a staff engineer in January".
_WHEN_AFTER_THE_JOB = regex(r"\s+(?:(?:in|on|from|starting|next)\s+)?\x00\d+\x00")
# "as a favour", "as a joke": no job.
_NO_JOB_AS = frozenset("favor favour joke test trial treat backup result bonus".split())


def _joining_as_en(hit: Hit) -> list[Item] | None:
    """ "Mickael is a senior analyst" and "Mickael is joining the data team", from "I'm joining the
    data team as a senior analyst" (each as the rules that read it alone would write it); with a
    company named, where they work."""
    job, when = hit.phrase, ""
    dated = _WHEN_AFTER_THE_JOB.search(job)
    if dated is not None:  # "as a staff engineer in January": the job, and when the news is
        job, when = job[: dated.start()], job[dated.start() :]
    if not is_occupation_en(job) or job.lower() in _NO_JOB_AS:
        return None
    art, where = hit.group("art").lower(), hit.third(" ".join(hit.group("where").split()))
    items = [identity_memory(hit, f"{hit.speaker} is {art} {hit.third(job)}", Predicate.JOB, hit.third(job))]
    joined = hit.group("verb").lower() == "joined"
    if joined and where[:1].isupper():  # a company: "I just joined Stripe as a PM" (not yet, when "joining")
        items.append(identity_memory(hit, f"{hit.speaker} works at {where}", Predicate.WORKPLACE))
    if not joined:  # "joined" is news the event rule keeps, dated
        content = f"{hit.speaker} is joining {where}{when}"
        items.append(Item(content, MemoryType.EVENT, hit.confidence(IDENTITY_CONFIDENCE), [where]))
    return items


def _no_longer_a_en(hit: Hit) -> Item | None:
    """ "Mickael is no longer a nurse": said with "no longer", or "not ... anymore"."""
    job = ANYMORE.sub("", hit.phrase)
    if (not hit.group("no_longer") and job == hit.phrase) or not is_occupation_en(job):
        return None  # "I'm not a nurse": never was, or no change said
    said = f"no longer {hit.group('art').lower()} {hit.third(job)}"
    return identity_memory(hit, f"{hit.speaker} is {said}", Predicate.JOB, said)


def _no_longer_en(hit: Hit) -> Item | None:
    """ "Mickael no longer works at Acme": said with "no longer", or "not ... anymore"."""
    phrase = ANYMORE.sub("", hit.phrase)
    if not (hit.group("no_longer") or hit.group("no_longer_ing")) and phrase == hit.phrase:
        return None  # "I don't work at weekends": no change of workplace said
    verb = hit.words("verb").lower() or _BASE_FORM_EN[hit.words("verb_ing").lower()]
    preposition = hit.words("prep").lower()
    predicate = Predicate.WORKPLACE if verb == "work" else Predicate.LOCATION
    said = f"no longer {verb}s {preposition} {hit.third(phrase)}"
    return identity_memory(hit, f"{hit.speaker} {said}", predicate, said)


def left_job(hit: Hit) -> Item | None:
    """ "Mickael no longer works at Acme" / "Mickael ne travaille plus chez Acme", from the news of
    leaving (the event rule keeps the news, dated): the profile's workplace is no longer Acme."""
    phrase = place_said(hit)
    not_a_workplace = NOT_A_WORKPLACE_FR if hit.french else NOT_A_WORKPLACE
    if not phrase or not_a_workplace.match(phrase):
        return None
    # A company is named ("Acme", "the bank"), or follows "chez" or "at": not "with a heavy heart",
    # "de mon poste".
    groups = {name: (value or "").lower() for name, value in hit.match.groupdict().items()}
    prep = groups.get("prep", "")
    named = phrase[:1].isupper() or "chez" in groups.get("from", "") or "chez" in groups.get("fired", "")
    if not named and not (prep in ("at", "chez", "à", "au", "dans") and _COMPANY_ARTICLE.match(phrase)):
        return None
    if hit.french:
        said = f"ne travaille plus {prep if prep in ('à', 'au', 'dans') else 'chez'} {hit.third(phrase)}"
    else:
        said = f"no longer works at {hit.third(phrase)}"
    return identity_memory(hit, f"{hit.speaker} {said}", Predicate.WORKPLACE, said)


def _studies_en(hit: Hit) -> Item | None:
    if _NOT_A_SUBJECT.match(hit.phrase):
        return None  # "I studied for hours", "I study hard": how, not what
    verb = "studied" if hit.words("prep").lower() == "studied" else "studies"
    return identity_memory(hit, f"{hit.speaker} {verb} {hit.third(hit.phrase)}", Predicate.STUDIES)


# Where the speaker is in their studies: "I'm in my second year of med school", "I'm in my final year
# at Leeds" (not "I'm in my second year of marriage").
_YEAR_OF_STUDY_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+)?in\s+my\s+(?P<year>first|second|third|fourth|fifth|sixth|final|"
    r"last|1st|2nd|3rd|4th|5th|6th|freshman|sophomore|junior|senior)\s+year\s+(?P<prep>of|at|in)\s+"
    r"(?P<object>(?:(?:my|an?|the)\s+)?(?:[\w&'.-]+\s+){0,4}?(?:school|college|uni|university|med|law|nursing|"
    r"engineering|studies|degree|phd|ph\.d|masters?|master's|bachelor's|undergrad|grad\s+school|residency|"
    r"apprenticeship|training|(?-i:[A-Z])[\w'&.-]*)\b(?:\s+school)?"
    # and where or in what: "a PhD in chemistry", "med school at McGill" (not "at the moment")
    r"(?:\s+(?:in|at)\s+(?!(?:the|a|an|my|this|that|home|work|least|last|night|first)\b)[\w&'-]+"
    r"(?:\s+(?-i:[A-Z])[\w&'-]+)?)?)"
)


# A degree under way: "I'm doing a PhD in neuroscience at UCL", "I'm finishing my master's".
_DOING_A_DEGREE_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:currently\s+|now\s+|still\s+)?(?P<verb>doing|pursuing|finishing|starting)\s+"
    r"(?P<object>(?:a|an|my)\s+(?:phd|ph\.d\.?|doctorate|master's|masters|msc|mba|bachelor's|bsc|postdoc|"
    r"(?:master's|bachelor's|law|medical|nursing|teaching)\s+degree)\b(?:\s+(?:in|at|on)\s+[^,;.!?]+)?)"
)


def _doing_a_degree_en(hit: Hit) -> Item:
    """ "Mickael is doing a PhD in neuroscience at UCL": said of who they are, as said."""
    said = f"I'm {hit.words('verb').lower()} {' '.join(hit.group('object').split())}"
    return _about_as_said(hit, said)


def _year_of_study_en(hit: Hit) -> Item:
    """ "Mickael is in their second year of med school": said of who they are, as said."""
    said = f"I'm in my {hit.words('year').lower()} year {hit.words('prep').lower()} {hit.group('object')}"
    return _about_as_said(hit, said)


_NO_LONGER_EN = (
    r"\bi(?:\s+(?:(?P<no_longer>no\s+longer)|don't|do\s+not)\s+(?P<verb>work|live)"
    # "I'm not working at Google anymore", "I'm no longer living in Paris"
    r"|(?:'m|\s+am)\s+(?:(?P<no_longer_ing>no\s+longer)|not)\s+(?P<verb_ing>working|living))"
    r"\s+(?P<prep>at|for|in)\s+"
)
_BASE_FORM_EN = {"working": "work", "living": "live"}
# "I'm not a nurse anymore", "I'm no longer a teacher": the job that ended, the newest word on it.
_NO_LONGER_A_EN = r"\bi(?:'m|\s+am)\s+(?:(?P<no_longer>no\s+longer)|not)\s+(?P<art>an?)\s+"
_NEW_JOB_EN = (
    r"\bi\s+(?:just\s+|finally\s+|recently\s+)?(?:got\s+(?:a|the)\s+(?:new\s+)?job|"
    r"started\s+(?:a\s+new\s+job|working))\s+(?P<prep>at|for)\s+"
)
# How or how long one studies, not what: "for my exams", "hard", "all night".
_NOT_A_SUBJECT = regex(
    r"(?:for|hard|late|all|every|with|together|until|till|so|too|really|tonight|today|again|more|less|"
    r"alone|abroad|online|remotely|part-time|full-time|by\s+myself|a\s+lot|a\s+bit|like|at\s+(?:night|home|the\s+library))\b"
)
_COMPANY_ARTICLE = regex(r"(?:the|a|an|une?|la|le|l')\s*\w")
# "I quit my job at Acme", "I got laid off from Acme": where the speaker no longer works.
_LEFT_JOB_EN = (
    r"\bi\s+(?:just\s+|finally\s+|recently\s+)?(?:(?:quit|left)\s+my\s+(?:job|position|role)\s+(?P<prep>at|with)|"
    r"(?:got|was|have\s+been|'ve\s+been)\s+(?:fired|laid\s+off|let\s+go)\s+(?P<from>from|at))\s+"
)
# "I've been at Shopify for six years now": a workplace, said by how long (checked on the words as said,
# since the time is a date's placeholder by now).
_BEEN_AT_EN = r"\bi(?:'ve|\s+have)\s+(?:been\s+working|worked|been)\s+(?P<prep>at|for)\s+(?=(?-i:[A-Z]))"
_YEARS_OR_MONTHS = regex(r"\b(?:years?|months?|decades?|since)\b")


def _been_at_en(hit: Hit) -> Item | None:
    """ "Evan has worked at Shopify for six years now"."""
    if not _YEARS_OR_MONTHS.search(hit.clause.raw):
        return None  # "I've been at Disneyland for 3 days"
    return verb_and_preposition_en("has worked", Predicate.WORKPLACE)(hit)


def _is_studying_en(hit: Hit) -> Item | None:
    """ "Mickael is studying law": the fact drops "is"."""
    if _NOT_A_SUBJECT.match(hit.phrase):
        return None  # "I'm studying for my exams": how, not what
    said = f"studying {hit.third(hit.phrase)}"
    return identity_memory(hit, f"{hit.speaker} is {said}", Predicate.STUDIES, said)


# Job and work wordings, in the order identity.py's English `OneOf` tries them (before home's).
WORK_EN: tuple[Rule, ...] = (
    Rule(
        # "I'm a nurse", "I'm the new designer", "I'm the only designer on a team of 12 engineers"
        regex(
            r"\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+|also\s+|actually\s+)?(?P<art>an?|the(?=\s+(?:new|only)\s))\s+"
            + OBJECT
        ),
        _occupation_en,
        french=False,
        max_words=12,
    ),
    Rule(
        regex(r"\bi(?:'ve|\s+have)\s+been\s+(?P<art>an?)\s+" + OBJECT),
        _occupation_held_en,
        french=False,
        max_words=14,
    ),
    Rule(
        regex(r"\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+|also\s+|still\s+)?(?P<art>an?|the)\s+" + OBJECT),
        _role_en,
        french=False,
        max_words=12,
    ),
    Rule(
        regex(r"\bi\s+(?:currently\s+|now\s+|also\s+)?work(?:ed)?\s+as\s+(?P<art>an?\s+|the\s+)?" + OBJECT),
        _works_as_en,
        french=False,
        max_words=12,
    ),
    Rule(_IN_CHARGE_EN, _in_charge_en, french=False, max_words=14),
    Rule(_TEACHES_EN, _teaches_en, french=False, max_words=12),
    Rule(_REPORTS_TO_EN, _reports_to_en, french=False, max_words=8),
    # "I no longer work at Acme", "I don't live in Paris anymore": the newest word on it.
    Rule(regex(_NO_LONGER_EN + OBJECT), _no_longer_en, french=False),
    Rule(regex(_NO_LONGER_A_EN + OBJECT), _no_longer_a_en, french=False, max_words=8),
    Rule(_JOINING_AS_EN, _joining_as_en, french=False, max_words=8),
    Rule(regex(_LEFT_JOB_EN + OBJECT), left_job, french=False),
    # "I got a new job at Stripe", "I started working at Google last month": where they work now.
    Rule(regex(_NEW_JOB_EN + OBJECT), new_job, french=False),
    Rule(
        regex(r"\bi\s+(?:currently\s+|now\s+|also\s+)?work\s+(?P<prep>at|for|in|on|with|from)\s+" + OBJECT),
        verb_and_preposition_en("works", Predicate.WORKPLACE),
        french=False,
    ),
    Rule(regex(_BEEN_AT_EN + OBJECT), _been_at_en, french=False),
    Rule(_AT_NOW_EN, _at_now_en, french=False, max_words=3),
)

# What and where the speaker studies, tried after home's wordings.
STUDIES_EN: tuple[Rule, ...] = (
    Rule(regex(r"\bi\s+(?:currently\s+)?(?P<prep>study|studied)\s+" + OBJECT), _studies_en, french=False),
    Rule(_YEAR_OF_STUDY_EN, _year_of_study_en, french=False, object_groups=()),
    Rule(_DOING_A_DEGREE_EN, _doing_a_degree_en, french=False, object_groups=()),
    Rule(
        regex(r"\bi(?:'m|\s+am)\s+(?P<prep>studying)\s+" + OBJECT),
        _is_studying_en,
        french=False,
    ),
)
