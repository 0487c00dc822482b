"""Chat's clauses said without their subject ("Lost my job yesterday", "Planning a trip", "dentist at
4 tomorrow") given back the speaker's "I", and a suggestion said as the speaker's."""

from __future__ import annotations

from .lexicons import FINITE_VERBS_EN, KIN_AS_NAME_EN_ALT, RANKS_EN, RELATIVES_EN
from .normalize import regex
from .sentences import strip_filler

__all__ = ["PREGNANCY", "as_suggestion", "mid_sentence", "with_dropped_subject"]

# Chat drops the subject of what happened to the speaker: "Lost my job yesterday", "Just got new
# shoes", "Took a short trip to Rome last week". Such a clause reads as said with "I". Only verbs of
# things that happen to someone, in the past, and not followed by what makes the clause chat
# ("Went well", "Got it", "Started raining", "Took forever").
# "can't make it friday, dentist", "can't make standup tomorrow", "won't be at the sync", "will be late
# tomorrow": the speaker's own absence, told without its "I" (not "won't work", said of a thing).
_ABSENCE_EN = regex(
    r"^(?:(?:can't|cannot|can\s+not|won't|couldn't|will\s+not)\s+(?:make|attend|join|be\s+(?:at|in|there|around|online|"
    r"back|able)\b)|will\s+be\s+(?:late|out|off|away|offline|afk|ooo)\b)"
)
_DROPPED_SUBJECT_EN = regex(
    r"^(?:(?:just|finally|also|recently|actually|already|officially|then|later|eventually)\s+)?"
    r"(?:broke|fractured|sprained|injured|twisted|started|finished|completed|lost|won|passed|failed|moved|grew(?=\s+up\b)|"
    r"bought|sold|paid(?=\s+(?:off|back)\b)|graduated|quit|joined|adopted|met|launched|released|shipped|deployed|merged|fixed|landed|arrived|published|signed|received|visited|"
    r"travel(?:l)?ed|returned|came\s+back|went|flew|found|founded|built|created|wrote|earned|celebrated|"
    rf"booked|rented|renovated|switched|upgraded|rescheduled|postponed|cancell?ed|defended|submitted|changed(?=\s+my\s+mind\b)|"
    rf"took|got|reached|hit(?=\s+(?:a\s+new\s+|level\s+|rank\s+|lvl\s+)?(?:{RANKS_EN})))\s+"
    r"(?!(?:it|that|this|these|those|them|you|your|me|him|her|us|well|great|fine|badly|smoothly|"
    r"wrong|right|ok|okay|lost|track|raining|snowing|pouring|to\s+(?:say|be|rain|snow)|out|there|"
    r"here|so|too|really|pretty|kinda|worse|better|different|differently|old|boring|weird|late|long|"
    r"forever|ages|ready|home|nothing|something|anything|everything|what|why|how|a\s+bit|my\s+day)\b)"
)


# The same with what the speaker is doing: "Planning a trip there next month", "Heading to Lyon
# tomorrow". Not a gerund that is the subject ("Planning is key", "Reading books helps me").
_DROPPED_SUBJECT_DOING_EN = regex(
    # Not two gerunds joined, the subject of what follows ("Playing and singing let me unwind").
    r"^(?:(?:just|still|currently|finally|also|already)\s+)?(?![a-z]+ing\s+(?:and|or|&)\s+[a-z]+ing\b)(?:planning|heading|moving|relocating|flying|driving|leaving|"
    r"closing|celebrating|pairing|joining(?=\s+(?:the|a|an|our)\s)|defending(?:\s+on(?=\s))?|presenting|quitting|interviewing|competing|performing|reading|rereading|re-reading|watching|rewatching|binge-?watching|playing|replaying|"
    r"listening(?=\s+to\s)|"
    # Not "starting today we use Jira": a time said first, then the clause's own subject.
    r"starting(?!\s+(?:today|tomorrow|tonight|now|next\s+\w+|this\s+\w+|on\s+\w+|\w+day|"
    # "starting March 3 I'm on nights"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+\d{1,2}(?:st|nd|rd|th)?)?)[\s,]+(?:we|i|you|they|the|"
    # ... or the team's rule from then: "starting next week, no more meetings on Wednesdays"
    r"all|everyone|everybody|our|my|no|only|every)\b)|visiting|taking|training|preparing|learning|studying|travel(?:l)?ing|finishing|working|turning(?=\s+\d)|"
    r"wrapping|practi[cs]ing|rehearsing|trying(?=\s+to\s)|looking(?=\s+for\s)|living(?=\s+in\s)|going(?=\s+to\s+(?!(?:be|bed|sleep|say|need|have|try|lie)\b)))\s+"
    r"(?!(?:it|that|this|you|your|well|fine|great|on|off|over|out|place|sense|time|forever|ages|forward|ahead|along)\b)"
    # Not a heading: "planning week: 9-13 June in the office" names the week, nobody is planning.
    r"(?![\w-]+:(?!\d))"
)
# "Been coding for 8 years", "been living here since 2019": the speaker's "I've" left out.
_DROPPED_HAVE_BEEN_EN = regex(r"^been\s+(?:\w+ing|married|sober|vegan|vegetarian)\b")
# What is the speaker's, without "my": "birthday is August 3rd", "bday's next week".
_DROPPED_MY_EN = regex(
    r"^(?:birthday|anniversary|due\s+date|last\s+day|first\s+day)(?:\s+(?:here|at\s+work|in\s+the\s+office))?"
    r"(?:'s|\s+is|\s+was)\b"
    # A parent named as chat names one's own: "mom's in hospital", "dad had a stroke" (not "mom, can
    # you ...", which speaks to her).
    rf"|^{KIN_AS_NAME_EN_ALT}(?:'s|\s+(?:is|was|has|had|got|just|"
    r"passed|died|broke|fell|went|started|retired|finally))\b"
)
# What the speaker is, without "I'm": "Not a fan of cilantro", "Big fan of jazz", "Allergic to cats".
_DROPPED_SUBJECT_BEING_EN = regex(
    r"^(?:(?:(?:not\s+)?(?:a\s+)?(?:big\s+|huge\s+|massive\s+)?fan\s+of|(?:also\s+|super\s+|very\s+)?allergic\s+to|"
    r"back\s+from|closing\s+on|"
    # what one is into, as an introduction lists it: "Into bouldering, sourdough and 90s hip hop"
    r"(?:really\s+|big\s+|super\s+|also\s+)?into(?=\s+(?!(?:the|a|an|my|our|your)\b))|"
    # where they live and come from, as an introduction says it: "Based in Toronto, originally from Pune"
    r"based\s+(?:in|out\s+of)|originally\s+from|currently\s+(?:in|living\s+in))\s+"
    r"(?!(?:it|that|this|these|those|them|you|your)\b)"
    # Where the speaker is (not): "On call this week", "Out sick today", "Back from Lisbon",
    # "Closing on the house on Friday" (not "closing on it").
    r"|(?:(?:still|also)\s+)?(?:on\s+call|out\s+sick|home\s+sick|on\s+(?:pto|leave|vacation|holiday|sabbatical)|ooo|wfh|"
    r"heads\s+down)\b)"
)
# "RIP my cat Luna", "rip to my grandpa": a relative's or a pet's death, as chat mourns it (not "RIP my
# sleep schedule").
_RIP_EN = regex(
    rf"^(?:rip|r\.i\.p\.?)\s+(?:to\s+)?(?P<who>(?:my|our)\s+(?:[\w'-]+\s+){{0,2}}?{RELATIVES_EN}\b[\w\s'-]*)"
)
# "I'm pregnant!! due in March": a due date alone, in a message about a pregnancy, is the speaker's.
_DUE_ALONE_EN = regex(r"^due\s+(?:in|on|at|around|next|this|early|mid|late|any\s+day)\b")
# A pregnancy told: what makes a due date said alone a birth's ("I'm pregnant!! due in March").
PREGNANCY = regex(r"\b(?:pregnant|expecting|having\s+a\s+baby|baby\s+(?:is\s+)?on\s+the\s+way|enceinte)\b")
_FINITE_VERB_EN = regex(r"\b(?:" + "|".join(sorted(FINITE_VERBS_EN)) + r")\b")
# The speaker's offer ("Let me book the flight tomorrow", "lemme check"): what they will do. Not
# what they ask of the listener or say to think aloud ("let me know", "let me see", "let me guess").
_OFFER_EN = regex(
    r"^(?:let\s+me|lemme)\s+(?!(?:know|see|guess|say|explain|tell|ask|remind|be|get\s+this|"
    r"introduce|just\s+(?:say|know|see|think))\b)(?=[a-z])"
)
# A suggestion to the others ("Let's do the demo tomorrow", "let us meet on Friday").
_SUGGESTION_EN = regex(r"^(?:let['’]s|lets|let\s+us)\s+(?!(?:see|say|not|be|hope|face\s+it|talk)\b)(?=[a-z])")


def as_suggestion(clause: str) -> str:
    """A clause that suggests something to the others ("Let's do the demo tomorrow") as the speaker's
    suggestion ("I suggested we do the demo tomorrow"); any other clause as it is. Not for the rules
    that read "let's" as a decision ("let's go with Redis")."""
    suggestion = _SUGGESTION_EN.match(clause)
    return "I suggested we " + clause[suggestion.end() :] if suggestion else clause


# A day said first, as a standup post says it: "yesterday: finished the auth refactor", "today -
# pairing with Lea".
_DAY_FIRST_EN = regex(
    r"^(?P<day>yesterday|today|tonight|tomorrow|this\s+morning|last\s+night|this\s+week|last\s+week)\s*[:,-]?\s+(?=[a-z])"
)


# An appointment said alone with its time, as chat says one's own: "dentist at 4 tomorrow", "doctor's
# appointment tomorrow at 9" ("I have the dentist at 4 tomorrow").
_APPOINTMENT_ALONE_EN = regex(
    r"^(?:(?P<the>dentist|doctor|dr|gp|vet|optician|hairdresser|barber)|(?P<a>(?:dentist|doctor|doctor's|dr|gp|vet|"
    r"hair|job)?\s*(?:appointment|appt|interview|exam|checkup|check-up))|(?P<bare>physio|therapy|chemo|dialysis))"
    r"(?=\s+(?:at|on|tomorrow|today|tonight|this|next|\x00))"
)
# "need to send the report by Friday", "have to renew my passport": what the speaker must do (not what
# one says for saying it: "need to say", "have to admit").
_MUST_EN = r"(?:need|have)\s+to\s+(?!(?:say|admit|ask|know|be\s+honest|go\s+to\s+bed)\b)(?=[a-z])"
# "need a crown next month", "need new tyres": what the speaker needs (not "need a break").
_NEED_EN = (
    r"need\s+(?:a|an|my|new|some)\s+"
    r"(?!(?:break|drink|nap|coffee|vacation|holiday|minute|moment|sec|second|hug)\b)"
)
_DROPPED_MUST_EN = regex(rf"^(?:{_MUST_EN}|{_NEED_EN})")
# The same after a comma, once the clause has said what it is about: "my passport expires next spring,
# need to renew before the trip", "just got back from the dentist, need a crown next month".
_DROPPED_MUST_AFTER_A_COMMA_EN = regex(
    rf"(?<=[^\W\d_]),\s+(?=(?:still\s+|also\s+|really\s+|probably\s+)?{_MUST_EN}|{_NEED_EN})"
)
# "Gonna run a half marathon", "wanna learn Japanese", "gonna be AFK this weekend", "gonna be late to
# raid tonight" (being away, late or there are the "be" kept: "gonna be fun" says nothing of the
# speaker).
_DROPPED_PLAN_EN = regex(
    r"^(?:going|want)\s+to\s+(?=[a-z])"
    r"(?!(?:be(?!\s+(?:away|afk|off|out|offline|back|late|there|home)\b)|say|have|need|go\s+to\s+bed)\b)"
)


# Where one lives, told after where one is from: "I'm from Texas but live in Seattle now" (a place
# named: "live in the moment" is advice).
_DROPPED_HOME_EN = regex(r"^(?:now\s+|currently\s+)?live\s+(?:in|near)\s+(?-i:[A-ZÀ-Ý])")
# The clauses that dropped an "I" the speaker's words put back as it is.
_DROPPED_I_EN = (_DROPPED_SUBJECT_EN, _ABSENCE_EN, _DROPPED_MUST_EN, _DROPPED_HOME_EN)


def mid_sentence(text: str) -> str:
    """`text` as it reads after a subject put before it: its first letter in lower case, unless its
    first word is an acronym ("WFH today" -> "I'm WFH today")."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        return text
    return text[:1].lower() + text[1:]


def with_dropped_subject(clause: str, message: str = "") -> str:
    """An English clause that drops its subject ("Lost my job yesterday", "Planning a trip", after
    any filler) with the speaker's "I" put back ("I lost ...", "I'm planning ..."), an offer said
    with "let me" as what it is ("Let me book it" -> "I'll book it"); any other clause as it is.
    `message`, the whole message, tells whose a due date alone is ("due in March")."""
    if clause[:1].isalpha() and not clause.lower().startswith(("you", "if ", "when ", "unless ")):
        clause = _DROPPED_MUST_AFTER_A_COMMA_EN.sub(", I ", clause)
    rest = strip_filler(clause)
    if not rest:
        return clause
    day = _DAY_FIRST_EN.match(rest)
    if day is not None:
        said = rest[day.end() :]
        with_subject = with_dropped_subject(said, message)
        return clause if with_subject == said else f"{day.group('day')} {with_subject}"
    rip = _RIP_EN.match(rest)
    if rip:
        return f"{rip.group('who').rstrip()} passed away"
    if _DUE_ALONE_EN.match(rest) and PREGNANCY.search(message):
        return "I'm " + mid_sentence(rest)
    plan = _DROPPED_PLAN_EN.match(rest)
    if plan:
        # "Gonna run a half marathon" (spelled out "going to run ..."), "wanna learn Japanese"
        return ("I'm going to " if plan.group(0).lower().startswith("going") else "I want to ") + rest[
            plan.end() :
        ]
    appointment = _APPOINTMENT_ALONE_EN.match(rest)
    if appointment:
        article = "the " if appointment.group("the") else "a " if appointment.group("a") else ""
        return f"I have {article}{mid_sentence(rest)}"
    offer = _OFFER_EN.match(rest)
    if offer:
        return "I'll " + rest[offer.end() :]
    if any(pattern.match(rest) for pattern in _DROPPED_I_EN):
        return "I " + mid_sentence(rest)
    if _DROPPED_MY_EN.match(rest):
        return "my " + mid_sentence(rest)
    if _DROPPED_HAVE_BEEN_EN.match(rest):
        return "I've " + mid_sentence(rest)
    if _DROPPED_SUBJECT_DOING_EN.match(rest) and not _FINITE_VERB_EN.search(rest):
        return "I'm " + mid_sentence(rest)
    if _DROPPED_SUBJECT_BEING_EN.match(rest):
        return "I'm " + mid_sentence(rest)
    return clause
