"""Dates written out: periods counted back, since when, English and French words, spans, holidays, zones."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from memory.text import extract
from memory.text.dates import find_dates, resolve_relative_dates
from memory.text.tense import told_in_past
from tests.extraction._support import (
    NOW,
    TODO,
    assert_written_out,
    contents,
    notes,
    run,
)
from tests.helpers import WEDNESDAY_NOON
from tests.helpers import utc_timestamp as at

WEEK = 7 * 86_400.0


# Said on Wednesday 25 November 2026: periods counted back in the words chat uses.
@pytest.mark.parametrize(
    ("said", "period"),
    [
        ("this past weekend", "on the weekend of Saturday 21 November 2026"),
        # told in the past on a weekday, "this weekend" is the one just gone
        ("this weekend", "on the weekend of Saturday 21 November 2026"),
        ("two weekends ago", "on the weekend of Saturday 14 November 2026"),
        ("a fortnight ago", "in the week of Monday 9 November 2026"),
        ("the week before last", "in the week of Monday 9 November 2026"),
        ("three weeks back", "in the week of Monday 2 November 2026"),
        ("last summer", "in summer 2026"),
        ("last winter", "in winter 2025-26"),
        ("this past spring", "in spring 2026"),
        ("a couple weeks ago", "in the week of Monday 9 November 2026"),
        ("the weekend before last", "on the weekend of Saturday 14 November 2026"),
        # told in the past on a weekday, "over the weekend" is the last one
        ("over the weekend", "over the weekend of Saturday 21 November 2026"),
        ("in early November", "in early November 2026"),
        ("in mid-October", "in mid-October 2026"),
        # the part of the month said in words
        ("in the middle of October", "in mid-October 2026"),
        ("in the beginning of November", "in early November 2026"),
        ("in the second half of September", "in late September 2026"),
        ("last Friday night", "on Friday 20 November 2026 at night"),
        ("last Christmas", "at Christmas 2025"),
        ("on Halloween", "on Halloween 2026"),
        ("on New Years Eve", "on New Year's Eve 2025"),
        ("at Easter", "at Easter 2026"),
        # the year said beside the month is the month's year
        ("last year in August", "in August 2025"),
        ("in August last year", "in August 2025"),
        ("last year, in early May", "in early May 2025"),
        # whole years back and a month: that year's month ("in 2021 in June 2026" before)
        ("five years ago this June", "in June 2021"),
        ("two years ago in March", "in March 2024"),
        ("in March two years ago", "in March 2024"),
        # a day of the month alone: this month's, or the last month that has it
        ("on the 15th", "on Sunday 15 November 2026"),
        ("on the 31st", "on Saturday 31 October 2026"),
        ("on Friday the 13th", "on Friday 13 November 2026"),
        # how near the date is stays said: "about in 2021" and "over 2016" meant nothing
        ("about five years ago", "around 2021"),
        ("nearly two months ago", "around September 2026"),
        ("over ten years ago", "in 2016 or earlier"),
        ("less than a year ago", "in 2025 or later"),
        # said roughly, as chat says it
        ("two or three weeks ago", "around the week of Monday 9 November 2026"),
        ("a week or two ago", "around the week of Monday 16 November 2026"),
        ("a month or so ago", "around October 2026"),
        # a count that names no number is no exact date
        ("several weeks ago", "around the week of Monday 2 November 2026"),
        ("a few years ago", "around 2023"),
        ("a few months back", "around August 2026"),
        # a part of the period said before it
        ("mid-last year", "in mid-2025"),
        ("early last month", "in early October 2026"),
        # a day of a named week is that week's, not this week's
        ("on Tuesday last week", "on Tuesday 17 November 2026"),
        ("Monday of last week", "on Monday 16 November 2026"),
        ("last week on Friday", "on Friday 20 November 2026"),
        ("two Saturdays ago", "on Saturday 14 November 2026"),
        ("a week ago yesterday", "on Tuesday 17 November 2026"),
        ("the night before last", "on Monday 23 November 2026"),
        ("the month before last", "in September 2026"),
        # "the" goes with the date, not before it
        ("the previous weekend", "on the weekend of Saturday 21 November 2026"),
        ("the past weekend", "on the weekend of Saturday 21 November 2026"),
        ("the previous week", "in the week of Monday 16 November 2026"),
        # told in the past, "in the spring" is the last one
        ("in the spring", "in spring 2026"),
        ("in the winter", "in winter 2025-26"),
        ("over the summer", "over summer 2026"),
    ],
)
def test_periods_counted_back(said: str, period: str) -> None:
    text = f"I broke my arm {said}"
    found = notes(text)
    assert found == [f"Mickael broke their arm {period}"]


def test_late_for_something_is_no_part_of_the_month() -> None:
    written = resolve_relative_dates("I was late last month", WEDNESDAY_NOON)
    assert written == "I was late in October 2026"


def test_a_range_ends_on_or_after_its_start() -> None:
    said = "I'll be away from May 20th to the 2nd"
    written = resolve_relative_dates(said, WEDNESDAY_NOON)
    assert written == "I'll be away from May 20th to Wednesday 2 June 2027"


@pytest.mark.parametrize(
    "text",
    [
        "I used to go skiing in the winter",  # every winter
        "We always went to the lake in the summer",
        "I'm going to Italy in the spring",  # one to come: no year is sure
        "I broke two or three plates",  # no unit, no date
        "We go hiking on Saturdays",
    ],
)
def test_seasons_and_counts_that_name_no_date_stay_as_said(text: str) -> None:
    assert resolve_relative_dates(text, WEDNESDAY_NOON) == text


@pytest.mark.parametrize(
    ("said", "period"),
    [
        ("il y a un an", "en 2025"),
        ("ce week-end", "le week-end du samedi 21 novembre 2026"),
        ("il y a environ cinq ans", "vers 2021"),
        ("il y a plus de dix ans", "en 2016 ou avant"),
        ("il y a moins d'un an", "en 2025 ou après"),
        ("il y a près d'un mois", "vers octobre 2026"),
        # a year and a half is no year's date
        ("il y a un an et demi", "il y a un an et demi"),
        ("mardi de la semaine dernière", "le mardi 17 novembre 2026"),
        ("l'hiver dernier", "l'hiver 2025-26"),
        ("l'été dernier", "l'été 2026"),
        ("cet été", "l'été 2026"),
        ("ce printemps", "le printemps 2026"),
    ],
)
def test_periods_counted_back_in_french(said: str, period: str) -> None:
    found = [item.content for item in run(f"je me suis cassé le bras {said}", now=WEDNESDAY_NOON)]
    assert found == [f"Mickael s'est cassé le bras {period}"]


@pytest.mark.parametrize(
    ("said", "since"),
    [
        # how long something has lasted, told in the present perfect, says since when
        ("I've had my cat for 3 years now", "since about 2023"),
        ("I've been learning Rust for about six months", "since about May 2026"),
        ("I have been playing professionally for just under a year now", "since 2025 or later"),
        ("She's worked there for the past two years", "since about 2024"),
        ("We've been married for over ten years", "since 2016 or earlier"),
        ("I haven't seen him for 3 weeks", "since about the week of Monday 2 November 2026"),
        ("J'habite à Lyon depuis deux ans", "depuis environ 2024"),
        ("Je fais du yoga depuis presque un an", "depuis 2025 ou après"),
        ("Je joue du piano depuis plus de deux ans", "depuis 2024 ou avant"),
    ],
)
def test_how_long_something_has_lasted_says_since_when(said: str, since: str) -> None:
    """The duration stays as said, for "how long", and the start it gives follows, for "when"."""
    written = resolve_relative_dates(said, WEDNESDAY_NOON)
    assert written == f"{said} ({since})"
    assert resolve_relative_dates(written, datetime(2027, 11, 25, 12, tzinfo=UTC)) == written


@pytest.mark.parametrize(
    ("said", "written"),
    [
        (
            "We've been married for 10 years today",
            "We've been married for 10 years (since Friday 25 November 2016)",
        ),
        ("I've been at Acme for 6 months today", "I've been at Acme for 6 months (since Monday 25 May 2026)"),
        (
            "I've been clean for 3 weeks as of today",
            "I've been clean for 3 weeks (since Wednesday 4 November 2026)",
        ),
    ],
)
def test_how_long_something_has_lasted_today_says_since_that_very_day(said: str, written: str) -> None:
    """An anniversary: the day as many years (months, weeks) back, and no "today" in a note read on
    other days (never "for 10 years (since about 2016) on Wednesday 25 November 2026")."""
    assert resolve_relative_dates(said, WEDNESDAY_NOON) == written
    assert resolve_relative_dates(written, datetime(2027, 11, 25, 12, tzinfo=UTC)) == written


@pytest.mark.parametrize(
    ("said", "written"),
    [
        # the time up to now, said as it was, with where it starts ("the in the week of ..." before)
        (
            "I have been reading a lot in the past week",
            "I have been reading a lot in the past week (since Wednesday 18 November 2026)",
        ),
        ("over the last month I ran a lot", "over the last month (since October 2026) I ran a lot"),
        (
            "In the last three months I lost 5 kilos",
            "In the last three months (since August 2026) I lost 5 kilos",
        ),
        # the last week of a month is no week before now, but a week of that month
        ("the last week of May was busy", "the last week of May (the week of Monday 25 May 2026) was busy"),
        # a date that is what its sentence is about stays its subject
        ("Last week was wild", "Last week (the week of Monday 16 November 2026) was wild"),
        ("Tomorrow is my birthday", "Tomorrow (Thursday 26 November 2026) is my birthday"),
        # a day that was is the last one
        ("Friday was fun", "Friday 20 November 2026 was fun"),
        ("Friday is my birthday party", "Friday 27 November 2026 is my birthday party"),
        # since a month: the last one, whatever the tense
        ("I have been training since January", "I have been training since January 2026"),
        ("I have been sick since December", "I have been sick since December 2025"),
        ("Je cours depuis mars", "Je cours depuis mars 2026"),
        # a date that opens a sentence keeps its capital
        (
            "So much happened. Last week I scored 40 points",
            "So much happened. In the week of Monday 16 November 2026 I scored 40 points",
        ),
    ],
)
def test_the_past_week_is_the_time_up_to_now(said: str, written: str) -> None:
    assert_written_out(said, written)


@pytest.mark.parametrize(
    ("said", "written"),
    [
        # "vendredi prochain" is the first Friday to come ("next Friday" is the one of next week)
        ("vendredi prochain on sort", "le vendredi 27 novembre 2026 on sort"),
        ("on se voit mardi prochain", "on se voit le mardi 1er décembre 2026"),
        ("next Friday we go out", "on Friday 4 December 2026 we go out"),
        # "this coming", "all last week", "pushed to next Thursday", "a year ago today", "moved to Friday"
        ("this coming Monday I start", "on Monday 30 November 2026 I start"),
        ("I was sick all last week", "I was sick all the week of Monday 16 November 2026"),
        ("the meeting was pushed to next Thursday", "the meeting was pushed to Thursday 3 December 2026"),
        ("we broke up a year ago today", "we broke up on Tuesday 25 November 2025"),
        ("the deadline moved to Friday", "the deadline moved to Friday 27 November 2026"),
        ("we moved to Lyon last Friday", "we moved to Lyon on Friday 20 November 2026"),
        # the end of next week, a day after "à"
        ("je finis d'ici la fin de la semaine prochaine", "je finis d'ici vendredi 4 décembre 2026"),
        ("c'est à rendre à la fin du mois prochain", "c'est à rendre le jeudi 31 décembre 2026"),
        (
            "la réunion a été repoussée à jeudi prochain",
            "la réunion a été repoussée à jeudi 26 novembre 2026",
        ),
        # a short French sentence is written in French ("on part on the weekend of …" before)
        ("on part ce week-end", "on part le week-end du samedi 28 novembre 2026"),
        ("cette semaine je bosse", "la semaine du lundi 23 novembre 2026 je bosse"),
        # a month with "next" or "last" after it, as British English says it
        ("training for Cardiff in October next", "training for Cardiff in October 2027"),
        ("we met in March last", "we met in March 2026"),
        ("see you in October next year", "see you in October 2027"),
        # a part of a month, in French: to come unless told in the past
        ("je pars mi-décembre", "je pars mi-décembre 2026"),
        ("le contrat finit fin janvier", "le contrat finit fin janvier 2027"),
        ("on déménage au début de mars", "on déménage au début de mars 2027"),
        ("elle accouche à la mi-décembre", "elle accouche à la mi-décembre 2026"),
        ("on l'a signé début d'octobre", "on l'a signé début d'octobre 2026"),
        ("c'était fin janvier", "c'était fin janvier 2026"),
        ("il y a deux ans en mars on s'est rencontrés", "en mars 2024 on s'est rencontrés"),
    ],
)
def test_days_said_as_chat_says_them(said: str, written: str) -> None:
    now = WEDNESDAY_NOON  # a Wednesday
    assert resolve_relative_dates(said, now) == written


@pytest.mark.parametrize(
    "said",
    [
        # a time that is over, to come, or not said of a present perfect says no since
        "I lived in Berlin for 3 years",
        "We were teammates for four years in high school",
        "I'll be away for 3 weeks",
        "I've told you, he was in Paris for two years",
        "My dog is 3 years old",
        "J'habite à Lyon depuis un an et demi",
    ],
)
def test_a_duration_that_is_not_lasting_until_now_says_no_since(said: str) -> None:
    assert resolve_relative_dates(said, WEDNESDAY_NOON) == said


def test_since_when_something_lasts_is_no_date_of_the_next_clause() -> None:
    """ "I've known them for 4 years, since I moved": the move is not dated by the knowing."""
    said = "I've known these friends for 4 years, since I moved from my home country"
    found = [item.content for item in run(said, now=WEDNESDAY_NOON)]
    assert found == ["Mickael moved from their home country"]


@pytest.mark.parametrize(
    ("expression", "day"),
    [
        ("today", (2026, 11, 22)),
        ("tonight", (2026, 11, 22)),
        ("tomorrow", (2026, 11, 23)),
        ("the day after tomorrow", (2026, 11, 24)),
        ("Monday", (2026, 11, 23)),
        ("Saturday", (2026, 11, 28)),
        ("Sunday", (2026, 11, 29)),
        ("this Friday", (2026, 11, 27)),
        ("next Monday", (2026, 11, 23)),
        ("next Tues", (2026, 11, 24)),
        ("this Wed.", (2026, 11, 25)),
        ("coming Fri", (2026, 11, 27)),
        ("in 2 weeks", (2026, 12, 6)),
        ("in a month", (2026, 12, 22)),
        ("the end of the week", (2026, 11, 27)),
        ("12 March", (2027, 3, 12)),
        ("March 12", (2027, 3, 12)),
        ("March 12th, 2026", (2026, 3, 12)),
        ("the 3rd of December", (2026, 12, 3)),
        ("22 November", (2026, 11, 22)),
        ("29 February", (2028, 2, 29)),
        ("2027-01-05", (2027, 1, 5)),
        ("05/01/2027", (2027, 1, 5)),
        ("12/31/26", (2026, 12, 31)),
        ("on the 30th", (2026, 11, 30)),
        ("on the 3rd", (2026, 12, 3)),
        ("on the 22nd", (2026, 11, 22)),
        ("by the 12th", (2026, 12, 12)),
        ("Monday the 7th", (2026, 12, 7)),
        ("Tuesday the 9th", (2027, 2, 9)),  # the first 9th that is a Tuesday
        # a week after the coming one ("the Friday 27 November after next" was the coming one)
        ("the Friday after next", (2026, 12, 4)),
        ("the sunday after next", (2026, 12, 6)),
    ],
)
def test_english_date_expressions(expression: str, day: tuple[int, int, int]) -> None:
    items = run(f"the deadline is {expression}")
    assert [i.event_at for i in items] == [at(*day)], contents(f"the deadline is {expression}")


@pytest.mark.parametrize(
    ("expression", "day"),
    [
        ("demain", (2026, 11, 23)),
        ("après-demain", (2026, 11, 24)),
        ("aujourd'hui", (2026, 11, 22)),
        ("lundi", (2026, 11, 23)),
        ("vendredi prochain", (2026, 11, 27)),
        ("ce samedi", (2026, 11, 28)),
        ("dans 3 jours", (2026, 11, 25)),
        ("dans une semaine", (2026, 11, 29)),
        ("la semaine prochaine", (2026, 11, 23)),
        ("la fin du mois", (2026, 11, 30)),
        ("le 3 mars", (2027, 3, 3)),
        ("le 1er janvier", (2027, 1, 1)),
        ("le 14 juillet 2027", (2027, 7, 14)),
        ("le 25 décembre", (2026, 12, 25)),
        ("le 2 aout", (2027, 8, 2)),
        ("vendredi en huit", (2026, 12, 4)),
    ],
)
def test_french_date_expressions(expression: str, day: tuple[int, int, int]) -> None:
    text = f"la date limite est {expression}"
    assert [i.event_at for i in run(text)] == [at(*day)], contents(text)


@pytest.mark.parametrize(
    "said",
    [
        "We had a Christmas tree",  # a thing of the holiday, not its day
        "Christmas is my favourite time of year",  # the holiday itself
        "I may 3 times go there",  # "may" the verb
        "We usually hike at the weekend",  # any weekend
        "During Thanksgiving, we usually watch a few movies",  # every year's
        "I ran in 2000 races",  # a count, not a year
        "We lived in Rome in the 1990s",
        "I live on the 3rd floor",  # an ordinal that counts
        "I got it on the 2nd try",
        "We went to the Easter egg hunt",
        # a birth day is no year's day that the clause says
        "I was born on 3 June",
        "I was born in March",
        "My date of birth is the 12th of May",
        "Je suis née le 3 juin",
        # a weekday someone keeps every week
        "Our Thursday campaign starts at 8",
        "My Sunday brunch crew is the best",
        "We meet in our usual Tuesday slot",
    ],
)
def test_words_of_dates_that_name_no_day_are_left_alone(said: str) -> None:
    assert find_dates(said, NOW, False, told_in_past(said)) == (said, [])


def test_a_french_span_of_days_said_without_its_month_is_read_at_both_ends() -> None:
    # Said on Sunday 22 November 2026: the 21st to come is in December, and so is the 28th after it.
    for said, past, days in [
        ("je suis en congé du 21 au 28", False, [date(2026, 12, 21), date(2026, 12, 28)]),
        ("du 1er au 10 inclus, je serai absent", False, [date(2026, 12, 1), date(2026, 12, 10)]),
        ("j'étais en vacances du 3 au 10", True, [date(2026, 11, 3), date(2026, 11, 10)]),
        ("on part du 28 au 3", False, [date(2026, 11, 28), date(2026, 12, 3)]),
    ]:
        assert [d.day for d in find_dates(said, NOW, True, past)[1]] == days, said
    for counted in ["on a couru du 3 au 5 km", "des enfants du 6 au 12 ans"]:
        assert find_dates(counted, NOW, True, False) == (counted, []), counted
    assert (
        "est en congé du lundi 21 décembre 2026 au lundi 28 décembre 2026"
        in notes("je suis en congé du 21 au 28")[0]
    )


def test_a_month_a_plan_is_moved_to_is_the_one_to_come_and_a_span_of_months_ends_in_its_own() -> None:
    # Said on Sunday 22 November 2026.
    for said, month in [
        ("we pushed back the launch to March", date(2027, 3, 1)),
        ("the meeting was rescheduled to April", date(2027, 4, 1)),
        ("we brought the launch forward to February", date(2027, 2, 1)),
        ("we postponed the wedding to June 2028", date(2028, 6, 1)),
    ]:
        assert [d.day for d in find_dates(said, NOW, False, told_in_past(said))[1]] == [month], said
    for said, months in [
        ("from January to March we lived in Lyon", [date(2026, 1, 1), date(2026, 3, 1)]),
        ("I'll be away from January to March", [date(2027, 1, 1), date(2027, 3, 1)]),
    ]:
        assert [d.day for d in find_dates(said, NOW, False, told_in_past(said))[1]] == months, said
    # "to" and a name that is a month's: someone, unless a plan was moved or a span opened
    for said in ["I gave it to May", "I talked to June about it", "I lent my car to April"]:
        assert find_dates(said, NOW, False, told_in_past(said)) == (said, []), said
    assert "Mickael and others pushed back the launch to March 2027" in notes(
        "we pushed back the launch to March"
    )


def test_holidays_fall_on_their_day_in_the_tense_s_direction() -> None:
    # Said on Sunday 22 November 2026.
    _, [last] = find_dates("we met last Thanksgiving", NOW, False, True)
    _, [coming] = find_dates("we're hosting next Thanksgiving", NOW, False, False)
    _, [valentine] = find_dates("I proposed on Valentine's Day", NOW, False, True)
    assert (last.day, last.inline) == (date(2025, 11, 27), "at Thanksgiving 2025")
    # the holiday hosted is the day itself ("hosting Thanksgiving 2026", not "hosting at ...")
    assert (coming.day, coming.inline) == (date(2026, 11, 26), "Thanksgiving 2026")
    assert (valentine.day, valentine.inline) == (date(2026, 2, 14), "Valentine's Day 2026")
    # Alone, a holiday is the next one in a plan, after a preposition or spent; not in a habit.
    for plan, inline in [
        ("we're going to my in-laws for Christmas", "Christmas 2026"),
        ("I'll be in Paris over New Year's", "New Year's 2027"),
        ("I'm off for Christmas", "Christmas 2026"),
        ("we're spending Thanksgiving with my sister", "Thanksgiving 2026"),
    ]:
        assert [d.inline for d in find_dates(plan, NOW, False, False)[1]] == [inline], plan
    # ... and both ends of a span of them
    for span, inlines in [
        ("I'm off between Christmas and New Year", ["Christmas 2026", "New Year's Day 2027"]),
        ("I'm off from Christmas Eve until New Year's Day", ["Christmas Eve 2026", "New Year's Day 2027"]),
    ]:
        assert [d.inline for d in find_dates(span, NOW, False, False)[1]] == inlines, span
    assert find_dates("Happy New Year everyone", NOW, False, False) == ("Happy New Year everyone", [])
    for habit in ["we always go home for Christmas", "I love going home for Christmas", "I love Christmas"]:
        assert find_dates(habit, NOW, False, False) == (habit, []), habit
    # French holidays, said as French says them
    for said, past, inline in [
        ("je vais chez mes parents pour Noël", False, "Noël 2026"),
        ("on s'est fiancés à Noël", True, "Noël 2025"),
        ("je serai en congé pendant le Nouvel An", False, "Nouvel An 2027"),
        ("on part au ski à Pâques", False, "Pâques 2027"),
    ]:
        assert [d.inline for d in find_dates(said, NOW, True, past)[1]] == [inline], said
    for habit in ["on fête toujours Noël en famille", "j'adore Noël", "le marché de Noël était super"]:
        assert find_dates(habit, NOW, True, False) == (habit, []), habit
    # a plan before the comma says nothing of a holiday after it
    stale = find_dates("I'll sort it today, it's been stale since before Christmas", NOW, False, False)[1]
    assert [d.day for d in stale] == [date(2026, 11, 22)]
    # a period spent is the period itself: "spent the weekend of ...", not "spent on the weekend of"
    _, [weekend] = find_dates("I spent last weekend at the lake", NOW, False, True)
    assert weekend.inline == "the weekend of Saturday 14 November 2026"
    # Easter moves: the last one was on 5 April 2026, the next is on 28 March 2027.
    _, [easter] = find_dates("we painted eggs last Easter", NOW, False, True)
    _, [next_easter] = find_dates("we will paint eggs next Easter", NOW, False, False)
    assert (easter.day, next_easter.day) == (date(2026, 4, 5), date(2027, 3, 28))


def test_invalid_dates_are_left_alone() -> None:
    assert [i.event_at for i in run("the deadline is 2026-02-30")] == []
    assert run("the deadline is 31 February") == []


def test_a_day_followed_by_s_is_a_date_only_where_the_s_is_is() -> None:
    # "Friday's meeting": the meeting of a Friday already known, not a day to resolve.
    said = "Friday's meeting was cancelled"
    assert find_dates(said, NOW, False, False) == (said, [])
    text, found = find_dates("Friday's the big day", NOW, False, False)
    assert text == "\x000\x00's the big day" and [d.bare for d in found] == ["Friday 27 November 2026"]


def test_dates_use_the_timezone_of_now() -> None:
    paris = timezone(timedelta(hours=1))
    late = datetime(2026, 11, 22, 23, 30, tzinfo=paris)
    [item] = extract("J'ai un examen demain à 9h", "Mickael", now=late)
    assert item.content == "Mickael a un examen le lundi 23 novembre 2026 à 9h"
    assert item.event_at == datetime(2026, 11, 23, 9, tzinfo=paris).timestamp()


def test_naive_now_is_taken_as_utc() -> None:
    [item] = extract("the deadline is tomorrow", "Mickael", now=datetime(2026, 11, 22, 12))
    assert item.event_at == at(2026, 11, 23)


def test_default_now_resolves_relative_dates() -> None:
    [item] = extract("the deadline is tomorrow", "Mickael")
    assert item.event_at is not None
    assert item.memory_type is TODO


def test_todo_deadlines_expire_a_week_after_the_date_and_nothing_else_expires() -> None:
    [todo] = run("the deadline is Friday")
    assert todo.expires_at == at(2026, 11, 27) + WEEK
    [event] = run("my exam is on 3 June")
    assert event.expires_at is None
    [undated] = run("remember to buy milk")
    assert undated.expires_at is None and undated.event_at is None
    for item in run("I'm Mickael. I like pizza. We decided to use Go. I want to learn Rust."):
        assert item.expires_at is None and item.event_at is None
