"""Word lists for English and French chat: calendar, non-names, nationalities, languages, jobs, kin."""

from __future__ import annotations

import re

from .normalize import regex

__all__ = [
    "APPS",
    "FAMILY_WORD",
    "FEMININE_KIN_FR",
    "FINITE_VERBS_EN",
    "IRREGULAR_PAST_EN",
    "JOB_TITLE_AT_START_EN",
    "JOB_TITLE_EN",
    "KIN_AS_NAME_EN",
    "KIN_AS_NAME_EN_ALT",
    "KIN_FR",
    "LANGUAGES",
    "MONTHS_EN",
    "MONTHS_FR",
    "MONTH_NUMBERS",
    "NATIONALITIES",
    "NOBODY_EN",
    "NOT_A_NAME",
    "NOT_A_NAME_HERE",
    "NUMBER_WORDS",
    "PRESENT_TOO_EN",
    "RELATIVES_EN",
    "RELATIVES_FR",
    "STOPWORDS",
    "TASTE_SINCE_EN",
    "TOOLS",
    "VOWELS",
    "WEEKDAYS_EN",
    "WEEKDAYS_FR",
    "is_occupation_en",
    "is_occupation_fr",
    "is_past_form_en",
]

VOWELS = "aeiouyàâäéèêëîïôöùûüœæ"

# --------------------------------------------------------------------------- verbs

# Irregular simple past forms that are no present form: "I flew" can only be told in the past.
IRREGULAR_PAST_EN = frozenset(
    """
    was were did had went got made said took came saw knew thought told found gave left felt brought
    bought began broke built caught chose drew drank drove ate fell fought flew forgot froze grew hung
    heard hid held kept laid led lent lost meant met paid ran rang rode rose sang sank sat sent shook
    shot slept sold spoke spent stood stole stuck struck swam swore taught tore threw understood woke
    won wore wrote forgave sought fed bent bit blew dug dealt fled knelt leapt learnt lit sped sprang
    stung swept swung wept wound withdrew overcame undertook became
    """.split()
)
# Ranks and marks a player or an athlete reaches: "I hit diamond", "just hit level 50".
RANKS_EN = (
    r"diamond|platinum|plat|gold|silver|bronze|master|grandmaster|challenger|immortal|radiant|legend|level|lvl|"
    r"rank|milestone|record|pr|pb|\d"
)
# Forms that are present as well as past ("I cut", "I read"): they tell nothing of when. Not "run"
# or "become": only their participles are, and after "I" they are the present ("Léa runs").
PRESENT_TOO_EN = frozenset("read cut put set let bet hurt hit upset quit shut split spread beat".split())
# Finite verbs and auxiliaries that follow a subject: after one, a phrase is a clause's predicate.
FINITE_VERBS_EN = frozenset(
    """
    is was are were has have had does did can could will would should must might may makes helps gives
    keeps takes brings seems sounds looks feels gets
    """.split()
)
# Present-tense verbs that end in "ed" without being past forms.
_PRESENT_IN_ED = frozenset(
    "need feed proceed succeed exceed bleed breed speed heed embed shed wed seed".split()
)
# Prefixes that leave a past form past: "retook", "overslept", "withheld", "outgrew".
_PAST_PREFIXES_EN = ("re", "over", "under", "out", "mis", "with", "fore", "up")
# Present verbs that only look like a prefixed past form ("I resent it").
_PREFIXED_PRESENT_EN = frozenset({"resent"})


def is_past_form_en(word: str) -> bool:
    """Whether `word` can only be a simple past: "flew", "retook" ("took" behind a prefix), "walked"."""
    low = word.lower()
    if low in IRREGULAR_PAST_EN:
        return True
    if low in _PREFIXED_PRESENT_EN:
        return False
    if low.endswith("ed") and low not in _PRESENT_IN_ED:
        return True
    return any(
        low.startswith(prefix) and len(low) - len(prefix) > 2 and low[len(prefix) :] in IRREGULAR_PAST_EN
        for prefix in _PAST_PREFIXES_EN
    )


# --------------------------------------------------------------------------- calendar

# Where a chat's people "go" and "are in" all day without travelling: the apps and sites they work
# and talk in ("I was in Jira all morning", "we went to GitHub to check").
APPS = frozenset(
    """slack discord github gitlab jira confluence figma zoom teams notion google youtube twitter reddit
    facebook instagram tiktok linkedin whatsapp telegram signal netflix spotify twitch steam
    trello asana linear gmail outlook excel word powerpoint photoshop vscode chatgpt wikipedia""".split()
)
# What a team "moves to" without anyone changing home: languages, systems, databases, clouds.
TOOLS = frozenset(
    """python rust java kotlin swift typescript javascript golang ruby php elixir haskell scala
    linux windows macos mac ubuntu debian fedora arch android ios postgres postgresql mysql sqlite
    mongodb redis kafka aws gcp azure heroku vercel kubernetes docker terraform react vue angular
    svelte django flask rails node nextjs neovim vim emacs firefox chrome safari""".split()
)
WEEKDAYS_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAYS_FR = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
MONTHS_EN = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip
MONTHS_FR = [
    "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre",
]  # fmt: skip
MONTH_NUMBERS: dict[str, int] = {
    **{month.lower(): number for number, month in enumerate(MONTHS_EN, start=1)},
    **{month: number for number, month in enumerate(MONTHS_FR, start=1)},
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
    "oct": 10, "nov": 11, "dec": 12, "janv": 1, "fevrier": 2, "févr": 2, "fevr": 2, "avr": 4,
    "juil": 7, "aout": 8, "decembre": 12, "déc": 12,
}  # fmt: skip
NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "un": 1, "une": 1, "two": 2, "deux": 2, "three": 3, "trois": 3,
    "four": 4, "quatre": 4, "five": 5, "cinq": 5, "six": 6, "seven": 7, "sept": 7, "eight": 8,
    "huit": 8, "nine": 9, "neuf": 9, "ten": 10, "dix": 10, "quinze": 15,
}  # fmt: skip


# --------------------------------------------------------------------------- words that are not names

# Words that follow "I'm" or "call me" without being a name: "I'm tired", "I'm in Lyon".
# Capitalised words that open a clause and name no one: "Work got crazy", "Everybody moved to Slack".
NOBODY_EN = frozenset(
    """
    he she they it this that these those there here everybody anybody somebody nothing everything something
    work school life covid the a an we you i me us them his her their our your its which whoever anyway
    i've i'm i'd i'll we've we're we'd we'll you've you're
    if when while because but and so then maybe unless once after before until though
    """.split()
)
# Capitalised words before "here" that introduce no one: "Same here", "Admin here", "Mom here".
NOT_A_NAME_HERE = (
    "Same Mom Mum Dad Admin Nope Yep Me Us Nobody Somebody Everyone Team Bot Nothing Sunday".split()
)
NOT_A_NAME = frozenset(
    """
    tired happy sad sure not so very really just also still fine good great ok okay here there back sorry glad
    new ready done busy hungry thirsty sick ill excited afraid alone alive aware able free late early home
    in on
    at out off up down over into from with the a an all almost always never only quite pretty too well better
    worse bored confused curious interested thinking trying going working looking thankful grateful lucky
    proud serious kidding joking fed stuck lost right wrong certain positive old young single married
    available around away cool awesome bad honest open close near about like literally totally currently now
    finally actually afraid sleepy exhausted stressed nervous worried angry mad upset scared hot cold warm
    bien fatigué fatiguée content contente désolé désolée prêt prête sûr sûre là ici malade occupé occupée
    libre heureux heureuse triste en pas très trop si tellement vraiment d'accord dispo disponible perdu
    perdue nul nulle de du des le la les un une au aux à chez ton ta mon ma sur avec pour par car donc mais
    et ou ni que qui quoi dans sous vers moi toi lui elle elles eux nous vous ravi ravie enchanté enchantée
    god yes no hi hello hey thanks thank please what who where when why how your my his her our their its
    ooo ooto oof afk brb wfh wfo pto irl idk fyi tbh ngl imo imho asap eta eod eow lol omg btw gtg ttyl
    catholic christian jewish muslim hindu buddhist atheist agnostic mormon protestant orthodox sikh pagan
    gen team bi gay straight lesbian queer trans nonbinary non-binary ace cis vegan vegetarian pescatarian
    adhd autistic dyslexic diabetic deaf blind introverted extroverted introvert extrovert
    aries taurus gemini cancer virgo libra scorpio sagittarius capricorn aquarius pisces
    dead broke shook beat sold game human nerd sober slammed stoked pumped hyped thrilled blessed starving
    swamped shy weird sick fried toast wrecked gutted stressed chill calm stuffed full broken drunk high
    hooked addicted obsessed down game salty mid sus lit dope legit official done screwed doomed nobody
    somebody someone everyone anyone maybe online offline
    diamond platinum plat bronze grandmaster challenger immortal radiant
    bélier taureau gémeaux lion vierge balance scorpion sagittaire capricorne verseau poissons
    super sooo soo way kinda sorta lowkey highkey boomer millennial zoomer poor taken pregnant keto clean
    """.split()
    + WEEKDAYS_EN
    + WEEKDAYS_FR
    + [month.lower() for month in MONTHS_EN]
    + MONTHS_FR
)
NATIONALITIES = frozenset(
    """
    french english british american canadian german italian spanish portuguese dutch belgian swiss chinese
    japanese korean indian brazilian mexican russian polish irish scottish welsh australian swedish norwegian
    danish finnish greek turkish egyptian moroccan algerian tunisian vietnamese ukrainian romanian austrian
    argentinian colombian chilean peruvian lebanese senegalese nigerian kenyan israeli iranian pakistani
    thai filipino indonesian european african asian latino québécois quebecois
    français française anglais anglaise britannique américain américaine canadien canadienne allemand
    allemande italien italienne espagnol espagnole portugais portugaise belge suisse chinois chinoise japonais
    japonaise coréen coréenne indien indienne brésilien brésilienne mexicain mexicaine russe polonais
    polonaise irlandais irlandaise marocain marocaine algérien algérienne tunisien tunisienne sénégalais
    sénégalaise libanais libanaise vietnamien vietnamienne ukrainien ukrainienne roumain roumaine européen
    européenne africain africaine néerlandais néerlandaise grec grecque turc turque
    """.split()
)
# Diets one is on, as "I'm on a keto diet" says them (rules/preferences.py) and the note reads back
# (facts.py).
DIET_PLANS_EN = (
    r"(?:keto|ketogenic|paleo|low[- ]carb|low[- ]fodmap|low[- ]sodium|low[- ]fat|gluten[- ]free|"
    r"plant[- ]based|mediterranean|carnivore|whole30)"
)
LANGUAGES = frozenset(
    """
    english french spanish german italian portuguese dutch chinese mandarin cantonese japanese korean arabic
    russian hindi polish swedish norwegian danish finnish greek turkish hebrew vietnamese ukrainian romanian
    catalan basque breton esperanto latin bengali urdu persian farsi swahili thai indonesian tagalog
    anglais français espagnol allemand italien portugais néerlandais chinois mandarin japonais coréen arabe
    russe polonais suédois norvégien danois finnois grec turc hébreu vietnamien ukrainien roumain catalan
    basque breton espéranto latin persan
    """.split()
)

# --------------------------------------------------------------------------- occupations

_OCCUPATIONS_EN = frozenset(
    """
    nurse doctor teacher student engineer developer dev designer lawyer attorney accountant chef cook artist
    writer author journalist scientist researcher professor lecturer manager consultant freelancer
    entrepreneur founder cofounder co-founder ceo cto cfo coo intern pilot firefighter cop paramedic
    pharmacist dentist therapist psychologist architect plumber electrician mechanic carpenter farmer baker
    barista waiter waitress cashier programmer coder analyst pm sre devops admin sysadmin photographer
    musician singer actor actress dancer athlete coach tutor librarian vet veterinarian surgeon physician
    midwife soldier retiree mom mum dad father mother parent postdoc undergrad volunteer translator editor
    marketer salesperson recruiter streamer youtuber gamer maintainer contributor nanny teen teenager
    """.split()
)
_OCCUPATION_SUFFIXES_EN = (
    "er",
    "or",
    "ist",
    "ian",
    "eer",
    "ant",
    "ent",
    "ive",
    "ect",
    "ogist",
    "man",
    "woman",
    "ess",
)
_NOT_OCCUPATIONS_EN = frozenset(
    """
    other number answer order matter better bigger lot bit little tad fan big huge part member whatever
    idiot mess wreck disaster joke fool genius moment minute second quarter ever never
    vegetarian vegan pescatarian
    """.split()
)
_OCCUPATIONS_FR = frozenset(
    """
    médecin infirmier infirmière avocat avocate prof professeur professeure enseignant enseignante étudiant
    étudiante ingénieur ingénieure développeur développeuse dev designer graphiste architecte comptable
    journaliste chef cuisinier cuisinière boulanger boulangère serveur serveuse vendeur vendeuse pilote
    policier policière pompier mécanicien mécanicienne électricien électricienne plombier artiste musicien
    musicienne écrivain écrivaine auteur autrice photographe chercheur chercheuse doctorant doctorante
    stagiaire freelance indépendant indépendante entrepreneur entrepreneuse consultant consultante manager
    directeur directrice retraité retraitée fonctionnaire militaire agriculteur agricultrice pharmacien
    pharmacienne dentiste kiné kinésithérapeute psychologue sage-femme chômeur chômeuse lycéen lycéenne
    collégien collégienne maman papa père mère informaticien informaticienne traducteur traductrice
    """.split()
)
_OCCUPATION_SUFFIXES_FR = (
    "eur", "euse", "iste", "ien", "ienne", "ier", "ière", "logue", "aire", "ant", "ante", "trice",
)  # fmt: skip
_NOT_OCCUPATIONS_FR = frozenset(
    """
    heureuse curieuse sérieuse nerveuse joyeuse paresseuse malheureuse amoureuse courageuse généreuse
    dangereuse furieuse anxieuse ambitieuse chanceuse meilleur supérieur majeur mineur intérieur extérieur
    inférieur triste bien rien ancien fier fière dernier dernière premier première entier particulier régulier
    content contente méchant méchante charmant charmante marrant marrante fatigant fatigante important
    importante intéressant intéressante élégant élégante puissant puissante brillant brillante nécessaire
    végétarien végétarienne végane vegan fan partant partante gagnant gagnante perdant perdante confiant
    confiante méfiant méfiante sûr sûre prêt prête désolé désolée ravi ravie d'accord là ici
    en train pas
    """.split()
)
_PREPOSITIONS = frozenset("at for in with from of on by near chez à au aux pour dans de du des".split())


_YEAR_OF_STUDY_EN = re.compile(
    r"^(?:first|second|third|fourth|fifth|final|last|1st|2nd|3rd|4th|5th)[\s-]+years?\s+", re.IGNORECASE
)
# "a stay at home dad" is one word, as "a stay-at-home dad" is: its "at" is no preposition of the job.
_STAY_AT_HOME = re.compile(r"\bstay\s+at\s+home\b", re.IGNORECASE)


# A job title as a signature writes it, without its article: "Senior Engineer", "Head of Design",
# "CTO", "VP Sales", and a player's role ("Tank main"). A regex fragment: the rules find it after
# "I'm" (rules/names.py), the profile after "<name> is" (facts.py).
JOB_TITLE_EN = (
    r"(?:(?:senior|junior|staff|principal|lead|head|chief|associate|assistant|deputy|acting|interim|"
    r"product|program|project|engineering|design|data|software|marketing|sales|tank|support|dps|healer)\s+)*"
    r"(?:engineer|developer|dev|designer|manager|director|head|lead|founder|co-?founder|owner|architect|analyst|"
    r"scientist|consultant|recruiter|editor|producer|officer|president|partner|intern|main|"
    r"(?-i:CTO|CEO|CFO|COO|CMO|CPO|CIO|VP|SVP|EVP|PM|EM|TPM|PO|SRE|SWE|QA|HR|RH|DRH|DSI|UX|UI|DBA))\b"
)
JOB_TITLE_AT_START_EN = regex("^" + JOB_TITLE_EN)


def is_occupation_en(phrase: str) -> bool:
    """Whether "I'm a <phrase>" names a job: "software engineer at Acme" yes, "big fan" no."""
    # "a second-year CS student": the year of study says which student, not a "second".
    said = _STAY_AT_HOME.sub("stay-at-home", _YEAR_OF_STUDY_EN.sub("", phrase))
    words = [w.lower().strip(".,!") for w in said.split()]
    if not words or words[0] in _NOT_OCCUPATIONS_EN:
        return False
    # The head noun is the last word, or the one before a preposition ("nurse in Lyon").
    head = words[-1]
    for index, word in enumerate(words):
        if word in _PREPOSITIONS and index > 0:
            head = words[index - 1]
            break
    if head in _NOT_OCCUPATIONS_EN or any(word in _NOT_OCCUPATIONS_EN for word in words[:2]):
        return False
    if not head.replace("-", "").replace("'", "").isalpha():
        return False  # "she/her" ends as "teacher" does, and is no job
    return head in _OCCUPATIONS_EN or (len(head) > 3 and head.endswith(_OCCUPATION_SUFFIXES_EN))


def is_occupation_fr(word: str) -> bool:
    """Whether "je suis <word>" names a job (or nationality), not a state: "infirmière" yes, "fatiguée" no."""
    low = word.lower().strip(".,!")
    # Past participles ("fatiguée", "mariés") say how one is, not what one does.
    if low in _NOT_OCCUPATIONS_FR or (low.endswith(("é", "ée", "és", "ées")) and low not in _OCCUPATIONS_FR):
        return False
    return (
        low in _OCCUPATIONS_FR
        or low in NATIONALITIES
        or (len(low) > 4 and low.endswith(_OCCUPATION_SUFFIXES_FR))
    )


# --------------------------------------------------------------------------- relatives and pets

# Kin that chat names as a name, meaning the speaker's own ("Mom got promoted", "mom's in hospital"),
# with the word a note says for each.
KIN_AS_NAME_EN = {
    "mom": "mom", "mum": "mum", "mommy": "mom", "mummy": "mum", "dad": "dad", "daddy": "dad",
    "grandma": "grandma", "grandpa": "grandpa", "granny": "grandma", "nana": "grandma", "nan": "grandma",
    "grandad": "grandpa", "granddad": "grandpa",
}  # fmt: skip
KIN_AS_NAME_EN_ALT = "(?:" + "|".join(sorted(KIN_AS_NAME_EN, key=len, reverse=True)) + ")"

# Dog and cat breeds a pet goes by ("our greyhound Rocket", "a rescue beagle named Pepper"): none of
# them a common word ("lab", "boxer", "persian" and "maltese" are left out). A regex source.
BREEDS_EN = (
    r"(?:golden\s+retriever|labrador|retriever|greyhound|whippet|beagle|poodle|labradoodle|goldendoodle|cockapoo|"
    r"corgi|dachshund|chihuahua|pug|french\s+bulldog|bulldog|frenchie|rottweiler|doberman|husky|malamute|terrier|"
    r"spaniel|schnauzer|border\s+collie|collie|sheepdog|shih\s+tzu|pomeranian|samoyed|shiba(?:\s+inu)?|"
    r"great\s+dane|pit\s*bull|german\s+shepherd|maine\s+coon|ragdoll|sphynx|tabby)"
)
# A child's year at school, after "in": "3rd grade", "year 5", "kindergarten". A regex source.
SCHOOL_YEAR_EN = (
    r"(?:(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
    r"twelfth)\s+grade|(?:year|grade)\s+\d{1,2}|kindergarten|preschool|pre-k|daycare|nursery|reception|"
    r"(?:middle|high|elementary|primary|secondary)\s+school)\b"
)
# Regex sources (not compiled): rules and the profile reader embed them in larger patterns.
RELATIVES_EN = (
    r"(?:little\s+|big\s+|older\s+|younger\s+|best\s+|baby\s+|twin\s+|new\s+)?(?:sister|brother|wife|husband|"
    r"partner|girlfriend|boyfriend|fiancée?|son|daughter|kid|child|baby|mom|mum|mother|dad|father|cat|dog|"
    r"puppy|kitten|pet|friend|boss|manager|cousin|aunt|uncle|grandmother|grandfather|grandma|grandpa|niece|"
    r"nephew|roommate|flatmate|housemate|colleague|coworker|co-worker|cofounder|co-founder|teammate|parrot|rabbit|hamster|horse|"
    r"turtle|tortoise|lizard|snake|goldfish|budgie|ferret|guinea\s+pig|gecko|hedgehog|chinchilla|bunny|"
    + BREEDS_EN
    + r"|"
    r"ex(?:-(?:wife|husband|boyfriend|girlfriend|partner))?(?![\w-])|"
    r"team\s+lead|tech\s+lead|mentor|supervisor|landlord|landlady|therapist|coach|doctor|dentist|vet|"
    r"(?:mother|father|sister|brother|son|daughter)-in-law|in-law|step(?:mom|mum|mother|dad|father|son|daughter|"
    r"sister|brother)|grand(?:son|daughter|kid|child)|"
    # a child named by their place among the others: "my oldest just turned 8"
    r"oldest|youngest|eldest|firstborn|middle\s+(?:child|kid|one)|little\s+one|twins|triplets)"
)
# The relatives and pets a French speaker names with "mon", "ma" or "notre".
KIN_FR = frozenset(
    """
    sœur soeur frère femme mari compagne compagnon copine copain conjoint conjointe fiancé fiancée fils fille
    enfant bébé mère père maman papa chat chatte chien chienne chiot chaton ami amie patron patronne chef
    manager mentor mentore coach
    cousin cousine tante oncle grand-mère grand-père nièce neveu coloc collègue associé associée lapin
    meuf mec daronne daron reuf
    """.split()
)
RELATIVES_FR = (
    r"(?:petite?\s+|grande?\s+|meilleure?\s+|nouvelle?\s+)?(?:"
    + "|".join(sorted(map(re.escape, KIN_FR), key=len, reverse=True))
    + ")"
)
FAMILY_WORD = regex(
    r"\b(?:kids?|children|child|sons?|daughters?|brothers?|sisters?|wife|husband|partner|girlfriend|boyfriend|"
    r"toddlers?|newborns?|teenagers?|teens|step(?:kids?|sons?|daughters?|children)|grandkids?|grandchildren|"
    r"nephews?|nieces?|"
    r"dogs?|cats?|bab(?:y|ies)|twins|pupp(?:y|ies)|kittens?|fiancée?|pets?|parrots?|rabbits?|hamsters?|horses?|"
    r"enfants?|fils|filles?|frères?|sœurs?|soeurs?|femme|mari|copine|copain|chiens?|chats?|bébés?|jumeaux|"
    r"jumelles|chiots?|chatons?|lapins?|" + BREEDS_EN + r"s?)\b"
)
# How long a taste has held, before its verb: "I've always loved jazz", read back as "Mickael has
# always loved jazz" (rules/preferences.py writes it, facts.py reads it).
TASTE_SINCE_EN = r"(?:always|long|really|also|honestly|truly)"

# The feminine nouns of relatives and pets: "notre" and a count do not say the gender, the noun does.
FEMININE_KIN_FR = frozenset(
    """
    sœur soeur femme compagne copine conjointe fiancée fille mère maman chatte chienne amie patronne
    cousine tante grand-mère nièce associée tortue perruche meuf daronne
    """.split()
)


# --------------------------------------------------------------------------- stopwords

# Words never worth searching a memory by (its subjects leave them out).
STOPWORDS = frozenset(
    """
    a an the and or but of to in on at for with from by about as into over than then that this these those it
    its is are was were be been being am do does did have has had will would can could should must may might
    not no yes very really so too also just my your his her their our me you him them us i we they he she
    what which who whom when where why how all any some more most much many lot lots bit kind sort thing
    things stuff one ones there here up out off again new under after before because if while until each
    every other such only own same both few now like likes love loves prefer prefers enjoy enjoys hate hates
    dislike dislikes decided team want wants to called named name is going get got make made go goes
    le la les l un une des du de d au aux et ou mais donc car ni que qu qui quoi ce cet cette ces c mon ma
    mes ton ta tes son sa ses notre nos votre vos leur leurs je j tu il elle on nous vous ils elles me m te
    t se s lui y en est suis sont a ai as ont été être avoir pas ne n plus très bien trop aussi pour par
    avec sans dans sur sous chez à vers entre comme tout tous toute toutes aime adore préfère déteste veut
    équipe décidé fait faire va need needs must should dois doit faut avant après am pm eu été
    use using send buy learn visit call get take start finish try stop keep put see meet pay utiliser
    passer partir apprendre
    i'm i've i'll i'd let's it's that's don't doesn't didn't can't won't we're we've we'll you're
    two three four five six seven eight nine ten deux trois quatre cinq sept huit neuf dix
    deadline deadlines due date limite échéance decision décision today tomorrow tonight yesterday week month
    aujourd'hui demain hier semaine mois prochain prochaine next last end fin
    """.split()
    + WEEKDAYS_EN
    + WEEKDAYS_FR
    + [month.lower() for month in MONTHS_EN]
    + MONTHS_FR
)
