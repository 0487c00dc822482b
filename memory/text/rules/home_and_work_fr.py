"""Rules for where the speaker lives, comes from, works and studies, and what their job is, in French."""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import JOB_TITLE_AT_START_EN, NATIONALITIES, is_occupation_fr
from ..normalize import regex
from ..phrases import first_word, noun_phrase
from .base import OBJECT, Hit, Item, Rule
from .home_and_work import (
    IDENTITY_CONFIDENCE,
    NOT_A_WORKPLACE_FR,
    THE_FR,
    TIMES_FR,
    identity_memory,
    place_said,
)
from .work import left_job, new_job

__all__ = ["JOB_AND_HOME_FR", "LEAVING_AND_ORIGIN_FR", "STUDIES_FR"]


def _occupation_fr(hit: Hit) -> Item | None:
    words = hit.phrase.split()
    if not words or not is_occupation_fr(words[0]) or first_word(hit.phrase) == "fan":
        return None
    phrase = noun_phrase(hit.phrase, 8)
    body = hit.third(phrase)
    article = f"{hit.group('art').lower()} " if hit.group("art") else ""
    predicate, value = Predicate.JOB, body
    if words[0].lower() in NATIONALITIES:
        if not article:
            body = body[:1].lower() + body[1:]  # "Mickael est française", as French writes nationalities
        # the profile's "about" line, as read from the words ("est française")
        predicate, value = Predicate.ABOUT, ""
    content = f"{hit.speaker} est {article}{body}"
    confidence = hit.confidence(IDENTITY_CONFIDENCE)
    return Item(content, MemoryType.IDENTITY, confidence, [phrase], predicate=predicate, object=value)


def _studies_fr(hit: Hit) -> Item | None:
    if _NOT_A_SUBJECT_FR.match(hit.phrase):
        return None  # "j'étudie pour mes examens": how, not what
    return identity_memory(hit, f"{hit.speaker} étudie {hit.third(hit.phrase)}", Predicate.STUDIES)


# As in English: how one studies, ways of living and times of birth are no subject, home or birthplace.
_NOT_A_SUBJECT_FR = regex(
    r"(?:pour|dur|beaucoup|tard|tou(?:te|s|tes)?|avec|seule?|encore|ce\s+soir|en\s+ligne|à\s+la\s+(?:maison|"
    r"bibli(?:othèque)?))\b"
)
_NOT_A_HOME_FR_IDIOM = regex(
    r"(?:la\s+peur|la\s+crainte|l'espoir|le\s+déni|le\s+luxe|la\s+misère|le\s+passé|le\s+présent|le\s+moment|"
    r"l'instant|un\s+rêve|ma\s+bulle|jour\s+le\s+jour)\b"
)
_NOT_A_BIRTHPLACE_FR = regex(
    r"(?:les\s+années|la\s+(?:mauvaise|bonne|même)\s+(?:époque|année)|le\s+mauvais)\b"
)


# What "je suis/travaille <preposition>" says: where one lives or works, where one is from, one's job.
_SUIS_TRAVAILLE_FR = {
    "originaire": Predicate.ORIGIN,
    "née": Predicate.ORIGIN,
    "né": Predicate.ORIGIN,
    "basé": Predicate.LOCATION,
    "basée": Predicate.LOCATION,
    "installé": Predicate.LOCATION,
    "installée": Predicate.LOCATION,
    "comme": Predicate.JOB,
    "en": Predicate.JOB,  # "en tant que"
}
_ARTICLE_FR = re.compile(r"(?i)^(?:un|une)\s+")


def _verb_and_preposition_fr(verb: str, predicate: Predicate) -> Callable[[Hit], Item | None]:
    """ "<speaker> <verb> <preposition as said><object>": "Mickael habite à Paris", "vient d'Italie"."""

    def make(hit: Hit) -> Item | None:
        preposition = hit.words("prep")
        if verb == "habite" and not preposition and not hit.phrase[:1].isupper():
            return None  # "j'habite loin" says no place
        said = predicate
        if verb in ("est", "travaille"):
            said = _SUIS_TRAVAILLE_FR.get(first_word(preposition), predicate)
        if said is Predicate.LOCATION and _NOT_A_HOME_FR_IDIOM.match(hit.phrase):
            return None  # "je vis dans la peur", "au jour le jour"
        if said is Predicate.ORIGIN and _NOT_A_BIRTHPLACE_FR.match(hit.phrase):
            return None  # "je suis né dans les années 90": when, not where
        if said is Predicate.WORKPLACE and NOT_A_WORKPLACE_FR.match(hit.phrase):
            return None  # "je travaille à mi-temps": how, not where
        glue = "" if preposition.endswith("'") else " "
        phrase = f"{verb} {preposition}{glue}" if preposition else f"{verb} "
        body = hit.third(hit.phrase)
        value = _ARTICLE_FR.sub("", body) if said is Predicate.JOB else ""  # a job is the bare noun
        return identity_memory(hit, f"{hit.speaker} {phrase}{body}", said, value)

    return make


_IN_PLACE_FR = r"(?:à|a|en|au|aux)\s+"
# With or without the "ne" spoken French drops: "je n'habite plus à Paris", "j'habite plus à Paris".
_NO_LONGER_FR = (
    r"\b(?:je\s+(?P<verb>ne\s+travaille|n'habite|ne\s+vis|travaille|vis)|(?P<verb_elided>j'habite|j'bosse))"
    r"\s+plus\s+(?P<prep>chez|à|a|au|aux|en|dans|pour)\s+"
)


_WITH_NE_FR = {
    "travaille": "ne travaille", "vis": "ne vis", "j'habite": "n'habite", "j'bosse": "ne travaille",
}  # fmt: skip


def _no_longer_fr(hit: Hit) -> Item:
    """ "Mickael ne travaille plus chez Acme", "Mickael n'habite plus à Paris"."""
    verb = _WITH_NE_FR.get(hit.words("verb").lower() or hit.words("verb_elided").lower(), "")
    verb = verb or hit.words("verb").lower()
    predicate = Predicate.WORKPLACE if verb.endswith("travaille") else Predicate.LOCATION
    said = f"{verb.replace('vis', 'vit')} plus {hit.words('prep')} {hit.third(hit.phrase)}"
    return identity_memory(hit, f"{hit.speaker} {said}", predicate, said)


# "J'ai trouvé un nouveau travail chez Acme", "J'ai commencé à travailler chez Google": where the
# speaker works now, beside the dated news (as "I got a new job at Stripe").
_NEW_JOB_FR = (
    r"\bj'ai\s+(?:enfin\s+|récemment\s+|finalement\s+)?(?:(?:trouvé|décroché|eu|obtenu|commencé|signé)\s+"
    r"(?:un|le|mon)\s+(?:nouveau\s+)?(?:travail|boulot|job|poste|emploi|cdi|cdd)|commencé\s+à\s+travailler)\s+"
    r"(?P<prep>chez|à|au|pour|dans)\s+"
)


# "Je viens de finir", "je viens d'arriver": "venir de" before a verb says what was just done, not
# where one comes from. A place said in lower case is still one ("je viens de lyon").
_JUST_DONE_FR = regex(
    r"(?:\w+(?:er|ir|re|oir)|me|m'|te|t'|se|s'|le|la|les|lui|leur|nous|vous|y|en|chez)(?:\s|$)"
)


_COMES_FROM_FR = _verb_and_preposition_fr("vient", Predicate.ORIGIN)


def _comes_from_fr(hit: Hit) -> Item | None:
    """ "Mickael vient de Lyon": where the speaker is from, unless a verb follows "venir de"."""
    if not hit.phrase[:1].isupper() and _JUST_DONE_FR.match(hit.phrase):
        return None
    return _COMES_FROM_FR(hit)


# "J'ai déménagé à Lyon", "on vient de déménager à Nantes", "je me suis installée à Lille": where
# the speaker lives now, beside the dated news (as a new job gives the workplace). "en" names a place
# only before a capital ("en Bretagne", not "en urgence").
_MOVED_FR = (
    r"\b(?:(?:j'ai|nous\s+avons|on\s+a)\s+(?:enfin\s+|récemment\s+|finalement\s+)?déménagé"
    r"|(?:je\s+viens|nous\s+venons|on\s+vient)\s+de\s+déménager"
    r"|(?:je\s+me\s+suis|nous\s+nous\s+sommes|on\s+s'est)\s+(?:enfin\s+)?installée?s?)\s+"
    r"(?P<prep>à|a|au|aux|dans|en(?=\s+(?-i:[A-ZÀ-Ý])))\s+"
)
_NOT_A_HOME_FR = regex(
    r"(?:\d|cause\b|raison\b|nouveau\b|la\s+(?:dernière|hâte|va-vite)\b|vitesse\b|plusieurs\b|deux\b|"
    rf"trois\b|l'époque\b|temps\b|{THE_FR}(?:{TIMES_FR})\b)"
)


def _moved_fr(hit: Hit) -> Item | None:
    """ "Mickael habite à Lyon", from the news of the move (the event rule keeps the news, dated)."""
    phrase = place_said(hit)
    if not phrase or _NOT_A_HOME_FR.match(phrase):
        return None  # "à cause du bruit", "en mars": why or when, not where
    preposition = hit.words("prep").lower()
    return identity_memory(hit, f"{hit.speaker} habite {preposition} {hit.third(phrase)}", Predicate.LOCATION)


# "J'ai quitté mon travail chez Acme", "j'ai démissionné de chez Acme", "je me suis fait licencier de
# Acme": where the speaker no longer works.
_LEFT_JOB_FR = (
    r"\b(?:j'ai\s+(?:enfin\s+)?(?:quitté\s+(?:mon|le)\s+(?:travail|boulot|job|poste|emploi)\s+(?P<prep>chez|à|au|dans)|"
    r"démissionné\s+(?P<from>de\s+chez|de|d'))|je\s+me\s+suis\s+fait\s+(?:virer|licencier|renvoyer)\s+"
    r"(?P<fired>de\s+chez|de|d'))\s*"
)


# The French wordings come in three runs because identity.py's French `OneOf` tries them between
# the ones about who one is (relationship and temperament, then age): the first that applies wins,
# so the order stays as it was.
LEAVING_AND_ORIGIN_FR: tuple[Rule, ...] = (
    Rule(regex(_LEFT_JOB_FR + OBJECT), left_job, french=True),
    Rule(
        regex(
            r"\bje\s+(?:suis|travaille)\s+(?P<prep>originaire\s+(?:d(?:e\s+|')|du\s+|des\s+)|basée?\s+"
            + _IN_PLACE_FR
            + r"|"
            r"installée?\s+" + _IN_PLACE_FR + r"|née?\s+(?:à|a|en|au|aux|le|dans)\s+)" + OBJECT
        ),
        _verb_and_preposition_fr("est", Predicate.LOCATION),
        french=True,
    ),
    # "je ne travaille plus chez Acme", "je n'habite plus à Paris": the newest word on it.
    Rule(regex(_NO_LONGER_FR + OBJECT), _no_longer_fr, french=True),
)
# "je rejoins l'équipe produit comme PM", "je viens de rejoindre Qonto en tant que dev": the job,
# and the news.
_JOINING_AS_FR = regex(
    r"\bje\s+(?P<verb>rejoins|vais\s+rejoindre|viens\s+de\s+rejoindre)\s+"
    r"(?P<where>(?:l'|le\s+|la\s+|les\s+|une?\s+)[^,;.!?]+?|(?-i:[A-Z])[\w&.-]+)\s+"
    r"(?:comme|en\s+tant\s+que)\s+(?:(?P<art>une?)\s+)?(?P<object>[^,;.!?]+)"
)


def _joining_as_fr(hit: Hit) -> list[Item] | None:
    """ "Mickael est PM" and "Mickael rejoint l'équipe produit"."""
    job = hit.phrase
    words = job.split()
    if not words or not (is_occupation_fr(words[0]) or JOB_TITLE_AT_START_EN.match(job)):
        return None
    where = hit.third(" ".join(hit.group("where").split()))
    verb = {"rejoins": "rejoint", "vais rejoindre": "va rejoindre"}.get(
        " ".join(hit.group("verb").lower().split()), "vient de rejoindre"
    )
    art = f"{hit.group('art').lower()} " if hit.group("art") else ""
    items = [identity_memory(hit, f"{hit.speaker} est {art}{job}", Predicate.JOB, f"{art}{job}")]
    if verb != "vient de rejoindre":  # news the event rule keeps, dated
        content = f"{hit.speaker} {verb} {where}"
        items.append(Item(content, MemoryType.EVENT, hit.confidence(IDENTITY_CONFIDENCE), [where]))
    return items


JOB_AND_HOME_FR: tuple[Rule, ...] = (
    Rule(_JOINING_AS_FR, _joining_as_fr, french=True, max_words=6),
    Rule(regex(r"\bje\s+suis\s+(?:(?P<art>un|une)\s+)?" + OBJECT), _occupation_fr, french=True),
    Rule(regex(_NEW_JOB_FR + OBJECT), new_job, french=True),
    Rule(
        regex(
            r"\bje\s+(?:travaille|bosse)\s+(?P<prep>comme|en\s+tant\s+que|chez|à|a|au|pour|dans|sur)\s+"
            + OBJECT
        ),
        _verb_and_preposition_fr("travaille", Predicate.WORKPLACE),
        french=True,
    ),
    Rule(
        regex(r"\bj'habite\s+(?P<prep>à|a|au|aux|en|dans|près\s+de|chez|sur)?\s*" + OBJECT),
        _verb_and_preposition_fr("habite", Predicate.LOCATION),
        french=True,
    ),
    Rule(
        regex(r"\bje\s+vis\s+(?P<prep>à|a|au|aux|en|dans|avec|près\s+de|chez)\s+" + OBJECT),
        _verb_and_preposition_fr("vit", Predicate.LOCATION),
        french=True,
    ),
    Rule(regex(_MOVED_FR + OBJECT), _moved_fr, french=True),
    # "j'ai grandi à Marseille", as "I grew up in Marseille"
    Rule(
        regex(r"\bj'ai\s+grandi\s+(?P<prep>à|a|au|aux|en|dans|près\s+de|sur)\s+" + OBJECT),
        _verb_and_preposition_fr("a grandi", Predicate.ORIGIN),
        french=True,
    ),
    # "j'enseigne la chimie au lycée", as "I teach high school chemistry"
    Rule(
        regex(r"\bj'(?P<prep>)enseigne\s+(?P<object>(?!(?:à\s+mes|à\s+mon|à\s+ma|aux?\s+enfants)\b).+)"),
        _verb_and_preposition_fr("enseigne", Predicate.ABOUT),
        french=True,
        max_words=10,
    ),
    Rule(
        regex(r"\bje\s+viens\s+(?P<prep>de|d'|du|des)\s*(?P<object>[A-ZÀ-Ý].*)"),
        _comes_from_fr,
        french=True,
    ),
)
STUDIES_FR: tuple[Rule, ...] = (
    Rule(regex(r"\bj'(?P<prep>étudie)\s+" + OBJECT), _studies_fr, french=True),
    Rule(
        regex(
            r"\bje\s+(?:fais|suis)\s+(?P<prep>des\s+études\s+(?:de|d'|en)|en\s+(?:licence|master|thèse|"
            r"doctorat|prépa|bts|but|dut)\s+(?:de|d'|en)?)\s*" + OBJECT
        ),
        _verb_and_preposition_fr("fait", Predicate.STUDIES),
        french=True,
    ),
)
