"""The table of a work channel's days: deadlines, reminders, meetings and leave, as work chat says them."""

from __future__ import annotations

import pytest

from tests.extraction._support import (
    notes,
)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # a work channel's dates: the end of the day before the day, a reminder asked as a question
        ("the Q3 report is due EOD Friday", "Deadline for the Q3 report: Friday 27 November 2026"),
        (
            "can you remind me to call the vendor on Monday?",
            "Reminder for Mickael: call the vendor on Monday 30 November 2026",
        ),
        ("heads up: the office is closed on the 24th", "The office is closed on Thursday 24 December 2026"),
        # moved to a day is the day to come, even told in the past; "moved to Berlin" is not
        (
            "my 1:1 with Priya got moved to Thursday",
            "Mickael's 1:1 with Priya got moved to Thursday 26 November 2026",
        ),
        ("I moved the meeting to Friday", "Mickael moved the meeting to Friday 27 November 2026"),
        # a plan put off or called off is an event of its own
        ("we postponed the wedding to 2028", "Mickael and others postponed the wedding to 2028"),
        (
            "I rescheduled my dentist appointment to Friday",
            "Mickael rescheduled their dentist appointment to Friday 27 November 2026",
        ),
        ("we called off the product launch", "Mickael and others called off the product launch"),
        ("I cancelled my gym membership", "Mickael cancelled their gym membership"),
        ("we moved to Berlin in March", "Mickael and others moved to Berlin in March 2026"),
        # a span of days in one month
        (
            "the offsite is in Lisbon, March 3-5",
            "The offsite is in Lisbon, from Wednesday 3 March 2027 to Friday 5 March 2027",
        ),
        (
            "le séminaire c'est du 3-5 mars",
            "Le séminaire c'est du mercredi 3 mars 2027 au vendredi 5 mars 2027",
        ),
        ("I'm off from 10 to 20 May", "Mickael is off from Monday 10 May 2027 to Thursday 20 May 2027"),
        (
            "on part chez ses parents du 18 au 22 avril",
            "Mickael et d'autres partent chez ses parents du dimanche 18 avril 2027 au jeudi 22 avril 2027",
        ),
        # "my" after a verb in the past is its object: the clause keeps its own subject
        (
            "airline cancelled my flight so japan is now 2 to 16 dec",
            "Airline cancelled Mickael's flight so japan is now from Wednesday 2 December 2026 to "
            "Wednesday 16 December 2026",
        ),
        ("code freeze starts Dec 15", "Code freeze starts Tuesday 15 December 2026"),
        ("I'll be back on the 6th", "Mickael will be back on Sunday 6 December 2026"),
        # a span of weekdays ends on or after its start
        (
            "I'm off from Tuesday to Thursday",
            "Mickael is off from Tuesday 1 December 2026 to Thursday 3 December 2026",
        ),
        (
            "launch moved from Tuesday to Thursday",
            "Launch moved from Tuesday 1 December 2026 to Thursday 3 December 2026",
        ),
        # away or busy, without "I'm"; where one is until a day
        ("on PTO next week, ping Sam", "Mickael is on PTO in the week of Monday 30 November 2026, ping Sam"),
        ("WFH today", "Mickael is WFH on Wednesday 25 November 2026"),
        ("I'm on leave from Dec 15", "Mickael is on leave from Tuesday 15 December 2026"),
        ("I'm in Tokyo until Sunday", "Mickael is in Tokyo until Sunday 29 November 2026"),
        # days taken off, the end of today, a contract's end, a postmortem
        ("I'm taking Friday off", "Mickael is taking Friday 27 November 2026 off"),
        ("I'm taking next week off", "Mickael is taking the week of Monday 30 November 2026 off"),
        ("I'll send the deck by EOD", "Mickael will send the deck by Wednesday 25 November 2026"),
        ("the report is due EOD", "Deadline for the report: Wednesday 25 November 2026"),
        ("my contract ends in June", "Mickael's contract ends in June 2027"),
        ("postmortem is on Thursday at 2pm", "Postmortem is on Thursday 26 November 2026 at 2pm"),
        # who one is at work
        ("I own the payments migration", "Mickael owns the payments migration"),
        ("I now report directly to the CTO", "Mickael reports to the CTO"),
        ("I'm the new designer, started this week", "Mickael is the new designer"),
        # days that share one month named after them or before them, each in that month
        (
            "the offsite is on the 14th and 15th of January in Lisbon",
            "The offsite is on Thursday 14 January 2027 and Friday 15 January 2027 in Lisbon",
        ),
        ("offsite on 14 and 15 January", "Offsite on Thursday 14 January 2027 and Friday 15 January 2027"),
        ("offsite January 14th and 15th", "Offsite Thursday 14 January 2027 and Friday 15 January 2027"),
        (
            "I'm away the 3rd, 4th and 5th of March",
            "Mickael is away Wednesday 3 March 2027, Thursday 4 March 2027 and Friday 5 March 2027",
        ),
        (
            "le séminaire est les 14 et 15 janvier",
            "Le séminaire est le jeudi 14 janvier 2027 et le vendredi 15 janvier 2027",
        ),
        # a span of days before the month it is in, opened by "from" when nothing opens it
        (
            "the offsite is on the 14th-15th of January",
            "The offsite is from Thursday 14 January 2027 to Friday 15 January 2027",
        ),
        (
            "we're in Rome from the 14th to the 15th of January",
            "Mickael and others are in Rome from Thursday 14 January 2027 to Friday 15 January 2027",
        ),
        # one's own absence, said without its "I"
        (
            "can't make standup tomorrow, dentist at 9",
            "Mickael can't make standup on Thursday 26 November 2026, dentist at 9",
        ),
        ("won't be at standup tomorrow", "Mickael won't be at standup on Thursday 26 November 2026"),
        (
            "will be out tomorrow, kid is sick",
            "Mickael will be out on Thursday 26 November 2026, kid is sick",
        ),
        # a day after "and", told in the present of a day to come, is to come
        (
            "sorry for the delay, my laptop died and IT is sending a new one Thursday",
            "Mickael's laptop died and IT is sending a new one Thursday 26 November 2026",
        ),
        (
            "I broke my leg and the cast comes off Friday",
            "Mickael broke their leg and the cast comes off Friday 27 November 2026",
        ),
        # an age said with chat's end words; an age reached, a rent raised, a colleague leaving
        ("I'm 32 btw, turning 33 in March", "Mickael is 32 years old"),
        ("I'm turning 33 on March 14", "Mickael is turning 33 on Sunday 14 March 2027"),
        (
            "our landlord is raising the rent by 15% in February",
            "Mickael's landlord is raising the rent by 15% in February 2027",
        ),
        (
            "Nina from design is leaving at the end of the month",
            "Nina from design is leaving on Monday 30 November 2026",
        ),
        (
            "we're renovating the kitchen, so chaos at home until mid-January",
            "Mickael and others are renovating the kitchen, so chaos at home until mid-January 2027",
        ),
        (
            "the budget for Q1 is frozen, no new hires until April",
            "The budget for Q1 2027 is frozen, no new hires until April 2027",
        ),
        # a meeting moved from one day to another: both days are the ones to come
        (
            "the retro moved from Thursday to Friday this week",
            "The retro moved from Thursday 26 November 2026 to Friday 27 November 2026",
        ),
        (
            "the retro got moved from Thursday to Friday",
            "The retro got moved from Thursday 26 November 2026 to Friday 27 November 2026",
        ),
        # someone named, told in the past, of the last such day
        ("Sam got promoted on Tuesday", "Sam got promoted on Tuesday 24 November 2026"),
        ("Sam moved to Leeds on Saturday", "Sam moved to Leeds on Saturday 21 November 2026"),
        ("Sam is moving to Leeds on Saturday", "Sam is moving to Leeds on Saturday 28 November 2026"),
        # a relative of someone named
        ("Ken's wife had the baby on Monday", "Ken's wife had the baby on Monday 23 November 2026"),
        ("Maria's husband got a new job at Google", "Maria's husband got a new job at Google"),
        # a farewell, and a leaving do that is Sofia's
        (
            "I'm bringing the cake for Sofia's farewell on Friday",
            "Mickael is bringing the cake for Sofia's farewell on Friday 27 November 2026",
        ),
        ("Sofia's leaving drinks are on Thursday", "Sofia's leaving drinks are on Thursday 26 November 2026"),
        # a tool the team switches to, and from
        (
            "we're switching from Jira to Linear next sprint",
            "Mickael and the team decided to switch from Jira to Linear next sprint",
        ),
        ("we are migrating to Postgres", "Mickael and the team decided to migrate to Postgres"),
        # a part of a month after its preposition takes no "in" of its own
        (
            "we postponed the launch to mid-February",
            "Mickael and others postponed the launch to mid-February 2027",
        ),
        ("the launch slipped to late January", "The launch slipped to late January 2027"),
        # how long one has been sober, said first
        ("I'm 6 months sober today", "Mickael has been sober for 6 months as of Wednesday 25 November 2026"),
        ("I'm 100 days clean", "Mickael has been clean for 100 days"),
        # who stands in for the speaker
        ("Jonas is covering for me while I'm out", "Jonas is covering for Mickael while Mickael is out"),
        (
            "ok so Ana will cover for us on Friday",
            "Ana will cover for Mickael and others on Friday 27 November 2026",
        ),
        # a raise that takes effect, relatives who come for a holiday
        (
            "my boss approved my raise, effective January 1st",
            "Mickael's boss approved Mickael's raise, effective Friday 1 January 2027",
        ),
        ("mes beaux-parents viennent pour Noël", "Les beaux-parents de Mickael viennent pour Noël 2026"),
        # a reason said last, as someone's thing, stays with the clause it explains
        (
            "I can't play this weekend, my brother's wedding",
            "Mickael can't play on the weekend of Saturday 28 November 2026, their brother's wedding",
        ),
        # a game night and a one-shot are events
        (
            "we're doing a D&D one-shot next Friday, I'm DMing",
            "Mickael and others are doing a D&D one-shot on Friday 4 December 2026",
        ),
        # a weekday loved or hated before a noun is every week's
        ("I hate Mondays but I love the Monday standup lol", "Mickael loves the Monday standup"),
        # a standing time keeps its minutes
        ("standup is every day at 9:30", "Standup is every day at 9:30"),
        ("our team meets every Monday at 10:30", "Mickael's team meets every Monday at 10:30"),
        (
            "our guild raids Tuesdays and Thursdays at 8pm EST",
            "Mickael's guild raids Tuesdays and Thursdays at 8pm EST",
        ),
        # the language one grew up with
        ("my first language is Tagalog", "Mickael's first language is Tagalog"),
        # a date after a spaced dash is the sentence's own
        (
            "Booked the venue for our wedding — June 12, 2027 at Château de Vaux.",
            "Mickael booked the venue for their wedding — Saturday 12 June 2027 at Château de Vaux",
        ),
        # what is to be heard of a thing told in the past is to come
        (
            "Took the CFA level 1 exam on Saturday, results in January.",
            "Mickael took the CFA level 1 exam on Saturday 21 November 2026, results in January 2027",
        ),
        # a reminder to oneself is a reminder
        (
            "Reminder to self: renew passport before the Japan trip in April.",
            "Reminder for Mickael: renew passport before the Japan trip in April 2027",
        ),
        # a family's choice is no team's
        (
            "We finally picked a name for the baby: Elodie.",
            "Mickael and others picked a name for the baby: Elodie",
        ),
        (
            "the team decided to adopt a dog for the office",
            "Mickael and the team decided to adopt a dog for the office",
        ),
        # colleagues joining, with their role, after a heading
        (
            "Our team is growing: Léa joins as a designer on Monday and Omar starts in January.",
            "Léa joins as a designer on Monday 30 November 2026 and Omar starts in January 2027",
        ),
        # a recovery, a relative's relative, a language only one speaks, one's last day
        ("Happy to report I'm cancer free! Last scan was clean.", "Mickael is cancer-free"),
        (
            "My partner's parents are visiting from Seoul for two weeks starting Friday.",
            "Mickael's partner's parents are visiting from Seoul for two weeks starting Friday 27 "
            "November 2026",
        ),
        (
            "I'm the only one on the team who speaks German, so I handle the Berlin client.",
            "Mickael speaks German",
        ),
        (
            "Starting February 1st. Last day here is Jan 15.",
            "Mickael's last day here is Friday 15 January 2027",
        ),
        # a mention of the whole room is no part of the note
        (
            "@here the deploy freeze starts Dec 18 and ends Jan 4, no merges to main",
            "The deploy freeze starts Friday 18 December 2026 and ends Monday 4 January 2027, no merges "
            "to main",
        ),
        # what is one's weakness is what comes after "but"
        ("I'm lactose intolerant but cheese is my weakness", "Mickael's weakness is cheese"),
        ("mac and cheese is my comfort food", "Mickael's comfort food is mac and cheese"),
        # an offer turned down, what a relative goes through, a flatmate moving out, a new hire
        (
            "I turned down the Amazon offer, staying here",
            "Mickael turned down the Amazon offer, staying here",
        ),
        ("mom's surgery went well, she's home now", "Mickael's mom's surgery went well, she's home now"),
        (
            "my flatmate is moving out at the end of January",
            "Mickael's flatmate is moving out in late January 2027",
        ),
        (
            "the new hire Aiko starts Monday, she'll sit next to me",
            "Aiko starts Monday 30 November 2026, she'll sit next to Mickael",
        ),
        # French from-when
        (
            "je serai en congé maternité à partir de mars",
            "Mickael sera en congé maternité à partir de mars 2027",
        ),
        ("je suis en congé à partir d'avril", "Mickael est en congé à partir d'avril 2027"),
        # a standing meeting moved to other days
        (
            "our 1:1s are moving to Wednesdays at 11 from next week",
            "Mickael's 1:1s are moving to Wednesdays at 11 from the week of Monday 30 November 2026",
        ),
        # the week a day of the month falls in
        (
            "I've got jury duty the whole week of the 7th",
            "Mickael has got jury duty the whole week of Monday 7 December 2026",
        ),
        # an instrument once played in a band, and when
        (
            "When I was a teenager I played bass in a punk band called The Rusty Nails. We even opened for "
            "a local legend once.",
            "When Mickael was a teenager Mickael played bass in a punk band called The Rusty Nails",
        ),
        ("I played bass for The Rusty Nails", "Mickael played bass for The Rusty Nails"),
        # a correction is kept in place of what it corrects
        ("correction: the offsite is in Porto, not Lisbon", "The offsite is in Porto, not Lisbon"),
        ("correction: the offsite is on March 3", "The offsite is on Wednesday 3 March 2027"),
        # a belief corrected in the same breath: only what holds is noted
        ("I thought the deadline was Friday but it's actually Monday", "Deadline: Monday 30 November 2026"),
        (
            "I assumed our flight was at 9, turns out it's at 7am tomorrow",
            "Mickael's flight is at 7am on Thursday 26 November 2026",
        ),
        # single again, a mind changed, a thesis defended
        ("I'm single again", "Mickael is single"),
        (
            "changed my mind, not running the marathon this year",
            "Mickael changed their mind, not running the marathon in 2026",
        ),
        ("I'm done with my PhD! defended on Monday", "Mickael defended on Monday 23 November 2026"),
        # a trip called off is a household's choice
        (
            "we cancelled the trip to Greece because of the strikes",
            "Mickael and others cancelled the trip to Greece because of the strikes",
        ),
        # "I'm at X now" where the sentence speaks of work: the new workplace
        ("actually I don't work at Google anymore, I'm at Anthropic now", "Mickael works at Anthropic"),
        ("I left Meta in June, I'm at Plaid now", "Mickael works at Plaid"),
        # French: working from home one week is that week's, not how one works
        (
            "mon fils a la varicelle, je suis en télétravail cette semaine",
            "Mickael est en télétravail la semaine du lundi 23 novembre 2026",
        ),
        # how one works is no workplace; how well one speaks; a relative expecting; a diet since when
        ("je travaille à mi-temps depuis la naissance de ma fille", "Mickael travaille à mi-temps"),
        (
            "je parle couramment espagnol et un peu d'italien",
            "Mickael parle couramment espagnol et un peu d'italien",
        ),
        (
            "ma femme attend notre deuxième enfant pour avril",
            "La femme de Mickael attend leur deuxième enfant pour avril 2027",
        ),
        ("je suis végétarienne depuis l'année dernière", "Mickael est végétarienne depuis 2025"),
        # when and where one was born
        ("I was born in 1990 in Naples", "Mickael was born in 1990 in Naples"),
        ("I was born in 1990", "Mickael was born in 1990"),
        ("I was born on 3 May 1991", "Mickael was born on Friday 3 May 1991"),
        # a habit given up, a best friend named first, none of a kind
        ("I used to smoke but quit in 2018", "Mickael used to smoke but quit in 2018"),
        ("Maya is my best friend since kindergarten", "Mickael's best friend is called Maya"),
        ("I don't have any kids", "Mickael has no kids"),
        # words struck through are taken back
        ("~~I'm vegan~~ I'm vegetarian now", "Mickael is vegetarian"),
        # a note ends before the emoji it was said with
        ("**big news**: I'm getting married next August 💍🎉", "Mickael is getting married in August 2027"),
        ("my favourite band is Daft Punk ❤️", "Mickael's favorite band is Daft Punk"),
        # someone back from leave; a treatment since when
        (
            "Lisa's back from maternity leave on Monday",
            "Lisa is back from maternity leave on Monday 30 November 2026",
        ),
        (
            "I've been on antidepressants since 2022, they help a lot",
            "Mickael has been on antidepressants since 2022",
        ),
        # a part of a week
        (
            "we're launching mid-next week",
            "Mickael and others are launching in the middle of the week of Monday 30 November 2026",
        ),
        ("the release is early next week", "The release is early in the week of Monday 30 November 2026"),
        # "Monday week": a week after the coming Monday
        ("I'm off Monday week", "Mickael is off Monday 7 December 2026"),
        # the end of the day said before the day
        ("I need the slides by EOD Friday", "Mickael needs the slides by EOD Friday 27 November 2026"),
        # a task asked with "please" said last
        (
            "send it by COB tomorrow please",
            "Mickael asked someone to send it by COB on Thursday 26 November 2026",
        ),
        # a root canal, a beta closing
        ("this coming Tuesday I have a root canal", "On Tuesday 1 December 2026 Mickael has a root canal"),
        ("the beta closes at midnight Sunday", "The beta closes at midnight Sunday 29 November 2026"),
        # where one works remotely from
        ("I work remotely from Lisbon most of the year", "Mickael works remotely from Lisbon"),
        # what the speaker must do, said without its "I"
        ("need to send the report by Friday", "Mickael needs to send the report by Friday 27 November 2026"),
        ("have to renew my passport before March", "Mickael has to renew their passport before March 2027"),
    ],
)
def test_a_work_channel_s_days(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found
