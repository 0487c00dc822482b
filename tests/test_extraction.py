"""Heuristic extraction: English and French rules, negatives, date resolution and robustness."""

from __future__ import annotations

import dataclasses
import importlib
import logging
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from adapters.attachment_notes import attachment_note, with_notes
from memory.models import MemoryType
from memory.text import Extracted, extract, extraction, is_forget_request
from memory.text.dates import find_dates, resolve_relative_dates
from memory.text.facts import Predicate
from memory.text.normalize import looks_french
from memory.text.phrases import quotes_closed
from memory.text.rewrite import third_person
from memory.text.sentences import split_clauses
from memory.text.shorthand import spelled_out
from memory.text.tense import told_in_past
from tests.helpers import ANY_CHAR, WEDNESDAY_NOON
from tests.helpers import SUNDAY_NOON as NOW  # a Sunday
from tests.helpers import utc_timestamp as at

WEEK = 7 * 86_400.0

ID = MemoryType.IDENTITY
PREF = MemoryType.PREFERENCE
DEC = MemoryType.DECISION
TODO = MemoryType.TODO
EVENT = MemoryType.EVENT
GOAL = MemoryType.GOAL
FACT = MemoryType.FACT


def run(text: str, speaker: str = "Mickael", now: datetime = NOW) -> list[Extracted]:
    return extract(text, speaker, now=now)


def contents(text: str, speaker: str = "Mickael") -> list[tuple[MemoryType, str]]:
    return [(item.memory_type, item.content) for item in run(text, speaker)]


def notes(text: str) -> list[str]:
    """What Mickael's `text` leaves, read at `WEDNESDAY_NOON`."""
    return [item.content for item in run(text, now=WEDNESDAY_NOON)]


def assert_written_out(said: str, written: str) -> None:
    """`said` has its dates written out as `written` at `WEDNESDAY_NOON`, and `written` is left as it
    is: a text whose dates are already written out is never dated twice."""
    assert resolve_relative_dates(said, WEDNESDAY_NOON) == written
    assert resolve_relative_dates(written, WEDNESDAY_NOON) == written


# --------------------------------------------------------------------------- positive cases


@pytest.mark.parametrize(
    ("text", "memory_type", "content"),
    [
        # self-identification
        ("I'm Camille", ID, "Mickael's name is Camille"),
        ("I am Camille", ID, "Mickael's name is Camille"),
        ("Hi, I'm Sarah!", ID, "Mickael's name is Sarah"),
        ("I am Mickael Dupont and I live in Lyon", ID, "Mickael's name is Mickael Dupont"),
        ("my name is camille", ID, "Mickael's name is Camille"),
        ("My name's Jean-Luc", ID, "Mickael's name is Jean-Luc"),
        ("call me Mick", ID, "Mickael wants to be called Mick"),
        ("I'm French", ID, "Mickael is French"),
        ("je suis Camille", ID, "Mickael s'appelle Camille"),
        ("je m'appelle Léa", ID, "Mickael s'appelle Léa"),
        ("mon nom est Dupont", ID, "Mickael s'appelle Dupont"),
        ("moi c'est Paul", ID, "Mickael s'appelle Paul"),
        ("appelle-moi Mika", ID, "Mickael veut qu'on l'appelle Mika"),
        ("I go by Sam", ID, "Mickael wants to be called Sam"),
        # pronouns, said as people say them
        ("my pronouns are she/her", ID, "Mickael's pronouns are she/her"),
        ("I use they / them pronouns", ID, "Mickael's pronouns are they/them"),
        ("pronouns: he/him", ID, "Mickael's pronouns are he/him"),
        ("mes pronoms sont iel/iel", ID, "Les pronoms de Mickael sont iel/iel"),
        # occupation, location, age, languages
        ("I work as a nurse", ID, "Mickael works as a nurse"),
        ("I'm a software engineer at Google", ID, "Mickael is a software engineer at Google"),
        ("I'm an early riser", ID, "Mickael is an early riser"),
        ("I work at Acme", ID, "Mickael works at Acme"),
        ("I live in Lyon", ID, "Mickael lives in Lyon"),
        ("I've lived in Berlin since 2019", ID, "Mickael has lived in Berlin since 2019"),
        (
            "I have been living in Lyon for 5 years",
            ID,
            "Mickael has lived in Lyon for 5 years (since about 2021)",
        ),
        # what is no longer so is said, so that the newest word on it is that one
        ("I no longer work at Acme", ID, "Mickael no longer works at Acme"),
        ("I got a new job at Stripe!", ID, "Mickael works at Stripe"),
        ("je ne travaille plus chez Acme", ID, "Mickael ne travaille plus chez Acme"),
        ("je n'habite plus à Paris", ID, "Mickael n'habite plus à Paris"),
        ("je ne suis plus végétarienne", PREF, "Mickael n'est plus végétarienne"),
        ("I started working at Google last month", ID, "Mickael works at Google"),
        # leaving a job: the profile's workplace is no longer it
        ("I quit my job at Acme last week", ID, "Mickael no longer works at Acme"),
        ("I got laid off from Google in March", ID, "Mickael no longer works at Google"),
        ("I left my job at the bank", ID, "Mickael no longer works at the bank"),
        ("J'ai quitté mon travail chez Acme", ID, "Mickael ne travaille plus chez Acme"),
        ("j'ai démissionné d'Airbus le mois dernier", ID, "Mickael ne travaille plus chez Airbus"),
        ("je me suis fait virer de Google", ID, "Mickael ne travaille plus chez Google"),
        ("j'ai quitté mon boulot à la banque", ID, "Mickael ne travaille plus à la banque"),
        # the place ends before why, and before what came next
        ("I got a new job at Stripe to be closer to home", ID, "Mickael works at Stripe"),
        ("I quit my job at Acme to work at Google", ID, "Mickael no longer works at Acme"),
        ("I left my job at Acme and started my own company", ID, "Mickael no longer works at Acme"),
        ("J'ai déménagé à Lyon pour le travail", ID, "Mickael habite à Lyon"),
        # a move to a named place says where the speaker lives now, as in French
        ("I just moved to Berlin", ID, "Mickael lives in Berlin"),
        ("We finally relocated to the UK", ID, "Mickael lives in the UK"),
        ("I moved to Paris to be closer to my family", ID, "Mickael lives in Paris"),
        ("I've moved back to Ohio", ID, "Mickael lives in Ohio"),
        ("J'ai trouvé un nouveau travail chez Acme", ID, "Mickael travaille chez Acme"),
        ("J'ai commencé à travailler chez Google le mois dernier", ID, "Mickael travaille chez Google"),
        ("I don't live in Paris anymore", ID, "Mickael no longer lives in Paris"),
        ("I'm not vegan anymore", PREF, "Mickael is no longer vegan"),
        ("I'm not vegetarian", PREF, "Mickael is not vegetarian"),
        # life and work events said with their date
        ("I'm getting married next June", EVENT, "Mickael is getting married in June 2027"),
        (
            "The deploy is scheduled for Thursday",
            EVENT,
            "The deploy is scheduled for Thursday 26 November 2026",
        ),
        (
            "I'm out of office until the 12th",
            EVENT,
            "Mickael is out of office until Saturday 12 December 2026",
        ),
        ("I'm from Montreal", ID, "Mickael is from Montreal"),
        # who or what the speaker leans on
        (
            "My friends, family and mentors are my rocks",
            FACT,
            "Mickael's friends, family and mentors are Mickael's rocks (support for Mickael)",
        ),
        (
            "My mom has always been my biggest fan",
            FACT,
            "Mickael's mom is Mickael's biggest fan (support for Mickael)",
        ),
        # a home country or hometown named
        ("It's a gift from my grandma in my home country, Sweden.", ID, "Mickael is from Sweden"),
        ("My hometown is a small village in Ohio", ID, "Mickael is from a small village in Ohio"),
        ("I visited my hometown, Lyon, last week", ID, "Mickael is from Lyon"),
        ("I was born in Marseille", ID, "Mickael was born in Marseille"),
        ("I'm 34 years old", ID, "Mickael is 34 years old"),
        ("I speak French and Spanish", ID, "Mickael speaks French and Spanish"),
        ("je suis développeur", ID, "Mickael est développeur"),
        ("je suis développeuse web chez Acme", ID, "Mickael est développeuse web chez Acme"),
        ("je suis parisien", ID, "Mickael est parisien"),
        ("j'habite à Paris", ID, "Mickael habite à Paris"),
        ("je travaille chez Airbus", ID, "Mickael travaille chez Airbus"),
        ("je vis à Bordeaux", ID, "Mickael vit à Bordeaux"),
        ("je suis née à Lyon", ID, "Mickael est née à Lyon"),
        ("j'ai 34 ans", ID, "Mickael a 34 ans"),
        # whether the speaker is married, single, in a couple: one value, the newest word wins
        ("I'm married", ID, "Mickael is married"),
        ("I'm happily married with two kids", ID, "Mickael is married"),
        ("je suis célibataire", ID, "Mickael est célibataire"),
        ("je suis en couple avec Paul", ID, "Mickael est en couple"),
        # who one is by temperament: said of who they are
        ("I'm an introvert", ID, "Mickael is an introvert"),
        ("I'm not a morning person", ID, "Mickael is not a morning person"),
        ("je ne suis pas du matin", ID, "Mickael n'est pas du matin"),
        ("je suis casanier", ID, "Mickael est casanier"),
        # the age just reached is the age now
        ("I turned 35 yesterday", ID, "Mickael is 35 years old"),
        ("I just turned 30!", ID, "Mickael is 30 years old"),
        ("j'ai eu 40 ans hier", ID, "Mickael a 40 ans"),
        ("je viens du Québec", ID, "Mickael vient du Québec"),
        ("je viens de lyon", ID, "Mickael vient de lyon"),
        # a move in French says where the speaker lives now ("déménager" is only ever a home)
        ("J'ai déménagé à Lyon l'an dernier", ID, "Mickael habite à Lyon"),
        ("on vient de déménager à Nantes", ID, "Mickael habite à Nantes"),
        ("Nous avons déménagé en Bretagne en 2020", ID, "Mickael habite en Bretagne"),
        ("je me suis installée à Lille le mois dernier", ID, "Mickael habite à Lille"),
        ("je parle anglais", ID, "Mickael parle anglais"),
        # family and pets
        ("my dog is called Rex", FACT, "Mickael's dog is called Rex"),
        ("my sister Léa is coming over", FACT, "Mickael's sister is called Léa"),
        ("I have two kids and a dog", FACT, "Mickael has two kids and a dog"),
        ("ma fille s'appelle Emma", FACT, "La fille de Mickael s'appelle Emma"),
        ("mon chat s'appelle Oscar", FACT, "Le chat de Mickael s'appelle Oscar"),
        # "we" have them as much as "I" do
        ("We have two kids and a dog", FACT, "Mickael has two kids and a dog"),
        ("I've got a cat named Pixel", FACT, "Mickael has a cat named Pixel"),
        ("Nous avons deux enfants", FACT, "Mickael a deux enfants"),
        ("On a un chat", FACT, "Mickael a un chat"),
        # the date of getting it is the event's; having it has none
        ("I got a puppy last week", FACT, "Mickael has a puppy"),
        ("We got two kittens on Friday", FACT, "Mickael has two kittens"),
        # "our" and "notre" name the speaker's relatives too
        ("our daughter is called Emma", FACT, "Mickael's daughter is called Emma"),
        ("our son Leo is starting school", FACT, "Mickael's son is called Leo"),
        ("notre fille s'appelle Emma", FACT, "La fille de Mickael s'appelle Emma"),
        ("notre fils Léo commence l'école", FACT, "Le fils de Mickael s'appelle Léo"),
        # preferences
        ("I like pizza", PREF, "Mickael likes pizza"),
        ("i love sushi", PREF, "Mickael loves sushi"),
        ("I prefer tea over coffee", PREF, "Mickael prefers tea over coffee"),
        ("I really enjoy hiking in the Alps", PREF, "Mickael enjoys hiking in the Alps"),
        ("I hate mushrooms", PREF, "Mickael hates mushrooms"),
        ("I dislike meetings", PREF, "Mickael dislikes meetings"),
        ("I don't like meetings", PREF, "Mickael dislikes meetings"),
        ("I do not really enjoy crowds", PREF, "Mickael dislikes crowds"),
        ("I can't stand loud music", PREF, "Mickael can't stand loud music"),
        ("I like my coffee black", PREF, "Mickael likes their coffee black"),
        ("I hate when people are late", PREF, "Mickael hates when people are late"),
        ("I'm a big fan of jazz", PREF, "Mickael is a fan of jazz"),
        ("I'm not a fan of meetings", PREF, "Mickael is not a fan of meetings"),
        ("I'm into climbing", PREF, "Mickael is into climbing"),
        # what points back into the conversation only after the heart of the taste is no matter
        (
            "I love helping the community and making it a better place",
            PREF,
            "Mickael loves helping the community and making it a better place",
        ),
        (
            "I love stories that tackle important issues",
            PREF,
            "Mickael loves stories that tackle important issues",
        ),
        ("I'm vegetarian", PREF, "Mickael is vegetarian"),
        ("my favorite color is blue", PREF, "Mickael's favorite color is blue"),
        ("My favourite band is Radiohead", PREF, "Mickael's favorite band is Radiohead"),
        ("j'aime la pizza", PREF, "Mickael aime la pizza"),
        ("j'aime bien le fromage", PREF, "Mickael aime bien le fromage"),
        ("j'adore le jazz", PREF, "Mickael adore le jazz"),
        ("je préfère le thé au café", PREF, "Mickael préfère le thé au café"),
        ("je déteste les réunions", PREF, "Mickael déteste les réunions"),
        ("je n'aime pas les épinards", PREF, "Mickael n'aime pas les épinards"),
        ("j'aime pas les lundis", PREF, "Mickael n'aime pas les lundis"),
        ("je ne supporte pas le bruit", PREF, "Mickael ne supporte pas le bruit"),
        ("je suis fan de rugby", PREF, "Mickael est fan de rugby"),
        ("je suis végétarien", PREF, "Mickael est végétarien"),
        ("mon plat préféré est la raclette", PREF, "Le plat préféré de Mickael est la raclette"),
        ("ma couleur préférée, c'est le vert", PREF, "La couleur préférée de Mickael est le vert"),
        ("mes films préférés sont les westerns", PREF, "Les films préférés de Mickael sont les westerns"),
        # health facts
        ("I'm allergic to peanuts", FACT, "Mickael is allergic to peanuts"),
        ("je suis allergique aux arachides", FACT, "Mickael est allergique aux arachides"),
        # decisions
        ("we decided to use Postgres", DEC, "Mickael and the team decided to use Postgres"),
        (
            "We've decided to move the launch to Q3",
            DEC,
            "Mickael and the team decided to move the launch to Q3 2027",
        ),
        ("we agreed on a weekly sync", DEC, "Mickael and the team agreed on a weekly sync"),
        ("I've decided to quit smoking", DEC, "Mickael decided to quit smoking"),
        ("let's go with Redis", DEC, "Mickael and the team decided to go with Redis"),
        ("ok let's go with Redis then!", DEC, "Mickael and the team decided to go with Redis"),
        ("on part sur Redis alors", DEC, "Mickael et l'équipe ont décidé de partir sur Redis"),
        (
            "we'll use FastAPI for the backend",
            DEC,
            "Mickael and the team decided to use FastAPI for the backend",
        ),
        ("we're going with the blue logo", DEC, "Mickael and the team decided to go with the blue logo"),
        ("Decision: ship on Fridays only", DEC, "Decision: ship on Fridays only"),
        ("The final decision is to postpone the release", DEC, "Decision: postpone the release"),
        # "we" in a labelled decision is the speaker's team, named for whoever reads it later
        ("it's decided: we freeze the API", DEC, "Decision: Mickael and others freeze the API"),
        ("on a décidé de passer à Rust", DEC, "Mickael et l'équipe ont décidé de passer à Rust"),
        (
            "nous avons décidé d'annuler la réunion",
            DEC,
            "Mickael et l'équipe ont décidé d'annuler la réunion",
        ),
        ("j'ai décidé de changer de travail", DEC, "Mickael a décidé de changer de travail"),
        ("c'est décidé : on migre vers Kubernetes", DEC, "Décision : on migre vers Kubernetes"),
        ("on part sur PostgreSQL", DEC, "Mickael et l'équipe ont décidé de partir sur PostgreSQL"),
        # explicit requests
        ("remember that my sister is called Léa", FACT, "Mickael's sister is called Léa"),
        ("please remember that the wifi password is hunter2", FACT, "The wifi password is hunter2"),
        ("don't forget that the office is closed on Fridays", FACT, "The office is closed on Fridays"),
        # read as the name of a relative, as the French one below is (it was kept as said)
        ("Bot, remember that Léa is my sister", FACT, "Mickael's sister is called Léa"),
        ("note: the API key rotates monthly", FACT, "The API key rotates monthly"),
        ("n'oublie pas que ma sœur s'appelle Léa", FACT, "La sœur de Mickael s'appelle Léa"),
        ("souviens-toi que j'ai un chat", FACT, "Mickael a un chat"),
        ("retiens que la réunion est annulée", FACT, "La réunion est annulée"),
        ("please remember that I'm allergic to peanuts", FACT, "Mickael is allergic to peanuts"),
        ("remember that I love jazz", PREF, "Mickael loves jazz"),
        ("retiens que je suis végétarien", PREF, "Mickael est végétarien"),
        ("remember to buy milk", TODO, "Reminder for Mickael: buy milk"),
        ("n'oublie pas de rappeler Paul", TODO, "Rappel pour Mickael : rappeler Paul"),
        # goals
        ("I want to learn Japanese", GOAL, "Mickael wants to learn Japanese"),
        ("I want to be a doctor", GOAL, "Mickael wants to be a doctor"),
        ("my goal is to run a marathon", GOAL, "Mickael's goal is to run a marathon"),
        ("I plan to visit Japan", GOAL, "Mickael plans to visit Japan"),
        ("I'm trying to lose weight", GOAL, "Mickael is trying to lose weight"),
        ("I'd like to learn Rust", GOAL, "Mickael would like to learn Rust"),
        ("I'm learning the guitar", GOAL, "Mickael is learning the guitar"),
        ("je veux apprendre le piano", GOAL, "Mickael veut apprendre le piano"),
        ("j'aimerais apprendre le japonais", GOAL, "Mickael aimerait apprendre le japonais"),
        ("je compte partir en Italie", GOAL, "Mickael compte partir en Italie"),
        ("mon objectif est de courir un marathon", GOAL, "L'objectif de Mickael est de courir un marathon"),
        # pastimes and habits
        ("Hi, I'm Dana and I keep bees on the roof", FACT, "Dana keeps bees on the roof"),
        ("I play the cello", FACT, "Mickael plays the cello"),
        ("I also play tennis on Fridays", FACT, "Mickael plays tennis on Fridays"),
        ("I grow tomatoes in my garden", FACT, "Mickael grows tomatoes in their garden"),
        ("I collect vinyl records", FACT, "Mickael collects vinyl records"),
        ("I practise yoga every morning", FACT, "Mickael practises yoga every morning"),
        ("je joue du piano", FACT, "Mickael joue du piano"),
        ("je fais de l'escalade", FACT, "Mickael fait de l'escalade"),
        ("je peins des paysages", FACT, "Mickael peint des paysages"),
        ("j'élève des poules", FACT, "Mickael élève des poules"),
        # personal events
        ("I broke my shoulder", EVENT, "Mickael broke their shoulder"),
        ("I got a new job", EVENT, "Mickael got a new job"),
        ("I just moved to Berlin", EVENT, "Mickael just moved to Berlin"),
        ("I've just got promoted!", EVENT, "Mickael has just got promoted"),
        ("I lost my keys", EVENT, "Mickael lost their keys"),
        # chat drops the subject of what happened to the speaker
        ("Lost my job yesterday", EVENT, "Mickael lost their job on Saturday 21 November 2026"),
        ("Just got some new shoes, too!", EVENT, "Mickael just got some new shoes, too"),
        ("Oh, moved to Berlin last month", EVENT, "Mickael moved to Berlin in October 2026"),
        ("Got a new puppy!", FACT, "Mickael's pets include a puppy: Mickael got a new puppy"),
        ("Moving to Berlin in March!", EVENT, "Mickael is moving to Berlin in March 2027"),
        ("I got into Harvard!", EVENT, "Mickael got into Harvard"),
        ("My hobbies are hiking and chess", FACT, "Mickael's hobbies include hiking and chess"),
        ("Playing chess is my main hobby", FACT, "Mickael's hobbies include playing chess"),
        ("Please book the room and remember that Tom is vegan", FACT, "Tom is vegan"),
        # a preposition and a date around a real object keep the event
        ("I went to a concert on Friday", EVENT, "Mickael went to a concert on Friday 20 November 2026"),
        # what is said to the listener after the event is left out: "you" is someone else elsewhere
        ("The launch is on Friday, you should come", EVENT, "The launch is on Friday 27 November 2026"),
        ("I went back to school last year", EVENT, "Mickael went back to school in 2025"),
        ("I won at chess on Friday", EVENT, "Mickael won at chess on Friday 20 November 2026"),
        ("je me suis cassé l'épaule", EVENT, "Mickael s'est cassé l'épaule"),
        ("j'ai trouvé un nouveau travail", EVENT, "Mickael a trouvé un nouveau travail"),
        ("j'ai eu un bébé", EVENT, "Mickael a eu un bébé"),
        ("je suis allé à Rome", EVENT, "Mickael est allé à Rome"),
        # a clause whose subject is its date is said with the date where a date goes
        ("Yesterday was my birthday!", EVENT, "Mickael's birthday was on Saturday 21 November 2026"),
        (
            "This week has been swamped with exams.",
            EVENT,
            "Mickael has been swamped with exams in the week of Monday 16 November 2026",
        ),
        ("Next Friday is the big presentation", EVENT, "The big presentation is on Friday 27 November 2026"),
        ("Tomorrow's my exam", EVENT, "Mickael's exam is on Monday 23 November 2026"),
        # the date said before the subject goes after the event, not away
        (
            "Yesterday I finally got my degree!",
            EVENT,
            "Mickael finally got their degree on Saturday 21 November 2026",
        ),
        # the date is the first word: the one after it keeps its case
        (
            "Last Friday at dance class with my friends I felt it.",
            EVENT,
            "On Friday 20 November 2026 at dance class with Mickael's friends Mickael felt it",
        ),
        # a title's closing quote stays when the full stop after it is trimmed
        (
            'I recently finished rereading "The Alchemist". It was inspiring.',
            EVENT,
            'Mickael recently finished rereading "The Alchemist"',
        ),
        # "a" is English too: a clause full of it is not read as French and left in the first person
        (
            "I adopted a dog a while ago.",
            FACT,
            "Mickael's pets include a dog: Mickael adopted a dog a while ago",
        ),
        # a request to be reminded, where it opens its clause or follows a polite lead-in
        (
            "remind me of the meeting on Friday",
            TODO,
            "Remind Mickael of the meeting on Friday 27 November 2026",
        ),
        ("hey, remind me to pay rent", TODO, "Reminder for Mickael: pay rent"),
        (
            "ok so remind me about the dentist on Monday",
            TODO,
            "Remind Mickael about the dentist on Monday 23 November 2026",
        ),
        # a time said first, before a comma, stays with the clause it dates
        ("Yesterday, I adopted a dog", EVENT, "Mickael adopted a dog on Saturday 21 November 2026"),
        ("Oh well, I lost my job yesterday", EVENT, "Mickael lost their job on Saturday 21 November 2026"),
        # who shares the subject stays in the event, and so does the date said first
        ("My wife and I moved to Berlin last year", EVENT, "Mickael and their wife moved to Berlin in 2025"),
        (
            "Last week my brother and I went to Rome",
            EVENT,
            "Mickael and their brother went to Rome in the week of Monday 9 November 2026",
        ),
        ("So Tim and I went hiking", EVENT, "Mickael and Tim went hiking"),
        # in French too
        ("Hier, j'ai adopté un chien", EVENT, "Mickael a adopté un chien le samedi 21 novembre 2026"),
        ("Hier j'ai perdu mon travail", EVENT, "Mickael a perdu son travail le samedi 21 novembre 2026"),
        # "nous", and "on" where it says "nous", are the speaker and others, as "we" is
        (
            "Nous avons adopté un chiot hier",
            EVENT,
            "Mickael et d'autres ont adopté un chiot le samedi 21 novembre 2026",
        ),
        (
            "On a gagné le tournoi samedi",
            EVENT,
            "Mickael et d'autres ont gagné le tournoi samedi 21 novembre 2026",
        ),
        ("Nous nous sommes mariés l'année dernière", EVENT, "Mickael et d'autres se sont mariés en 2025"),
        (
            "Nous sommes allés à Lisbonne en juin",
            EVENT,
            "Mickael et d'autres sont allés à Lisbonne en juin 2026",
        ),
        (
            "Hier, on s'est inscrits au marathon",
            EVENT,
            "Mickael et d'autres se sont inscrits au marathon le samedi 21 novembre 2026",
        ),
        # the preposition said with the date goes after the event with it, from a small letter
        ("On Friday, I got great news", EVENT, "Mickael got great news on Friday 20 November 2026"),
        ("In June I moved to Berlin", EVENT, "Mickael moved to Berlin in June 2026"),
        ("Friday I adopted a dog", EVENT, "Mickael adopted a dog on Friday 20 November 2026"),
        ("Friday, I adopted a dog", EVENT, "Mickael adopted a dog on Friday 20 November 2026"),
        ("Vendredi, j'ai adopté un chien", EVENT, "Mickael a adopté un chien le vendredi 20 novembre 2026"),
        ("En juin, j'ai adopté un chien", EVENT, "Mickael a adopté un chien en juin 2026"),
        # a year said with its preposition is kept
        ("In 2019 I moved to Berlin", EVENT, "Mickael moved to Berlin in 2019"),
        ("In 2019, I moved to Berlin", EVENT, "Mickael moved to Berlin in 2019"),
        # "But Tim and I": the filler is no part of who went
        ("But Tim and I went hiking", EVENT, "Mickael and Tim went hiking"),
        # "I like" after a phrase of time or place, a verb, a conjunction or an interjection is a taste
        ("Every day I enjoy a long walk", PREF, "Mickael enjoys a long walk"),
        ("At the weekend I love hiking", PREF, "Mickael loves hiking"),
        ("The thing is I love jazz", PREF, "Mickael loves jazz"),
        ("Oh my god I love sushi", PREF, "Mickael loves sushi"),
        ("I have a dog and I love cats", PREF, "Mickael loves cats"),
        ("Every Monday I love a swim", PREF, "Mickael loves a swim"),
        ("I baked a cake for the kids because I love baking", PREF, "Mickael loves baking"),
        # a taste told in the present perfect, an interest, what the speaker does not eat
        ("I've always loved jazz", PREF, "Mickael has always loved jazz"),
        ("I have always been passionate about music", PREF, "Mickael has always been passionate about music"),
        ("I've always hated mornings", PREF, "Mickael has always hated mornings"),
        (
            "They remind me why I'm so passionate about basketball",
            PREF,
            "Mickael is passionate about basketball",
        ),
        ("I'm interested in machine learning", PREF, "Mickael is interested in machine learning"),
        (
            "Improving education is particularly interesting to me.",
            PREF,
            "Mickael is interested in improving education",
        ),
        (
            "Learning about different cultures fascinates me",
            PREF,
            "Mickael is interested in learning about different cultures",
        ),
        ("Unfortunately, I can't have dairy, so no ice cream for me.", PREF, "Mickael can't have dairy"),
        ("I don't eat meat", PREF, "Mickael doesn't eat meat"),
        ("I no longer drink coffee", PREF, "Mickael no longer drinks coffee"),
        ("I'm drawn to turtles. They're unique.", PREF, "Mickael is drawn to turtles"),
        (
            "my favorite treat is this amazing chocolate raspberry tart",
            PREF,
            "Mickael's favorite treat is the amazing chocolate raspberry tart",
        ),
        # what the speaker uses, since when they have been doing something
        ("I use Arch btw", FACT, "Mickael uses Arch"),
        ("I main Mercy in Overwatch", FACT, "Mickael mains Mercy in Overwatch"),
        ("I've been coding for 10 years", FACT, "Mickael has been coding for 10 years (since about 2016)"),
        # who the speaker is: a time zone, how they work; a relative's job
        ("I'm in PST", ID, "Mickael is in the PST time zone"),
        ("my timezone is UTC+2", ID, "Mickael is in the UTC+2 time zone"),
        ("Mon fuseau horaire est CET", ID, "Mickael est dans le fuseau horaire CET"),
        # a zone written as one after "I'm" is no name ("I'm Art" is)
        ("I'm GMT+1 btw", ID, "Mickael is in the GMT+1 time zone"),
        ("je suis GMT+1", ID, "Mickael est dans le fuseau horaire GMT+1"),
        ("I'm Art", ID, "Mickael's name is Art"),
        ("I'm Dev", ID, "Mickael's name is Dev"),  # one word may be a name
        ("je suis Julien", ID, "Mickael s'appelle Julien"),
        ("je suis Marie", ID, "Mickael s'appelle Marie"),
        ("je suis CTO chez Doctolib", ID, "Mickael est CTO chez Doctolib"),
        ("My name is Camille and I broke my shoulder", EVENT, "Camille broke their shoulder"),
        ("I'm Senior Engineer at Stripe", ID, "Mickael is Senior Engineer at Stripe"),
        ("I'm Head of Design at Acme", ID, "Mickael is Head of Design at Acme"),
        ("I'm CTO at Acme", ID, "Mickael is CTO at Acme"),
        # a job that ended is the newest word on the job
        ("I'm not a nurse anymore, I retired", ID, "Mickael is no longer a nurse"),
        ("I'm no longer a teacher", ID, "Mickael is no longer a teacher"),
        ("I'm colorblind (deuteranopia)", FACT, "Mickael is colorblind"),
        ("I moderate the art channel", ID, "Mickael moderates the art channel"),
        ("I work remotely", ID, "Mickael works remotely"),
        ("My wife is a doctor", FACT, "Mickael's wife is a doctor"),
        ("Ma sœur est infirmière", FACT, "La sœur de Mickael est infirmière"),
        # a break-up, a trip to a named place on a day
        ("I broke up with my girlfriend", EVENT, "Mickael broke up with their girlfriend"),
        ("I'm going to Japan next month", EVENT, "Mickael is going to Japan in December 2026"),
        # what helps the speaker
        ("Dancing helps me de-stress. It's where I'm most alive.", FACT, "Dancing helps Mickael de-stress"),
        # (a gerund that is the subject is nothing the speaker is doing: not "Mickael is reading books")
        ("Reading books helps me relax", FACT, "Reading books helps Mickael relax"),
        (
            "I don't surf, but reading a great fantasy book helps me escape and feel free.",
            FACT,
            "Reading a great fantasy book helps Mickael escape and feel free",
        ),
        # what happened to the speaker and others
        ("We won the tournament", EVENT, "Mickael and others won the tournament"),
        (
            "We went to a homeless shelter to give out food and supplies.",
            EVENT,
            "Mickael and others went to a homeless shelter to give out food and supplies",
        ),
        # what the speaker explored, organised, gave, and whom they teamed up with
        ("We explored the old town of Porto", EVENT, "Mickael and others explored the old town of Porto"),
        ("I just teamed up with a local artist", EVENT, "Mickael just teamed up with a local artist"),
        (
            "We organized a bake sale for the shelter",
            EVENT,
            "Mickael and others organized a bake sale for the shelter",
        ),
        ("I donated my old car to the shelter", EVENT, "Mickael donated their old car to the shelter"),
        ("I scored 40 points, my highest ever", EVENT, "Mickael scored 40 points"),
        ("We fought hard and got the win!", EVENT, "Mickael and others fought hard and got the win"),
        ("I trained all year and won the race", EVENT, "Mickael trained all year and won the race"),
        # someone new, named after "this" or "that" (not what was just shown)
        (
            "I met this amazing woman, Jean, at the shelter",
            EVENT,
            "Mickael met this amazing woman, Jean, at the shelter",
        ),
        ("I met that guy named Tom at the gym", EVENT, "Mickael met that guy named Tom at the gym"),
        # someone new the speaker talked with, named (without a name it is chat)
        (
            "Yeah, at the event, I had a conversation with someone named David.",
            EVENT,
            "Mickael had a conversation with someone named David",
        ),
        (
            "I chatted with a guy called Tom at the bar last night",
            EVENT,
            "Mickael chatted with a guy called Tom at the bar on Saturday 21 November 2026",
        ),
        # what the speaker did, named before they say they did it
        (
            "One special memory for me was this pride parade I went to a few weeks ago.",
            EVENT,
            "Mickael went to a pride parade around the week of Monday 26 October 2026",
        ),
        (
            "The pottery class we took last summer was amazing!",
            EVENT,
            "Mickael and others took the pottery class in summer 2026",
        ),
        (
            "These figurines I bought yesterday remind me of family.",
            EVENT,
            "Mickael bought some figurines on Saturday 21 November 2026",
        ),
        # a plan for the speaker's life
        ("I'm going to open a bakery", GOAL, "Mickael is going to open a bakery"),
        (
            "Lost my job yesterday, so I'm gonna take a shot at starting my own business.",
            GOAL,
            "Mickael is going to take a shot at starting their own business",
        ),
        ("I'm thinking of starting a podcast", GOAL, "Mickael is thinking of starting a podcast"),
        ("I'm starting a dance studio 'cause I love dancing", GOAL, "Mickael is starting a dance studio"),
        # what the speaker had as a child
        ("I had a film camera as a kid", FACT, "Mickael had a film camera as a kid"),
        (
            "When I was a kid I had a dog named Rex",
            FACT,
            "Mickael had a dog named Rex when Mickael was a kid",
        ),
        (
            "It reminds me of the film camera I had as a kid, I took plenty of beach pics.",
            FACT,
            "Mickael had a film camera as a kid",
        ),
        (
            "I had a little doll like this when I was young",
            FACT,
            "Mickael had a little doll when Mickael was young",
        ),
        ("I told my friend about the camera I had as a kid", FACT, "Mickael had a camera as a kid"),
        ("As a kid, I had two hamsters", FACT, "Mickael had two hamsters as a kid"),
        ("Quand j'étais petit, j'avais un chien", FACT, "Enfant, Mickael avait un chien"),
        ("J'avais un vélo rouge quand j'étais petite", FACT, "Enfant, Mickael avait un vélo rouge"),
        # in French too: tastes, interests, diets, plans
        ("J'ai toujours adoré le jazz", PREF, "Mickael a toujours adoré le jazz"),
        ("Je suis très intéressée par l'histoire", PREF, "Mickael s'intéresse à l'histoire"),
        ("Je m'intéresse aux trains", PREF, "Mickael s'intéresse aux trains"),
        ("Je ne peux pas manger de gluten, donc pas de pain", PREF, "Mickael ne peut pas manger de gluten"),
        ("Je ne bois plus d'alcool", PREF, "Mickael ne boit plus d'alcool"),
        ("Je vais ouvrir une boulangerie", GOAL, "Mickael va ouvrir une boulangerie"),
        ("J'envisage de déménager à Lyon", GOAL, "Mickael envisage de déménager à Lyon"),
        ("J'ai vu un super film hier", EVENT, "Mickael a vu un super film le samedi 21 novembre 2026"),
        # what the speaker saw, read or had on a day
        ("I saw a great movie yesterday", EVENT, "Mickael saw a great movie on Saturday 21 November 2026"),
        (
            "I read a great book last week",
            EVENT,
            "Mickael read a great book in the week of Monday 9 November 2026",
        ),
        (
            "Yeah, last weekend we had a picnic with some friends",
            EVENT,
            "On the weekend of Saturday 14 November 2026 Mickael and others had a picnic with some friends",
        ),
        # what comes back every week, had rather than attended
        (
            "can't do thursday, I have physio every thursday at 6",
            FACT,
            "Mickael has physio every thursday at 6",
        ),
        (
            "I've got band practice every Wednesday at 7pm",
            FACT,
            "Mickael has band practice every Wednesday at 7pm",
        ),
        ("I have piano lessons on Wednesdays", FACT, "Mickael has piano lessons on Wednesdays"),
        # away, as gamers and plans say it
        (
            "gonna be AFK this weekend, camping with the kids",
            EVENT,
            "Mickael is going to be AFK on the weekend of Saturday 21 November 2026, camping with the kids",
        ),
        ("going to be back on Monday", EVENT, "Mickael is going to be back on Monday 23 November 2026"),
        # a move after "but", its "I" left out
        ("I used to live in Toronto but moved to Vancouver last year", ID, "Mickael lives in Vancouver"),
        ("I grew up in Lyon but then moved to Paris", ID, "Mickael lives in Paris"),
        # ... and the move said "before" it, after where one lived
        ("I used to live in Madrid before moving to Lyon in 2019", ID, "Mickael used to live in Madrid"),
        ("I used to live in Madrid before moving to Lyon in 2019", ID, "Mickael lives in Lyon"),
        ("I used to live in Madrid before moving to Lyon in 2019", EVENT, "Mickael moved to Lyon in 2019"),
        ("I grew up in Ohio before relocating to Texas in 2010", EVENT, "Mickael moved to Texas in 2010"),
        ("I used to live in Madrid before moving here in 2019", ID, "Mickael used to live in Madrid"),
        # where one lived, told in the simple past: never where one lives
        ("I lived in Madrid until 2019", ID, "Mickael lived in Madrid until 2019"),
        ("I lived in Seoul for two years", ID, "Mickael lived in Seoul for two years"),
        ("I lived in Paris before moving to Berlin", ID, "Mickael lived in Paris"),
        # a place said with what one thinks of it, or the next clause, with no comma between
        ("I live in Seoul and love it", ID, "Mickael lives in Seoul"),
        ("I work at Google and love it", ID, "Mickael works at Google"),
        ("when I lived in Paris I learned French", ID, "Mickael lived in Paris"),
        ("I live in Trinidad and Tobago", ID, "Mickael lives in Trinidad and Tobago"),
        # any other thing after "but" stays with what it answers
        ("I applied for the job but got rejected", EVENT, "Mickael applied for the job but got rejected"),
        # where one is in one's studies, and where one games
        ("I'm in my second year of med school", ID, "Mickael is in their second year of med school"),
        (
            "I'm in my first year of a PhD in chemistry",
            ID,
            "Mickael is in their first year of a PhD in chemistry",
        ),
        ("I play on PS5 mostly, sometimes Switch", FACT, "Mickael plays on PS5 mostly, sometimes Switch"),
        ("I mainly game on PC and Steam Deck", FACT, "Mickael mainly games on PC and Steam Deck"),
        # pronouns said between the name and the job; a toddler is kin; a team joined on a day
        ("I'm Aiko, she/her, a teacher from Ohio", ID, "Aiko is a teacher"),
        ("my name is Sherlock", ID, "Mickael's name is Sherlock"),
        ("I'm from the Bronx", ID, "Mickael is from the Bronx"),
        # how long a treatment lasts; the news after a return to the chat
        ("I'm on antibiotics for a week", FACT, "Mickael is on antibiotics for a week"),
        ("I'm on antibiotics until Friday", FACT, "Mickael is on antibiotics until Friday 27 November 2026"),
        ("back online, landed in Montreal", EVENT, "Mickael landed in Montreal"),
        # a death mourned as chat mourns it; a child's firsts; a relative's job and what of
        ("RIP my cat Luna, she was 17", FACT, "Mickael's cat Luna passed away"),
        ("rip to my grandpa, he was the best", FACT, "Mickael's grandpa passed away"),
        ("my son just started walking", FACT, "Mickael's son just started walking"),
        ("ma sœur est prof d'anglais", FACT, "La sœur de Mickael est prof d'anglais"),
        ("ma meuf est prof de maths", FACT, "La meuf de Mickael est prof de maths"),
        # a post's heading before its news; where one lives after where one is from; what one is into
        (
            "quick recap of my weekend: went to my cousin's wedding in Austin, flew back Sunday night",
            EVENT,
            "Mickael went to their cousin's wedding in Austin, flew back Sunday 15 November 2026 at night",
        ),
        ("I'm Jonas, 31, from Hamburg but living in Copenhagen for 4 years now", ID, "Jonas is from Hamburg"),
        (
            "Into bouldering, sourdough and 90s hip hop.",
            PREF,
            "Mickael is into bouldering, sourdough and 90s hip hop",
        ),
        # a task noted as a list or for oneself; what one owes and is owed; a day set aside
        (
            "todo: email the landlord about the heater",
            TODO,
            "Reminder for Mickael: email the landlord about the heater",
        ),
        (
            "don't let me forget to call grandma on her birthday",
            TODO,
            "Reminder for Mickael: call grandma on her birthday",
        ),
        ("note to self, buy milk", TODO, "Reminder for Mickael: buy milk"),
        (
            "note to self: the wifi password at the cabin is on the fridge",
            FACT,
            "The wifi password at the cabin is on the fridge",
        ),
        ("I owe Sam $50 for the concert tickets", FACT, "Mickael owes Sam $50 for the concert tickets"),
        ("Priya owes me a coffee", FACT, "Priya owes Mickael a coffee"),
        (
            "actually scratch that, the meeting is Thursday not Wednesday",
            EVENT,
            "The meeting is Thursday 26 November 2026 not Wednesday 25 November 2026",
        ),
        # what did not happen was in the past; a move after a comma; a job left, said as it goes on
        (
            "I didn't go to the party on Saturday",
            EVENT,
            "Mickael didn't go to the party on Saturday 21 November 2026",
        ),
        ("I'm no longer in Berlin, moved back to Paris in May", ID, "Mickael lives in Paris"),
        ("I'm not working at Google anymore, I'm at Meta now", ID, "Mickael no longer works at Google"),
        # a day something was moved to is to come; late, as plans say it; food one can't "do"; work
        # said "remote"; the end of the year; what one used to do; a team coached; a lefty
        (
            "we moved the sprint review to Wednesday",
            EVENT,
            "Mickael and others moved the sprint review to Wednesday 25 November 2026",
        ),
        (
            "gonna be late to raid tonight, kid's recital",
            EVENT,
            "Mickael is going to be late to raid on Sunday 22 November 2026, kid's recital",
        ),
        ("I can't do dairy, lactose intolerant", PREF, "Mickael can't have dairy"),
        ("i work remote for a company in Austin", ID, "Mickael works remotely"),
        ("I'm retiring at the end of the year", EVENT, "Mickael is retiring in December 2026"),
        ("I used to play bass in a punk band", FACT, "Mickael used to play bass in a punk band"),
        (
            "I coach my daughter's soccer team on Saturdays",
            ID,
            "Mickael coaches their daughter's soccer team on Saturdays",
        ),
        ("I'm a lefty so these scissors are useless to me", ID, "Mickael is left-handed"),
        # from 30 more fresh lines: a holiday's year said after it; a trip with a co-subject; a
        # relative's diagnosis; what a diet leaves in; an appointment said alone with its time
        (
            "we're hosting thanksgiving this year, 14 people",
            EVENT,
            "Mickael and others are hosting Thanksgiving 2026, 14 people",
        ),
        ("we're hosting thanksgiving next year", EVENT, "Mickael and others are hosting Thanksgiving 2027"),
        (
            "my brother and I are going to Japan in April",
            EVENT,
            "Mickael's brother and Mickael are going to Japan in April 2027",
        ),
        ("my mom just got diagnosed with diabetes", FACT, "Mickael's mom just got diagnosed with diabetes"),
        ("I'm vegetarian except for fish", PREF, "Mickael is vegetarian except for fish"),
        (
            "dentist at 4 tomorrow, might be late for standup",
            EVENT,
            "Mickael has the dentist at 4 on Monday 23 November 2026, might be late for standup",
        ),
        (
            "doctor's appointment tomorrow at 9",
            EVENT,
            "Mickael has a doctor's appointment on Monday 23 November 2026 at 9",
        ),
        # from 25 fresh French lines (no wrong note, 4 lines with something missed): a dislike said
        # "j'ai horreur de"; a game named; a visit and a stay for Christmas are when, not a deadline
        ("j'ai horreur des araignées", PREF, "Mickael a horreur des araignées"),
        ("je joue à Valorant presque tous les soirs", FACT, "Mickael joue à Valorant presque tous les soirs"),
        ("ma mère vient nous voir pour Noël", EVENT, "La mère de Mickael vient nous voir pour Noël 2026"),
        ("je vais chez mes parents pour Noël", EVENT, "Mickael va chez ses parents pour Noël 2026"),
        (
            "je vais finir le rapport pour lundi",
            TODO,
            "Mickael va finir le rapport pour lundi 23 novembre 2026",
        ),
        # a weekly 1:1 with whom
        (
            "I have a 1:1 with my manager every other Friday",
            FACT,
            "Mickael has a 1:1 with their manager every other Friday",
        ),
        # from a fourth batch of 30 fresh lines (1 wrong date, 2 facts in one, 6 lines with something
        # missed): pets named after a comma; a girl expected; a house closed on; a day off taken;
        # where one grew up after where one is from; what will be done again; an office's move
        ("I just adopted two kittens, Salt and Pepper", FACT, "Mickael's kittens are called Salt and Pepper"),
        ("we're expecting a girl in July", EVENT, "Mickael and others are expecting a girl in July 2027"),
        ("we just closed on our house!", EVENT, "Mickael and others just closed on their house"),
        (
            "I took the day off to go to my son's graduation",
            EVENT,
            "Mickael took the day off to go to their son's graduation",
        ),
        ("I'm from Nigeria but grew up in London", ID, "Mickael is from Nigeria"),
        (
            "I failed my driving test yesterday, retaking it in March",
            EVENT,
            "Mickael failed their driving test on Saturday 21 November 2026, retaking it in March 2027",
        ),
        (
            "our office is moving to Shoreditch in January",
            EVENT,
            "Mickael's office is moving to Shoreditch in January 2027",
        ),
        # from a fifth batch of 20 fresh lines (no wrong note, 5 lines with something missed): a
        # hundredth birthday; a relative's divorce to come; sober for days; back to school; a team's win
        (
            "my grandpa turns 100 on Saturday",
            EVENT,
            "Mickael's grandpa turns 100 on Saturday 28 November 2026",
        ),
        ("my parents are getting divorced", FACT, "Mickael's parents are getting divorced"),
        (
            "I've been sober 100 days today",
            FACT,
            "Mickael has been sober 100 days on Sunday 22 November 2026",
        ),
        (
            "I'm going back to school for nursing in the fall",
            GOAL,
            "Mickael is going back to school for nursing in the fall",
        ),
        ("my team won the league!", EVENT, "Mickael's team won the league"),
        # where one works, without what follows it; a job trained for
        ("I work for the government, can't say more", ID, "Mickael works for the government"),
        ("I live in Portland, Oregon", ID, "Mickael lives in Portland, Oregon"),
        ("I'm training to be a pilot", GOAL, "Mickael is training to be a pilot"),
        # from a seventh batch of 20 fresh lines (1 wrong place, 1 wrong verb form, 4 lines with
        # something missed): a pair's verb stays the pair's; a pet named after its breed; a relative in
        # the army; who one is going to become
        (
            "my wife and I celebrate our anniversary next week",
            EVENT,
            "Mickael's wife and Mickael celebrate their anniversary in the week of Monday 23 November 2026",
        ),
        ("I got a new puppy, a golden retriever named Max", FACT, "Mickael's puppy is called Max"),
        (
            "my brother is in the army, stationed in Germany",
            FACT,
            "Mickael's brother is in the army, stationed in Germany",
        ),
        ("I'm going to be an aunt!!", FACT, "Mickael is going to be an aunt"),
        # kin without what the speaker says of them; a move said as likely
        ("I don't have kids but I have 3 nephews I adore", FACT, "Mickael has 3 nephews"),
        (
            "ok so my landlord is raising the rent so we're probably moving out in March",
            EVENT,
            "Mickael and others are probably moving out in March 2027",
        ),
        ("please don't @ me after 7pm, I have a toddler", FACT, "Mickael has a toddler"),
        (
            "I'm switching to the platform team in January",
            EVENT,
            "Mickael is switching to the platform team in January 2027",
        ),
        # "du lundi": every Monday's, no one day
        ("je déteste les réunions du lundi matin", PREF, "Mickael déteste les réunions du lundi matin"),
        # from an eighth batch of 25 fresh lines (no wrong note, 5 lines with something missed): a
        # stay-at-home parent written without hyphens; the only one of a job; a pet named by its breed
        ("I'm a stay at home dad", ID, "Mickael is a stay at home dad"),
        (
            "I'm the only designer on a team of 12 engineers",
            ID,
            "Mickael is the only designer on a team of 12 engineers",
        ),
        ("we adopted a rescue greyhound called Rocket", FACT, "Mickael's greyhound is called Rocket"),
        ("my husky Luna hates the rain", FACT, "Mickael's husky is called Luna"),
        ("I have a beagle", FACT, "Mickael's pets include a beagle: Mickael has a beagle"),
        # from a tenth batch of 25 fresh lines (1 note with an aside kept, 5 lines with something missed):
        # a month shortened after "in"; "bf" and "kiddo"; "'s been"; a relative and their partner; a
        # house bought; an aside ("fyi") that ends what was said; a mental health day
        ("my son starts kindergarten in sept", EVENT, "Mickael's son starts kindergarten in September 2027"),
        ("we're moving in oct.", EVENT, "Mickael and others are moving in October 2027"),
        ("my bf is a chef so i never cook", FACT, "Mickael's boyfriend is a chef"),
        ("my kiddo starts school on Monday", EVENT, "Mickael's kid starts school on Monday 23 November 2026"),
        (
            "my mum's been in hospital since Sunday",
            EVENT,
            "Mickael's mum has been in hospital since Sunday 15 November 2026",
        ),
        ("Tom's been promoted!", FACT, "Tom has been promoted"),
        (
            "my brother and his wife just bought a house in Denver",
            FACT,
            "Mickael's brother and his wife just bought a house in Denver",
        ),
        (
            "i'm allergic to penicillin fyi in case anything ever happens",
            FACT,
            "Mickael is allergic to penicillin",
        ),
        (
            "taking a mental health day tmrw",
            EVENT,
            "Mickael is taking a mental health day on Monday 23 November 2026",
        ),
        # from an eleventh batch of 25 fresh lines (1 wrong range, 1 range half read, 3 lines with
        # something missed): days of the month as a span without "from" (the 21st has passed: the
        # span is December's), and after "approved my PTO" (days to come); a French span into the
        # next month; "June 9th to 13th"; a quarter of the year, to come or past, or a noun's word
        (
            "I'm off the 21st to the 28th",
            EVENT,
            "Mickael is off from Monday 21 December 2026 to Monday 28 December 2026",
        ),
        (
            "my manager approved my PTO for the 21st to the 28th",
            EVENT,
            "Mickael's manager approved Mickael's PTO from Monday 21 December 2026 to Monday 28 December"
            " 2026",
        ),
        (
            "I'm away 21st-28th",
            EVENT,
            "Mickael is away from Monday 21 December 2026 to Monday 28 December 2026",
        ),
        (
            "je serai absent du 23 au 2 janvier",
            EVENT,
            "Mickael sera absent du mercredi 23 décembre 2026 au samedi 2 janvier 2027",
        ),
        (
            "I'm off June 9th to 13th",
            EVENT,
            "Mickael is off from Wednesday 9 June 2027 to Sunday 13 June 2027",
        ),
        ("we're pushing the launch to Q1", EVENT, "Mickael and others are pushing the launch to Q1 2027"),
        ("the launch is in Q4", EVENT, "The launch is in Q4 2026"),
        ("we shipped the new API in Q3", EVENT, "Mickael and others shipped the new API in Q3 2026"),
        ("the launch slipped to Q2 2027", EVENT, "The launch slipped to Q2 2027"),
        ("I'm the DRI for the Q1 2027 migration", ID, "Mickael is the DRI for the Q1 2027 migration"),
        # from a thirteenth batch of 25 fresh lines (1 place with an invitation kept, 4 lines with
        # something missed): a drug named with what it treats, languages one is fluent in, a degree
        # under way, a home without the invitation that follows it
        ("I'm taking Lexapro for anxiety", FACT, "Mickael is taking Lexapro for anxiety"),
        ("I'm fluent in Spanish and learning Portuguese", ID, "Mickael speaks Spanish fluently"),
        ("I'm doing a PhD in neuroscience at UCL", ID, "Mickael is doing a PhD in neuroscience at UCL"),
        ("I live at 42 Baker Street, come by anytime", ID, "Mickael lives at 42 Baker Street"),
        # from a fourteenth batch of 25 fresh French lines (1 season a year early, 1 list of days cut
        # short, 2 notes with something missed): "this summer" to come, said once it is over, is
        # next year's (told in the past, this year's); a month after "pour"; "désolé" ends what was
        # said; the days one works from home
        (
            "we're moving to Bordeaux this summer",
            EVENT,
            "Mickael and others are moving to Bordeaux in summer 2027",
        ),
        ("on part en vacances cet été", EVENT, "Mickael et d'autres partent en vacances l'été 2027"),
        ("this summer we went to Spain", EVENT, "Mickael and others went to Spain in summer 2026"),
        (
            "ma femme est enceinte de notre deuxième, prévu pour avril",
            EVENT,
            "La femme de Mickael est enceinte de leur deuxième, prévu pour avril 2027",
        ),
        ("je déteste le jazz, désolé", PREF, "Mickael déteste le jazz"),
        (
            "je suis en télétravail le lundi et le vendredi",
            ID,
            "Mickael est en télétravail le lundi et le vendredi",
        ),
    ],
)
def test_extracts(text: str, memory_type: MemoryType, content: str) -> None:
    assert (memory_type, content) in contents(text)


def test_only_a_quote_left_open_is_closed() -> None:
    assert quotes_closed('rereading "The Alchemist') == 'rereading "The Alchemist"'
    assert quotes_closed('"Dune') == '"Dune"'
    assert quotes_closed('reading "Dune" now') == 'reading "Dune" now'
    assert quotes_closed("Bob grew to 6'2\"") == "Bob grew to 6'2\""


@pytest.mark.parametrize("text", ["I'm Mickael", "my name is mickael", "je suis Mickael"])
def test_introducing_yourself_by_your_display_name_teaches_nothing(text: str) -> None:
    assert [c for c in contents(text) if c[0] is ID] == []


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


# --------------------------------------------------------------------------- negative cases


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


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        # "I'm studying law" is what one studies, not where one lives
        ("I'm studying law", Predicate.STUDIES, "studying law"),
        ("I live in Lyon", Predicate.LOCATION, "lives in Lyon"),
        ("je suis originaire du Sud", Predicate.ORIGIN, "est originaire du Sud"),
        ("je suis originaire de Lyon", Predicate.ORIGIN, "est originaire de Lyon"),
        ("je viens du Québec", Predicate.ORIGIN, "vient du Québec"),
        ("J'ai déménagé à Lyon", Predicate.LOCATION, "habite à Lyon"),
    ],
)
def test_identity_facts_say_what_they_are_about(text: str, predicate: Predicate, value: str) -> None:
    facts = [item.fact for item in run(text) if item.memory_type is ID]
    assert [(f.predicate, f.object) for f in facts] == [(predicate, value)]


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


def test_question_tail_does_not_block_the_statement_before_it() -> None:
    assert contents("I love pizza, do you?") == [(PREF, "Mickael loves pizza")]
    assert run("Do you love pizza, or pasta?") == []


def test_polite_question_request_is_still_a_request() -> None:
    items = run("Can you remember that my birthday is on 3 May?")
    assert [(i.memory_type, i.content) for i in items] == [
        (FACT, "Mickael's birthday is on 3 May")  # every year's 3 May, the next one its date
    ]
    assert items[0].event_at == at(2027, 5, 3)


# --------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("text", "memory_type", "content", "event_at"),
    [
        ("the deadline is Friday", TODO, "Deadline: Friday 27 November 2026", at(2026, 11, 27)),
        (
            "the deadline for the report is Friday",
            TODO,
            "Deadline for the report: Friday 27 November 2026",
            at(2026, 11, 27),
        ),
        (
            "The deadline is next Friday for the grant application",
            TODO,
            "Deadline for the grant application: Friday 27 November 2026",
            at(2026, 11, 27),
        ),
        (
            "Our deadline for the MVP is December 15",
            TODO,
            "Deadline for the MVP: Tuesday 15 December 2026",
            at(2026, 12, 15),
        ),
        (
            "the report is due 2026-03-01",
            TODO,
            "Deadline for the report: Sunday 1 March 2026",
            at(2026, 3, 1),
        ),
        ("due on 12 March", TODO, "Deadline: Friday 12 March 2027", at(2027, 3, 12)),
        # a birthday comes back every year: its day is written without a weekday or a year
        ("my birthday is on 3 June", EVENT, "Mickael's birthday is on 3 June", at(2027, 6, 3)),
        (
            "mon anniversaire est le 1er mai",
            EVENT,
            "L'anniversaire de Mickael est le 1er mai",
            at(2027, 5, 1),
        ),
        (
            "The essay is due tomorrow",
            TODO,
            "Deadline for the essay: Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        (
            "My essay is due on Friday",
            TODO,
            "Deadline for Mickael's essay: Friday 27 November 2026",
            at(2026, 11, 27),
        ),
        (
            "The report is due 31/12/2026",
            TODO,
            "Deadline for the report: Thursday 31 December 2026",
            at(2026, 12, 31),
        ),
        (
            "the deadline is Friday at 5pm",
            TODO,
            "Deadline: Friday 27 November 2026 at 17:00",
            at(2026, 11, 27, 17),
        ),
        (
            "I need to send the invoice by next Monday",
            TODO,
            "Mickael needs to send the invoice by Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        (
            "We need to ship v2 by the end of the month",
            TODO,
            "Mickael and others need to ship v2 by Monday 30 November 2026",
            at(2026, 11, 30),
        ),
        (
            "I have to finish the slides in 3 days",
            TODO,
            "Mickael has to finish the slides on Wednesday 25 November 2026",
            at(2026, 11, 25),
        ),
        (
            "remind me to call mom tomorrow",
            TODO,
            "Reminder for Mickael: call mom on Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        (
            "don't forget to call the bank on Monday",
            TODO,
            "Reminder for Mickael: call the bank on Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        # what the speaker says they will do on a day is a dated to-do too
        (
            "I'll send the report tomorrow",
            TODO,
            "Mickael will send the report on Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        (
            "we'll ship the release on Friday",
            TODO,
            "Mickael and others will ship the release on Friday 27 November 2026",
            at(2026, 11, 27),
        ),
        (
            "I'll call the plumber on Tuesday",
            TODO,
            "Mickael will call the plumber on Tuesday 24 November 2026",
            at(2026, 11, 24),
        ),
        (
            "je vais finir le rapport demain",
            TODO,
            "Mickael va finir le rapport le lundi 23 novembre 2026",
            at(2026, 11, 23),
        ),
        # "rappelle-moi" is a reminder, said as the other reminders are
        (
            "rappelle-moi le rendez-vous chez le dentiste demain",
            TODO,
            "Rappel pour Mickael : le rendez-vous chez le dentiste le lundi 23 novembre 2026",
            at(2026, 11, 23),
        ),
        (
            "Rappelez-moi l'appel avec Paul vendredi",
            TODO,
            "Rappel pour Mickael : l'appel avec Paul vendredi 27 novembre 2026",
            at(2026, 11, 27),
        ),
        # a "rendez-vous" is a meeting, not something said to the listener ("vous")
        (
            "je vais annuler le rendez-vous demain",
            TODO,
            "Mickael va annuler le rendez-vous le lundi 23 novembre 2026",
            at(2026, 11, 23),
        ),
        ("pour vendredi", TODO, "Pour vendredi 27 novembre 2026", at(2026, 11, 27)),
        (
            "je dois finir la présentation pour vendredi",
            TODO,
            "Mickael doit finir la présentation pour vendredi 27 novembre 2026",
            at(2026, 11, 27),
        ),
        (
            "avant le 10 janvier il faut rendre le dossier",
            TODO,
            "Avant le dimanche 10 janvier 2027 il faut rendre le dossier",
            at(2027, 1, 10),
        ),
        ("la date limite est le 3 mars", TODO, "Date limite : mercredi 3 mars 2027", at(2027, 3, 3)),
        (
            "la date limite pour le mémoire est le 1er février",
            TODO,
            "Date limite pour le mémoire : lundi 1er février 2027",
            at(2027, 2, 1),
        ),
        (
            "le rapport est à rendre pour vendredi prochain",
            TODO,
            "Date limite pour le rapport : vendredi 27 novembre 2026",
            at(2026, 11, 27),
        ),
        (
            "rappelle-moi de payer le loyer le 1er décembre",
            TODO,
            "Rappel pour Mickael : payer le loyer le mardi 1er décembre 2026",
            at(2026, 12, 1),
        ),
        ("my exam is on 3 June", EVENT, "Mickael's exam is on Thursday 3 June 2027", at(2027, 6, 3)),
        (
            "I have a meeting tomorrow at 3pm",
            EVENT,
            "Mickael has a meeting on Monday 23 November 2026 at 3pm",
            at(2026, 11, 23, 15),
        ),
        (
            "I'm flying to NYC on Thursday",
            EVENT,
            "Mickael is flying to NYC on Thursday 26 November 2026",
            at(2026, 11, 26),
        ),
        (
            "Meeting on 2026-12-01 at 14:30",
            EVENT,
            "Meeting on Tuesday 1 December 2026 at 14:30",
            at(2026, 12, 1, 14, 30),
        ),
        ("J'ai un examen demain", EVENT, "Mickael a un examen le lundi 23 novembre 2026", at(2026, 11, 23)),
        ("réunion demain à 15h", EVENT, "Réunion le lundi 23 novembre 2026 à 15h", at(2026, 11, 23, 15)),
        (
            "Rendez-vous le 5 décembre à 10h30",
            EVENT,
            "Rendez-vous le samedi 5 décembre 2026 à 10h30",
            at(2026, 12, 5, 10, 30),
        ),
        (
            "mon entretien est après-demain",
            EVENT,
            "L'entretien de Mickael est mardi 24 novembre 2026",
            at(2026, 11, 24),
        ),
        (
            "the demo is next week",
            EVENT,
            "The demo is in the week of Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        # past tense: the last matching day, not the next one
        (
            "I broke my arm yesterday",
            EVENT,
            "Mickael broke their arm on Saturday 21 November 2026",
            at(2026, 11, 21),
        ),
        (
            "I got married last Saturday",
            EVENT,
            "Mickael got married on Saturday 21 November 2026",
            at(2026, 11, 21),
        ),
        (
            "I broke my arm on Friday",
            EVENT,
            "Mickael broke their arm on Friday 20 November 2026",
            at(2026, 11, 20),
        ),
        (
            "I graduated on 3 June",
            EVENT,
            "Mickael graduated on Wednesday 3 June 2026",
            at(2026, 6, 3),
        ),
    ],
)
def test_dates_are_resolved(text: str, memory_type: MemoryType, content: str, event_at: float) -> None:
    matches = [item for item in run(text) if item.content == content]
    assert matches, contents(text)
    assert matches[0].memory_type is memory_type
    assert matches[0].event_at == event_at


# Told in the past (an irregular or prefixed past form too), "Friday" is the one before, not the next.
@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I flew to Ulm on Friday", "Mickael flew to Ulm on Friday 20 November 2026"),
        ("I wrote a poem on Friday", "Mickael wrote a poem on Friday 20 November 2026"),
        ("I fly to Ulm on Friday", "Mickael flies to Ulm on Friday 27 November 2026"),
        # chat's short days, after "last" or "next"
        (
            "I went to a poetry reading last Fri",
            "Mickael went to a poetry reading on Friday 20 November 2026",
        ),
        ("I joined a choir last Tues.", "Mickael joined a choir on Tuesday 17 November 2026"),
        # a clause that opens on its date reads as a sentence, and "retook" stays a past form
        ("Last week I retook the test", "In the week of Monday 9 November 2026 Mickael retook the test"),
        # a plan told in the past is of a day to come; the day of agreeing is the one before
        ("We agreed to meet on Friday", "Mickael and the team agreed to meet on Friday 27 November 2026"),
        ("I promised to call her on Friday", "Mickael promised to call her on Friday 27 November 2026"),
        (
            "we pushed the demo back to Friday",
            "Mickael and others pushed the demo back to Friday 27 November 2026",
        ),
        (
            "On a décidé de partir vendredi",
            "Mickael et l'équipe ont décidé de partir vendredi 27 novembre 2026",
        ),
        ("We agreed on Friday to ship", "Mickael and the team agreed on Friday 20 November 2026 to ship"),
        # what was forgotten or found out has its own tense
        (
            "I forgot that my passport expires in February",
            "Mickael forgot that their passport expires in February 2027",
        ),
        ("I found out my sister moved to Lyon in March", "Mickael's sister moved to Lyon in March 2026"),
    ],
)
def test_the_tense_decides_which_day_is_meant(text: str, content: str) -> None:
    assert content in [item.content for item in run(text)]


# Who the clause is about need not be the speaker: the tense is theirs too; a future said in it wins.
@pytest.mark.parametrize(
    ("said", "past"),
    [
        ("My kids went to the park on Friday", True),
        ("She left on Friday", True),
        ("My sister got married in June", True),
        ("My friend Ted is coming on Friday", False),  # a name is no verb
        ("She said it will rain on Friday", False),
        ("I said I'll come on Friday", False),
        ("Ma sœur s'est mariée en juin", True),
        ("Nous avons eu des jumeaux en mars", True),
        ("On a gagné le match samedi", True),
        ("On a une réunion vendredi", False),
        ("Nous partons vendredi", False),
        ("Mon père a pris sa retraite en mars", True),
        ("Le concert est vendredi", False),
    ],
)
def test_the_tense_of_a_clause_about_someone_else(said: str, past: bool) -> None:
    assert told_in_past(said) is past


# "we" is the speaker and others (a family, friends, a team), not "the team" whoever they are; in
# French "nous", and "on" where it says "nous", with the verb in the third person plural.
@pytest.mark.parametrize(
    ("said", "rewritten"),
    [
        ("We adopted a puppy", "Mickael and others adopted a puppy"),
        ("We went on our weekend hike", "Mickael and others went on their weekend hike"),
        ("Our puppy chews everything", "Mickael's puppy chews everything"),
        ("He invited us to dinner", "He invited Mickael and others to dinner"),
        ("We moved to the US", "Mickael and others moved to the US"),
        ("We're proud of ourselves", "Mickael and others are proud of themselves"),
        ("Nous avons adopté un chiot", "Mickael et d'autres ont adopté un chiot"),
        ("On a adopté un chiot", "Mickael et d'autres ont adopté un chiot"),
        (
            "Nous sommes allés à Lisbonne avec nos enfants",
            "Mickael et d'autres sont allés à Lisbonne avec leurs enfants",
        ),
        ("Nous nous sommes mariés en juin", "Mickael et d'autres se sont mariés en juin"),
        ("On s'est inscrits au marathon", "Mickael et d'autres se sont inscrits au marathon"),
        ("Nous habitions à Lyon", "Mickael et d'autres habitaient à Lyon"),
        ("Nous étudions le droit", "Mickael et d'autres étudient le droit"),
        ("Nous mangeons ensemble", "Mickael et d'autres mangent ensemble"),
        ("Nous commençons lundi", "Mickael et d'autres commencent lundi"),
        ("Nous allons à Rome", "Mickael et d'autres vont à Rome"),
        ("Nous lancerons la version lundi", "Mickael et d'autres lanceront la version lundi"),
        (
            "Nous prendrons le train et nous verrons",
            "Mickael et d'autres prendront le train et Mickael et d'autres verront",
        ),
        (
            "Nous serons là, nous finirons tôt",
            "Mickael et d'autres seront là, Mickael et d'autres finiront tôt",
        ),
        ("Je sais qu'on a gagné", "Mickael sait que Mickael et d'autres ont gagné"),
        ("Lorsqu'on est arrivés", "Lorsque Mickael et d'autres sont arrivés"),
        # "nous" as an object, "l'on", and "notre" before anyone is named stay as said, but before a
        # relative or a pet, whose noun says its article, as "mon" does
        ("Elle nous a invités", "Elle nous a invités"),
        ("Si l'on a le temps", "Si l'on a le temps"),
        ("Notre maison est grande", "Notre maison est grande"),
        ("Notre chien est malade", "le chien de Mickael est malade"),
        ("Nos enfants sont à l'école", "les enfants de Mickael sont à l'école"),
    ],
)
def test_we_is_the_speaker_and_others(said: str, rewritten: str) -> None:
    assert third_person(said, "Mickael", french=looks_french(said)) == rewritten


@pytest.mark.parametrize(
    ("said", "rewritten"),
    [
        # "me" as someone else's object: "lui" (écrire à, offrir à), "l'" before a vowel, else the name
        ("Je préfère qu'on m'écrive par mail", "Mickael préfère qu'on lui écrive par mail"),
        ("Ma mère m'a offert un vélo", "la mère de Mickael lui a offert un vélo"),
        ("Mon mari m'a demandé en mariage", "le mari de Mickael l'a demandé en mariage"),
        ("Elle m'a demandé de venir", "Elle a demandé à Mickael de venir"),  # no one named before
        ("Il me contacte par mail", "Il contacte Mickael par mail"),
        ("On m'appelle Mick", "On appelle Mickael Mick"),
        ("Tu me manques", "Tu manques à Mickael"),
        ("Mon chef me met la pression", "le chef de Mickael lui met la pression"),
        # a verb of unknown construction keeps its "me" rather than a wrong sentence
        ("Il me regarde", "Il me regarde"),
        # the speaker's own "me" stays theirs
        ("Je me lève tôt", "Mickael se lève tôt"),
    ],
)
def test_the_speaker_as_someone_elses_object_in_french(said: str, rewritten: str) -> None:
    assert third_person(said, "Mickael", french=True) == rewritten


@pytest.mark.parametrize(
    ("said", "rewritten"),
    [
        # after a question's auxiliary the verb is not conjugated
        ("what did I miss", "what did Mickael miss"),
        ("can I bring a friend", "can Mickael bring a friend"),
        ("should I go", "should Mickael go"),
        # the present of "run" and "become" (their participles only are also past)
        ("I run every day", "Mickael runs every day"),
        ("I become someone else on stage", "Mickael becomes someone else on stage"),
        ("I read it", "Mickael read it"),
        # a second verb joined by "and" is in the first one's tense
        ("I climb and make terrible pottery", "Mickael climbs and makes terrible pottery"),
        ("I play guitar and sing", "Mickael plays guitar and sings"),
        ("I love it and hate it", "Mickael loves it and hates it"),
        ("I climbed and made pottery", "Mickael climbed and made pottery"),
        ("I hate when people talk and make noise", "Mickael hates when people talk and make noise"),
    ],
)
def test_the_verb_after_i_as_he_would_say_it(said: str, rewritten: str) -> None:
    assert third_person(said, "Mickael", french=False) == rewritten


# What happens to a relative is remembered of them, dated (said on Sunday 22 November 2026).
@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("My mom passed away last year", "Mickael's mom passed away in 2025"),
        (
            "Last week, my grandma passed away and it's been really hard",
            "Mickael's grandma passed away in the week of Monday 9 November 2026",
        ),
        ("My son was born on 3 June 2019", "Mickael's son was born on Monday 3 June 2019"),
        ("My son was born last year in August", "Mickael's son was born in August 2025"),
        ("My sister got married in June", "Mickael's sister got married in June 2026"),
        ("Yesterday my dad retired", "Mickael's dad retired on Saturday 21 November 2026"),
        ("My brother just got engaged!", "Mickael's brother just got engaged"),
        ("Ma mère est décédée l'année dernière", "La mère de Mickael est décédée en 2025"),
        ("Mon fils est né le 3 juin 2019", "Le fils de Mickael est né le lundi 3 juin 2019"),
        # "our" / "notre": the speaker's relative too ("notre" does not say the gender: the noun does)
        ("Our daughter was born on 3 June 2019", "Mickael's daughter was born on Monday 3 June 2019"),
        ("Our dad retired last year", "Mickael's dad retired in 2025"),
        ("Notre fille est née le 3 juin 2019", "La fille de Mickael est née le lundi 3 juin 2019"),
        ("Notre fils est né l'année dernière", "Le fils de Mickael est né en 2025"),
        ("Nos enfants sont nés en 2019", "Les enfants de Mickael sont nés en 2019"),
        ("My kids graduated last June", "Mickael's kids graduated in June 2026"),
        ("My parents got divorced last year", "Mickael's parents got divorced in 2025"),
        ("Mes parents se sont mariés en 1990", "Les parents de Mickael se sont mariés en 1990"),
        (
            "Ma sœur s'est mariée en juin et c'était magnifique",
            "La sœur de Mickael s'est mariée en juin 2026",
        ),
        # injuries, a hospital, a baby on the way, school, a job, a move: what a friend asks after
        (
            "My brother broke his leg last week",
            "Mickael's brother broke his leg in the week of Monday 9 November 2026",
        ),
        ("my wife is pregnant", "Mickael's wife is pregnant"),
        ("my dad is in the hospital", "Mickael's dad is in the hospital"),
        ("My son started school on Monday", "Mickael's son started school on Monday 16 November 2026"),
        ("my sister got a new job at Google", "Mickael's sister got a new job at Google"),
        ("my brother got into Harvard", "Mickael's brother got into Harvard"),
        ("my husband lost his job", "Mickael's husband lost his job"),
        ("We were all freaked when my son got into an accident.", "Mickael's son got into an accident"),
        (
            "My daughter was in a bad car accident last week",
            "Mickael's daughter was in a bad car accident in the week of Monday 9 November 2026",
        ),
        ("mon frère s'est cassé la jambe", "Le frère de Mickael s'est cassé la jambe"),
        ("ma femme est enceinte", "La femme de Mickael est enceinte"),
        # told in the passé composé, "lundi" is the last one
        (
            "ma fille a commencé l'école lundi",
            "La fille de Mickael a commencé l'école lundi 16 novembre 2026",
        ),
        ("mes parents ont déménagé samedi", "Les parents de Mickael ont déménagé samedi 21 novembre 2026"),
        # what a child may not eat, said with the "'s" of "is" too
        ("my son is allergic to peanuts", "Mickael's son is allergic to peanuts"),
        ("my son's allergic to peanuts", "Mickael's son is allergic to peanuts"),
        ("my little brother's sick", "Mickael's little brother is sick"),
        ("my sister broke up with her boyfriend", "Mickael's sister broke up with her boyfriend"),
        # a new job, a retirement, a school play to come
        (
            "my wife starts her new job on Monday",
            "Mickael's wife starts her new job on Monday 23 November 2026",
        ),
        ("my dad retires in June", "Mickael's dad retires in June 2027"),
        (
            "my daughter's school play is next Thursday",
            "Mickael's daughter's school play is Thursday 26 November 2026",
        ),
        # what a relative lives with, without what the speaker does about it
        ("my dad has Parkinson's so I fly home every other month", "Mickael's dad has Parkinson's"),
        ("my mom has stage 2 breast cancer", "Mickael's mom has stage 2 breast cancer"),
        ("my son has ADHD", "Mickael's son has ADHD"),
        # a child's year at school, a job held before
        ("my daughter's in 3rd grade now", "Mickael's daughter is in 3rd grade now"),
        ("my son is in year 5", "Mickael's son is in year 5"),
        ("my grandpa was a coal miner in Wales", "Mickael's grandpa was a coal miner in Wales"),
        # what is had, without the next clause's subject ("the kids love him")
        ("we have a dog and the kids love him", "Mickael has a dog"),
    ],
)
def test_what_happens_to_a_relative_is_remembered(text: str, content: str) -> None:
    assert content in [item.content for item in run(text)], contents(text)


@pytest.mark.parametrize(
    "text",
    [
        "If my mom died I would be lost",  # not asserted
        "My brother passed the salt",
        "my brother broke the vase",  # no injury
        "my sister got into an argument",  # no school
        "my dad is in the garden",
    ],
)
def test_no_life_event_of_a_relative_where_none_was_told(text: str) -> None:
    assert not [c for _, c in contents(text) if "passed" in c or "died" in c], contents(text)


def test_working_from_home_is_how_one_works_and_one_day_of_it_an_event() -> None:
    def facts(text: str) -> list[tuple[str, str]]:
        return [(item.predicate.value, item.content) for item in run(text, now=WEDNESDAY_NOON)]

    # no employer: the workplace stays whoever the speaker works for
    assert facts("I work from home on Fridays") == [("about", "Mickael works from home on Fridays")]
    assert facts("I work remotely on Mondays and Fridays") == [
        ("about", "Mickael works remotely on Mondays and Fridays")
    ]
    assert facts("I work from home tomorrow") == [
        ("event", "Mickael works from home on Thursday 26 November 2026")
    ]
    assert facts("I work remotely this week") == [
        ("event", "Mickael works remotely in the week of Monday 23 November 2026")
    ]


def test_working_from_home_one_week_is_no_way_of_working() -> None:
    found = [content for _, content in contents("je suis en télétravail cette semaine")]
    assert "Mickael est en télétravail" not in found, found
    weekly = [content for _, content in contents("je suis en télétravail le vendredi")]
    assert "Mickael est en télétravail le vendredi" in weekly, weekly


def test_an_instrument_played_for_a_while_is_no_band_played_in() -> None:
    found = [content for _, content in contents("I played guitar for hours yesterday")]
    assert not [content for content in found if content.startswith("Mickael played")], found


def test_a_relative_s_relative_is_named_as_theirs() -> None:
    # a friend's mom is no mom of the speaker's; her news is the friend's
    assert contents("My friend's mom passed away") == [(FACT, "Mickael's friend's mom passed away")]
    assert contents("my wife's grandmother passed away last week") == [
        (EVENT, "Mickael's wife's grandmother passed away in the week of Monday 9 November 2026")
    ]


def test_what_a_relative_has_is_news_only_when_it_is_a_condition() -> None:
    assert contents("my dad has a lot of opinions") == []


def test_a_pet_in_the_next_clause_is_not_what_was_had() -> None:
    said = "we got a Roomba and the cat is terrified of it"
    assert not [c for _, c in contents(said) if c.startswith("Mickael has")], contents(said)


def test_who_does_what_is_a_decision_of_the_one_named() -> None:
    # Said of others, with no word of the speaker's: each one named gets the work given to them.
    said = "agreed, Maria owns the migration and Ken does the rollback plan"
    assert contents(said) == [
        (MemoryType.DECISION, "Maria owns the migration"),
        (MemoryType.DECISION, "Ken does the rollback plan"),
    ]
    found = run("sounds good, Priya will handle our onboarding docs")
    assert [(item.content, item.subject) for item in found] == [
        ("Priya will handle the team's onboarding docs", "Priya")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Ken does the dishes",  # a habit: nothing settled
        "Apple owns the patent",  # a company
        "If Maria owns the migration we're fine",  # no one named "If Maria"
        "Mom is handling the party",  # the speaker's mom: her news, not the team's work
    ],
)
def test_no_one_is_given_work_where_none_was_given(text: str) -> None:
    assert not [c for t, c in contents(text) if t is MemoryType.DECISION], contents(text)


def test_two_days_said_in_one_sentence_are_two_clauses() -> None:
    # A stand-up's "yesterday I …, today I'm …": each day with its own clause (the second day was
    # written inside the first clause's note, before its subject).
    said = "standup: yesterday I fixed the flaky auth tests, today I'm on the CSV export"
    assert contents(said) == [(EVENT, "Mickael fixed the flaky auth tests on Saturday 21 November 2026")]


@pytest.mark.parametrize(
    ("text", "content", "name"),
    [
        (
            "Sam got promoted to team lead yesterday",
            "Sam got promoted to team lead on Saturday 21 November 2026",
            "sam",
        ),
        ("Sam just got promoted", "Sam just got promoted", "sam"),
        ("omg Priya and Tom got engaged!!", "Priya and Tom got engaged", "priya"),
        ("Priya is moving to Lisbon next month", "Priya is moving to Lisbon in December 2026", "priya"),
        ("Dave lives in Leeds now", "Dave lives in Leeds now", "dave"),
        ("Dave is in Leeds now", "Dave is in Leeds now", "dave"),
        ("Sam and Ana are in New York these days", "Sam and Ana are in New York", "sam"),
        ("Jake broke his leg skiing", "Jake broke his leg skiing", "jake"),
        ("Sarah got a new job at Google and she loves it", "Sarah got a new job at Google", "sarah"),
        ("Ana had her baby last night", "Ana had her baby on Saturday 21 November 2026", "ana"),
        ("Jean Paul moved to Lyon", "Jean Paul moved to Lyon", "jean paul"),
        # kin said as a name is the speaker's
        ("Mom got promoted", "Mickael's mom got promoted", "mom"),
        # the "'s" of "is", and what someone may not eat
        ("Tom's allergic to peanuts btw", "Tom is allergic to peanuts", "tom"),
        ("Priya's pregnant!!", "Priya is pregnant", "priya"),
        ("Alex is vegan so no bbq", "Alex is vegan", "alex"),
        ("Jess and Mike broke up", "Jess and Mike broke up", "jess"),
        ("Marco quit his job", "Marco quit his job", "marco"),
        # days at work, with the day said (were nothing)
        ("Sarah starts Monday", "Sarah starts Monday 23 November 2026", "sarah"),
        ("Tom is out Friday", "Tom is out Friday 27 November 2026", "tom"),
        ("Priya will be back on the 6th", "Priya will be back on Sunday 6 December 2026", "priya"),
        # ... and said as "she" or "he" of the one person the sentence opened with
        ("Sarah is our new designer, she starts Monday", "Sarah starts Monday 23 November 2026", "sarah"),
        ("Tom is sick, he is out Friday", "Tom is out Friday 27 November 2026", "tom"),
        (
            "Nadia is leaving the company end of month",
            "Nadia is leaving the company on Monday 30 November 2026",
            "nadia",
        ),
    ],
)
def test_what_happens_to_someone_named_is_remembered(text: str, content: str, name: str) -> None:
    found = [item for item in run(text) if item.content == content]
    assert found, contents(text)
    assert name in found[0].subjects and found[0].subject != "Mickael"


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
    ("said", "named", "event"),
    [
        (
            "Moi je pars en Corse le 9 août avec ma copine Françoise",
            "La copine de Mickael s'appelle Françoise",
            "Mickael part en Corse le lundi 9 août 2027 avec sa copine Françoise",
        ),
        (
            "I'm going to Corsica on 9 August with my friend Françoise",
            "Mickael's friend is called Françoise",
            "Mickael is going to Corsica on Monday 9 August 2027 with their friend Françoise",
        ),
    ],
)
def test_a_name_said_in_passing_leaves_the_dated_event(said: str, named: str, event: str) -> None:
    # The friend's name was the clause's only memory: the trip on the 9th was lost.
    assert contents(said) == [(MemoryType.FACT, named), (MemoryType.EVENT, event)]


@pytest.mark.parametrize(
    ("said", "starts"),
    [
        # "Morning all, happy new year" was an event, then none: the dates went with what followed
        # the bracket. The event is read from where its dated part starts.
        (
            "morning all, happy new year (again) :wave: plan: 2.4 is locked for Friday 14 Feb, freeze 7 Feb",
            "2.4 is locked for",
        ),
        ("happy new year! 2.4 is locked for Friday 14 Feb, so code freeze is 7 Feb", "2.4 is locked for"),
        ("big news (finally): my surgery is on 3 March", "Mickael's surgery is on"),
    ],
)
def test_a_dated_event_keeps_its_date(said: str, starts: str) -> None:
    events = [c for t, c in contents(said) if t is MemoryType.EVENT]
    assert events and all(re.search(r"\d{4}", c) for c in events), events
    assert any(c.startswith(starts) for c in events), events


@pytest.mark.parametrize(
    "text",
    ["Paris is in France", "Python is in Beta", "Docs are in Confluence", "my brother is in a Discord call"],
)
def test_a_name_in_a_place_is_news_only_when_said_to_be_there_now(text: str) -> None:
    assert contents(text) == []


@pytest.mark.parametrize(
    "text", ["Tom's back hurts after the move", "Sam's home is in Leeds", "it's going well"]
)
def test_an_s_is_read_as_is_only_where_is_alone_can_stand(text: str) -> None:
    assert not [c for _, c in contents(text) if " is back" in c or " is home" in c or "it is" in c]
    assert spelled_out(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "Work got crazy",  # capitalised words that name no one
        "Everybody moved to Slack",
        "He got promoted",
        "Networking plays a big role in getting endorsements",
        "Grateful lives here",
        "Sam got promoted?",  # asked, not told
        "if Sam got promoted we'd celebrate",  # not asserted
        "Sam, you got promoted",  # said to Sam
        "sam got promoted",  # no name as written
    ],
)
def test_no_news_of_someone_named_where_none_was_told(text: str) -> None:
    assert not [c for _, c in contents(text) if "promoted" in c or "moved" in c or "lives" in c], contents(
        text
    )


@pytest.mark.parametrize(
    ("text", "event"),
    [
        # what one has got is had, not something that happened
        ("I've got a bad knee so no running for me", None),
        ("I've got lots of kids' books, classics and all", None),
        ("I've got a funny story", None),
        ("i got someone easy 😈", None),  # drawn for a secret santa: nothing happened
        ("I met someone at the conference", "Mickael met someone at the conference"),
        # unless it is news, or has its day
        ("I've got a new job at Google!", "Mickael has got a new job at Google"),
        ("I've just got back from Rome", "Mickael has just got back from Rome"),
        ("I've got a gaming tournament next month", "Mickael has got a gaming tournament in December 2026"),
    ],
)
def test_what_one_has_got_is_an_event_only_when_new_or_dated(text: str, event: str | None) -> None:
    found = [item.content for item in run(text) if item.memory_type is MemoryType.EVENT]
    assert found == ([event] if event else []), found


@pytest.mark.parametrize(
    "text",
    [
        "I'm OOO Thursday and Friday",
        "I'm AFK for an hour",
        "I'm WFH today",
        "I'm BRB",
        # what one is, capitalised as chat often does, is no name either
        "I'm Catholic",
        "I'm Gen Z lol",
        "I'm ADHD",
        "I'm Vegan",
        "I'm Scorpio",
        "I'm Google certified now",
        "I'm AWS certified",
        "I'm Dead lol",
        "I'm Jealous",
        "I'm Grateful",
        "I'm Nobody",
        "I'm Unsure",
        "I'm Dr",
        "my name is spelled with two n's",
    ],
)
def test_a_status_said_in_capitals_is_no_name(text: str) -> None:
    assert not [item for item in run(text) if item.given_name], contents(text)


def test_a_song_sung_is_no_nickname() -> None:
    assert not [c for c in (item.content for item in run("call me Maybe lol")) if "called" in c]


def test_initials_stay_capitals() -> None:
    assert "Mickael's name is TJ" in [item.content for item in run("I'm TJ")]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("hi I'm Leo", "Leo"),
        ("I'm Maria from accounting", "Maria"),
        ("I'm Maria, nice to meet you", "Maria"),
        ("I'm Douglas", "Douglas"),
        ("I'm Una", "Una"),
        ("I'm Dr. Smith", "Dr. Smith"),  # a title's full stop ends no sentence
    ],
)
def test_a_name_said_with_im_is_still_a_name(text: str, name: str) -> None:
    assert [item.given_name for item in run(text) if item.given_name] == [name], contents(text)


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("just got back from Iceland", "Iceland"),
        ("we spent a week in Portugal in August", "Portugal"),
        ("I got back from Work late", None),  # no place been to
        ("I spent all day in Figma", None),
    ],
)
def test_places_been_to_as_chat_says_them(text: str, place: str | None) -> None:
    noted = [c for c in [item.content for item in run(text)] if "places visited include" in c]
    assert [c.split("include ", 1)[1].split(":")[0] for c in noted] == ([place] if place else []), noted


@pytest.mark.parametrize(
    ("text", "kept", "left"),
    [
        # code and quoted lines are someone's words shown, not the speaker's statements
        ("`my name is Bob` is the placeholder in the template", [], "Bob"),
        ("> I live in Paris\nso true", [], "Paris"),
        (">>> I live in Paris\nmy name is Bob", [], "Paris"),
        ("```\nmy name is Bob\n```\nI live in Lyon", ["Mickael lives in Lyon"], "Bob"),
        ("I never said I live in Paris", [], "Paris"),
        # a span that names a thing keeps its words
        ("I use `neovim` btw", ["Mickael uses neovim"], "`"),
    ],
)
def test_code_and_quotes_are_shown_not_said(text: str, kept: list[str], left: str) -> None:
    found = [item.content for item in run(text)]
    assert all(content in found for content in kept), found
    assert not any(left in content for content in found), found


def _with_pictures(text: str, *described: str) -> str:
    """A message as the adapters give it: its words, then a note for each described picture."""
    return with_notes(
        text, [note for d in described if (note := attachment_note("IMG.jpg", d, "image/jpeg"))]
    )


@pytest.mark.parametrize(
    ("text", "pictures", "said"),
    [
        ("I made this!", ["a chocolate cake with strawberries"], "made a chocolate cake with strawberries"),
        ("Look what I painted :)", ["a painting of a sunset over a lake"], "painted a sunset over a lake"),
        ("We just baked these for the party", ["chocolate chip cookies"], "baked chocolate chip cookies"),
        ("Got this yesterday", ["a photo of a new acoustic guitar"], "got a new acoustic guitar"),
        ("I made this", ["my first quilt"], "made their first quilt"),
    ],
)
def test_this_under_a_picture_is_what_the_picture_shows(text: str, pictures: list[str], said: str) -> None:
    found = [item.content for item in run(_with_pictures(text, *pictures))]
    assert any(said in content for content in found), found


@pytest.mark.parametrize(
    ("text", "pictures"),
    [
        ("I made this decision myself", ["a cake"]),  # "this" is no picture here
        ("I love this", ["a cat"]),  # nothing made or got
        ("I made this", ["a cake", "a pie"]),  # which one?
        ("I made this", ["a photo I took on my phone while we were out. It was fun and we all loved it"]),
    ],
)
def test_a_picture_names_nothing_the_words_do_not_point_at(text: str, pictures: list[str]) -> None:
    found = [item.content for item in run(_with_pictures(text, *pictures))]
    assert not any(word in content for content in found for word in ("cake", "cat", "pie", "phone")), found


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # a verb whose past is its present tells of the last January, as "I stopped" would
        ("I quit smoking in January", "Mickael quit smoking in January 2026"),
        ("I hurt my back in March", "Mickael hurt their back in March 2026"),
        # the subject chat drops
        ("Going to Berlin next week", "Mickael is going to Berlin in the week of Monday 30 November 2026"),
        ("not a fan of cilantro tbh", "Mickael is not a fan of cilantro"),
        ("Allergic to cats unfortunately", "Mickael is allergic to cats"),
        ("I'm allergic to peanuts so no pad thai for me", "Mickael is allergic to peanuts"),
        # a diet kept for years is the diet
        # how long a diet has lasted stays with it
        ("I've been vegan for 5 years", "Mickael has been vegan for 5 years (since about 2021)"),
        ("I have been a vegetarian since 2015", "Mickael has been vegetarian since 2015"),
        ("I'm vegetarian since I was 12", "Mickael has been vegetarian since Mickael was 12"),
        ("I've been vegan for ages", "Mickael has been vegan for ages"),
        # who is who at work and around
        ("my manager is Priya", "Mickael's manager is called Priya"),
        ("our team lead is Priya.", "Mickael's team lead is called Priya"),
        ("my doctor is called Dr. Patel", "Mickael's doctor is called Dr. Patel"),
        ("my boss is Dave and he is great", "Mickael's boss is called Dave"),
        # a relative's age, and the day it is reached
        ("my son is 5", "Mickael's son is 5"),
        ("my daughter turns 6 next Tuesday", "Mickael's daughter turns 6 on Tuesday 1 December 2026"),
        ("mon fils a eu 5 ans hier", "Le fils de Mickael a eu 5 ans le mardi 24 novembre 2026"),
        # where one moved from, said from where one is
        ("I moved here from Toronto two years ago", "Mickael moved here from Toronto in 2024"),
        # news of work and family, dated when said with a day
        ("we're moving next month", "Mickael and others are moving in December 2026"),
        ("my last day at Acme is Friday", "Mickael's last day at Acme is Friday 27 November 2026"),
        ("I'll be out Friday", "Mickael will be out Friday 27 November 2026"),
        ("I'm graduating in May", "Mickael is graduating in May 2027"),
        ("we're having a baby!", "Mickael and others are having a baby"),
        # a birth to come is no task's deadline
        ("our baby is due in March", "Mickael's baby is due in March 2027"),
        ("my wife is due in March", "Mickael's wife is due in March 2027"),
        ("my sister is due next month", "Mickael's sister is due in December 2026"),
        # where one was, never where one is
        ("I used to live in Paris but moved to Lyon", "Mickael used to live in Paris"),
        ("I used to work at Google", "Mickael used to work at Google"),
        # French as chat says it
        ("je bosse chez Ubisoft", "Mickael travaille chez Ubisoft"),
        ("j'ai arrêté de fumer en janvier", "Mickael a arrêté de fumer en janvier 2026"),
        ("mon manager s'appelle Pierre", "Le manager de Mickael s'appelle Pierre"),
        # a fan of what is named before "fan"; what the team agreed, and the day it agreed on
        ("I'm a huge Arsenal fan", "Mickael is a fan of Arsenal"),
        (
            "the team agreed that code reviews need two approvals",
            "Mickael and the team agreed that code reviews need two approvals",
        ),
        (
            "we decided that we'd ship on Monday",
            "Mickael and the team decided that Mickael and others would ship on Monday 30 November 2026",
        ),
        # a stay somewhere named, and a range's end never before its start
        (
            "I'll be in NYC from the 20th to the 28th",
            "Mickael will be in NYC from Sunday 20 December 2026 to Monday 28 December 2026",
        ),
        # a due date alone, in a message about a pregnancy; a part of a month said alone
        ("I'm pregnant!! due in March", "Mickael is due in March 2027"),
        ("I'm pregnant!! due early March", "Mickael is due in early March 2027"),
        ("my exam is mid July", "Mickael's exam is in mid-July 2027"),
        # away, on the way, celebrating: news of days to come
        ("I'm off Friday", "Mickael is off Friday 27 November 2026"),
        (
            "I'm off between the 12th and the 15th",
            "Mickael is off between Saturday 12 December 2026 and Tuesday 15 December 2026",
        ),
        ("heading to Tokyo next week", "Mickael is heading to Tokyo in the week of Monday 30 November 2026"),
        (
            "we're celebrating our anniversary next month",
            "Mickael and others are celebrating their anniversary in December 2026",
        ),
        # "and I are" is the pair's verb, left as said
        (
            "my husband and I are celebrating our 10th anniversary next month",
            "Mickael's husband and Mickael are celebrating their 10th anniversary in December 2026",
        ),
        ("I'm relocating to Austin next year", "Mickael is relocating to Austin in 2027"),
        # a start said right before its day is to come, whatever the tense before it
        (
            "I got a new job at Stripe, starting Monday",
            "Mickael got a new job at Stripe, starting Monday 30 November 2026",
        ),
        # a move told without its day
        ("I'm moving to Berlin", "Mickael is moving to Berlin"),
        ("we're moving to Berlin in the spring", "Mickael and others are moving to Berlin in the spring"),
        # where a relative lives and works, where they are from, what they play
        ("my brother lives in Seattle", "Mickael's brother lives in Seattle"),
        ("my brother is in Glasgow now", "Mickael's brother is in Glasgow now"),
        ("my parents are based in Lisbon", "Mickael's parents are based in Lisbon"),
        ("my husband works at Google", "Mickael's husband works at Google"),
        ("my parents live near Boston", "Mickael's parents live near Boston"),
        ("my girlfriend is from Spain", "Mickael's girlfriend is from Spain"),
        ("my dad is retired", "Mickael's dad is retired"),
        ("my kids play Minecraft all day lol", "Mickael's kids play Minecraft all day"),
        ("ma sœur habite à Lyon", "La sœur de Mickael habite à Lyon"),
        ("mes parents vivent en Espagne", "Les parents de Mickael vivent en Espagne"),
        # a time zone named by a place
        ("I'm on Berlin time btw", "Mickael is on Berlin time (Europe/Berlin)"),
        ("I'm on East Coast time this week", "Mickael is on East Coast time (America/New_York)"),
        ("je suis à l'heure de Montréal", "Mickael est à l'heure de Montréal (America/Toronto)"),
        # "on" for "nous" with the verbs of a trip or a move
        ("on part au Japon en décembre", "Mickael et d'autres partent au Japon en décembre 2026"),
        ("on déménage à Lyon le mois prochain", "Mickael et d'autres déménagent à Lyon en décembre 2026"),
        # what befell a trip or a parcel, said with where it was going
        ("my flight to Denver got cancelled", "Mickael's flight to Denver got cancelled"),
        ("my package got stolen from the porch", "Mickael's package got stolen from the porch"),
        # a relative's lessons and visits, in-laws and step-family among the relatives
        ("my daughter just started piano lessons", "Mickael's daughter just started piano lessons"),
        (
            "my mom is visiting from Manila next week",
            "Mickael's mom is visiting from Manila in the week of Monday 30 November 2026",
        ),
        (
            "my in-laws are coming to stay with us in July",
            "Mickael's in-laws are coming to stay with Mickael and others in July 2027",
        ),
        ("my stepdad retired last year", "Mickael's stepdad retired in 2025"),
        # running with a distance or how often is a sport, in the present ("runs")
        (
            "I run 5k every morning before work",
            "Mickael's sports and activities include running: Mickael runs 5k every morning before work",
        ),
        # where one is, the subject left out
        (
            "on call this week so might be slow to reply",
            "Mickael is on call in the week of Monday 23 November 2026 so might be slow to reply",
        ),
        ("out sick today", "Mickael is out sick on Wednesday 25 November 2026"),
        ("we bought a house!! closing on the 15th", "Mickael is closing on Tuesday 15 December 2026"),
        # a question after the last comma, without its question mark, is no part of the news
        (
            "back from Lisbon, what did I miss",
            "Mickael's travels and places visited include Lisbon: Mickael is back from Lisbon",
        ),
        ("just adopted a cat, do you have pets", "Mickael just adopted a cat"),
        # a relative clause stays
        ("I moved to Berlin, where I met my wife", "Mickael moved to Berlin, where Mickael met their wife"),
        # the emphatic "do" says the verb louder
        ("I do live in Lyon, just not in the center", "Mickael lives in Lyon, just not in the center"),
        ("we do have a dog actually", "Mickael has a dog actually"),
        # a role in a group, not a job; a weekday kept every week is no date
        ("I'm the DM for our Thursday campaign", "Mickael is the DM for their Thursday campaign"),
        ("I'm the treasurer of the book club", "Mickael is the treasurer of the book club"),
        ("I'm a mod on this server", "Mickael is a mod on this server"),
        # a holiday in a plan is the next one; a holiday or a period spent is the day itself
        (
            "we're going to my in-laws for Christmas",
            "Mickael and others are going to their in-laws for Christmas 2026",
        ),
        (
            "we spent Thanksgiving with my sister",
            "Mickael and others spent Thanksgiving 2025 with their sister",
        ),
        (
            "I spent last weekend at the lake",
            "Mickael spent the weekend of Saturday 21 November 2026 at the lake",
        ),
        # a role at work: a lead of something, or the team's own lead
        ("I'm the on-call lead for Q1", "Mickael is the on-call lead for Q1 2027"),
        ("I'm the release manager for 4.2", "Mickael is the release manager for 4.2"),
        ("I'm the point person for the SOC2 audit", "Mickael is the point person for the SOC2 audit"),
        ("I'm the team lead now", "Mickael is the team lead"),
        # work done, told without a date or a subject
        ("just merged the auth PR", "Mickael just merged the auth PR"),
        ("I deployed the hotfix", "Mickael deployed the hotfix"),
        ("finally fixed the flaky test", "Mickael finally fixed the flaky test"),
        # arrivals, and a game won after its "gg"
        ("just landed in Tokyo!", "Mickael just landed in Tokyo"),
        ("arrived in Lisbon", "Mickael arrived in Lisbon"),
        ("gg, finally hit Platinum", "Mickael finally hit Platinum"),
        # an introduction: the job taken up, where one is based and from, each part said alone
        ("I'm Priya, joining the data team as a senior analyst.", "Priya is a senior analyst"),
        ("I'm Priya, joining the data team as a senior analyst.", "Priya is joining the data team"),
        ("Based in Toronto, originally from Pune.", "Mickael is based in Toronto"),
        ("Based in Toronto, originally from Pune.", "Mickael is originally from Pune"),
        ("I just joined Stripe as a PM", "Mickael works at Stripe"),
        ("I'm joining Datadog as a staff engineer in January", "Mickael is joining Datadog in January 2027"),
        ("je rejoins l'équipe produit comme PM", "Mickael est PM"),
        ("je rejoins l'équipe produit comme PM", "Mickael rejoint l'équipe produit"),
        # an offer taken; a task asked of the others, as asked
        ("I accepted an offer from Datadog", "Mickael accepted an offer from Datadog"),
        (
            "please review my PR by EOD",
            "Mickael asked someone to review their PR by Wednesday 25 November 2026",
        ),
        ("pls merge it by tonight", "Mickael asked someone to merge it by Wednesday 25 November 2026"),
        # a game given up is news, not one of the games played
        ("I stopped playing League", "Mickael stopped playing League"),
        # what one gave or did for others to see
        (
            "I gave a talk at a school about my transition journey, it went really well",
            "Mickael gave a talk at a school about their transition journey, it went really well",
        ),
        (
            "we did our first gig last night",
            "Mickael and others did their first gig on Tuesday 24 November 2026",
        ),
        (
            "I spoke at a conference in Denver last month",
            "Mickael spoke at a conference in Denver in October 2026",
        ),
        # where one keeps going
        (
            "I've been going to a support group for trans folks, it's really helped",
            "Mickael has been going to a support group for trans folks",
        ),
        ("I go to therapy every week", "Mickael goes to therapy every week"),
        # a child named by their place among the others
        (
            "my oldest just turned 8 last weekend",
            "Mickael's oldest just turned 8 on the weekend of Saturday 21 November 2026",
        ),
        # a step towards a goal, and its day when it has one
        ("I'm applying to counseling programs", "Mickael is applying to counseling programs"),
        (
            "I'm interviewing at Stripe next week",
            "Mickael is interviewing at Stripe in the week of Monday 30 November 2026",
        ),
        # a reminder's or an update's opening words are no part of the news
        (
            "reminder that the all-hands moved to 3pm tomorrow",
            "The all-hands moved to 3pm on Thursday 26 November 2026",
        ),
        ("friendly reminder: the retro is on Friday", "The retro is on Friday 27 November 2026"),
        ("update: we shipped the new onboarding flow", "Mickael and others shipped the new onboarding flow"),
        # a team's dated work, and what one is in charge of
        (
            "we're deprecating the v1 API on March 31",
            "Mickael and others are deprecating the v1 API on Wednesday 31 March 2027",
        ),
        ("the new dashboard goes live on Monday", "The new dashboard goes live on Monday 30 November 2026"),
        (
            "heads up, I'm taking over the billing service from Tom starting next sprint",
            "Mickael is taking over the billing service from Tom starting next sprint",
        ),
        ("my team owns the search indexer", "Mickael's team owns the search indexer"),
        ("I lead the data platform team", "Mickael leads the data platform team"),
        # a player's main and rank
        ("my main is Genji but I flex tank", "Mickael mains Genji"),
        ("I'm in Diamond 2 right now, trying to hit Masters this season", "Mickael is in Diamond 2"),
        ("I'm hardstuck Gold 2", "Mickael is hardstuck Gold 2"),
        ("I'm Diamond right now", "Mickael is Diamond"),
        # and in which game
        ("I'm Gold 2 in Valorant, hardstuck since June", "Mickael is Gold 2 in Valorant"),
        # a guild's or a streamer's night, said with "-ing"
        (
            "we're raiding Tuesday at 8 server time",
            "Mickael and others are raiding Tuesday 1 December 2026 at 8 server time",
        ),
        ("I'm streaming on Friday at 7", "Mickael is streaming on Friday 27 November 2026 at 7"),
        # a family's days: school, trips, sick days, firsts, leave
        ("ma fille entre au CP en septembre", "La fille de Mickael entre au CP en septembre 2027"),
        ("mon fils commence le judo en janvier", "Le fils de Mickael commence le judo en janvier 2027"),
        (
            "ma belle-mère vient passer Noël chez nous",
            "La belle-mère de Mickael vient passer Noël 2026 chez nous",
        ),
        ("on a passé Noël en Bretagne", "Mickael et d'autres ont passé Noël 2025 en Bretagne"),
        # two days joined by a dash are a range, not two sentences
        (
            "I'm OOO Dec 20 - Jan 3",
            "Mickael is OOO from Sunday 20 December 2026 to Sunday 3 January 2027",
        ),
        (
            "je suis en congé 20 déc - 3 janv",
            "Mickael est en congé du dimanche 20 décembre 2026 au dimanche 3 janvier 2027",
        ),
        ("mon mari a changé de boulot", "Le mari de Mickael a changé de boulot"),
        ("j'ai repris le boulot lundi", "Mickael a repris le boulot lundi 23 novembre 2026"),
        (
            "je suis en arrêt maladie jusqu'à vendredi",
            "Mickael est en arrêt maladie jusqu'à vendredi 27 novembre 2026",
        ),
        (
            "mon mari part en déplacement à Berlin demain",
            "Le mari de Mickael part en déplacement à Berlin le jeudi 26 novembre 2026",
        ),
        (
            "my husband is flying to Berlin tomorrow",
            "Mickael's husband is flying to Berlin on Thursday 26 November 2026",
        ),
        ("my son has an ear infection again", "Mickael's son has an ear infection again"),
        (
            "my daughter lost her first tooth today!",
            "Mickael's daughter lost her first tooth on Wednesday 25 November 2026",
        ),
        ("my twins start daycare next Monday", "Mickael's twins start daycare on Monday 30 November 2026"),
        ("I'm on maternity leave until February", "Mickael is on maternity leave until February 2027"),
        (
            "we're doing sleep training this week, wish us luck",
            "Mickael and others are doing sleep training in the week of Monday 23 November 2026",
        ),
        # plans still weighed, with their gerunds ("moving", "writing", "running for")
        ("I've been thinking of running for city council", "Mickael is thinking of running for city council"),
        ("I'm thinking about moving to Denver", "Mickael is thinking about moving to Denver"),
        ("I'm thinking of writing a book", "Mickael is thinking of writing a book"),
        # what a relative taught, a class taken, a team coached, a recovery and how long
        (
            "my grandma taught me how to make tamales when I was little",
            "Mickael's grandma taught Mickael how to make tamales when Mickael was little",
        ),
        (
            "I'm taking a blacksmithing class at the community college",
            "Mickael is taking a blacksmithing class at the community college",
        ),
        (
            "I'm coaching my son's little league team this season",
            "Mickael is coaching their son's little league team this season",
        ),
        (
            "I've been sober for two years as of today",
            "Mickael has been sober for two years (since about 2024) as of Wednesday 25 November 2026",
        ),
        # "as of", "starting", "effective" before a day need no "on"
        ("I'm off starting Monday", "Mickael is off starting Monday 30 November 2026"),
        # a proposal, a friend's move, a name given, a car totalled, a change of team, what one is learning
        ("my partner proposed!!! we're getting married next fall", "Mickael's partner proposed"),
        (
            "my best friend is moving to London next month, I'm so sad",
            "Mickael's best friend is moving to London in December 2026",
        ),
        ("we named the puppy Mochi", "Mickael's puppy is called Mochi"),
        ("my car got totaled in an accident but I'm fine", "Mickael's car got totaled in an accident"),
        ("I'm switching teams at work, moving to the design org", "Mickael is switching teams at work"),
        ("I've been learning to crochet", "Mickael has been learning to crochet"),
        ("I've been saving up for a house", "Mickael has been saving up for a house"),
        # one thing over another; a trait said with "at all"; a team's rule said with "let's"
        (
            "I'd rather we use Postgres than Mongo for this",
            "Mickael would rather use Postgres than Mongo for this",
        ),
        ("I'm not a morning person at all", "Mickael is not a morning person"),
        (
            "let's do code reviews in the morning from now on",
            "From now on, Mickael and the team do code reviews in the morning",
        ),
        ("going forward, let's keep PRs small", "Going forward, Mickael and the team keep PRs small"),
        # pets named together, a plan to get another, a group's day, a whole life somewhere, a work picked up
        ("my turtles are named Bubbles and Squirt", "Mickael's turtles are called Bubbles and Squirt"),
        ("our kids are called Leo, Ana and Sam", "Mickael's kids are called Leo, Ana and Sam"),
        ("I'm thinking of getting a third turtle", "Mickael is thinking of getting a third turtle"),
        ("my writing group meets every Thursday", "Mickael's writing group meets every Thursday"),
        # a group's regular thing, said of the thing ("our raid ...", "standup ..." were nothing)
        ("our raid is every saturday at 9pm", "Mickael's raid is every saturday at 9pm"),
        ("standup is at 10am every day", "Standup is at 10am every day"),
        # chat's lead is no part of it ("btw our raid ..." was nothing, "Fyi standup ..." kept "Fyi")
        ("btw our raid is every saturday at 9pm", "Mickael's raid is every saturday at 9pm"),
        ("fyi standup is at 10am every day", "Standup is at 10am every day"),
        (
            "the book club meets on the first tuesday of the month",
            "The book club meets on the first tuesday of the month",
        ),
        ("I've lived in Michigan my whole life", "Mickael has lived in Michigan their whole life"),
        (
            "one of my scripts got picked up by a producer!!",
            "One of Mickael's scripts got picked up by a producer",
        ),
        # a second baby, a star sign, a birthday without "my", a move home, years at a workplace
        (
            "my sister just had her second baby, a boy named Theo",
            "Mickael's sister just had her second baby, a boy named Theo",
        ),
        ("I'm a Leo lol, birthday is August 3rd", "Mickael is a Leo"),
        ("birthday is August 3rd", "Mickael's birthday is 3 August"),
        (
            "I'm moving back home to take care of my mom",
            "Mickael is moving back home to take care of their mom",
        ),
        (
            "I've been at Shopify for six years now",
            "Mickael has worked at Shopify for six years now (since about 2020)",
        ),
        # news told as a question; an ex among the relatives
        ("did you know I play the cello?", "Mickael plays the cello"),
        ("do you know that my sister is a pilot?", "Mickael's sister is a pilot"),
        ("my ex lives in Chicago", "Mickael's ex lives in Chicago"),
        # French: what was just done, a child's sickness, a driving test on a day
        ("je viens de finir mon mémoire !!", "Mickael vient de finir son mémoire"),
        ("on vient d'acheter une maison", "Mickael et d'autres viennent d'acheter une maison"),
        ("mon fils a la varicelle", "Le fils de Mickael a la varicelle"),
        ("je passe mon permis jeudi", "Mickael passe son permis jeudi 26 novembre 2026"),
        # an #introductions post: a name after a greeting or before who one is, where one lives after
        # a comma, "been" without its "I've", a job hunt, a group one runs, the ages of several
        (
            "hey all! I'm Mia, I'm a UX designer from Toronto, currently living in Berlin",
            "Mia lives in Berlin",
        ),
        ("Hi! Raj here, backend dev at a fintech startup in Bangalore", "Mickael's name is Raj"),
        (
            "Hi! Raj here, backend dev. Been coding for 8 years",
            "Raj has been coding for 8 years (since about 2018)",
        ),
        ("looking for a new job btw, open to remote roles", "Mickael is looking for a new job"),
        (
            "I'm a high school teacher and I run a D&D group on weekends",
            "Mickael runs a D&D group on weekends",
        ),
        ("my kids are 7 and 10", "Mickael's kids are 7 and 10"),
        # a pet had and named at once, a plan weighed by "we", a grand opening on its day
        ("I adopted a third dog named Pepper last weekend", "Mickael's dog is called Pepper"),
        # ... said with what it is like, or in French
        ("I have a very loud cat called Miso", "Mickael's cat is called Miso"),
        ("I live in Brooklyn with our two cats, Mochi and Tofu.", "Mickael's cats are called Mochi and Tofu"),
        ("our kids, Léo and Ana, love it", "Mickael's kids are called Léo and Ana"),
        ("I adopted a second rescue dog named Pepper", "Mickael's dog is called Pepper"),
        ("j'ai un chat qui s'appelle Moustache", "Le chat de Mickael s'appelle Moustache"),
        ("on a adopté une chienne nommée Lune", "La chienne de Mickael s'appelle Lune"),
        ("j'ai un gros chat tigré qui s'appelle Félix", "Le chat de Mickael s'appelle Félix"),
        (
            "we're thinking about getting a dog but our apartment doesn't allow pets",
            "Mickael and others are thinking about getting a dog",
        ),
        (
            "my store's grand opening is next Saturday, wish me luck",
            "Mickael's store's grand opening is Saturday 5 December 2026",
        ),
        # initials end no sentence
        (
            "I'm a huge fan of Tolkien and George R.R. Martin",
            "Mickael is a fan of Tolkien and George R.R. Martin",
        ),
        # tickets bought for a day to come; a dated lease and a tooth pulled
        (
            "just booked tickets to see Taylor Swift in July!!",
            "Mickael just booked tickets to see Taylor Swift in July 2027",
        ),
        ("we booked the venue in March", "Mickael and others booked the venue in March 2026"),
        (
            "I'm getting my wisdom teeth out next week, pray for me",
            "Mickael is getting their wisdom teeth out in the week of Monday 30 November 2026",
        ),
        ("my lease ends in August so I need to find a new place", "Mickael's lease ends in August 2027"),
        # how one gets to work, a couple and how long, languages listed after a count
        ("I bike to work every day, 10 miles round trip", "Mickael bikes to work every day"),
        ("I don't have a car, I take the train everywhere", "Mickael takes the train everywhere"),
        (
            "we've been together for 7 years",
            "Mickael and others have been together for 7 years (since about 2019)",
        ),
        (
            "I can speak three languages: English, Spanish and Tagalog",
            "Mickael speaks English, Spanish and Tagalog",
        ),
        # what "please note" tells
        ("please note the office is closed on Friday", "The office is closed on Friday 27 November 2026"),
        # a wish held a long time
        ("I'm so jealous, I've always wanted to go to Japan", "Mickael has always wanted to go to Japan"),
        # a job held a long time, taught, studied in a given year
        ("I've been a nurse for 12 years", "Mickael has been a nurse for 12 years (since about 2014)"),
        ("I have been a teacher since 2015", "Mickael has been a teacher since 2015"),
        ("I teach high school chemistry", "Mickael teaches high school chemistry"),
        ("I teach at Lincoln High", "Mickael teaches at Lincoln High"),
        ("I'm a second year CS student at McGill", "Mickael is a second year CS student at McGill"),
        # a day that matters, a document's end
        ("my thesis defense is on June 3rd", "Mickael's thesis defense is on Thursday 3 June 2027"),
        ("my visa runs out in January", "Mickael's visa runs out in January 2027"),
        (
            "my passport expires in February, need to renew it",
            "Mickael's passport expires in February 2027, Mickael needs to renew it",
        ),
        # a group's day counted in the month, or every week's
        (
            "our book club meets the first Tuesday of every month",
            "Mickael's book club meets the first Tuesday of every month",
        ),
        ("my running group meets Saturday mornings", "Mickael's running group meets Saturday mornings"),
        # a favourite given as a label
        ("favorite movie of all time: Spirited Away", "Mickael's favorite movie is Spirited Away"),
        ("fav food: ramen", "Mickael's favorite food is ramen"),
        ("my go-to order is a flat white", "Mickael's go-to order is a flat white"),
        (
            "favourite bands: Radiohead, Muse and Blur",
            "Mickael's favorite bands are Radiohead, Muse and Blur",
        ),
        # what the speaker is reading or playing, or switched to, without "I"
        (
            "currently reading The Three-Body Problem",
            "Mickael's books and reading include Three-Body Problem: Mickael is currently reading The "
            "Three-Body Problem",
        ),
        (
            "switched from VS Code to Neovim last month",
            "Mickael switched from VS Code to Neovim in October 2026",
        ),
        ("I self-host Nextcloud", "Mickael self-hosts Nextcloud"),
        # when the speaker takes no meetings, and hours given in a zone
        (
            "please don't schedule meetings before 10 for me, I do school drop-off",
            "Mickael takes no meetings before 10",
        ),
        ("no calls after 5pm for me please", "Mickael takes no calls after 5pm"),
        # ... or with the speaker's own reason next (was nothing)
        (
            "please don't schedule meetings before 10, I do school drop-off",
            "Mickael takes no meetings before 10",
        ),
        ("no calls after 5pm, I have pickup", "Mickael takes no calls after 5pm"),
        ("I'm usually online 9-5 EST", "Mickael is in the EST time zone"),
        # sizes, heritage, a hearing or sight lost on one side, a goal with its year
        ("for future reference, my shoe size is 42", "Mickael's shoe size is 42"),
        ("my dress size is UK 12", "Mickael's dress size is UK 12"),
        ("I'm half Japanese", "Mickael is half Japanese"),
        ("just so you know, I'm deaf in my left ear", "Mickael is deaf in their left ear"),
        ("my goal this year is to read 50 books", "Mickael's goal in 2026 is to read 50 books"),
        ("my goal for next year is to run a marathon", "Mickael's goal for 2027 is to run a marathon"),
        (
            "my new year's resolution is to learn Spanish",
            "Mickael's New Year's resolution is to learn Spanish",
        ),
        # the same in French
        (
            "je suis en congé du mardi au jeudi",
            "Mickael est en congé du mardi 1er décembre 2026 au jeudi 3 décembre 2026",
        ),
        ("mon passeport expire en février", "Le passeport de Mickael expire en février 2027"),
        ("mon frère se marie en juin", "Le frère de Mickael se marie en juin 2027"),
        ("j'enseigne la chimie au lycée", "Mickael enseigne la chimie au lycée"),
        ("j'ai grandi à Marseille", "Mickael a grandi à Marseille"),
        ("je suis à moitié japonais", "Mickael est à moitié japonais"),
        (
            "mon objectif cette année c'est de lire 50 livres",
            "L'objectif de Mickael en 2026 est de lire 50 livres",
        ),
        ("pas de réunion avant 10h pour moi svp", "Mickael ne prend pas de réunion avant 10h"),
        ("aucun appel après 18h pour moi merci", "Mickael ne prend pas d'appel après 18h"),
        # "it's" holds the verb of what it opens
        ("it's my birthday today!", "It's Mickael's birthday on Wednesday 25 November 2026"),
        # a correction's lead is no part of what holds
        (
            "scratch that, the meeting is on Friday not Thursday",
            "The meeting is on Friday 27 November 2026 not Thursday 26 November 2026",
        ),
        # a taste that ended ("I no longer like coffee" was nothing, "... anymore" a dislike of
        # "coffee anymore")
        ("I no longer like coffee", "Mickael no longer likes coffee"),
        ("I don't like coffee anymore", "Mickael no longer likes coffee"),
        ("I've stopped enjoying running", "Mickael no longer enjoys running"),
        ("je n'aime plus le café", "Mickael n'aime plus le café"),
        # "used to" says the taste is over (was nothing); "now I hate it" after "but" is a clause of
        # its own (was "... coffee but now Mickael hates it")
        ("I used to love coffee", "Mickael no longer loves coffee"),
        ("I used to love coffee but now I hate it", "Mickael no longer loves coffee"),
        ("I like tea but now I mostly drink coffee", "Mickael likes tea"),
        # what one sent in or asked for
        (
            "also fyi I submitted a CFP to DataConf in Berlin over the break",
            "Mickael submitted a CFP to DataConf in Berlin over the break",
        ),
        ("I applied for the Leeds job", "Mickael applied for the Leeds job"),
        # a greeting to the room is no part of what it says ("Team, the release ...")
        ("hey team, the release is on Friday", "The release is on Friday 27 November 2026"),
        ("good morning folks, the demo is on Friday", "The demo is on Friday 27 November 2026"),
        ("morning all :wave: the demo is on Friday", "The demo is on Friday 27 November 2026"),
        ("salut tout le monde, la démo est vendredi", "La démo est vendredi 27 novembre 2026"),
        ("morning runs are my thing", "Mickael loves morning runs"),
        # a list's next item is no part of what it says ("Last thing, Aisha's contract ...")
        (
            "thanks. last thing, Aisha's contract is signed, she starts 3 March as junior backend dev",
            "Aisha's contract is signed, she starts Wednesday 3 March 2027 as junior backend dev",
        ),
        # a heading names the week; nobody is planning it ("Mickael is planning week: ...")
        (
            "ok, planning week: 9–13 June in the office",
            "Planning week: from Wednesday 9 June 2027 to Sunday 13 June 2027 in the office",
        ),
        # the speaker in a relative clause is not the subject ("Mickael wants is a party ...")
        (
            "the last thing I want is a party on Friday",
            "The last thing Mickael wants is a party on Friday 27 November 2026",
        ),
        # a day said first, as a standup post says it
        (
            "yesterday: finished the auth refactor. today: pairing with Lea. blockers: none",
            "Mickael finished the auth refactor on Tuesday 24 November 2026",
        ),
        ("tomorrow: flying to Berlin", "On Thursday 26 November 2026 Mickael is flying to Berlin"),
        # the speaker's day
        ("I wake up at 5am every day", "Mickael wakes up at 5am every day"),
        ("I usually go to bed around midnight", "Mickael usually goes to bed around midnight"),
        # a taste said of the thing, or as a choice
        ("jazz is my jam", "Mickael loves jazz"),
        ("my guilty pleasure is reality TV", "Mickael's guilty pleasure is reality TV"),
        ("mornings are not my thing", "Mornings are not Mickael's thing"),
        ("I'd take tea over coffee any day", "Mickael would take tea over coffee"),
        ("I'm a huge Marvel nerd", "Mickael is a fan of Marvel"),
        # a hobby said so, streaming, a campaign or a club one runs
        ("I build mechanical keyboards as a hobby", "Mickael builds mechanical keyboards as a hobby"),
        ("I stream on Twitch every Friday night", "Mickael streams on Twitch every Friday night"),
        (
            "I'm running a Pathfinder campaign on Sundays",
            "Mickael is running a Pathfinder campaign on Sundays",
        ),
        # "don't forget" and "never forget" still tell
        ("don't forget that I'm vegetarian", "Mickael is vegetarian"),
        ("I'll never forget that I met my wife in Rome", "Mickael met their wife in Rome"),
        # plans and changes told without "I" or "we"
        (
            "We're adopting a cat this weekend!",
            "Mickael and others are adopting a cat on the weekend of Saturday 28 November 2026",
        ),
        (
            "Rescheduled the flight for Thursday though.",
            "Mickael rescheduled the flight for Thursday 26 November 2026 though",
        ),
        ("Already planning to go back next spring.", "Mickael is already planning to go back in spring 2027"),
        # an emoji ends a sentence as a full stop does
        (
            "my team won the hackathon yesterday 🏆 our project was an AI recipe generator",
            "Mickael's team won the hackathon on Tuesday 24 November 2026",
        ),
        # what the speaker loves about something, said sincerely
        (
            "I love how art lets us get our emotions out",
            "Mickael loves how art lets Mickael and others get their emotions out",
        ),
    ],
)
def test_what_chat_says_in_its_own_way(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found


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
    "text", ["starting tomorrow, can't wait", "starting Monday, I'm on nights", "we're not running today"]
)
def test_a_day_said_first_or_a_we_are_not_is_no_rule_of_the_team(text: str) -> None:
    assert [content for kind, content in contents(text) if kind is DEC] == []


def test_a_star_sign_is_no_survivor_of_cancer() -> None:
    assert "Mickael is a Leo" in [item.content for item in run("I'm a Leo btw")]
    assert "Mickael is a Cancer" not in [item.content for item in run("I'm a Cancer survivor")]


@pytest.mark.parametrize(
    ("text", "memory_type", "content"),
    [
        # what the team stops, drops or will not do
        ("let's not use Redis", DEC, "Mickael and the team decided not to use Redis"),
        ("we won't use Mongo", DEC, "Mickael and the team decided not to use Mongo"),
        (
            "we're not going to support IE11 anymore",
            DEC,
            "Mickael and the team decided to no longer support IE11",
        ),
        ("we no longer ship on Fridays", DEC, "Mickael and the team decided to no longer ship on Fridays"),
        ("we dropped the Kafka idea", DEC, "Mickael and the team dropped the Kafka idea"),
        # ... until a month to come ("won't" is no past "won": the March after this one)
        ("we won't be hiring until March", DEC, "Mickael and the team decided not to hire until March 2027"),
        ("we're not hiring until March", DEC, "Mickael and the team decided not to hire until March 2027"),
        ("we won't hire until March", DEC, "Mickael and the team decided not to hire until March 2027"),
        (
            "we are not doing standups this week",
            DEC,
            "Mickael and the team decided not to do standups in the week of Monday 23 November 2026",
        ),
        # a rule for what comes, and a decision said before who took it
        ("going forward, all PRs need a ticket number", DEC, "Going forward, all PRs need a ticket number"),
        ("from now on standup is at 9:30", DEC, "From now on, standup is at 9:30"),
        # ... from a day said
        (
            "starting next week, no more meetings on Wednesdays",
            DEC,
            "Starting in the week of Monday 30 November 2026, no more meetings on Wednesdays",
        ),
        ("as of Monday, standup is at 9:30", DEC, "As of Monday 30 November 2026, standup is at 9:30"),
        (
            "moving forward, we'll do biweekly releases",
            DEC,
            "Moving forward, Mickael and others will do biweekly releases",
        ),
        (
            "no more meetings on Fridays, the team decided",
            DEC,
            "Mickael and the team decided: no more meetings on Fridays",
        ),
        # a labelled decision said in the first person names the speaker's team
        ("final decision: we're using Terraform", DEC, "Decision: Mickael and others are using Terraform"),
        # how the speaker wants to be reached
        ("please don't ping me before 10am", PREF, "Mickael asked not to be pinged before 10am"),
        (
            "don't DM me about prod issues, use #oncall",
            PREF,
            "Mickael asked not to be DMed about prod issues",
        ),
        ("I'd rather not be tagged in #random", PREF, "Mickael would rather not be tagged in #random"),
        # ... and how they do: a way, or a standing condition
        ("text me if it's urgent", PREF, "Mickael wants to be texted if it's urgent"),
        (
            "please use my personal email for anything urgent",
            PREF,
            "Mickael wants to be reached on their personal email for anything urgent",
        ),
        ("ping me on Slack rather than email", PREF, "Mickael wants to be pinged on Slack rather than email"),
        (
            "call me on my cell if prod is down",
            PREF,
            "Mickael wants to be called on their cell if prod is down",
        ),
        (
            "for anything urgent, call my cell",
            PREF,
            "Mickael wants to be called on their cell for anything urgent",
        ),
        ("please page me only for sev1", PREF, "Mickael wants to be paged only for sev1"),
        ("email me at mick@example.com", PREF, "Mickael wants to be emailed at mick@example.com"),
        ("the best way to reach me is Signal", PREF, "The best way to reach Mickael is Signal"),
        # a name refused is no name given: no alias, only the wish
        ("don't call me Mick", PREF, "Mickael asked not to be called Mick"),
        # a switch of tools, dated; a month after "until"
        (
            "we switched from Jenkins to GitHub Actions last month",
            EVENT,
            "Mickael and others switched from Jenkins to GitHub Actions in October 2026",
        ),
        (
            "we agreed to freeze the API until March",
            DEC,
            "Mickael and the team agreed to freeze the API until March 2027",
        ),
    ],
)
def test_what_teams_decide_and_how_people_want_to_be_reached(
    text: str, memory_type: MemoryType, content: str
) -> None:
    found = [(item.memory_type, item.content) for item in run(text, now=WEDNESDAY_NOON)]
    assert (memory_type, content) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "DM me if you need anything",  # an offer
        "text me when you get there",  # once
        "call me at 5",
        "ping me on Monday",
        "call me tomorrow",
        "dm me for the link",
        "message me on here",
        "email me the report",  # what to send, not how
        "feel free to DM me anytime",
        "call me Zed",  # a name
    ],
)
def test_a_one_off_request_to_be_reached_is_no_standing_wish(text: str) -> None:
    found = run(text, now=WEDNESDAY_NOON)
    assert not [item for item in found if " to be " in item.content or "reach" in item.content], found


@pytest.mark.parametrize(
    "text",
    [
        "we dropped the ball on this one",  # an idiom, no idea let go
        "going forward with the plan",  # no rule, a plan going ahead
        "don't call me that",  # what "that" was is not in the message
        "we're not going to make it on time",
        "I'm off to bed tomorrow",
    ],
)
def test_idioms_of_teams_and_reaching_decide_nothing(text: str) -> None:
    assert run(text, now=WEDNESDAY_NOON) == []


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


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # two friends catching up: what was done, with which thing told to the listener left out
        (
            "I finally signed up for that pottery class I told you about.",
            "Mickael finally signed up for that pottery class",
        ),
        ("I bought the book you recommended", "Mickael bought the book"),
        ("I read the article you sent me yesterday", "Mickael read the article on Tuesday 24 November 2026"),
        # what was on a day, told with "was", is the day before
        ("First session was on Tuesday!", "First session was on Tuesday 24 November 2026"),
        (
            "I managed to run my first 10k last Sunday.",
            "Mickael managed to run their first 10k on Sunday 22 November 2026",
        ),
        (
            "I'm thinking of going back to school for a nursing degree.",
            "Mickael is thinking of going back to school for a nursing degree",
        ),
        (
            "We repainted the living room blue over the holidays.",
            "Mickael and others repainted the living room blue over the holidays",
        ),
        (
            "My band is playing at a local bar next Friday, you should come!",
            "Mickael's band is playing at a local bar on Friday 4 December 2026",
        ),
        # how the speaker felt about it is no part of what it was
        (
            "I started taking salsa lessons two weeks ago, it's so much fun.",
            "Mickael started taking salsa lessons in the week of Monday 9 November 2026",
        ),
        (
            "My son just made the varsity soccer team, we're so proud.",
            "Mickael's son just made the varsity soccer team",
        ),
        (
            "My husband surprised me with tickets to Hamilton for our anniversary!",
            "Mickael's husband surprised Mickael with tickets to Hamilton for their anniversary",
        ),
        ("my boss gave me a raise", "Mickael's boss gave Mickael a raise"),
        (
            "My wife got a promotion at work last week.",
            "Mickael's wife got a promotion at work in the week of Monday 16 November 2026",
        ),
        (
            "My daughter starts kindergarten in the fall.",
            "Mickael's daughter starts kindergarten in the fall",
        ),
        # what happened to something of the speaker's
        (
            "My car broke down on the highway yesterday.",
            "Mickael's car broke down on the highway on Tuesday 24 November 2026",
        ),
        ("my phone got stolen at the concert", "Mickael's phone got stolen at the concert"),
        ("I just paid off my student loans!", "Mickael just paid off their student loans"),
        # a part after a comma told in the present is of a day to come, whatever came before
        (
            "My grandpa passed away last week, the funeral is on Saturday.",
            "Mickael's grandpa passed away in the week of Monday 16 November 2026, "
            "the funeral is on Saturday 28 November 2026",
        ),
        # "wish me luck" is no part of the interview
        (
            "I've got a job interview at Google on Thursday, wish me luck!",
            "Mickael has got a job interview at Google on Thursday 26 November 2026",
        ),
        (
            "My mom is recovering from knee surgery, so I've been helping her out.",
            "Mickael's mom is recovering from knee surgery",
        ),
        ("We're renovating our kitchen, it's been chaos.", "Mickael and others are renovating their kitchen"),
        (
            "I just got my first promotion at the hospital, I'm a charge nurse now!",
            "Mickael is a charge nurse",
        ),
        # a trip saved up for is no place been to
        (
            "I'm saving up for a trip to Japan next spring.",
            "Mickael is saving up for a trip to Japan in spring 2027",
        ),
        (
            "I'm hosting a book club at my place next Thursday.",
            "Mickael is hosting a book club at their place on Thursday 3 December 2026",
        ),
        ("I turned forty-two", "Mickael turned forty-two"),
        # a parent named as chat names one's own, and surgery of a kind
        ("mom's in hospital again", "Mickael's mom is in hospital again"),
        ("dad had a stroke", "Mickael's dad had a stroke"),
        ("dad's birthday is on friday", "Mickael's dad's birthday is on Friday 27 November 2026"),
        ("my dad had hip surgery", "Mickael's dad had hip surgery"),
        ("my dad had surgery", "Mickael's dad had surgery"),
        ("my mom had knee replacement surgery", "Mickael's mom had knee replacement surgery"),
        # French news: a child's firsts, a breakup, a table booked ("resto" was no event)
        (
            "ma fille a perdu sa première dent hier",
            "La fille de Mickael a perdu sa première dent le mardi 24 novembre 2026",
        ),
        # what two did to each other is the speaker's and the other's ("Mickael et d'autres ... avec
        # Paul" before)
        ("on s'est séparés avec Paul", "Mickael et Paul se sont séparés"),
        # a child's diploma, a parent's arrival (were nothing)
        ("mon fils a eu son bac", "Le fils de Mickael a eu son bac"),
        (
            "ma mère arrive demain pour une semaine",
            "La mère de Mickael arrive le jeudi 26 novembre 2026 pour une semaine",
        ),
        # the day a clause is about first ("A holiday is Monday ..." before), an absence without its
        # "I", the future of "je" ("Mickael serai" before)
        ("Monday is a holiday so no standup", "Monday 30 November 2026 is a holiday"),
        # a sprint's end, a hard stop, a target hit (were nothing)
        ("our sprint ends Thursday", "Mickael's sprint ends Thursday 26 November 2026"),
        ("I have a hard stop at 5 today", "Mickael has a hard stop at 5 on Wednesday 25 November 2026"),
        ("we hit our Q3 target!", "Mickael and others hit their Q3 target"),
        # working from home on a day, a visit home (were nothing)
        (
            "my son has a fever so I'm working from home today",
            "Mickael is working from home on Wednesday 25 November 2026",
        ),
        (
            "we're going to my parents this weekend",
            "Mickael and others are going to their parents on the weekend of Saturday 28 November 2026",
        ),
        ("can't make it friday, dentist", "Mickael can't make it Friday 27 November 2026, dentist"),
        (
            "je serai en congé du 20 au 31 décembre",
            "Mickael sera en congé du dimanche 20 décembre 2026 au jeudi 31 décembre 2026",
        ),
        ("nous nous sommes mariés avec Julie en juin", "Mickael et Julie se sont mariés en juin 2026"),
        (
            "le resto de samedi est réservé pour 20h",
            "Le resto de samedi 28 novembre 2026 est réservé pour 20h",
        ),
        # a name said before whom it names ("Priya is my manager" was nothing)
        ("Priya is my manager", "Mickael's manager is called Priya"),
        ("Sam is our new tech lead", "Mickael's new tech lead is called Sam"),
        # what someone named does ("Sarah is our new designer" was nothing)
        ("Sarah is our new designer", "Sarah is the new designer"),
        ("Sarah is a designer", "Sarah is a designer"),
        ("Sam is now a nurse at St Thomas", "Sam is a nurse at St Thomas"),
        # a couple's state said with "we" ("we're engaged" was nothing), or to whom
        ("she said yes!!! we're engaged 💍", "Mickael is engaged"),
        ("I'm engaged to Sam", "Mickael is engaged"),
        # what one is doing on a day, the subject left out, and appointments by who one sees
        (
            "finally finished my thesis!! defending on march 3",
            "Mickael is defending on Wednesday 3 March 2027",
        ),
        (
            "quitting my job at the end of the month, going freelance",
            "Mickael is quitting their job on Monday 30 November 2026, going freelance",
        ),
        (
            "presenting the roadmap on thursday",
            "Mickael is presenting the roadmap on Thursday 26 November 2026",
        ),
        (
            "dentist at 4 tomorrow so I'll leave early",
            "Mickael has the dentist at 4 on Thursday 26 November 2026",
        ),
        # a grunt is no part of it
        (
            "lost my wallet at the concert last night ugh",
            "Mickael lost their wallet at the concert on Tuesday 24 November 2026",
        ),
        # work news with its day: a deadline moved, a team changed, a day to come after a comma
        (
            "the client moved the deadline to the 15th",
            "The client moved the deadline to Tuesday 15 December 2026",
        ),
        (
            "heads up: I'm switching teams in January, joining platform",
            "Mickael is switching teams in January 2027, joining platform",
        ),
        ("deadline for the report is the 15th", "Deadline for the report: Tuesday 15 December 2026"),
        (
            "my laptop died, IT is sending a new one tuesday",
            "Mickael's laptop died, IT is sending a new one Tuesday 1 December 2026",
        ),
        # a part of a month said with "at the" or alone ("moving out at in late March" was near)
        (
            "my roommate is moving out at the end of March",
            "Mickael's roommate is moving out in late March 2027",
        ),
        ("my roommate is moving out end of march", "Mickael's roommate is moving out in late March 2027"),
        ("the new job starts on the 4th", "The new job starts on Friday 4 December 2026"),
        ("we're expecting our first in april", "Mickael and others are expecting their first in April 2027"),
        # after "but" the speaker speaks again, whatever came before ("idk if ...")
        ("idk if i mentioned but i'm colorblind", "Mickael is colorblind"),
        ("i'm a night owl fr", "Mickael is a night owl"),
        (
            "my cat knocked my coffee onto my keyboard rip",
            "Mickael's pets include a cat: Mickael's cat knocked Mickael's coffee onto Mickael's keyboard",
        ),
        # a past verb after the day said with the subject: last Friday, not the next one
        (
            "the deploy on friday broke prod for 2 hours",
            "The deploy on Friday 20 November 2026 broke prod for 2 hours",
        ),
        ("we turned the garage into a studio", "Mickael and others turned the garage into a studio"),
    ],
)
def test_what_friends_tell_each_other(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found


@pytest.mark.parametrize(
    "text",
    [
        "I managed to get some sleep",
        "I told you about it",
        "I went to that thing",
        "my mom gave me a hard time about it",  # an idiom, no gift
        "my dad gave me a ride",
        "we're redoing the slides",  # work, not the home
        "my heart broke",
        "Biscuit is very annoyed I turned the light on",  # "turned" is an event of an age or a change
        "we're married to our jobs lol",  # an idiom, no couple
        "mom, can you send me the recipe",  # said to her
        "she is the 2nd best player",  # a rank, no day
        "Coffee is my best friend",  # what a thing is to the speaker, no name
        "Tom is a legend",  # praise, no job
        "Work is a nightmare",  # no one named
        "if I get the job I'm moving to Berlin",  # a supposition
        "I'd move to Paris if I could, but I'm staying in Lyon",  # a supposition, then nothing new
    ],
)
def test_what_friends_say_in_passing_is_no_event(text: str) -> None:
    assert run(text, now=WEDNESDAY_NOON) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # pastimes as friends mention them
        ("I'm really into photography these days, mostly landscapes.", "Mickael is into photography"),
        (
            "My husband and I go ballroom dancing on Fridays.",
            "Mickael's hobbies and activities include dancing: "
            "Mickael's husband and Mickael go ballroom dancing on Fridays",
        ),
        ("I'm part of a community choir.", "Mickael is part of a community choir"),
        ("I'm on the soccer team and I love it", "Mickael is on the soccer team"),
        ("je fais partie d'une chorale", "Mickael fait partie d'une chorale"),
        (
            "Kayaking on the lake every Sunday is my favorite thing.",
            "Mickael's favorite thing is kayaking on the lake every Sunday",
        ),
        ("baking is my favourite way to relax", "Mickael's favorite way to relax is baking"),
    ],
)
def test_pastimes_as_friends_mention_them(text: str, content: str) -> None:
    assert content in [item.content for item in run(text)]


@pytest.mark.parametrize(
    "text", ["I'm in the group chat", "I'm on a team call", "Nothing is my favorite thing"]
)
def test_a_chat_a_call_or_nothing_is_no_pastime(text: str) -> None:
    assert run(text) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # what sets the speaker apart
        ("My first job was at a bookstore.", "Mickael's first job was at a bookstore"),
        ("I have a degree in biology.", "Mickael has a degree in biology"),
        ("I got my master's in economics last year", "Mickael has their master's in economics"),
        ("I've never been to Europe.", "Mickael has never been to Europe"),
        ("I can't swim.", "Mickael can't swim"),
        ("I'm scared of heights.", "Mickael is scared of heights"),
        ("I'm the oldest of four kids.", "Mickael is the oldest of four kids"),
        ("I'm an only child", "Mickael is an only child"),
    ],
)
def test_what_sets_the_speaker_apart(text: str, content: str) -> None:
    assert content in [item.content for item in run(text)]


@pytest.mark.parametrize(
    "text",
    [
        "I can't wait",
        "I can't believe it",
        "I've never said that",
        "I'm afraid of that",
        "I'm afraid I can't make it",
    ],
)
def test_chat_that_sounds_like_it_sets_nothing_apart(text: str) -> None:
    assert run(text) == []


def test_a_birthplace_is_no_place_been_to() -> None:
    assert [item.content for item in run("I was born in Paris")] == ["Mickael was born in Paris"]


def test_a_trip_saved_up_for_is_no_place_been_to() -> None:
    found = run("I'm saving up for a trip to Japan next spring.", now=WEDNESDAY_NOON)
    assert not any("places visited" in item.content for item in found), found


def test_a_score_is_no_span_of_days() -> None:
    assert run("the score was 3-5 in May", now=WEDNESDAY_NOON) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an #introductions message: a name, then its age and home town
        (
            "Hi everyone! I'm Dana, 28, from Portland.",
            ["Mickael's name is Dana", "Dana is 28 years old", "Dana is from Portland"],
        ),
        ("hey! name's Marco, he/him.", ["Mickael's name is Marco", "Marco's pronouns are he/him"]),
        (
            "Moi c'est Claire, 35 ans, je vis à Nantes",
            ["Mickael s'appelle Claire", "Claire a 35 ans", "Claire vit à Nantes"],
        ),
        (
            "I'm Sam (they/them), 31, originally from Leeds",
            [
                "Mickael's name is Sam",
                "Sam's pronouns are they/them",
                "Sam is 31 years old",
                "Sam is originally from Leeds",
            ],
        ),
        ("she/they btw", ["Mickael's pronouns are she/they"]),
        # no pronouns given, no name, no age
        ("he/she will decide", []),
        ("the name is Bond", []),
        ("I'm Tom, 5 minutes late sorry", ["Mickael's name is Tom"]),
        # a job said after the name, with where it is or the home town
        (
            "I'm Priya, 27, software engineer from Pune",
            [
                "Mickael's name is Priya",
                "Priya is 27 years old",
                "Priya is from Pune",
                "Priya is a software engineer",
            ],
        ),
        ("I'm Raj, a nurse at St Mary's", ["Mickael's name is Raj", "Raj is a nurse at St Mary's"]),
        ("I'm Dana, just back from Lisbon", ["Mickael's name is Dana"]),
        ("I'm Tom, big fan of jazz", ["Mickael's name is Tom"]),
    ],
)
def test_an_introduction_says_name_pronouns_age_and_home_town(text: str, expected: list[str]) -> None:
    assert [item.content for item in run(text)] == expected


@pytest.mark.parametrize(
    ("text", "learned"),
    [
        # taken back as it ends, or by the next sentence
        ("I'm moving to Berlin jk", []),
        ("I love Mondays /s", []),
        ("I'm moving to Berlin. jk I'm staying", []),
        ("j'habite à Paris, je rigole", []),
        # what others believe or say of the speaker
        ("my mom thinks I'm lazy", []),
        ("people say I'm a genius", []),
        ("everyone assumes I'm from Canada", []),
        # after "but" the speaker speaks for themself again
        ("people think I'm a doctor but I'm a nurse", ["Mickael is a nurse"]),
        # what a doctor said is told as fact
        ("the doctor said I'm allergic to penicillin", ["Mickael is allergic to penicillin"]),
    ],
)
def test_only_what_the_speaker_asserts_is_learned(text: str, learned: list[str]) -> None:
    assert [item.content for item in run(text)] == learned


@pytest.mark.parametrize("text", ["I'm not married", "I went out of my way"])
def test_a_bare_not_or_an_idiom_is_no_news(text: str) -> None:
    assert run(text) == []


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


# --------------------------------------------------------------------------- subjects, confidence, dedup


@pytest.mark.parametrize(
    ("text", "subjects"),
    [
        ("I like pizza", ["mickael", "pizza"]),
        ("I prefer tea over coffee", ["mickael", "tea", "coffee"]),
        ("call me Mick", ["mickael", "mick"]),
        ("my dog is called Rex", ["mickael", "rex", "dog"]),
        ("je déteste les réunions", ["mickael", "réunions"]),
        ("the deadline for the report is Friday", ["mickael", "report"]),
        ("I'm a software engineer at Google", ["mickael", "software", "engineer", "google"]),
        ("je suis développeuse web chez Acme", ["mickael", "développeuse", "web", "acme"]),
    ],
)
def test_subjects(text: str, subjects: list[str]) -> None:
    assert [item.subjects for item in run(text)] == [subjects]


def test_subjects_are_lowercase_bounded_and_start_with_the_speaker() -> None:
    text = (
        "remember that the quarterly budget review meeting with finance marketing sales and legal is annual. "
        "I love Pizza and I want to learn Japanese."
    )
    items = run(text, speaker="Ana María")
    assert len(items) == 3
    for item in items:
        assert item.subjects[0] == "ana maría"
        assert 1 <= len(item.subjects) <= 5
        assert all(s == s.lower() and s for s in item.subjects)
        assert len(set(item.subjects)) == len(item.subjects)


def test_confidence_levels() -> None:
    [request] = run("remember that the wifi password is hunter2")
    assert request.confidence == pytest.approx(0.9)
    [pref] = run("I like pizza")
    assert 0.6 <= pref.confidence <= 0.8
    [hedged] = run("maybe I prefer tea")
    assert hedged.confidence < pref.confidence
    for item in run("I'm Mickael. We decided to use Go. The deadline is Friday. I broke my arm."):
        assert 0.6 <= item.confidence <= 0.8


def test_duplicates_are_removed() -> None:
    assert contents("I like pizza. I like pizza!\nI like pizza") == [(PREF, "Mickael likes pizza")]
    assert contents("I'm French. je suis française") == [
        (ID, "Mickael is French"),
        (ID, "Mickael est française"),
    ]


def test_speaker_name_is_used_verbatim_and_safely() -> None:
    assert contents("I like pizza", speaker="a\\1b $0") == [(PREF, "a\\1b $0 likes pizza")]
    assert contents("I like pizza", speaker="  @Léa  ") == [(PREF, "Léa likes pizza")]
    # a sentence's capital leaves the name as given, in every kind of note alike
    assert contents("I broke my arm", speaker="root") == [(EVENT, "root broke their arm")]
    assert contents("I like pizza", speaker="root") == [(PREF, "root likes pizza")]
    assert (FACT, "root's pets include a dog: root adopted a dog") in contents(
        "I adopted a dog", speaker="root"
    )
    assert contents("I like pizza", speaker="") == [(PREF, "User likes pizza")]
    assert contents("I like pizza", speaker="\ud800") == [(PREF, "User likes pizza")]
    assert contents("j'adore le jazz", speaker="Ahmed") == [(PREF, "Ahmed adore le jazz")]
    assert contents("ma sœur s'appelle Léa", speaker="Ahmed") == [(FACT, "La sœur d'Ahmed s'appelle Léa")]


def test_curly_apostrophes_and_odd_spacing() -> None:
    assert contents("I\u2019m   a   nurse") == [(ID, "Mickael is a nurse")]
    assert contents("j\u2019adore\u00a0le jazz") == [(PREF, "Mickael adore le jazz")]


def test_extracted_is_frozen() -> None:
    [item] = run("I like pizza")
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.content = "x"  # type: ignore[misc]


# --------------------------------------------------------------------------- robustness


@pytest.mark.parametrize(
    "text",
    [
        "\ud800",
        "I like \udfff pizza \ud83d",
        "\x00\x01\x02 I like pizza \x00 1 \x00",
        "\u202eI like pizza\u202c",
        "אני אוהב פיצה",  # RTL text
        "أنا أحب البيتزا",
        "🍕🍕🍕 I ❤️ pizza 👨‍👩‍👧",
        "I like " * 20_000,
        "a" * 100_000,
        " " * 100_000 + "I like pizza",
        "\n" * 50_000,
        "remember that " * 10_000,
        "Friday " * 15_000,
        ", and I" * 15_000,
        "".join(f"I like pizza number {i}. " for i in range(5_000)),
    ],
)
def test_hostile_inputs_return_a_list(text: str) -> None:
    items = extraction.extract_unguarded(text, "Mickael", NOW)  # the unguarded core: bugs must surface here
    assert isinstance(items, list)
    assert len(items) <= 50
    for item in items:
        assert item.content and len(item.content) <= 500
        item.content.encode("utf-8")  # no lone surrogates leak into stored text


def test_non_string_input_yields_nothing() -> None:
    assert extract(None, "Mickael") == []  # type: ignore[arg-type]
    assert extract(b"I like pizza", "Mickael") == []  # type: ignore[arg-type]


def _check(items: list[Extracted]) -> None:
    assert isinstance(items, list)
    for item in items:
        assert isinstance(item, Extracted)
        assert isinstance(item.memory_type, MemoryType)
        assert item.content.strip() and len(item.content) <= 500
        assert "\x00" not in item.content and "\x01" not in item.content
        assert 0.0 <= item.confidence <= 1.0
        assert item.subjects and all(s == s.lower() for s in item.subjects)
        assert item.event_at is None or isinstance(item.event_at, float)


_TRIGGERS = st.sampled_from(
    [
        "I", "I'm", "my", "we", "let's", "je", "j'", "j'aime", "suis", "mon", "ma", "mes", "on a", "like",
        "love", "don't", "prefer", "remember that", "n'oublie pas que", "decided to", "décidé de", "deadline",
        "due", "by", "pour", "avant le", "Friday", "vendredi", "12 March", "le 1er mars", "2026-02-29",
        "31/12/2026", "tomorrow", "demain", "next week", "in 3 days", "at 3pm", "à 15h", "Mickael", "Léa",
        "?", ".", ",", "!", "\n", '"', "'", ":", "if", "si", "he said", "broke", "got", "want to",
        "is called", "favorite", "préféré", "est", "goal", "\ud800", "\x00", "\x01", "0\x00", "🍕",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=ANY_CHAR, max_size=300), speaker=st.text(alphabet=ANY_CHAR, max_size=20))
@example(text="\ud800", speaker="Mickael")
@example(text="", speaker="")
def test_never_raises_on_arbitrary_text(text: str, speaker: str) -> None:
    _check(extraction.extract_unguarded(text, speaker, NOW))
    _check(extract(text, speaker, now=NOW))


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(st.one_of(_TRIGGERS, st.text(alphabet=ANY_CHAR, max_size=8)), max_size=40),
    seps=st.sampled_from([" ", "", "  ", ", "]),
    days=st.integers(min_value=-4000, max_value=4000),
)
def test_never_raises_on_trigger_soup(parts: list[str], seps: str, days: int) -> None:
    now = NOW + timedelta(days=days, hours=days % 24)
    _check(extraction.extract_unguarded(seps.join(parts), "Mickael", now))


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


@pytest.mark.parametrize(
    ("sentence", "clauses"),
    [
        # "she" goes on about the one person the sentence opened with...
        (
            "Sarah is our new designer, she starts Monday",
            ["Sarah is our new designer", "Sarah starts Monday"],
        ),
        # ... and about nobody when it opened with a day, a month, or two names
        ("March is busy, she starts Monday", ["March is busy, she starts Monday"]),
        ("Monday is busy, he is out", ["Monday is busy, he is out"]),
        ("Sarah told Tom, she starts Monday", ["Sarah told Tom, she starts Monday"]),
    ],
)
def test_a_pronoun_is_named_only_after_one_person(sentence: str, clauses: list[str]) -> None:
    assert [clause for clause, _ in split_clauses(sentence)] == clauses


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I work 4 days a week, never on Fridays", "Mickael works 4 days a week, never on Fridays"),
        ("I don't work Mondays and Fridays", "Mickael doesn't work Mondays and Fridays"),
        ("I never work on weekends", "Mickael never works on weekends"),
        ("I'm off every Friday", "Mickael is off every Friday"),
        ("I'm off on Fridays", "Mickael is off on Fridays"),
        ("my hours are 8 to 4", "Mickael works 8 to 4"),
        ("I usually log off at 5", "Mickael usually logs off at 5"),
        ("I start at 7 every morning", "Mickael starts at 7 every morning"),
        ("je travaille 4 jours par semaine", "Mickael travaille 4 jours par semaine"),
        ("je ne travaille pas le vendredi", "Mickael ne travaille pas le vendredi"),
        ("je suis à 80%", "Mickael est à 80%"),
    ],
)
def test_when_the_speaker_works(text: str, content: str) -> None:
    found = [(item.memory_type, item.content) for item in run(text)]
    assert (MemoryType.IDENTITY, content) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "my hours are crazy",  # no hours said
        "I start at 7",  # maybe tomorrow's
        "I don't work on Friday",  # one Friday
        "I'm off next Friday",
    ],
)
def test_one_day_or_no_hours_is_no_working_time(text: str) -> None:
    assert not [item for item in run(text) if item.memory_type is MemoryType.IDENTITY], run(text)


@pytest.mark.parametrize(
    ("module", "inner", "call", "fallback"),
    [
        ("memory.text.extraction", "extract_unguarded", lambda m: m.extract("I live in Lyon", "Mickael"), []),
        (
            "memory.text.episodes",
            "_detect",
            lambda m: m.detect_episodes("I live in Lyon", "Noted!", "Mickael", NOW),
            [],
        ),
        ("memory.people.aliases", "_learn", lambda m: m.learn_aliases("I live in Lyon", "Mickael"), []),
        (
            "memory.text.dates",
            "_resolve_sentence",
            lambda m: m.resolve_relative_dates("I live in Lyon", NOW),
            "I live in Lyon",
        ),
    ],
)
def test_a_heuristic_that_raises_is_logged_without_the_text_and_costs_the_turn_nothing(
    module: str,
    inner: str,
    call: Callable[[object], object],
    fallback: object,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    imported = importlib.import_module(module)

    def broken(*args: object, **kwargs: object) -> object:
        raise KeyError("I live in Lyon")  # a rule's error may quote what it read

    monkeypatch.setattr(imported, inner, broken)
    with caplog.at_level(logging.WARNING, logger="memory.text"):
        assert call(imported) == fallback
    (record,) = caplog.records
    heuristic = module.rsplit(".", 1)[-1]  # "extraction", "episodes", "aliases", "dates"
    assert (record.heuristic, record.error) == (heuristic, "KeyError")  # type: ignore[attr-defined]
    assert record.where.startswith("test_extraction.py:")  # type: ignore[attr-defined]
    assert "Lyon" not in caplog.text and "Lyon" not in str(record.__dict__)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("my 1:1 with Priya is every other Tuesday", "Mickael's 1:1 with Priya is every other Tuesday"),
        ("my standup is at 9:15 every day", "Mickael's standup is at 9:15 every day"),
        ("my therapy is on Tuesdays", "Mickael's therapy is on Tuesdays"),
        ("my shift is from 7 to 3 every day", "Mickael's shift is from 7 to 3 every day"),
        (
            "my sync with the design team is on Thursdays",
            "Mickael's sync with the design team is on Thursdays",
        ),
    ],
)
def test_what_comes_back_on_its_day(text: str, content: str) -> None:
    found = [(item.memory_type, item.content) for item in run(text)]
    assert (MemoryType.FACT, content) in found, found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Hello! Marco here, Italian living in Berlin. Dad of two, backend dev, amateur cyclist.",
            [
                "Mickael's name is Marco",
                "Marco is Italian",
                "Marco is living in Berlin",
                "Marco is a dad of two",
                "Marco is a backend dev",
                "Marco is an amateur cyclist",
            ],
        ),
        (
            "hey all, Mia here, nurse from Leeds",
            ["Mickael's name is Mia", "Mia is a nurse", "Mia is from Leeds"],
        ),
        (
            "yo, I'm Kenji. 19, college student in Osaka",
            ["Mickael's name is Kenji", "Kenji is 19 years old", "Kenji is a college student in Osaka"],
        ),
        # no introduction: fragments stay as said
        ("Same here, backend dev", []),
        ("I'm tired. Long day, lots of meetings.", []),
    ],
)
def test_an_introduction_told_in_fragments_says_who_one_is(text: str, expected: list[str]) -> None:
    assert [item.content for item in run(text)] == expected


def test_the_return_after_an_absence_is_after_it() -> None:
    # Said on 25 November: "the 3rd" alone would be 3 December, before the absence ends.
    said = "I'm out from the 22nd to the 2nd, back on the 3rd"
    found = [item.content for item in run(said, now=WEDNESDAY_NOON)]
    assert found == [
        "Mickael is out from Tuesday 22 December 2026 to Saturday 2 January 2027, "
        "back on Sunday 3 January 2027"
    ]


# From a twenty-eighth batch of 25 fresh lines of home and health news, said in lower case (1 wrong
# date, 1 note whose "their" read as someone else's, 1 clause without its subject, 5 lines missed).
@pytest.mark.parametrize(
    ("text", "content"),
    [
        # a move that follows a past event is to come
        (
            "we closed on the house yesterday, moving in on the 15th",
            "Mickael and others closed on the house on Tuesday 24 November 2026, moving in on Tuesday 15"
            " December 2026",
        ),
        (
            "we landed yesterday, flying home on Friday",
            "Mickael and others landed on Tuesday 24 November 2026, flying home on Friday 27 November 2026",
        ),
        # "my" after someone else's subject stays the speaker's
        (
            "my therapist moved my appointment to the 3rd",
            "Mickael's therapist moved Mickael's appointment to Thursday 3 December 2026",
        ),
        # what the speaker needs, its "I" left out after a comma
        (
            "just got back from the dentist, need a crown next month",
            "Mickael just got back from the dentist, Mickael needs a crown in December 2026",
        ),
        ("I need a crown next month", "Mickael needs a crown in December 2026"),
        # a debt paid off, its "I" left out
        ("finally paid off my student loans!!", "Mickael finally paid off their student loans"),
        # a change's start: "starting February", "effective March"
        (
            "my landlord is raising the rent by 200 starting february",
            "Mickael's landlord is raising the rent by 200 starting February 2027",
        ),
        ("starting March 3 I am on nights", "Starting Wednesday 3 March 2027 Mickael is on nights"),
        # work on the home
        (
            "we're getting the kitchen redone next month, so takeout for weeks",
            "Mickael and others are getting the kitchen redone in December 2026, so takeout for weeks",
        ),
        (
            "we painted the nursery last weekend",
            "Mickael and others painted the nursery on the weekend of Saturday 21 November 2026",
        ),
        # what troubles the body, and what the doctor ordered
        (
            "ugh my knee is acting up again, physio says no running for 6 weeks",
            "Mickael's knee is acting up again",
        ),
        (
            "ugh my knee is acting up again, physio says no running for 6 weeks",
            "Mickael's physio says no running for 6 weeks",
        ),
        (
            "my back's been killing me since Monday",
            "Mickael's back has been hurting since Monday 23 November 2026",
        ),
        ("my wrist still hurts from the fall", "Mickael's wrist still hurts from the fall"),
        ("my knees keep aching", "Mickael's knees keep aching"),
        ("my doctor told me to avoid alcohol", "Mickael's doctor told Mickael to avoid alcohol"),
        ("the doctor says no lifting for a month", "Mickael's doctor says no lifting for a month"),
    ],
)
def test_what_friends_tell_of_home_and_health(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("we painted the nursery last weekend", "art and crafts"),  # a room painted is no art
        ("my boss approved my raise, effective January 1st", "their raise"),  # the boss's raise?
        ("I spent the weekend in Paris, visiting the Louvre on Saturday", "28 November"),  # the last one
    ],
)
def test_what_friends_tell_of_home_and_health_names_nothing_else(text: str, absent: str) -> None:
    found = notes(text)
    assert found and not any(absent in content for content in found), found


@pytest.mark.parametrize(
    "text",
    [
        "my stomach hurts",  # a moment's ache, nothing lasting
        "my feet are cold",
        "my doctor says hi",
        "my doctor told me not to worry",
        "need a break lol",
    ],
)
def test_a_passing_ache_or_greeting_is_no_note(text: str) -> None:
    assert run(text, now=WEDNESDAY_NOON) == []


# From a twenty-ninth batch of 25 fresh lines that take back, deny or report (1 wrong date, 1 date
# of the wrong year, 1 allergy filed that was denied, 7 lines missed).
@pytest.mark.parametrize(
    ("text", "content"),
    [
        # the day after another, and the day a thing moved to
        (
            "my interview with Stripe got moved from Tuesday to the following Monday",
            "Mickael's interview with Stripe got moved from Tuesday 1 December 2026 to the following Monday 7"
            " December 2026",
        ),
        (
            "I fly out on the 3rd and back the following Sunday",
            "Mickael flies out on Thursday 3 December 2026 and back the following Sunday 6 December 2026",
        ),
        # what someone said of the speaker is in its own tense
        ("my manager said I'm up for promotion in January", "Mickael is up for promotion in January 2027"),
        # a plan called off, a couple apart, what one did not get
        ("I'm not moving to Berlin after all", "Mickael is not moving to Berlin after all"),
        (
            "we're not doing the secret santa this year",
            "Mickael and others are not doing the secret santa in 2026",
        ),
        ("Ana and I aren't together anymore", "Mickael and Ana aren't together anymore"),
        ("I'm not with Tom anymore", "Mickael and Tom aren't together anymore"),
        ("I didn't get the promotion, maybe next cycle", "Mickael didn't get the promotion"),
        ("we didn't get the flat", "Mickael and others didn't get the flat"),
        # years at one company
        ("I've worked here for 10 years", "Mickael has worked here for 10 years (since about 2016)"),
        ("I've been with Stripe since 2021", "Mickael has been with Stripe since 2021"),
        (
            "can't believe I've been at this company for 10 years today",
            "Mickael has been at this company for 10 years (since about 2016) on Wednesday 25 November 2026",
        ),
    ],
)
def test_what_turned_out_otherwise(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found


def test_a_day_moved_happens_on_the_day_it_moved_to() -> None:
    now = WEDNESDAY_NOON
    (moved,) = run("my interview got moved from Tuesday to Thursday", now=now)
    assert moved.event_at == datetime(2026, 12, 3, tzinfo=UTC).timestamp(), moved


def test_an_allergy_denied_is_no_allergy() -> None:
    now = WEDNESDAY_NOON
    (denied,) = run("turns out I'm not allergic to cats, it was the dust", now=now)
    assert denied.predicate is not Predicate.ALLERGY and denied.fact_about("Mickael") is None, denied
    (allergy,) = run("I'm allergic to cats", now=now)
    assert allergy.predicate is Predicate.ALLERGY and allergy.object == "cats", allergy


@pytest.mark.parametrize(
    "text",
    [
        "I'm not going to lie, it was rough",
        "I'm not doing great this year",
        "I'm not working at Google today",  # one day's news
        "I'm not going to the gym this week",
    ],
)
def test_a_denial_that_calls_nothing_off_is_no_note(text: str) -> None:
    assert run(text, now=WEDNESDAY_NOON) == []


# From a thirtieth batch of 25 fresh French lines of work and family (1 person lost from a couple, 1
# day alone and 1 week of a month not read, 5 lines missed).
@pytest.mark.parametrize(
    ("text", "content"),
    [
        # a week counted in a month
        (
            "on part au ski la deuxième semaine de février",
            "Mickael et d'autres partent au ski la semaine du lundi 8 février 2027",
        ),
        (
            "we're going skiing the second week of February",
            "Mickael's sports and activities include skiing: Mickael and others are going skiing in the"
            " week of Monday 8 February 2027",
        ),
        # a day of the month said alone, and an operation to come
        (
            "mon père se fait opérer du genou le 12",
            "Le père de Mickael se fait opérer du genou le samedi 12 décembre 2026",
        ),
        ("ma sœur accouche fin janvier", "La sœur de Mickael accouche fin janvier 2027"),
        ("j'ai été augmenté, enfin", "Mickael a été augmenté, enfin"),
        # who the speaker did it with, said first
        (
            "ma copine et moi on s'est séparés le mois dernier",
            "Mickael et sa copine se sont séparés en octobre 2026",
        ),
        ("Paul et moi on a emménagé ensemble en mars", "Mickael et Paul ont emménagé ensemble en mars 2026"),
        (
            "mon frère et moi, on a couru le marathon de Paris",
            "Mickael et son frère ont couru le marathon de Paris",
        ),
        # working from home, said as French says it
        ("je bosse de chez moi le vendredi", "Mickael travaille à domicile le vendredi"),
    ],
)
def test_what_french_chat_tells_of_work_and_family(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("the last week of March works", "in the week of Monday 22 March 2027 works"),
        ("la dernière semaine d'août on est en Corse", "la semaine du lundi 23 août 2027 on est en Corse"),
        ("I was in Rome the first week of October", "I was in Rome in the week of Monday 28 September 2026"),
        ("the third week of January 2028", "in the week of Monday 17 January 2028"),
        ("rendez-vous le 12 à 14h", "rendez-vous le samedi 12 décembre 2026 à 14h"),
        ("on se voit le 1er", "on se voit le mardi 1er décembre 2026"),
        ("le 3 pièces est loué", "le 3 pièces est loué"),  # a flat of three rooms
        ("le 12 à la maison", "le 12 à la maison"),
    ],
)
def test_a_week_of_a_month_and_a_day_said_alone(said: str, written: str) -> None:
    assert_written_out(said, written)


def test_working_from_home_in_french_is_no_workplace() -> None:
    (note,) = run("je bosse de chez moi le vendredi", now=WEDNESDAY_NOON)
    assert note.predicate is Predicate.ABOUT, note
