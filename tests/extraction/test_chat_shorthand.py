"""What chat's own wording names nothing else, its shorthand and gaming talk, and what is no longer so."""

from __future__ import annotations

import pytest

from memory.text.shorthand import spelled_out
from tests.extraction._support import (
    contents,
    notes,
    run,
)
from tests.helpers import WEDNESDAY_NOON


@pytest.mark.parametrize(
    "text", ["Tom's back hurts after the move", "Sam's home is in Leeds", "it's going well"]
)
def test_an_s_is_read_as_is_only_where_is_alone_can_stand(text: str) -> None:
    assert not [c for _, c in contents(text) if " is back" in c or " is home" in c or "it is" in c]
    assert spelled_out(text) == text


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("I quit caffeine every January", "January 2027"),  # a habit: no year's January
        ("I run a small bakery", "running"),  # running a business is no sport
        ("I gave up sugar", "Mickael gave"),
        ("I should go to the gym more", "Mickael goes"),  # a wish, not a habit
        ("my oldest friend got married", "oldest"),  # a friend, not a child
        ("I'm applying to it now", "applying"),
        ("I stream on Twitch every Tuesday and Thursday night", "November"),  # every week's Thursday
        ("Update the docs please", "docs"),
        ("I'm in charge of snacks for the party lol", "charge"),
        ("my main is broken rn", "mains"),
        ("I'm in Gold leaf paint", "Gold"),
        ("I'm silver", "silver"),
        ("I'm Diamond right now", "name is"),
        ("my son has a point", "son"),
        ("I'm taking a break", "taking"),
        ("I've always wanted to say this", "wanted"),
        ("please release the lease agreement draft tomorrow", "November"),  # asked of others
        ("can you send the deck by Friday", "November"),
        ("we won the final, first time in 5 years", "2031"),  # for so long, not 5 years on
        ("last week was really eye-opening", "November"),  # no opening
        ("Same here", "name"),
        ("Mom here", "name"),
        ("Paris here, it is raining", "name"),
        ("je viens de te le dire", "Mickael"),
        ("on vient de Lyon", "viennent"),
        ("did you know the earth is round?", "earth"),
        ("my extra room is a gym", "extra"),
        ("I've been at Disneyland for 3 days", "worked"),
        ("my cats are named after cheeses", "called"),
        ("I'm gonna get a coffee", "Mickael is going"),
        ("I've lived in Paris and Rome", "has lived"),
        ("I'd rather not", "rather"),
        ("I'd rather do it than wait", "rather"),  # what "it" is was said before
        ("we named it after my grandpa", "called"),
        ("I'm switching to it now", "switching"),
        ("I've been clean all day", "clean"),
        ("starting today we use Jira", "Mickael is starting"),  # a time said first, then "we"
        ("I ran into Sam at the store", "running"),
        ("I ran out of milk", "running"),
        ("I'm the worst at this", "Mickael is the"),  # no role
        ("I'm the one for you", "Mickael is the"),
        ("back from Lisbon, what did I miss", "miss"),  # the question is left out
        ("I do yoga on Mondays", "Mickael yoga"),  # "do" is the verb here
        ("our Thursday campaign starts at 8", "November"),  # a weekday kept every week
        ("my Sunday brunch crew is the best", "November"),
        ("going to be a long day", "Mickael"),
        ("Going to bed now", "Mickael"),
        ("my wife is French", "called"),  # what she is, not her name
        ("my dad is Catholic", "called"),
        ("my son is 5 minutes late", "5"),  # no age
        ("mon fils a 5 minutes de retard", "5"),
        ("I moved here last year", "moved"),  # "here" is nowhere once read elsewhere
        ("I'll sell the car before moving to Lyon next month", "moved"),  # a move to come
        ("I lived in fear for years", "lived"),
        ("I lived in Paris before moving to Berlin", "Mickael lives in Paris"),
        ("our baby is due in March", "Deadline"),
        ("my wife is due in March", "Deadline"),
        ("she's due in March", "Deadline"),
        ("I used to live in Paris", "lives in"),
        ("I used to work at night", "used to"),  # when, not where
        ("I'm a ceiling fan", "fan of"),
        ("I'm GMT+1 btw", "name is"),
        ("I'm Diamond", "name is"),  # a rank
        ("I'm Gold 2", "name is"),
        ("I'm Senior Engineer at Stripe", "name is"),  # a title, as a signature writes it
        ("I'm CTO at Acme", "name is"),
        ("I'm VP Sales", "name is"),
        ("I'm DevOps", "name is"),
        ("I'm Super tired", "name is"),  # a capital for emphasis
        ("I'm not a nurse", "no longer"),  # no change said
        ("I stopped playing League", "include League"),
        ("I'm joining the team as a favor", "is a favor"),
        ("I'm joining Datadog as a staff engineer in January", "works at Datadog"),  # not yet
        ("I'm not a morning person anymore", "no longer a"),  # no job
        ("I'm Lowkey obsessed", "name is"),
        ("I'm Pregnant", "name is"),
        ("je suis PO sur le produit", "s'appelle"),
        ("je suis Parisien", "s'appelle"),  # where from, capitalised
        ("je suis Bretonne", "s'appelle"),
        ("je suis Scorpion", "s'appelle"),
        ("je suis Julien", "Julien est"),  # the name is no second note of what they are
        ("My name is Camille and I broke my shoulder", "their name is"),  # two clauses
        ("I'm INFJ", "name is"),
        ("I'm Online", "name is"),
        ("I moderate my drinking", "moderates"),
        ("I'm pregnant!! due in March", "Deadline"),
        ("the report? due in March", "Mickael is due"),  # no pregnancy: a task's date
        ("I'm moving to the next topic", "moving"),  # a move in the conversation
        ("we're moving to step 2", "moving"),
        ("I'm off to bed tomorrow", "bed"),
        ("we finished 4th and the 5th team got nothing", "December"),  # no day after "4th and"
        ("on dit qu'il pleut demain", "Mickael"),  # "on" is anyone here
        ("I'm on break time", "time ("),  # no place, no zone
        ("I'm on island time lol", "time ("),
        ("I'm on time", "time ("),
        # a weekday counted in the month, or kept every week, is no one day
        ("our book club meets the first Tuesday of every month", "2026"),
        ("the meetup is the last Friday of the month", "2026"),
        ("my running group meets Saturday mornings", "2026"),
        # the due date told after a pregnancy is a birth's, no task's deadline
        ("my wife is pregnant, due in May", "Deadline"),
        # a job that may be over, a fan, two gerunds that are a subject
        ("I've been a teacher", "Mickael has been"),
        ("I've been a fan for years", "Mickael has been"),
        ("Playing and singing let me unwind", "Mickael is playing"),
        # a team's rule is nobody's own
        ("no meetings on Fridays", "Mickael"),
        ("no meetings on Fridays, we need focus time", "Mickael"),
        ("Tom is out of ideas", "Tom"),  # no day: nothing of days at work
        ("Nadia is leaving the party early", "Nadia"),
        ("you beat me to it", "beat"),
        ("I hit the gym", "hit"),
        ("Sarah told Tom she starts Monday", "starts"),  # two names: whose "she" is open
        ("I teach my kids to swim", "teaches"),
        # a complaint said wryly is no taste
        ("I love how nobody answered my question", "loves"),
        ("I love how the build doesn't even start", "loves"),
        # a weekday every other week is no one day; "EOD" before a day is that day's end
        ("my 1:1 with Lisa is every other Wednesday", "2026"),
        ("the report is due EOD Friday", "25 November"),
        ("I'm half asleep", "half"),
        ("I'm running late", "running"),
        ("this is my jam", "Mickael"),
        ("if I go to bed at 10 I feel great", "goes to bed"),
        # "ill" and "were" as words of their own, "on sun" as the sun's
        ("I was ill last week", "will"),
        ("they were late again", "Mickael"),
        ("I sat on sun loungers all day", "Sunday"),
        ("j'enseigne à mes enfants à nager", "enseigne"),
        ("pas de réunion le vendredi", "Mickael"),
        # a request to forget teaches nothing of what it names
        ("please forget that my sister lives in Lyon", "Lyon"),
        ("bot, forget about my old job at Google", "Google"),
        ("oublie que ma sœur habite à Lyon", "Lyon"),
        ("I'm deaf to your complaints lol", "deaf"),
        # pronouns end as "teacher" does, and are no job
        ("I'm Aiko, she/her", "is a she/her"),
        ("j'adore les soirées du vendredi", "novembre"),
        # a film quoted, a joke of where one is from
        ("I'm Batman", "Batman"),
        ("I'm Iron Man", "Iron"),
        ("I'm from the future", "future"),
        ("I'm from another planet lol", "planet"),
        # a new clause's subject is no relative's deed; an errand is no trip
        ("my cat Luna, she was 17", "Luna she"),
        ("just got back from the ER, broke my wrist skateboarding", "travels"),
        ("I have two kids who I love more than anything", "loves"),
        ("Into the woods we go", "woods"),
        # "call" after "remember that" is a noun; the day set aside is no date of the event
        ("remember that call was rough", "Reminder"),
        # doubted or denied, a trip not taken, a move that is no trip, a day off that is no job left
        ("I wouldn't say I'm a gamer", "gamer"),
        ("I don't think I'm allergic to cats", "allergic"),
        ("I was supposed to fly to Rome today but the flight got cancelled", "travels"),
        ("I moved back to Paris in May", "travels"),
        ("I'm not working at Google today", "Google"),
        # "I've" names no one, whatever follows it
        ("I've got a job interview at Spotify on Thursday", "I've"),
        # a trip to come is no place visited
        ("we're spending Easter next year in Rome", "travels"),
        # a team's state is no result
        ("my team is great", "team"),
        ("we're doing a road trip across Scotland in May", "travels"),
        # June's days after June named, left as said (not the 9th of the month nearest)
        ("in June, 9th to 13th we're in London", "May"),
        ("in June, 9th to 13th we're in London", "December"),
        # a class taken, a tool: no drug, no language
        ("I'm taking Spanish for fun", "taking"),
        ("I'm fluent in Python", "speaks"),
        # "sept" alone is French for seven, "mar" Tuesday's short name: no month
        ("j'ai sept ans", "septembre"),
        ("on se voit mar 3", "mars"),
        ("BF deals are wild", "boyfriend"),
        # a breed's word said of no pet of the speaker's
        ("my voice is so husky today", "husky"),
        ("the terrier next door barks all night", "Mickael's"),
        # days listed out of order, or not days: no date made of them
        ("the 15th and 14th of January", "2027"),
        ("I have 2 kids and 3 dogs", "January"),
        # a thing that won't work is no absence of the speaker's
        ("won't work, the API is down", "Mickael"),
        ("have to admit the demo went well", "Mickael"),
        ("I'm leaving for lunch at noon", "leaving"),
        ("I turned down the music", "turned"),
        ("I'll send it by Friday, please hold", "asked someone"),
        ("Monday week 2 of the sprint starts", "7 December"),
        ("~~I'm vegan~~ I'm vegetarian now", "vegan"),
        ("Tom's back hurts", "Tom is"),
        # "I'm" is no name, "Coffee" no best friend, a day with no kids no lack of them
        ("nobody tell my boss I'm playing Zelda at work", "called I'm"),
        ("Coffee is my best friend", "called Coffee"),
        ("I don't have kids with me today", "has no kids"),
        ("je travaille à mi-temps depuis la naissance de ma fille", "à mi-temps depuis"),
        ("ma mère attend le bus", "attend"),
        ("I'm at Costco now, need anything?", "works"),
        # a trip called off is no place visited; a belief corrected is not kept
        ("we cancelled the trip to Greece because of the strikes", "places visited"),
        ("I thought the deadline was Friday but it's actually Monday", "Friday"),
        ("my first language is code lol", "language"),
        ("I love the Friday meeting", "November"),
        # "Mom" is no colleague standing in
        ("Mom is covering for me", "covering"),
        # a move of home is no decision of a team
        ("we're moving from London to Berlin in March", "decided"),
        ("I'm 2 and 0 this season", "years old"),
        # why a diet is kept, and when it is kept, are not how long it has lasted
        ("I'm vegan for ethical reasons", "has been"),
        ("I'm vegan this month", "has been"),
    ],
)
def test_what_chat_says_in_its_own_way_names_nothing_else(text: str, absent: str) -> None:
    found = notes(text)
    assert not any(absent in content for content in found), found


def test_a_race_run_is_no_group_led() -> None:
    assert "Mickael runs a marathon every year" not in [
        item.content for item in run("I run a marathon every year")
    ]
    assert "Mickael runs a D&D group" in [item.content for item in run("I run a D&D group")]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # shorthand typed without apostrophes, or shortened
        ("im from toronto btw", "Mickael is from toronto"),
        ("ive been playing guitar since 2015", "Mickael has been playing guitar since 2015"),
        ("my bday is next friday 🥳", "Mickael's birthday is Friday 4 December 2026"),
        ("u can call me Fox", "Mickael wants to be called Fox"),
        ("im 19 and in college", "Mickael is 19 years old"),
        ("my timezone is est", "Mickael is in the EST time zone"),
        ("Dont ping me before 10am", "Mickael asked not to be pinged before 10am"),  # opening a sentence
        # shorthand that only what follows tells apart from a word
        ("ill be off tmrw", "Mickael will be off on Thursday 26 November 2026"),
        ("were getting married in june!!", "Mickael and others are getting married in June 2027"),
        ("my sis lives in nyc", "Mickael's sister lives in nyc"),
        ("i luv sushi", "Mickael loves sushi"),
        ("wanna learn japanese this year", "Mickael wants to learn japanese in 2026"),
        (
            "ive got a dentist appt on thurs",
            "Mickael has got a dentist appointment on Thursday 26 November 2026",
        ),
        # French chat's own
        ("jsuis dev backend chez Doctolib", "Mickael est dev backend chez Doctolib"),
        ("mon anniv c'est le 12 mars", "L'anniversaire de Mickael c'est le 12 mars"),
        (
            "je pars en vacances la semaine pro",
            "Mickael part en vacances la semaine du lundi 30 novembre 2026",
        ),
        ("chui en vacances le mois pro", "Mickael est en vacances en décembre 2026"),
        ("je suis en télétravail le vendredi", "Mickael est en télétravail le vendredi"),
        ("je bosse de nuit", "Mickael travaille de nuit"),
        ("je viens d'avoir 30 ans", "Mickael a 30 ans"),
        # "Jai" is a name, capitalised: not "j'ai"
        ("Jai and I went hiking yesterday", "Mickael and Jai went hiking on Tuesday 24 November 2026"),
        # names on a service, ranks reached, a game night
        ("my username on steam is darkfox99", "Mickael's username on steam is darkfox99"),
        ("my IGN is FoxyMain, add me", "Mickael's IGN is FoxyMain"),
        ("just hit diamond in valorant!!! 🎉", "Mickael just hit diamond in valorant"),
        ("I hit level 50 last night", "Mickael hit level 50 on Tuesday 24 November 2026"),
        # a game's challenge beaten (was nothing); "beat me to it" is none
        ("gg everyone, we finally beat the raid boss", "Mickael and others finally beat the raid boss"),
        ("I beat the game last night", "Mickael beat the game on Tuesday 24 November 2026"),
        (
            "we're doing a raid at 8pm EST tonight",
            "Mickael and others are doing a raid at 8pm EST Wednesday 25 November 2026",
        ),
    ],
)
def test_chat_shorthand_and_gaming_talk(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # what is no longer so, said as chat says it
        ("I'm not married anymore", "Mickael is no longer married"),
        ("I'm no longer married", "Mickael is no longer married"),
        ("I moved out of Berlin", "Mickael moved out of Berlin"),
        ("j'habite plus à Paris", "Mickael n'habite plus à Paris"),  # spoken French drops "ne"
        ("je travaille plus chez Google", "Mickael ne travaille plus chez Google"),
    ],
)
def test_what_is_no_longer_so(text: str, content: str) -> None:
    assert content in [item.content for item in run(text)]


@pytest.mark.parametrize(
    "text",
    [
        "IM me later",  # an instant message, in capitals
        "check im.py",  # a file name
        "I hit the gym every day",  # no rank reached
        "my username is the same everywhere",
        "my timezone is weird",
        "I'm 2 and 0 this season",  # a record, not an age
    ],
)
def test_shorthand_look_alikes_say_nothing(text: str) -> None:
    assert run(text, now=WEDNESDAY_NOON) == []
