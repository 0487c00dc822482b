"""The words and patterns date expressions in chat are made of, in English and French: "next
Friday", "il y a deux semaines", "last Christmas", "3pm"; `dates` resolves what they find."""

from __future__ import annotations

import re

from .lexicons import MONTH_NUMBERS, MONTHS_EN, MONTHS_FR, NUMBER_WORDS, WEEKDAYS_EN, WEEKDAYS_FR
from .normalize import regex

__all__ = [
    "BIRTH",
    "DATE_PATTERN",
    "DAY_PREPOSITION_BEFORE",
    "FUTURE_EN",
    "HABITUAL",
    "HOLIDAYS",
    "HOLIDAY_LEAD",
    "HOLIDAY_PREPOSITION_BEFORE",
    "MONTH_ALT",
    "MONTH_KEYS_EN_ALT",
    "MONTH_VERBS",
    "MOVED_VERB_EN",
    "ORDINAL",
    "PARTS_OF_DAY",
    "PAST_TENSE",
    "PERIOD_PREPOSITION_BEFORE",
    "RELATIVE_DAYS",
    "SHORT_WEEKDAYS_EN",
    "SINCE_BEFORE",
    "SUBJECT_VERB_EN",
    "TIME_PATTERN",
    "YEAR_AND_MONTH_GAP",
    "may_hold_a_date",
]


# Month words an English "March 3" may start with: French ones would read "mai 3" as a date.
_MONTH_KEYS_EN = [
    key for key in MONTH_NUMBERS if key.isascii() and key not in {"mars", "avril", "mai", "juin"}
]


def _alternation(words: list[str] | dict[str, int]) -> str:
    """A regex alternation of `words`, longest first so that "sept" never shadows "september"."""
    return "|".join(sorted((re.escape(word) for word in words), key=len, reverse=True))


def _right_after(words: str) -> str:
    """Zero-width alternatives, one per word of `words`: right after that word and a space."""
    return "|".join(rf"(?<=\b{word}\s)" for word in words.split())


_WEEKDAY_ALT = _alternation(WEEKDAYS_EN + WEEKDAYS_FR)
_WEEKDAY_EN_ALT = _alternation(WEEKDAYS_EN)
# Chat shortens the days ("last Fri", "next Tues"); alone, "sat", "sun" and "wed" are other words,
# so a short day is a date only after "last", "next", "this" or "coming".
# A weekday someone keeps every week, said before a noun: "our Thursday campaign", "my Sunday brunch
# crew", and one loved or hated ("I love the Monday standup") name no one day ("my Thursday was great"
# does, and "the Friday meeting").
_HELD_WEEKDAY = (
    r"(?!(?:(?<=\bour\s)|(?<=\bmy\s)|(?<=\btheir\s)|(?<=\byour\s)|(?<=\bweekly\s)|(?<=\busual\s)|(?<=\bregular\s)|"
    + _right_after(
        " ".join(
            f"{verb}\\sthe" for verb in "love loves like likes hate hates enjoy enjoys dread dreads".split()
        )
    )
    + ")"
    rf"(?:{_WEEKDAY_EN_ALT})\s+(?!(?:was|is|has|had|went|will|off|night|morning|afternoon|evening|plans?)\b)[a-z])"
    # A weekday counted in each month is no one day either: "the first Tuesday of every month", "the
    # last Friday of the month", "le premier mardi du mois".
    + "".join(
        rf"(?<!\b{word}\s)"
        for word in "first second third fourth fifth 1st 2nd 3rd 4th 5th premier deuxième troisième".split()
    )
    # "every other Wednesday": every second week's
    + r"(?<!\bevery\sother\s)(?<!\bevery\sothers\s)"
    + rf"(?!(?:{_WEEKDAY_ALT})s?\s+(?:of\s+(?:every|each|the)\s+month|du\s+mois|de\s+chaque\s+mois)\b)"
    # "Saturday mornings", "Friday nights": every week's.
    + rf"(?!(?:{_WEEKDAY_EN_ALT})\s+(?:mornings|afternoons|evenings|nights)\b)"
    # "les réunions du lundi (matin)": every Monday's, as French says it (not "du mardi au jeudi", a
    # stretch of days, nor "de lundi", which is one)
    + rf"(?!(?<=\bdu\s)(?:{_alternation(WEEKDAYS_FR)})\b(?!\s+au\b))"
)
SHORT_WEEKDAYS_EN = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
    "sat": 5, "sun": 6,
}  # fmt: skip
_MONTH_ALT = _alternation(MONTH_NUMBERS)
MONTH_ALT = _MONTH_ALT  # any month's word, English or French, long or short
MONTH_KEYS_EN_ALT = _alternation(_MONTH_KEYS_EN)  # the month words an English "March 3" starts with
RELATIVE_DAYS = {
    "the day after tomorrow": 2, "après-demain": 2, "après demain": 2, "apres-demain": 2,
    "apres demain": 2, "the day before yesterday": -2, "avant-hier": -2, "avant hier": -2,
    "tomorrow": 1, "tmrw": 1, "tmr": 1, "demain": 1, "today": 0, "tonight": 0, "this morning": 0,
    "this afternoon": 0, "this evening": 0, "aujourd'hui": 0, "ce soir": 0, "ce matin": 0,
    "cet après-midi": 0, "cet apres-midi": 0, "yesterday": -1, "hier": -1,
}  # fmt: skip
RELATIVE_DAYS.update({"last night": -1, "hier soir": -1, "the night before last": -2})  # fmt: skip
# Words of those keys that are never the one a date needs ("this" of "this morning").
_FILLER = frozenset({"the", "day", "after", "before", "this", "ce", "cet", "apres", "après", "avant", "hui"})
# Work chat's end of today: "send it by EOD", "due COB". Not when a day follows, whose end it is
# ("due EOD Friday", read by the deadline rules).
_END_OF_TODAY = ("eod", "cob")
RELATIVE_DAYS.update(dict.fromkeys(_END_OF_TODAY, 0))
_RELATIVE_DAY_ALT = "|".join(
    sorted(
        (
            re.escape(key).replace(r"\ ", r"\s+")
            + (
                rf"(?!\s+(?:on\s+)?(?:{_WEEKDAY_ALT}|tomorrow|today|tonight|the\s+\d|\d|next|this))"
                if key in _END_OF_TODAY
                else ""
            )
            for key in RELATIVE_DAYS
        ),
        key=len,
        reverse=True,
    )
)
_FULL_MONTH_ALT = _alternation(
    [month.lower() for month in MONTHS_EN] + MONTHS_FR + ["fevrier", "aout", "decembre"]
)
# A month shortened as chat shortens it ("in sept", "next oct"), only after an English word that
# places it: alone, "sept" is French for seven and "mar" Tuesday's short name.
_SHORT_MONTH_PLACED = (
    f"(?:{_right_after('in next last this since until early late')}|(?<=\\bmid-))"
    r"(?:sept|sep|oct|nov|dec|jan|feb|apr|jun|jul|aug)\b"
)
_FULL_MONTH_ALT = f"(?:{_FULL_MONTH_ALT}|{_SHORT_MONTH_PLACED})"
_QUANTITY = (
    rf"\d{{1,3}}|{_alternation(NUMBER_WORDS)}|a\s+couple(?:\s+of)?|couple\s+of|a\s+few|several|quelques"
)
# How near a said duration is: "for about", "for over", "depuis plus de", "depuis presque".
_LASTING_ABOUT = (
    r"about|around|roughly|approximately|almost|nearly|close\s+to|just\s+over|over|more\s+than|just\s+under|"
    r"under|less\s+than|environ|presque|quasiment|(?:près|plus|moins)\s+d(?:e\s+|'\s*)"
)
# Periods named from now: "last week", "next month", "this year", "la semaine dernière", "ce mois-ci".
_PERIOD_EN = r"(?:week-?end|week|month|year)"
# Holidays of a fixed day (and Thanksgiving, the fourth Thursday of November), as they are written
# out: "last Christmas" -> "at Christmas 2025".
HOLIDAYS = {
    "christmas eve": ("Christmas Eve", (12, 24)), "christmas day": ("Christmas Day", (12, 25)),
    "christmas": ("Christmas", (12, 25)), "new year's eve": ("New Year's Eve", (12, 31)),
    "new year's day": ("New Year's Day", (1, 1)), "new year's": ("New Year's", (1, 1)),
    "new year": ("New Year's Day", (1, 1)),  # "between Christmas and New Year"
    "halloween": ("Halloween", (10, 31)), "valentine's day": ("Valentine's Day", (2, 14)),
    "thanksgiving": ("Thanksgiving", (11, 0)), "easter sunday": ("Easter", (0, 0)),
    "easter": ("Easter", (0, 0)),
    # French, written out as French says them: "pour Noël" -> "pour Noël 2026"
    "noël": ("Noël", (12, 25)), "nouvel an": ("Nouvel An", (1, 1)), "jour de l'an": ("jour de l'An", (1, 1)),
    "pâques": ("Pâques", (0, 0)), "la toussaint": ("la Toussaint", (11, 1)),
    "la saint-valentin": ("la Saint-Valentin", (2, 14)),
}  # fmt: skip
_HOLIDAY_ALT = _alternation(list(HOLIDAYS)).replace("\\ ", r"\s+").replace("'", "['’]?")
# A holiday's name before one of these is a thing of the holiday, not its day ("a Christmas tree").
_HOLIDAY_THING = (
    r"trees?|dinners?|lunch|party|parties|presents?|gifts?|cards?|movies?|films?|songs?|music|lights|"
    r"decorations?|markets?|shopping|break|holidays?|vacation|costumes?|candy|sweaters?|jumpers?|"
    r"spirit|mood|season|carols?|specials?|shows?|cookies|dress|themed|eggs?|bunny|hunt"
)
# The words "the 15th" may follow as a day: "on the 15th", "until the 12th", "from the 3rd to the 10th",
# "between the 12th and the 15th".
_ORDINAL_DAY_AFTER = (
    "(?:"
    + _right_after("on until till by from since before after to between")
    # "the week of the 7th", "the weekend of the 14th": the week it falls in
    + r"|(?<=\bweek\sof\s)|(?<=\bweekend\sof\s)|(?<=\bweek-end\sof\s)"
    # "between the 12th and the 15th": "and" after a day said so
    + r"|(?<=\bthe\s\d(?:st|nd|rd|th)\sand\s)|(?<=\bthe\s\d\d(?:st|nd|rd|th)\sand\s)"
    # "the deadline is the 15th", where the day ends what is said ("she is the 2nd best" goes on)
    + r"|(?:(?<=\bis\s)|(?<=\bwas\s)|(?<=\bit's\s))"
    + r"(?=the\s+\d{1,2}(?:st|nd|rd|th)\s*(?:$|[,.;!?)]|and\b|but\b|so\b))"
    + ")"
)
# Nouns an ordinal counts rather than dates: "on the 3rd floor", "on the 2nd try".
_NOT_A_DAY_AFTER = (
    r"of|floor|storey|story|time|times|try|attempt|go|day|night|week|month|year|century|place|round|"
    r"grade|anniversary|birthday|edition|row|lap|hole|inning|step|level|page|chapter|episode|season|"
    r"game|match|percentile|one|ones|shot|take|line|door|street|avenue|day's"
)
# How a holiday reads where no preposition introduces it.
HOLIDAY_LEAD = {
    "Christmas": "at ", "Thanksgiving": "at ", "New Year's": "at ", "Easter": "at ",
    "Noël": "à ", "Nouvel An": "au ", "jour de l'An": "au ", "Pâques": "à ", "la Toussaint": "à ",
    "la Saint-Valentin": "à ",
}  # fmt: skip
# "last Friday night": the part of the day stays, after the date.
PARTS_OF_DAY = {
    "morning": " in the morning", "afternoon": " in the afternoon", "evening": " in the evening",
    "night": " at night",
}  # fmt: skip
_PART_OF_DAY_ALT = "|".join(PARTS_OF_DAY)
_PERIOD_FR = r"(?:semaine|mois|année|annee|an|week-?end)"
_NEXT_FR = r"prochaine?|suivante?"
_LAST_FR = r"dernière|derniere|dernier|passée|passee|passé|passe|précédente?|precedente?"
# "in October next", "since March last": the British order, where no word follows ("October next year"
# is a year's October).
_AFTER_EN = r"(?:next|last)(?=\s*(?:$|[^\w\s]))"
# Zero-width: right after a preposition of time ("in Q1", "by Q3", "end of Q2", "au Q1").
_AFTER_A_WORD_OF_TIME = (
    f"(?:{_right_after('in by to for until till during since from before after of au en')})"
)
# What moves a plan in time, in any tense: "postponed", "we're pushing it back", "brought the launch
# forward" (dates.py: the day a day was moved to; date_meaning.py: the month a plan was moved to).
MOVED_VERB_EN = (
    r"(?:postpon(?:e|es|ed|ing)|push(?:es|ed|ing)?|mov(?:e|es|ed|ing)|bump(?:s|ed|ing)?|shift(?:s|ed|ing)?|"
    r"delay(?:s|ed|ing)?|reschedul(?:e|es|ed|ing)|chang(?:e|es|ed|ing)|put(?:s|ting)?\s+off|"
    r"(?:brought|bring(?:s|ing)?|pull(?:s|ed|ing)?)\s+(?:\S+\s+){0,3}?forward)"
)
# What may follow the last day of "du 21 au 28": the clause's end or a word, not a unit or a month.
_SPAN_END_FR = (
    r"(?=\s*(?:$|[,.;!?)]|(?:inclus|compris|avec|et|ou|pour|chez|mais|donc|car|je|j'|on|nous|il|elle)\b))"
)
DATE_PATTERN = regex(
    r"\b(?:"
    r"(?P<iso>(?P<iso_year>\d{4})-(?P<iso_month>\d{1,2})-(?P<iso_day>\d{1,2}))"
    # A year said with its preposition: "in 2019", "since 2015" (not "in 2000 races", "the 1990s").
    r"|(?P<year_said>(?P<year_preposition>in|since|during|until|by|from|en|depuis)\s+"
    r"(?P<year_number>(?:19|20)\d{2})(?![\d'’s]|\s+(?:[a-z]+s|people|persons|times|km|miles|m)\b))"
    r"|(?P<numeric>(?P<numeric_first>\d{1,2})/(?P<numeric_second>\d{1,2})/(?P<numeric_year>\d{4}|\d{2}))"
    rf"|(?P<day_month>(?:(?P<day_month_weekday>{_WEEKDAY_ALT}),?\s+)?(?:the\s+)?(?P<day_month_day>\d{{1,2}})(?:st|nd|rd|th|er|ère|e)?\s+"
    rf"(?:of\s+)?(?P<day_month_month>{_MONTH_ALT})\.?(?:,?\s+(?P<day_month_year>\d{{4}}))?)"
    rf"|(?P<month_day>(?:(?P<month_day_weekday>{_alternation(WEEKDAYS_EN)}),?\s+)?(?P<month_day_month>{_alternation(_MONTH_KEYS_EN)})\.?\s+(?:the\s+)?"
    r"(?P<month_day_day>\d{1,2})(?:st|nd|rd|th)?(?!\d)(?:,?\s+(?P<month_day_year>\d{4}))?)"
    # "on the 15th", "Monday the 8th": a day of this month or the last (or the next), not "the 3rd floor".
    rf"|(?P<ordinal_day>(?:{_ORDINAL_DAY_AFTER}|(?P<ordinal_day_weekday>{_WEEKDAY_ALT}),?\s+)the\s+"
    r"(?P<ordinal_day_number>3[01]|[12]\d|[1-9])(?:st|nd|rd|th)"
    rf"(?!\s+(?:{_NOT_A_DAY_AFTER})\b))"
    # "le 12", "le 1er": a day of this month or the next, said alone where French ends a clause or a
    # time follows (not "le 12 mai", "le 3 pièces", "le 12 à la maison" read otherwise)
    r"|(?P<jour_du_mois>(?<![\w'’])le\s+(?P<jour_du_mois_number>3[01]|[12]\d|[1-9])(?:er)?"
    r"(?=\s*(?:$|[,.;!?)]|à\s+\d|(?:au\s+(?:soir|matin)|avec|et|ou|pour|chez|mais|donc|car|matin|soir|midi|après-midi)\b)))"
    # "du 21 au 28": both ends of a span of days of the month, said without it (a span with its month,
    # "du 21 au 28 décembre", is written out as two dates first: day_lists.py)
    r"|(?P<jour_borne>(?:(?<=\bdu\s)(?P<jour_borne_first>3[01]|[12]\d|[1-9])(?:er)?(?=\s+au\s+(?:3[01]|[12]\d|[1-9])"
    rf"{_SPAN_END_FR})|(?:(?<=\bdu\s\d\sau\s)|(?<=\bdu\s\d\d\sau\s)|(?<=\bdu\s1er\sau\s))"
    rf"(?P<jour_borne_last>3[01]|[12]\d|[1-9]){_SPAN_END_FR}))"
    rf"|(?P<relative_day>{_RELATIVE_DAY_ALT})"
    # "Monday last week", "on Tuesday of next week", "last week on Friday", "mardi de la semaine
    # dernière": one day of a named week, not that weekday of this one.
    rf"|(?P<day_of_week>(?P<day_of_week_name>{_WEEKDAY_EN_ALT})\s+(?:of\s+)?(?P<day_of_week_modifier>last|next|this)\s+week"
    rf"|(?P<week_then_day_modifier>last|next|this)\s+week\s+on\s+(?P<week_then_day_name>{_WEEKDAY_EN_ALT})"
    rf"|(?P<jour_de_semaine>{_alternation(WEEKDAYS_FR)})\s+de\s+la\s+semaine\s+(?P<jour_de_semaine_modifier>{_NEXT_FR}|{_LAST_FR}))"
    # "two Saturdays ago": that weekday, counted back.
    # "the Friday after next", "vendredi en huit": the one a week after the coming one.
    # ... and "Monday week", as British English says the same
    rf"|(?P<weekday_after_next>(?:the\s+)?(?P<weekday_after_next_name>{_WEEKDAY_ALT})\s+(?:after\s+next|en\s+huit|"
    r"week(?![\w-])(?!\s+(?:of|\d)\b))\b)"
    rf"|(?P<weekdays_ago>(?P<weekdays_ago_quantity>{_QUANTITY})\s+(?P<weekdays_ago_name>{_WEEKDAY_EN_ALT})s\s+(?:ago|back))"
    # Not "the first time in 5 years" (for so long, not in 5 years' time).
    rf"|(?P<in_count>(?<!\btime\s)(?<!\bfirst\s)(?:in|dans)\s+(?P<in_quantity>{_QUANTITY})\s+(?P<in_unit>days?|weeks?|fortnights?|months?|years?|jours?|semaines?|mois|ans?|années?))"
    # "the second week of February", "la dernière semaine d'août": a week counted in a month
    r"|(?P<nth_week>(?:(?:the|la)\s+)?(?P<nth_week_ordinal>first|second|third|fourth|last|1st|2nd|3rd|4th|premi[eè]re|"
    r"deuxi[eè]me|seconde|troisi[eè]me|quatri[eè]me|derni[eè]re)\s+(?:week|semaine)\s+(?:of\s+|de\s+|d['’]\s*)"
    rf"(?P<nth_week_month>{_FULL_MONTH_ALT})(?:\s+(?P<nth_week_year>\d{{4}}))?)"
    r"|(?P<week_after_next>(?:the\s+)?week\s+after\s+next|dans\s+deux\s+semaines\s+pile)"
    r"|(?P<week_before_last>(?:the\s+)?(?P<before_last_unit>week-?end|week|month|year)\s+before\s+last)"
    # "for 3 years now", "for the past six months", "depuis plus de deux ans": how long something
    # has lasted, so since when (`find_dates` keeps the English one after a present perfect only).
    rf"|(?P<lasting>(?:for|depuis)\s+(?:the\s+(?:past|last)\s+)?(?:(?P<lasting_about>{_LASTING_ABOUT})\s*)?"
    rf"(?P<lasting_quantity>{_QUANTITY})\s+(?P<lasting_unit>weeks?|months?|years?|semaines?|mois|ans?|années?)"
    r"(?!\s+et\s+demie?|\s+(?:old|older|younger|ago|back|later|earlier|de\s+plus)\b)"
    # ... "for two years today": to the day, an anniversary
    r"(?:\s+(?:now|maintenant|(?P<lasting_today>today|as\s+of\s+today|aujourd['’]hui)))?)"
    # "two or three weeks ago", "a week or two ago", "a month or so ago": said roughly; "a week ago
    # yesterday": counted back from yesterday.
    rf"|(?P<ago>(?P<ago_quantity>{_QUANTITY})(?:\s+or\s+(?P<ago_or>{_QUANTITY}))?"
    r"\s+(?P<ago_unit>days?|weeks?|week-?ends?|fortnights?|months?|years?)"
    rf"(?:\s+or\s+(?P<ago_or_after>so|{_QUANTITY}))?\s+(?:ago|back)(?:\s+(?P<ago_from>today|yesterday))?"
    r"|il\s+y\s+a\s+(?:(?P<il_y_a_about>environ\s+|à\s+peu\s+près\s+|presque\s+|quasiment\s+|"
    r"(?:près|plus|moins)\s+d(?:e\s+|'\s*)))?"
    rf"(?P<il_y_a_quantity>{_QUANTITY})\s+(?P<il_y_a_unit>jours?|semaines?|mois|ans?|années?)\b(?!\s+et\s+demie?))"
    # "in the past week", "over the last three months": the time up to now, not last calendar week.
    rf"|(?P<rolling>the\s+(?:past|last)\s+(?:(?P<rolling_quantity>{_QUANTITY})\s+)?"
    r"(?P<rolling_unit>days?|weeks?|months?|years?)(?![\w'-])(?!\s+of\b))"
    # "the previous week", "the past weekend": "the" goes with the date ("the past week" is `rolling`).
    rf"|(?P<period_en>(?:this\s+(?=past\s)|the\s+(?=previous\s|(?:past|last)\s+week-?end\b))?(?P<period_en_modifier>last|next|this|coming|past|previous)\s+"
    rf"(?P<period_en_unit>{_PERIOD_EN})(?!\s+of\b))"  # not "the last week of May"
    r"|(?P<season>(?:this\s+(?=past\s))?(?P<season_modifier>last|next|this|coming|past)\s+"
    r"(?P<season_name>spring|summer|fall|autumn|winter))"
    # a quarter of the year, as work plans by it: "in Q1", "by Q3 2027", "Q2'27", "next Q1"; its
    # year unsaid, only after a word of time ("the Q3 report" due now is the last one, "the Q1
    # migration" planned the next: left as said)
    r"|(?P<quarter>(?:(?P<quarter_modifier>next|last|this)\s+|"
    + _AFTER_A_WORD_OF_TIME
    + r"|(?=[Qq][1-4](?:\s+20\d\d|['’]\d\d)))"
    r"[Qq](?P<quarter_number>[1-4])(?:\s+(?P<quarter_year>20\d\d)|['’](?P<quarter_year_short>\d\d))?)"
    # "l'été dernier", "l'hiver prochain", "cet été", "ce printemps"
    r"|(?P<saison>(?:l['’]\s*|le\s+)(?P<saison_name>été|hiver|automne|printemps)\s+"
    r"(?P<saison_modifier>dernier|passé|prochain)|(?P<saison_this>cet\s+(?:été|hiver|automne)|ce\s+printemps))"
    rf"|(?P<period_fr>(?:ce|cet|cette)\s+(?P<period_fr_this_unit>{_PERIOD_FR})(?:-ci|-là)?"
    rf"|(?:la|le|l')\s*(?P<period_fr_unit>{_PERIOD_FR})\s+(?P<period_fr_modifier>{_NEXT_FR}|{_LAST_FR}))"
    # "in June", "next June", and a part of a month said alone: "due early March", "mid July".
    # ... and French from-when: "à partir de mars", "dès avril", "à partir d'avril"; a change's start:
    # "raising the rent starting February", "effective March"
    rf"|(?P<month>(?:(?P<month_modifier>next|last|this|coming)\s+|"
    r"(?P<month_preposition>in|en|au\s+mois\s+de|pour|during|pendant|since|depuis|(?:à|a)\s+partir\s+d(?:e|['’])|dès|"
    r"(?:until|till|by|before|after|from|through|starting|effective)(?!\s+\S+\s+\d{1,2}(?:st|nd|rd|th)?(?![\d:]))|"
    # "pushed the launch back to March", "from January to March": the month capitalised, not "to
    # march"; what "to" follows is read in date_meaning.py ("I gave it to May" names no month)
    r"to(?=\s+(?-i:[A-Z]))(?!\s+\S+\s+\d{1,2}(?:st|nd|rd|th)?(?![\d:])))(?:\s+|(?<=['’]))"
    r"|(?=(?:early|mid|late|mi|début|fin)(?:-|\s+)[a-zé]|(?:at\s+)?(?:the\s+)?(?:beginning|start|middle|end)\s+of\s+[a-z]))"
    # French parts too: "mi-décembre", "fin janvier", "début d'avril".
    rf"(?:(?P<month_part>early|mid|late)(?:-|\s+)|(?P<month_part_fr>mi|début|fin)(?P<month_part_fr_joint>-|\s+(?:de\s+|d['’]\s*)?)"
    r"|(?:at\s+)?(?:the\s+)?(?P<month_part_said>beginning|start|middle|end|first\s+half|"
    rf"second\s+half)\s+of\s+)?(?P<month_name>{_FULL_MONTH_ALT})(?:\s+(?P<month_year>\d{{4}}))?(?:\s+(?P<month_after>{_NEXT_FR}|{_LAST_FR}|{_AFTER_EN}))?"
    rf"|(?P<month_bare>{_FULL_MONTH_ALT})\s+(?P<month_bare_after>{_NEXT_FR}|{_LAST_FR}|{_AFTER_EN}))"
    r"|(?P<end_of>(?:at\s+)?(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?P<end_of_unit>week|month|year)"
    r"|(?:à\s+la\s+|en\s+|la\s+)?fin\s+(?P<end_of_fr>de\s+(?:la\s+)?semaine|du\s+mois)(?:\s+(?P<end_of_fr_next>prochaine?))?)"
    rf"|(?P<weekday>(?:(?P<weekday_modifier>this\s+coming|next|this|coming|last|ce)\s+)?{_HELD_WEEKDAY}(?P<weekday_name>{_WEEKDAY_ALT})(?:\s+(?P<weekday_after>prochain|dernier))?"
    rf"(?:\s+(?P<weekday_part>{_PART_OF_DAY_ALT}))?)"
    # after a preposition too ("on Thurs", "by Fri"), but "on sun" is more often the sun's
    rf"|(?P<weekday_short>(?:(?P<weekday_short_modifier>next|this|coming|last)\s+|(?:(?<=\bon\s)|(?<=\bby\s)|(?<=\buntil\s)|"
    r"(?<=\btill\s))(?!sun\b))"
    rf"(?P<weekday_short_name>{_alternation(SHORT_WEEKDAYS_EN)})\.?"
    rf"(?:\s+(?P<weekday_short_part>{_PART_OF_DAY_ALT}))?)"
    # "over the weekend", "at the weekend": the last one when told in the past (`date_meaning.resolve_match`).
    r"|(?P<weekend_said>(?<=\bover\s)the\s+week-?end|(?<=\bat\s)the\s+week-?end)"
    # "in the spring", "over the summer": the last one when told in the past, as the weekend above.
    r"|(?P<season_said>(?:(?<=\bin\s)|(?<=\bover\s)|(?<=\bduring\s)|(?<=\bsince\s))the\s+"
    r"(?P<season_said_name>spring|summer|fall|autumn|winter))"
    rf"|(?P<holiday>(?:(?P<holiday_modifier>last|next|this|coming)\s+)?(?P<holiday_name>{_HOLIDAY_ALT})"
    rf"(?!\s+(?:{_HOLIDAY_THING})\b)"
    # its year said after it: "thanksgiving this year" is one day, not a day and a year
    r"(?:\s+(?P<holiday_year>last|next|this)\s+year)?)"
    # Not followed by a word or an apostrophe ("Friday's meeting" is no date here), but by the "'s"
    # of "is" ("Tomorrow's my exam", "Friday's the big day").
    r")(?!\w|'(?!s\s+(?:my|our|the|a|an|his|her|their)\b))"
)
# "every Monday", "le lundi", and a weekday joined to one ("every Tuesday and Thursday night").
HABITUAL = regex(
    r"\b(?:le|les|every|each|chaque|tous\s+les)\s+"
    rf"(?:(?:{_WEEKDAY_ALT})s?\s*(?:,|&|\band\b|\bor\b|\bet\b|\bou\b)\s*)*$"
)
DAY_PREPOSITION_BEFORE = regex(
    r"(?:\b(?:by|before|until|till|til|for|on|from|after|since|due|is|was|are|be|to|à|as\s+of|as\s+from|starting|"
    r"beginning|effective|through|thru|pour|avant|d'ici|jusqu'à|jusqu'au|dès|après|depuis|est|sera|le|"
    r"à\s+partir\s+d[eu])|'s|:|,)\s*$"
)
# Words that already introduce a period: "since last week", "during the month", "until next year".
PERIOD_PREPOSITION_BEFORE = regex(
    r"\b(?:in|during|since|until|till|by|over|throughout|to|for|from|after|before|around|of|at|on|"
    r"en|depuis|pendant|durant|dans|jusqu'en|jusqu'à|pour|avant|après|vers|à|au|de|du|dès|all|"
    # "taking next week off": the period is what is taken
    r"taking|take|took)\s*$"
)
# What may stand between "last year" and "in August" when both say one date.
YEAR_AND_MONTH_GAP = regex(r"^\s*,?\s*$")
# A verb of planning before the date: the day is one to come, however the plan is told.
PLANNED_BEFORE = regex(
    r"\b(?:(?:decided|agreed|planned|promised|arranged|décidé|convenu|prévu|promis)\s+(?:to|de|d')"
    r"|(?:decided|agreed|planned|promised)\s+(?:that\s+)?(?:we|i|they|you)(?:'d|\s+would|'ll|\s+will|\s+should)\b"
    r"|(?:suggested|proposed)\s+(?:that\s+)?we|(?:re)?scheduled|postponed|pushed\s+(?:it\s+|\w+\s+\w+\s+)?back|reporté|repoussé"
    # "my 1:1 got moved to Thursday", "we bumped it to Friday": the day it now falls on.
    # ... and "we moved the sprint review to Wednesday": a thing named in up to three words
    # ... and the day it was to fall on: "the retro moved from Thursday to Friday"
    r"|(?:moved|bumped|pushed|shifted)\s+(?:it|them|(?:the|my|our|this|that)(?:\s+[\w:'-]+){1,3}?)\s+(?:back\s+)?"
    r"(?:to|till|until|from)"
    r"|(?:got|was|were|been|is|are)\s+(?:moved|bumped|pushed|shifted)\s+(?:back\s+)?(?:to|till|until|from)"
    r"|déplacée?\s+(?:à|au|du)"
    # "the deadline moved to Friday": the day right after "moved to" ("we moved to Berlin" is a place)
    r"|(?:moved|bumped|pushed|shifted|slipped)\s+(?:back\s+)?(?:to|till|until|from)(?=\s*$)"
    # "I just booked tickets to see Taylor Swift in July": the show's day, to come.
    r"|(?:booked|bought|got|reserved|grabbed|scored)\s+(?:\w+\s+){0,2}?(?:tickets?|flights?|seats?|passes)\s+(?:to|for)"
    r"|(?:réservé|pris|acheté)\s+(?:\w+\s+){0,2}?(?:billets?|places?|vols?)\s+(?:pour|à)"
    # "my manager approved my PTO for the 21st": the days off, to come.
    r"|(?:approved|okayed|granted|signed\s+off\s+on|requested|put\s+in\s+for|booked)\s+(?:my|our|his|her|their|the)\s+"
    r"(?:\w+\s+){0,2}?(?:pto|leave|time\s+off|vacation|holidays?|days?\s+off|annual\s+leave)\s+(?:for|from|on))\b"
)
# A start said right before its day: "I got a new job, starting Monday" is the next Monday.
STARTING_BEFORE = regex(
    r"\b(?:starting|beginning|effective|commençant|à\s+partir\s+de)\s+(?:on\s+|from\s+)?$"
)
# A present perfect before a duration ("I've had them for 3 years", "she has been playing for
# months"): it lasts until now, so it says since when. "I lived there for 3 years" says no when.
PERFECT_BEFORE_EN = regex(
    r"(?:['’]ve|['’]s|\bhave|\bhas)(?:n['’]t)?\s+(?:(?:not|never|always|only|just|already|really|now|actually|basically|"
    r"pretty\s+much)\s+)*(?P<participle>[a-z]+)\b"
)
SINCE_BEFORE = regex(r"\b(?:since|depuis)\s*$")
# Month names that are lower-case words too: a date only after a preposition or with an ordinal.
MONTH_VERBS = frozenset({"may", "march"})
ORDINAL = regex(r"\d(?:st|nd|rd|th)\b")
# What a holiday's name needs before it to be the day it falls on: "at Christmas", "for Halloween".
HOLIDAY_PREPOSITION_BEFORE = regex(
    # ... and both ends of a span: "between Christmas and New Year", "from Christmas to New Year's"
    r"\b(?:(?:between|from)\s+[^,;]{1,40}?\s+(?:and|to|until|till|through)|between|from|"
    r"on|at|for|over|during|since|before|after|until|till|by|around|through|"
    r"(?:pour|à|pendant|avant|après|depuis|jusqu'à|vers|dès)(?:\s+(?:le|la|l'))?|au|jusqu'au)\s*$"
)
# A clause about when someone was born: the day is not last year's ("I was born on 3 June") and
# its year is one the clause does not say.
# What comes back every year on its day: a day and month said of it name no one year.
RECURRING = regex(r"\b(?:birthday|bday|b-day|anniversary|anniversaire|fête|name\s+day)\b")
BIRTH = regex(r"\b(?:born|birth|dob|d\.o\.b|née?s?|naissance)\b")
# A clause told in the past makes "Friday" / "3 June" mean the last one, not the next one.
PAST_TENSE = regex(
    r"\b(?:ago|yesterday|hier|il\s+y\s+a|dernier|dernière|last\s+(?:week|night|year|month|time|weekend|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|fall|autumn|winter)"
    r"|(?:weeks?|weekends?|months?|years?)\s+back)\b"
    # not a week counted in a month: "the last week of March", "la dernière semaine d'août"
    r"(?!(?<=week)\s+of\b|(?<=dernière)\s+semaine\s+(?:de\s|d['’]))"
    # A day that is the subject of a past verb: "Friday was fun", "the weekend was great".
    r"|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)\s+(?:was|were)\b"
    # What was on a day: "First session was on Tuesday!", "the party was last night".
    r"|\b(?:was|were)\s+(?:on|at|in|over|during)\s+(?=\S)"
    r"|\b(?:j'ai|nous\s+avons|on\s+a)\s+(?:déjà\s+|enfin\s+|bien\s+|finalement\s+|récemment\s+)?"
    r"(?!lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|aussi|ici|demain|aujourd)"
    r"\w+(?:é|ée|és|ées|i|is|ie|u|ue|us|it|ert|int)\b"
    # With its object before the verb: "je l'ai vu", "on les a trouvés"; and "c'était", "j'étais".
    r"|\b(?:je|j'|nous|on|il|elle|ils|elles)\s*(?:l'|les\s+|lui\s+|leur\s+|y\s+|en\s+)(?:ai|avons|a|ont)\s+"
    r"\w+(?:é|ée|és|ées|i|is|ie|u|ue|us|it|ert|int)\b|\b(?:c'|j'|il\s+|elle\s+|on\s+|nous\s+)(?:étais|était|étions|étaient)\b"
    r"|\b(?:je|nous|on)\s+(?:me\s+|nous\s+)?(?:suis|sommes|est)\s+\w+ée?s?\b|\bje\s+m'\w+\s+\w+é"
    # Someone else's passé composé: "ma sœur s'est mariée", "il est né", "mon père a pris sa retraite".
    r"|\b(?:s'est|se\s+sont)\s+\w+(?:ée?s?|ie?s?|ue?s?)\b"
    r"|\b(?:est|sont)\s+(?:née?s?|morte?s?|décédée?s?|partie?s?|allée?s?|venue?s?|arrivée?s?|tombée?s?|"
    r"rentrée?s?|revenue?s?)\b|\b(?:il|elle|on|ils|elles|\w+)\s+(?:a|ont)\s+(?:été|eu|pris|fait|dit|vu|mis)\b"
    # A relative's: "ma fille a commencé l'école lundi", "mes parents ont déménagé".
    r"|\b(?:mon|ma|mes|notre|nos|son|sa|ses|leur|leurs)\s+[\w'-]+\s+(?:a|ont)\s+(?:déjà\s+|enfin\s+|bien\s+)?"
    r"\w+(?:é|i|u|is|it)\b"
)
# "I flew", "we finally retook", "my sister got": the verb after the subject (`is_past_form_en`).
SUBJECT_VERB_EN = regex(
    # A lookahead, so that the word read as a verb may be the next pair's subject: in "from January
    # to March we lived in Lyon", "January to" is no pair, and "we lived" is read all the same.
    r"(?="
    # Who the clause is about may be someone else: "my sister got married in June" is last June.
    # ... or someone named: "Sam got promoted on Tuesday", "Ken's wife had the baby on Monday".
    r"\b(?:i|we|he|she|they|it|that|this|(?:my|our|his|her|their|the|a)\s+[a-z]+|"
    r"(?-i:[A-ZÀ-Ý][a-zà-ÿ]+)(?:['’]s\s+[a-z]+)?)\s+"
    # ... with its day said in between: "the deploy on friday broke prod" is last Friday's.
    r"(?:(?:on|last|this)\s+(?:[a-z]+day|[a-z]+\s+night)\s+)?"
    # (not the "won" of "won't": "we won't hire until March" is the March to come)
    r"(?:(?:just|already|finally|also|recently|actually|even|then|once|never)\s+)*(?P<verb>(?-i:[a-z]+))\b(?!['’]t\b)"
    r")"
)
# A clause that says what will be: its past verb reports it ("she said it will rain on Friday").
FUTURE_EN = regex(r"\b(?:will|shall|gonna|going\s+to|won['’]t)\b|\w'll\b")
TIME_PATTERN = regex(
    r"\b(?:(?P<hour_ampm>\d{1,2})(?::(?P<minute_ampm>\d{2}))?\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)(?!\w)"
    r"|(?P<hour_colon>\d{1,2}):(?P<minute_colon>\d{2})(?!\d)"
    r"|(?P<hour_h>\d{1,2})\s?h\s?(?P<minute_h>\d{2})?(?!\w))"
)


# Every word a date expression of DATE_PATTERN needs at least one of (or a digit): most chat says
# none, and one look at its words is far cheaper than the pattern.
_DATE_WORDS = frozenset(
    {
        *(month for month in MONTH_NUMBERS),
        *WEEKDAYS_EN,
        *(f"{day}s" for day in WEEKDAYS_EN),  # "two Saturdays ago"
        *WEEKDAYS_FR,
        *SHORT_WEEKDAYS_EN,
        *(word for key in RELATIVE_DAYS for word in re.findall(r"[a-zà-ÿ]+", key) if word not in _FILLER),
        *"""day days week weeks weekend weekends fortnight fortnights month months year years jour jours
        semaine semaines mois an ans année années annee annees spring summer fall autumn winter
        christmas halloween thanksgiving valentine easter été hiver automne printemps noël pâques toussaint
        valentin nouvel""".split(),
    }
)
_WORD = re.compile(r"[a-zà-ÿ]+")


def may_hold_a_date(text: str) -> bool:
    """False when `text` cannot hold a date expression (no digit, none of the words one needs)."""
    if any(ch.isdigit() for ch in text):
        return True
    return not _DATE_WORDS.isdisjoint(_WORD.findall(text.lower()))
