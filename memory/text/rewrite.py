"""Rewrites first-person chat in the third person: "I broke my wrist" -> "Mickael broke their wrist"."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .lexicons import FEMININE_KIN_FR, IRREGULAR_PAST_EN, KIN_FR, PRESENT_TOO_EN, VOWELS, is_past_form_en
from .normalize import regex

__all__ = [
    "article_fr",
    "capitalize_first",
    "of_fr",
    "possessive_en",
    "renamed",
    "third_person",
    "third_person_en",
    "third_person_fr",
]

Group = Callable[[str], str | None]  # a match's `group`
# Rewrites one first-person form, told whether the speaker was named already; says whether they now are.
Replacement = Callable[[Group, str, bool], tuple[str, bool]]


def _substitute(pattern: re.Pattern[str], text: str, speaker: str, named: bool, replace: Replacement) -> str:
    """`text` with each match of `pattern` replaced in order, the "speaker named yet" state carried along."""
    speaker_named = named

    def third(match: re.Match[str]) -> str:
        nonlocal speaker_named
        out, speaker_named = replace(match.group, speaker, speaker_named)
        return out

    return pattern.sub(third, text)


# --------------------------------------------------------------------------- English

_ADVERBS_EN = (
    r"really|truly|also|just|still|totally|absolutely|definitely|honestly|actually|genuinely|always|never|"
    r"usually|often|sometimes|generally|personally|secretly|recently|finally|already|now|currently|mostly|"
    r"mainly|normally|typically|rarely|then|later|"
    r"only|even|too|kinda|kind\s+of|sort\s+of|officially|seriously|eventually"
)
# A question's auxiliaries: after them "I" keeps its verb as said ("what did I miss").
_AUXILIARIES_EN = "did do does can could will would should shall may might must".split()
# Verbs often joined to a first one by "and": "I climb and make pottery" is "climbs and makes".
_JOINED_VERBS_EN = (
    "make cook bake paint draw write read sing dance play run swim hike bike knit sew teach work live go "
    "do have love like hate watch listen travel study climb garden build fix ride walk eat drink sleep take "
    "help volunteer coach lead manage own use sell"
).split()
# Words that give what follows "and" a subject of its own: "I hate when people talk and make noise".
_NEW_SUBJECT_EN = (
    "when|if|that|because|while|as|who|which|how|what|where|why|people|they|he|she|we|you|everyone"
)
# One alternative per first-person form; "I" keeps its adverbs and the verb that follows, to conjugate it.
_PRONOUN_EN = regex(
    r"\b(?:(?P<i_contracted>i)(?P<contraction>'m|'ve|'ll|'d)"
    # "my husband and I are": the verb is the pair's, so it stays as said.
    r"|(?<=\band\s)(?P<i_joined>i)(?=\s+(?:(?:both|usually|always|often|still|also|really|just|all)\s+)?"
    r"(?:are|were|have|do|don't|haven't|aren't|weren't|go|love|like|live|work|play|own|spend|enjoy|run|walk|"
    r"hike|travel|cook|visit|watch|celebrate|share|rent|need|want|plan|hope|try|get|make|host|bake|teach|raise|"
    r"foster|volunteer|coach|think|feel|miss|know|speak|write|take|start|leave|meet|eat|drink|sing|dance)\b)"
    # A question's "I" after its auxiliary ("what did I miss", "can I bring a friend"): the verb stays.
    r"|(?:" + "|".join(rf"(?<=\b{aux}\s)" for aux in _AUXILIARIES_EN) + r")(?P<i_asked>i)"
    rf"|(?P<i>i)(?P<adverbs>(?:\s+(?:{_ADVERBS_EN}))*)(?:\s+(?P<verb>[^\W\d_]+(?:n't)?)"
    rf"(?:(?P<and_gap>(?:\s+(?!(?:{_NEW_SUBJECT_EN})\b)[\w'-]+){{0,3}}?\s+and\s+)"
    rf"(?P<verb2>{'|'.join(_JOINED_VERBS_EN)})\b)?)?"
    r"|(?P<my>my)|(?P<mine>mine)|(?P<myself>myself)|(?P<me>me)"
    r"|(?P<we>we)(?P<we_contraction>'re|'ve|'ll|'d)?"
    r"|(?P<our>our)|(?P<ours>ours)|(?P<us>us)|(?P<ourselves>ourselves))"
    r"(?![\w'])"
)
_I_CONTRACTIONS = {"'m": "is", "'ve": "has", "'ll": "will", "'d": "would"}
_WE_CONTRACTIONS = {"'re": "are", "'ve": "have", "'ll": "will", "'d": "would"}
_IRREGULAR_THIRD_EN = {
    "am": "is", "have": "has", "do": "does", "don't": "doesn't", "haven't": "hasn't", "aren't": "isn't",
    "ain't": "isn't", "go": "goes", "wanna": "wants to", "gotta": "has to",
}  # fmt: skip
# Modals, past forms and words that are not verbs at all: the same after "he" as after "I".
_SAME_IN_THIRD_EN = (
    IRREGULAR_PAST_EN
    | PRESENT_TOO_EN
    | frozenset(
        """
        can could will would shall should may might must ought cannot can't won't wouldn't couldn't
        shouldn't mustn't didn't wasn't weren't gotten been done seen taken given written broken eaten
        fallen forgotten known shown spoken stolen thrown worn begun drunk sung and or but too as then so
        both alone who that which myself personally
        """.split()
    )
)


def possessive_en(name: str) -> str:
    return f"{name}'s"


def _third_person_verb_en(verb: str) -> str:
    """ "go" -> "goes", "try" -> "tries", "broke" stays: the verb as it follows "he"."""
    low = verb.lower()
    if low in _IRREGULAR_THIRD_EN:
        return _IRREGULAR_THIRD_EN[low]
    if low in _SAME_IN_THIRD_EN or is_past_form_en(low) or low.endswith("n't") or len(low) < 2:
        return verb
    if low.endswith("y") and low[-2] not in VOWELS:
        return verb[:-1] + "ies"
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb + "s"


def _third_en(group: Group, speaker: str, named: bool) -> tuple[str, bool]:
    if group("i_contracted"):
        return f"{speaker} {_I_CONTRACTIONS[group('contraction').lower()]}", True
    if group("i_joined") or group("i_asked"):
        return speaker, True
    if group("i"):
        out = speaker + (group("adverbs") or "")
        verb = group("verb")
        if not verb:
            return out, True
        third = _third_person_verb_en(verb)
        out += f" {third}"
        if group("verb2"):
            # The second verb is in the first one's tense: conjugated only if the first one was.
            joined = group("verb2")
            out += group("and_gap") + (_third_person_verb_en(joined) if third != verb else joined)
        return out, True
    if group("my") or group("mine"):
        return ("their" if named and group("my") else possessive_en(speaker)), named
    if group("myself"):
        return ("themselves" if named else speaker), True
    if group("me"):
        return speaker, True
    # "we" is the speaker and others, whoever they are (a family, friends, a team); "our" after it
    # is "their" ("Léa and others went on their hike").
    if group("we"):
        contraction = group("we_contraction")
        return f"{speaker} and others" + (
            f" {_WE_CONTRACTIONS[contraction.lower()]}" if contraction else ""
        ), True
    if group("our") or group("ours"):
        # "we adopted our dog": the sentence's "their"; else the speaker's ("Léa's dog").
        return ("their" if named and group("our") else possessive_en(speaker)), named
    if group("us"):
        return (f"{speaker} and others" if group("us") != "US" else "US"), named  # "the US" is a country
    return "themselves", named


def third_person_en(text: str, speaker: str, named: bool = False) -> str:
    """I -> <speaker>, my -> <speaker>'s (then "their" once the speaker is named), we -> <speaker> and
    others. `named`: the sentence already named the speaker, so "my" is "their" from the start."""
    return _substitute(_PRONOUN_EN, text, speaker, named, _third_en)


# --------------------------------------------------------------------------- French

_PRONOUN_FR = regex(
    r"\b(?:je\s+(?P<reflexive>me\s+|m')(?P<reflexive_verb>[^\W\d_][\w-]*)"
    r"|je\s+(?P<clitics>(?:ne\s+|n'|l'|le\s+|la\s+|les\s+|lui\s+|leur\s+|te\s+|t'|vous\s+|y\s+|en\s+)+)"
    r"(?P<clitic_verb>[^\W\d_][\w-]*)"
    r"|j'(?P<y_en>(?:y|en)\s+)?(?P<elided_verb>[^\W\d_][\w-]*)"
    r"|je\s+(?P<verb>[^\W\d_][\w-]*)"
    r"|(?P<moi>moi)(?:-même)?"
    r"|(?P<possessive>mon|ma|mes)\s+(?P<noun>[^\W\d_][\w-]*)"
    # "nous" before its verb, and "on" where it says "nous" ("on a", "on est", "on s'est"); "nous"
    # before any other word is an object ("elle nous a invités") and stays.
    r"|nous\s+nous\s+(?P<nous_reflexive_verb>[^\W\d_][\w-]*)"
    r"|nous\s+(?P<nous_verb>[^\W\d_][\w-]*)"
    r"|(?P<que>(?:lors|puis)?qu['’])?(?<!l')(?<!l’)on\s+(?P<on_form>a|avait|est|était|va|allait|s'est|s'était|part|rentre|revient|vient|déménage|emménage|commence|arrive|se\s+marie)"
    r"|(?P<our>notre|nos)(?:\s+(?P<our_noun>[^\W\d_][\w-]*))?)(?![\w])"
)
_IRREGULAR_THIRD_FR = {
    "suis": "est", "ai": "a", "vais": "va", "fais": "fait", "peux": "peut", "veux": "veut", "dois": "doit",
    "sais": "sait", "vaux": "vaut", "connais": "connaît", "reconnais": "reconnaît", "parais": "paraît",
    "apparais": "apparaît", "vaincs": "vainc",
}  # fmt: skip
_THIRD_POSSESSIVES = {"mon": "son", "mes": "ses"}  # "ma" depends on the noun
# "nous" and "on" are the speaker and others: their verb as it follows "ils".
_IRREGULAR_PLURAL_FR = {
    "sommes": "sont", "avons": "ont", "allons": "vont", "faisons": "font", "pouvons": "peuvent",
    "voulons": "veulent", "devons": "doivent", "savons": "savent", "venons": "viennent",
    "revenons": "reviennent", "devenons": "deviennent", "tenons": "tiennent", "prenons": "prennent",
    "apprenons": "apprennent", "comprenons": "comprennent", "buvons": "boivent", "recevons": "reçoivent",
    "voyons": "voient", "croyons": "croient", "aurons": "auront", "irons": "iront", "finirons": "finiront",
    "partirons": "partiront", "sortirons": "sortiront", "choisirons": "choisiront", "dormirons": "dormiront",
    "réussirons": "réussiront", "ouvrirons": "ouvriront", "offrirons": "offriront",
}  # fmt: skip
_ON_FORMS_FR = {
    "a": "ont", "avait": "avaient", "est": "sont", "était": "étaient", "va": "vont", "allait": "allaient",
    "s'est": "se sont", "s'était": "s'étaient",
    # What happens to the speaker and others on a day: "on part au Japon en décembre".
    "part": "partent", "rentre": "rentrent", "revient": "reviennent", "déménage": "déménagent",
    "emménage": "emménagent", "commence": "commencent", "arrive": "arrivent", "se marie": "se marient",
    "vient": "viennent",  # "on vient d'acheter une maison"
}  # fmt: skip
_OUR_FR = {"notre": "leur", "nos": "leurs"}
# Verbs in -ier, whose present with "nous" ends in "-ions" as other verbs' imperfect does
# ("nous étudions" is "ils étudient", "nous habitions" is "ils habitaient").
_IER_VERBS_FR = frozenset(
    """
    étudier oublier remercier apprécier vérifier modifier publier skier confier copier crier prier trier
    marier photographier simplifier planifier négocier associer multiplier justifier identifier notifier
    qualifier certifier expédier initier licencier
    """.split()
)


def of_fr(name: str) -> str:
    """ "de Mickael" / "d'Anne": the French "of <name>", elided before a vowel."""
    return f"d'{name}" if name[:1].lower() in VOWELS else f"de {name}"


def article_fr(possessive: str, noun: str) -> str:
    """The article replacing "mon/ma/mes/notre/nos" (or "un/une": "j'ai un chat qui s'appelle Tom" is the
    speaker's) before `noun`: "le ", "la ", "l'" or "les "."""
    possessive = possessive.lower()
    if possessive in ("mes", "nos"):
        return "les "
    if noun[:1].lower() in VOWELS:
        return "l'"
    if possessive == "notre":
        return "la " if noun.split()[-1].lower() in FEMININE_KIN_FR else "le "
    return "le " if possessive in ("mon", "un") else "la "


def _third_person_verb_fr(verb: str) -> str:
    """ "suis" -> "est", "prends" -> "prend", "finis" -> "finit", "serai" -> "sera": the verb as it
    follows "il"."""
    low = verb.lower()
    if low in _IRREGULAR_THIRD_FR:
        return _IRREGULAR_THIRD_FR[low]
    if low.endswith("rai") and len(low) > 3:
        return verb[:-1]  # the future: "serai" -> "sera", "partirai" -> "partira"
    if low.endswith(("ds", "ts")):
        return verb[:-1]
    if low.endswith("x"):
        return verb[:-1] + "t"
    if low.endswith("s") and not low.endswith("ss") and len(low) > 2:
        return verb[:-1] + "t"
    return verb


def _plural_verb_fr(verb: str) -> str | None:
    """ "avons" -> "ont", "habitons" -> "habitent", "allions" -> "allaient", "lancerons" -> "lanceront":
    the verb of "nous" as it follows "ils" (the present, the imperfect and the future); None when the
    word is no verb of "nous"."""
    low = verb.lower()
    if low in _IRREGULAR_PLURAL_FR:
        return _IRREGULAR_PLURAL_FR[low]
    if not low.endswith("ons") or len(low) < 5:
        return None
    if low.endswith("ions"):
        if low[:-3] + "er" in _IER_VERBS_FR:
            return verb[:-3] + "ent"
        return verb[:-4] + "aient"
    if low.endswith("geons"):
        return verb[:-5] + "gent"  # "mangeons"
    if low.endswith("çons"):
        return verb[:-4] + "cent"  # "commençons"
    if low.endswith(("erons", "drons", "rrons")):
        return verb[:-3] + "ont"  # the future: "lancerons", "prendrons", "verrons"
    return verb[:-3] + "ent"


def _third_fr(group: Group, speaker: str, named: bool) -> tuple[str, bool]:
    if group("nous_reflexive_verb"):
        verb = _plural_verb_fr(group("nous_reflexive_verb"))
        if verb is None:
            return group(0) or "", named
        pronoun = "s'" if verb[:1].lower() in VOWELS else "se "
        return f"{speaker} et d'autres {pronoun}{verb}", True
    if group("nous_verb"):
        verb = _plural_verb_fr(group("nous_verb"))
        if verb is None:
            return group(0) or "", named
        return f"{speaker} et d'autres {verb}", True
    if group("on_form"):
        said = f"{speaker} et d'autres {_ON_FORMS_FR[' '.join(group('on_form').lower().split())]}"
        if que := group("que"):
            # "qu'on a" -> "que Mickael et d'autres ont" ("qu'Anne ..." before a vowel)
            said = (que if speaker[:1].lower() in VOWELS else que[:-1] + "e ") + said
        return said, True
    if group("our"):
        our, noun = group("our"), group("our_noun") or ""
        if named:
            # After "nous" it is "leur" ("Léa et d'autres ont fêté leur anniversaire").
            return f"{_OUR_FR[our.lower()]}{' ' + noun if noun else ''}", named
        low = noun.lower()
        if low in KIN_FR or (low.endswith(("s", "x")) and low[:-1] in KIN_FR):
            # "Notre chien est malade" -> "Le chien de Léa est malade", as "mon chien" is.
            return f"{article_fr(our, noun)}{noun} {of_fr(speaker)}", True
        # Before, another noun's gender is unknown here, so it stays as said.
        return group(0) or "", named
    if group("reflexive_verb"):
        elided = group("reflexive").strip().lower() == "m'" or group("reflexive_verb").lower() == "suis"
        pronoun = "s'" if elided else "se "
        return f"{speaker} {pronoun}{_third_person_verb_fr(group('reflexive_verb'))}", True
    if group("clitic_verb"):
        return f"{speaker} {group('clitics')}{_third_person_verb_fr(group('clitic_verb'))}", True
    if group("elided_verb"):
        return f"{speaker} {group('y_en') or ''}{_third_person_verb_fr(group('elided_verb'))}", True
    if group("verb"):
        return f"{speaker} {_third_person_verb_fr(group('verb'))}", True
    if group("moi"):
        return speaker, True
    possessive, noun = group("possessive").lower(), group("noun")
    if named:
        # "son amie": French uses "son" before a vowel, whatever the gender.
        her = "son" if noun[:1].lower() in VOWELS else "sa"
        return f"{_THIRD_POSSESSIVES.get(possessive, her)} {noun}", True
    return f"{article_fr(possessive, noun)}{noun} {of_fr(speaker)}", True


# "me" / "m'" as someone else's object: "ma mère m'a offert un vélo", "qu'on m'écrive par mail",
# "il me contacte" (not the speaker's own "je me lève", "je ne m'en souviens pas").
_OBJECT_ME_FR = regex(
    r"(?<![\w'’-])(?:m['’]|me\s+)(?P<aux>(?:a|avait|aura|ont|avaient|est|était|sera)\s+)?(?P<verb>[^\W\d_][\w-]*)"
)
_SAID_BY_THE_SPEAKER_FR = regex(r"\bje\s+(?:ne\s+|n['’])?$|\bj['’]$")
# Verbs that take their person with "à" (écrire à, offrir à): "me" is then "lui", whoever the speaker
# is. Verbs that take it directly (appeler, inviter): "l'" before a vowel, else the name after the
# verb. Any other verb keeps its "me": a guess at its construction would write a wrong sentence.
_TO_SOMEONE_FR = regex(
    r"^(?:écri|parl|di[st]|envo|répond|téléphon|donn|offr|offert|montr|expliqu|racont|prêt|propos|conseill|"
    r"recommand|souhait|annonc|promi|permi|interdi|achet|appri|apprend|manqu|plai|plaî|plu|arriv|rend|"
    r"fau[tx]|fallu|va\b|vont\b|allait|fai[st]|fait|met|mis|ressembl|"
    r"demand(?!\S*\s+en\s+mariage))"
)
_DIRECTLY_FR = regex(
    r"^(?:appel|aim|aid|invit|contact|préven|prévenu|réveill|dérang|saoul|soûl|énerv|embêt|gonfl|vu\b|voi[st]|"
    r"connai|connu|laiss|quitt|vir|embauch|promu|battu|bat|reconn|attend|cru|croi|suiv|suivi|soutien|soutenu|"
    r"compri|comprend|écout|bloqu|ping|tagu|demand|rappel|accueill|accept|choisi|recrut|licenci|félicit|"
    r"remerci|encourag|inquièt|rassur|surpris|surprend|manipul|harcel|ignor|oubli)"
)


# What names the speaker before an object "me", so that "lui" or "l'" points back to them.
_NAMING_THE_SPEAKER_FR = regex(r"\b(?:je|j['’]|mon|ma|mes|moi)(?![\w-])")


def _object_me_fr(text: str, speaker: str, named: bool) -> str:
    """`text` with the speaker as someone else's object said in the third person: "lui a offert",
    "l'a appelée", "qu'on lui écrive" once the speaker is named (`named`, or by the words before),
    else by name ("on écrit à <speaker>"); "il contacte <speaker>" where "le" or "la" would need
    their gender."""

    def replace(match: re.Match[str]) -> str:
        before = text[: match.start()]
        if _SAID_BY_THE_SPEAKER_FR.search(before):
            return match.group(0)
        aux, verb = match.group("aux") or "", match.group("verb")
        to_someone = bool(_TO_SOMEONE_FR.match(f"{verb}{text[match.end() :]}"))
        if not to_someone and not _DIRECTLY_FR.match(verb):
            return match.group(0)
        if not (named or _NAMING_THE_SPEAKER_FR.search(before)):
            return f"{aux}{verb} à {speaker}" if to_someone else f"{aux}{verb} {speaker}"
        if to_someone:
            return f"lui {aux}{verb}"
        if (aux or verb)[:1].lower() in VOWELS + "h":
            return f"l'{aux}{verb}"
        return f"{aux}{verb} {speaker}"

    return _OBJECT_ME_FR.sub(replace, text)


def third_person_fr(text: str, speaker: str, named: bool = False) -> str:
    """je -> <speaker> (verb in the third person), mon/ma/mes X -> le/la/les X de <speaker>, then
    son/sa/ses once the speaker is named (from the start when `named`); nous/on -> <speaker> et
    d'autres (verb in the third person plural), notre/nos -> leur/leurs once the speaker is named;
    "me" as someone else's object -> "lui", "l'" or <speaker>."""
    return _substitute(_PRONOUN_FR, _object_me_fr(text, speaker, named), speaker, named, _third_fr)


# --------------------------------------------------------------------------- both


def third_person(text: str, speaker: str, french: bool, named: bool = False) -> str:
    """`text` in the third person about `speaker`, in its language (see the two functions above)."""
    return third_person_fr(text, speaker, named) if french else third_person_en(text, speaker, named)


def named_as_given(text: str, speaker: str) -> str:
    """`text` opening on the speaker's name as they gave it: a sentence's capital made "root won
    the tournament" read "Root won ...", where every other note says "root has always loved jazz"."""
    capitalised = capitalize_first(speaker)
    if (
        capitalised != speaker
        and text.startswith(capitalised)
        and text[len(speaker) : len(speaker) + 1] in ("", " ", "'")
    ):
        return speaker + text[len(speaker) :]
    return text


def capitalize_first(text: str) -> str:
    """`text` with its first letter capitalised, when it starts with one (past spaces and quotes)."""
    for index, ch in enumerate(text):
        if ch.isalpha():
            return text[:index] + ch.upper() + text[index + 1 :]
        # A date placeholder is the first word: the one after it stays as it is ("<date> at dance
        # class ..."), and the date is capitalised once written out (extraction._finished).
        if ch not in " \"'(":
            break
    return text


def renamed(content: str, old_names: Sequence[str], new_name: str) -> str:
    """`content` calling its subject `new_name` where it called them by one of `old_names`: at the
    start ("Root broke…", "Root's…"), and after "de"/"d'"/"for"/"pour" ("La fille de Root…")."""
    for old in old_names:
        pattern = re.compile(
            rf"(?:(?<=^)|(?<=\bde\s)|(?<=\bd')|(?<=\bfor\s)|(?<=\bpour\s)){re.escape(old)}(?=$|[\s',.;:!?])",
            re.IGNORECASE,
        )
        content = pattern.sub(lambda _match: new_name, content)
    return content
