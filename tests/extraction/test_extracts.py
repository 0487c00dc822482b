"""The positive table: what a line, English or French, is noted as (its kind and its words)."""

from __future__ import annotations

import pytest

from memory.models import MemoryType
from tests.extraction._support import (
    DEC,
    EVENT,
    FACT,
    GOAL,
    ID,
    PREF,
    TODO,
    contents,
)


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
