"""What leaves no note, or none of the wrong kind, and how one message splits into its notes."""

from __future__ import annotations

import pytest

from memory.models import MemoryType
from memory.text import is_forget_request
from tests.extraction._support import (
    DEC,
    EVENT,
    FACT,
    ID,
    PREF,
    TODO,
    contents,
    run,
)
from tests.helpers import utc_timestamp as at


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm Camille. I like pizza. I hate olives. We decided to use Go. The deadline is Friday.",
            [
                (ID, "Mickael's name is Camille"),
                # Once they said their name, what follows calls them by it.
                (PREF, "Camille likes pizza"),
                (PREF, "Camille hates olives"),
                (DEC, "Camille and the team decided to use Go"),
                (TODO, "Deadline: Friday 27 November 2026"),
            ],
        ),
        (
            "I love sushi and I hate mushrooms",
            [(PREF, "Mickael loves sushi"), (PREF, "Mickael hates mushrooms")],
        ),
        (
            "Hey everyone, I'm Sarah and I work as a teacher in Lyon.",
            [(ID, "Mickael's name is Sarah"), (ID, "Sarah works as a teacher in Lyon")],
        ),
        (
            "je m'appelle Léa\net j'adore le chocolat",
            [(ID, "Mickael s'appelle Léa"), (PREF, "Léa adore le chocolat")],
        ),
        ("I love pizza, do you?", [(PREF, "Mickael loves pizza")]),
    ],
)
def test_one_message_yields_several_items_in_order(text: str, expected: list[tuple[MemoryType, str]]) -> None:
    assert contents(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t ",
        "ok",
        "lol 😂",
        # states and adjectives are not names
        "I'm tired",
        "I'm Happy to help",
        "I'm going",
        "I'm going home",
        "I'm not sure",
        "I'm Sorry about that",
        "I'm a bit tired today",
        "I'm 5 minutes late",
        "I'm Paul's brother",
        "je suis fatigué",
        "je suis partant",
        "je suis en retard",
        "call me later",
        # questions
        "do you like pizza?",
        "Do you like pizza",
        "what's my name?",
        "what's my name",
        "est-ce que j'aime la pizza ?",
        "Tu sais que j'aime la pizza ?",
        "did I break my leg?",
        "do you remember that I like pizza?",
        "comment je m'appelle",
        # hypotheticals and reported speech
        "if I liked pizza I would eat it",
        "If I broke my leg I would cry",
        "si j'aimais le foot je le dirais",
        "he likes pizza",
        "He broke his leg",
        "she said I love pizza",
        "my brother likes pizza",
        "il adore le rugby",
        # pronoun objects and conversational filler
        "I like it",
        "I love you",
        "I like the idea",
        "I love how you explain things",
        "I prefer not to say",
        "j'aime bien ça",
        "je t'aime",
        "I don't think so",
        "I want to say thanks",
        "I just want to say that you rock",
        "I don't want to go",
        "I want to go home",
        "I'm learning a lot",
        "je veux dire que c'est bien",
        "j'espère que tu vas bien",
        "je compte sur toi",
        "I got it",
        "I broke it",
        # "keep", "play", "grow" that are no pastime
        "I keep forgetting my keys",
        "I keep telling you",
        "I play it safe",
        "I play along",
        "I keep an eye on it",
        "I play a part in it",
        "I grow tired of this",
        "je fais attention",
        "je joue bien",
        # undecided
        "we haven't decided yet",
        "we need to decide on the database",
        "no decision yet",
        # reminiscing is not a request
        "I remember that my first car was red",
        # an event whose object is only a time or a pronoun once its preposition is taken away
        "I went to it yesterday",
        "I went there last week",
        "I started on Monday",
        # a hometown that names no place
        "My hometown is amazing",
        "My home country is in a crisis",
        "I miss my home country, which I left at 10",
        # verbs joined to another that are no win
        "I went home and got some sleep",
        "We played well and got the game",
        # ideas explored are no event
        "I explored the idea a bit",
        "We explored some options",
        # "this" and a name after a comma speaks to the listener unless it names a person
        "I got this one, Bob, from the store",
        "I found this, Ana, in the attic",
        "On another note, check out this pic I got a while back!",
        # the object came before the subject ("the things I love ..."): what follows is none
        "Connecting with the things I love makes writing even more fun.",
        "They remind me of what I've achieved and how far I've come.",
        "This is a book I found with tons of them!",
        "The people I met in CA were great",
        "The support I've got from friends and mentors means a lot",
        # "remember" joined to an infinitive said before it is a thought, not a request
        "It's so crucial to find a little peace and remember life's beauty.",
        "his hobbies are golf",
        # a gerund that is the subject is nothing the speaker is doing
        "Planning is key",
        # no subject, and what follows makes it chat
        "Went well",
        "Got it",
        "Started raining",
        "Took forever",
        "Got home late",
        "Built different",
        "Perdu mes clés hier",
        # "remember, ..." said as advice to the listener: no one to remember it about
        "Don't quit, remember, failures lead you closer to success.",
        "remember, you owe me lunch",
        "n'oublie pas que tu me dois 10 euros",
        # dates without anything to remember
        "See you tomorrow",
        "I'll see you tomorrow",
        "every Monday I go to the office",
        # "sat" and "sun" alone are no days
        "I sat in the sun",
        # "won't" is no "won"
        "I won't give up on it",
        "I won't let it slow me down",
        # advice to the listener, and what something evokes: no reminder, no event (the figurines
        # bought yesterday are: see test_a_relative_clause_is_neither_...)
        "Just remember to pause, reflect, and take care of yourself.",
        "These figurines remind me of family love.",
        "le lundi je vais à la piscine",
        # chat about tomorrow, said to the listener, or naming nothing done, is no to-do
        "I'll see you tomorrow",
        "I'll be there tomorrow",
        "I'll do it tomorrow",
        "I'll check tomorrow",
        "I'll send you the report tomorrow",
        # an event said to the listener: whom "you" names is known only in its own conversation
        "I'll call you tomorrow",
        "See you at the party on Friday",
        "I'm meeting you at the station on Monday",
        "Je t'appelle demain pour la réunion",
        # what the speaker asks the listener to do is nothing that happens to the speaker
        "Call me tomorrow about the meeting",
        "Tell me about the meeting tomorrow",
        "ok so call me about the party on Friday",
        "Appelle-moi demain pour la réunion",
        "Let me know by Friday if you can make the meeting",
        # an interest or a taste in what was just shown, and a "can't have" that is no diet
        "That really interests me",
        "I've been really into making this lately",
        "I can't have kids",
        "I don't eat that",
        "I had a look at it yesterday",
        "Je vais aller me coucher",
        "j'ai vu ton message hier",
        "We've got a pup and a kitty",
        "I'm going to run to the store",
        "I'm in NYC right now",
        "I'm going to bed now",
        "I'm gonna go to bed",
        "I'm thinking about you",
        "Playing it helps me get my emotions out",
        "It's what I use for self-expression",
        "I love doing this lately",
        "Talking to you helps me a lot",
        "my favorite is this one",
        "je vais le faire demain",
        "I'll not send the report tomorrow",
        "I'll maybe send the report tomorrow",
        "je vais pas finir le rapport demain",
        "I'll always remember our walk last Sunday",
        # a taste for what was just shown or said names nothing once read elsewhere
        "I love how uncomplicated it is",
        "I love having them around",
        "I love to!",
        "I love escaping to that world",
        "j'adore ça",
        # what one wants right now, or says for effect, is no aim
        "I want to die lol",
        "I just want to cry",
        "je veux dormir",
        # a request to remember with nothing said to keep
        "I'd like you to remember that",
        "please remember this!",
        # how much, with nothing liked
        "j'aime bien",
        "J'aime bien, merci",
        "j'adore trop !",
        "j'aime bien aussi",
        # no standing appointment: what one lacks, has to do, or finds fun; no console
        "I have no time on Mondays",
        "gonna be fun this weekend",
        "I'm in my second year of marriage lol",
        "I play on the team",
        "I play on Sundays",
        "RIP my sleep schedule",
        # no diet in what one can't "do", and a word alone says nothing of the speaker
        "I can't do mornings",
        "vegan",
    ],
)
def test_yields_nothing(text: str) -> None:
    assert run(text) == []


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        # an offer said with "let me" is what the speaker will do, in their name
        (
            "Let me book the flight tomorrow",
            (TODO, "Mickael will book the flight on Monday 23 November 2026"),
        ),
        (
            "lemme check with the team on Friday about the launch",
            (EVENT, "Mickael will check with the team on Friday 27 November 2026 about the launch"),
        ),
        # "let's" is the speaker's suggestion, of a day to come
        (
            "let's do the demo tomorrow",
            (EVENT, "Mickael suggested Mickael and others do the demo on Monday 23 November 2026"),
        ),
        (
            "Let us plan the trip next week",
            (
                EVENT,
                "Mickael suggested Mickael and others plan the trip in the week of Monday 23 November 2026",
            ),
        ),
    ],
)
def test_an_offer_or_a_suggestion_said_with_let_is_kept_in_the_speakers_name(
    text: str, memory: tuple[MemoryType, str]
) -> None:
    assert [(item.memory_type, item.content) for item in run(text)] == [memory]


@pytest.mark.parametrize(
    ("text", "memory_type"),
    [
        ("I'm tired but I like pizza", ID),
        ("I'm a bit confused", ID),
        ("je suis content de te voir", ID),
        ("I'd like a coffee", PREF),
        ("I'd like to learn Rust", PREF),
        ("j'aimerais apprendre le japonais", PREF),
        ("I'm a big fan of jazz", ID),
        ("je suis une grande fan de jazz", ID),
        ("Let's meet tomorrow", DEC),
        ("we should use Redis", DEC),
        # a verb whose object came before its subject leaves no event
        ("Here's a shot I got when I volunteered!", EVENT),
        ("a pic I bought while I was in Rome", EVENT),
        # "I like" inside a relative clause says which thing is meant, not a taste
        ("That's what I like to hear!", PREF),
        ("I'm really grateful to have a job I enjoy every day.", PREF),
        ("Connecting with the things I love makes writing even more fun.", PREF),
        ("Being my own boss and doing something I love is awesome.", PREF),
        # places once lived in, not where the speaker lives
        ("I've lived in Paris and Rome", ID),
        ("I don't work at weekends", ID),  # no change of workplace said
        ("I started working at 9am today", ID),  # when, not where
        ("I got a job for the summer", ID),
        ("J'ai commencé à travailler à 9h", ID),
        ("J'ai trouvé un job pour l'été", ID),
        # "venir de" before a verb is what was just done, not where one comes from
        ("Je viens de finir mon travail", ID),
        ("je viens d'arriver à Paris", ID),
        ("je viens de te le dire", ID),
        # leaving at an hour, with a feeling, or a role: no workplace left
        ("I left my job at 5pm", ID),
        ("I left my job with a heavy heart", ID),
        ("I was let go by my manager", ID),
        ("j'ai démissionné de mon poste", ID),
        ("j'ai quitté mon boulot à 18h", ID),
        # what is only supposed is not the speaker's
        ("Let's say I live in Tokyo", ID),
        ("what if I moved to Lyon and worked at Acme?", ID),
        ("Disons que j'habite à Lyon", ID),
        ("mettons que je travaille chez Acme", ID),
        # a team, a tool or a place unnamed is no home
        ("I moved to a new team", ID),
        ("I moved to the Design team", ID),
        ("we moved to Postgres last month", ID),
        ("I moved to Slack", ID),
        ("I moved to Rust for the backend", ID),
        ("I moved to the countryside", ID),
        # why or how one moved is no home
        ("j'ai déménagé en urgence", ID),
        ("J'ai déménagé à cause du bruit", ID),
        ("I use the stairs", ID),
        ("I'm married to my job", ID),
        ("I'm single-handedly running this", ID),
        ("I go by bike", ID),
        # no age: pages turned, or an age reached in a year long gone
        ("I turned 20 pages", ID),
        ("I turned 5 in 1995", ID),
        ("j'ai eu 18 ans en 2010", ID),
        # how one studies, ways of living, times of work and birth: no subject, home, workplace or birthplace
        ("I'm studying for my exams", ID),
        ("I studied for hours", ID),
        ("I study hard every night", ID),
        ("I live in fear of deadlines", ID),
        ("I'm living in the moment", ID),
        ("I was born in the wrong decade", ID),
        ("I work at night", ID),
        ("j'étudie pour mes examens", ID),
        ("je vis dans la peur", ID),
        ("je vis au jour le jour", ID),
        ("je suis née à la mauvaise époque", ID),
        ("je suis né dans les années 90", ID),
        # what the speaker has is no news
        ("I've got two cats", EVENT),
        ("I have got a dog and a cat", EVENT),
    ],
)
def test_does_not_misclassify(text: str, memory_type: MemoryType) -> None:
    assert memory_type not in [item.memory_type for item in run(text)], contents(text)


def test_a_clause_with_its_own_verb_before_and_i_is_still_a_clause_of_its_own() -> None:
    # "I love my wife" has a verb: two clauses, and "moved" happened to the speaker alone
    assert contents("I love my wife and I moved to Berlin") == [
        (PREF, "Mickael loves their wife"),
        (ID, "Mickael lives in Berlin"),
        (EVENT, "Mickael moved to Berlin"),
    ]


def test_a_relative_clause_is_neither_an_event_nor_the_start_of_what_a_kind_memory_quotes() -> None:
    # "the support I got" names the support; "made a huge difference" is the sentence's verb
    assert contents("the support I got made a huge difference") == []
    # the thing named before the verb is what happened, once: never "went to <date>" beside it
    assert contents("One special memory for me was this pride parade I went to a few weeks ago.") == [
        (EVENT, "Mickael went to a pride parade around the week of Monday 26 October 2026")
    ]
    # ... also where the verb's preposition ends the sentence (never "Mickael went to" beside it)
    assert contents("Yeah, that pic was from a show I went to.") == [(EVENT, "Mickael went to a show")]
    # bought yesterday is what happened; what they remind the speaker of is no reminder
    assert contents("These figurines I bought yesterday remind me of family love.") == [
        (EVENT, "Mickael bought some figurines on Saturday 21 November 2026")
    ]
    # the way, the first thing, the impact: nothing that happened
    assert contents("That's the way I saw it.") == []
    assert contents("The first thing I made was a mess.") == []
    assert contents("The impact we made on their life was inspiring!") == []
    # what the listener saw, and people talked with but not named, are not the speaker's events
    assert contents("I told the kids about a movie you saw.") == []
    assert contents("I talked with a friend about the job") == []
    assert (EVENT, "Mickael got made redundant") in contents("I got made redundant")
    # the kind memory quotes the clause from its own subject, past the relative one
    assert contents("Here's a shot I got when I volunteered!") == [
        (FACT, "Mickael's hobbies and activities include volunteering: Mickael volunteered")
    ]
    # ... and keeps the "when" of a time clause said first, its comma left out: never "Mickael was in
    # Paris Mickael ate a lot of croissants"
    assert contents("When I was in Paris I ate a lot of croissants") == [
        (
            FACT,
            "Mickael's travels and places visited include Paris: "
            "When Mickael was in Paris Mickael ate a lot of croissants",
        )
    ]


def test_question_tail_does_not_block_the_statement_before_it() -> None:
    assert contents("I love pizza, do you?") == [(PREF, "Mickael loves pizza")]
    assert run("Do you love pizza, or pasta?") == []


def test_polite_question_request_is_still_a_request() -> None:
    items = run("Can you remember that my birthday is on 3 May?")
    assert [(i.memory_type, i.content) for i in items] == [
        (FACT, "Mickael's birthday is on 3 May")  # every year's 3 May, the next one its date
    ]
    assert items[0].event_at == at(2027, 5, 3)


@pytest.mark.parametrize(
    "text",
    [
        "Merci à tous pour samedi",  # thanks for a day: no task due then
        "thanks for saturday guys",
        "school already?? wasn't she a baby like yesterday",  # asked, without its question mark
        "won't you come on Friday",
    ],
)
def test_thanks_and_questions_without_their_mark_note_nothing(text: str) -> None:
    assert contents(text) == []


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("please forget that I live in Paris", True),
        ("can you forget that I live in Paris?", True),
        ("bot, forget about my old job at Google", True),
        ("oublie que ma sœur habite à Lyon", True),
        ("don't forget that I'm vegetarian", False),
        ("n'oublie pas que je suis végétarien", False),
        ("I forgot my keys", False),
        ("forget about it lol", False),
        ("what did you forget about me?", False),
    ],
)
def test_a_request_to_forget_is_told_apart(text: str, asked: bool) -> None:
    assert is_forget_request(text) is asked
