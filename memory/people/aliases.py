"""Names users go by ("dev" is Mickael): learned from chat and display names, used to widen searches."""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..storage import PeopleRepository
from ..text.failures import log_heuristic_failure
from ..text.lexicons import NOT_A_NAME
from ..text.normalize import clean_text, regex
from ..text.phrases import is_negated_call, name_from_phrase
from ..text.quoted import without_shown
from ..text.sentences import is_hypothetical, kept_sentences
from ..text.shorthand import spelled_out

if TYPE_CHECKING:
    from ..engine import MemoryEngine

__all__ = ["AliasStore", "learn_aliases", "normalize_alias"]

MAX_ALIAS_CHARS = 32
MAX_ALIAS_WORDS = 3
MAX_ALIASES_PER_USER = 32  # display names change; the oldest beyond this are dropped
_MAX_INPUT = 5_000
_MAX_QUERY_NAMES = 50
_KNOWN_CACHE = 10_000

# Words that follow "call me" without being a name: times, fillers, adjectives ("call me crazy").
_NOT_ALIAS = NOT_A_NAME | frozenset(
    """
    later back tomorrow tonight today when whenever if maybe anytime asap soon sometime again please pls now
    crazy lazy old old-fashioned names anything whatever something someone nothing lol haha thanks thx sir
    madam ma'am by for instead then first next once after before once any anyone everyone nobody sometimes
    tmrw tmr asap whatever baby honey darling
    demain ce soir plus tard quand si après bientôt dès tout maintenant ça comme quoi dans sur pour vers
    encore ensuite aujourd'hui hier jamais toujours quelqu'un n'importe lundi stp svp merci
    """.split()
)
_QUOTE_CHARS = "\"'“”«»‘’`*_"
_ALIAS_WORD = r"[^\W_][\w.'’-]*"
_ALIAS = rf"[\"'“«‘`*_]*\s*(?P<alias>{_ALIAS_WORD}(?:\s+{_ALIAS_WORD}){{0,{MAX_ALIAS_WORDS + 2}}})"

_CALL_LEAD = (
    r"(?:(?:you\s+can|you\s+may|y'all\s+can|just|please|pls|everyone|everybody|people|friends|my\s+friends|"
    r"folks|they|most\s+people|all\s+my\s+friends|my\s+family|colleagues|my\s+colleagues)\s+)?"
)
_NICKNAME_RULES: list[re.Pattern[str]] = [
    regex(p)
    for p in (
        rf"\b{_CALL_LEAD}call(?:s)?\s+me\s+{_ALIAS}",
        rf"\bi\s+(?:usually\s+|mostly\s+|just\s+|also\s+)?go\s+by\s+{_ALIAS}",
        rf"\bi(?:'m|\s+am)\s+(?:also\s+|better\s+)?known\s+as\s+{_ALIAS}",
        rf"\bmy\s+(?:nick\s*name|nick|handle|username|pseudo)(?:'s|\s+is)\s+{_ALIAS}",
        rf"\bappel(?:le|ez)[- ]moi\s+{_ALIAS}",
        rf"\b(?:tu\s+peux|vous\s+pouvez)\s+m'appeler\s+{_ALIAS}",
        r"\b(?:on|tout\s+le\s+monde|les\s+gens|mes\s+amis|mes\s+potes|mes\s+collègues)\s+m'appell?(?:e|ent)\s+"
        + _ALIAS,
        rf"\bmon\s+(?:surnom|pseudo|petit\s+nom)\s*,?\s*(?:c'est|est|:)\s*{_ALIAS}",
        rf"\btout\s+le\s+monde\s+(?:me\s+)?dit\s+{_ALIAS}",
        rf"\bje\s+suis\s+(?:aussi\s+)?connue?\s+sous\s+le\s+nom\s+(?:de\s+|d')\s*{_ALIAS}",
    )
]
# Stated names are aliases too, but only the strong forms: "I'm X" is too often "I'm tired".
_NAME_RULES: list[re.Pattern[str]] = [
    regex(p)
    for p in (
        r"\bmy\s+(?:first\s+|real\s+|full\s+)?name(?:'s|\s+is)\s+(?P<phrase>.+)",
        r"^\W*name(?:'s|\s+is)\s+(?P<phrase>.+)",  # "hey! name's Marco"
        r"\bje\s+m'appelle\s+(?P<phrase>.+)",
        r"\bmon\s+(?:vrai\s+)?(?:nom|prénom)\s+(?:est|c'est)\s+(?P<phrase>.+)",
    )
]
_EDGE_JUNK = re.compile(r"^[\W_]+|[\W_]+$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")


def normalize_alias(name: str) -> str | None:
    """The stored form of a name: NFC, casefolded, single spaces, no edge punctuation or emoji.

    None when nothing name-like is left or it is too long to be a name.
    """
    if not isinstance(name, str):
        return None
    text = _CONTROL.sub(" ", unicodedata.normalize("NFC", name[:200]))
    text = " ".join(text.split()).lstrip("@")
    text = _EDGE_JUNK.sub("", text).casefold()
    if not text or len(text) > MAX_ALIAS_CHARS or not any(ch.isalpha() for ch in text):
        return None
    return text


def _alias_from(phrase: str) -> str | None:
    """The nickname at the start of `phrase`: one word, plus following capitalised ones ("Big Mike")."""
    words = phrase.split()
    picked: list[str] = []
    for i, raw in enumerate(words[:MAX_ALIAS_WORDS]):
        word = raw.strip(_QUOTE_CHARS + ".,;:!?)(")
        if not word or word.casefold() in _NOT_ALIAS:
            break
        if i > 0 and not word[0].isupper():
            break
        picked.append(word)
        if raw != raw.rstrip(_QUOTE_CHARS + ".,;:!?)"):
            break  # punctuation or a closing quote ends the name
    if not picked:
        return None
    return normalize_alias(" ".join(picked))


def _learn(text: str, speaker_name: str) -> list[str]:
    speaker = normalize_alias(speaker_name) if isinstance(speaker_name, str) else None
    found: list[tuple[int, int, str]] = []  # (sentence, position, alias): names come out in text order
    # Code and quoted lines are someone's words shown ("`call me Bob`"), not a name the speaker goes by.
    said = spelled_out(clean_text(without_shown(text[:_MAX_INPUT])))
    # "call me Bob jk" gives no name: a sentence taken back is not read.
    for n, (sentence, question) in enumerate(kept_sentences(said)):
        if question:
            continue
        for rx in _NICKNAME_RULES:
            for m in rx.finditer(sentence):
                before = sentence[: m.start()]
                # "don't call me dev", "if you call me dev": not a name the speaker goes by.
                if is_negated_call(before) or is_hypothetical(before):
                    continue
                alias = _alias_from(m.group("alias"))
                if alias:
                    found.append((n, m.start("alias"), alias))
        for rx in _NAME_RULES:
            m = rx.search(sentence)
            if m and not is_hypothetical(sentence[: m.start()]):
                name = name_from_phrase(m.group("phrase"), strict=False)
                alias = normalize_alias(name) if name else None
                if alias and alias not in _NOT_ALIAS:
                    found.append((n, m.start("phrase"), alias))
    ordered = [alias for _, _, alias in sorted(found)]
    return [a for a in dict.fromkeys(ordered) if a != speaker]


def learn_aliases(text: str, speaker_name: str) -> list[str]:
    """Names the speaker says they go by, normalized (casefolded), in order; never raises.

    English and French: "call me dev", "I go by dev", "everyone calls me dev", "my nickname is
    dev", "appelle-moi dev", "on m'appelle dev", "mon surnom c'est dev", "je m'appelle Mickael
    mais tout le monde dit dev". Questions, negations, hypotheticals and non-names ("call me
    later", "appelle-moi demain") teach nothing; the speaker's own display name is left out
    (the pipeline records it with `AliasStore.add`).
    """
    if not isinstance(text, str) or not text.strip():
        return []
    try:
        return _learn(text, speaker_name)
    except Exception:  # a heuristic must never break the turn
        log_heuristic_failure("aliases")
        return []


class AliasStore:
    """The `aliases` table: which names map to which user ids, per platform and workspace."""

    def __init__(self, people: PeopleRepository) -> None:
        self.people = people
        # Display names are re-added with every message: remember recent ones to skip the write.
        self._known: OrderedDict[tuple[str, str, str, str], None] = OrderedDict()

    @classmethod
    def of(cls, engine: MemoryEngine) -> AliasStore:
        """The aliases of the engine's storage."""
        return cls(engine.storage.people)

    async def add(self, platform: str, workspace_id: str, user_id: str, alias: str, now: float) -> bool:
        """Record that `user_id` goes by `alias`; True if it was new. Invalid names are ignored."""
        return bool(await self.add_many(platform, workspace_id, user_id, [alias], now))

    async def add_many(
        self, platform: str, workspace_id: str, user_id: str, aliases: Sequence[str], now: float
    ) -> list[str]:
        """Record several names of one user in one transaction; returns the normalized new ones."""
        if not user_id:
            return []
        names = [n for n in dict.fromkeys(normalize_alias(a) for a in aliases) if n]
        fresh = [n for n in names if (platform, workspace_id, user_id, n) not in self._known]
        if not fresh:
            return []
        added = await self.people.add_aliases(
            platform, workspace_id, user_id, fresh, now, keep=MAX_ALIASES_PER_USER
        )
        if added:
            # Pruning may have dropped an older name of this user: forget what the cache says of them.
            self._forget_cached(platform, workspace_id, user_id)
        for name in fresh:
            self._known[(platform, workspace_id, user_id, name)] = None
        while len(self._known) > _KNOWN_CACHE:
            self._known.popitem(last=False)
        return added

    async def remove(self, platform: str, workspace_id: str, user_id: str, alias: str | None = None) -> int:
        """Forget one name of a user (or all of them when `alias` is None); returns how many."""
        name = None
        if alias is not None:
            name = normalize_alias(alias)
            if name is None:
                return 0
        removed = await self.people.remove_aliases(platform, workspace_id, user_id, name)
        self._forget_cached(platform, workspace_id, user_id)
        return removed

    def _forget_cached(self, platform: str, workspace_id: str, user_id: str) -> None:
        for key in [k for k in self._known if k[:3] == (platform, workspace_id, user_id)]:
            del self._known[key]

    async def names_for(self, platform: str, workspace_id: str, user_id: str) -> list[str]:
        """The names `user_id` goes by in this workspace, oldest first."""
        return await self.people.names_of(platform, workspace_id, [user_id])

    async def users_for(self, platform: str, workspace_id: str, alias: str) -> list[str]:
        """The user ids that go by `alias` in this workspace (several people may share a name)."""
        name = normalize_alias(alias)
        if name is None:
            return []
        return await self.people.users_named(platform, workspace_id, [name])

    async def resolve_users(self, platform: str, workspace_id: str, names_or_ids: Sequence[str]) -> list[str]:
        """User ids (as stored, case kept) that the given names or ids refer to."""
        raw = [n for n in dict.fromkeys(x for x in names_or_ids if isinstance(x, str) and x.strip())]
        raw = raw[:_MAX_QUERY_NAMES]
        names = [n for n in dict.fromkeys(normalize_alias(x) for x in raw) if n]
        if not raw:
            return []
        return await self.people.users_named(platform, workspace_id, names, raw)

    async def expand(self, platform: str, workspace_id: str, names_or_ids: Sequence[str]) -> list[str]:
        """The given names and ids, plus every name and id they are known to stand for.

        Casefolded and deduplicated, inputs first, then the users' names (oldest first), then
        their ids: "dev" -> ["dev", "mickael", "u123"]. Only one hop: a name shared by two users
        brings both, but not the other names of whoever shares those names.
        """
        inputs = [x for x in names_or_ids if isinstance(x, str) and x.strip()][:_MAX_QUERY_NAMES]
        out: list[str] = [normalize_alias(x) or " ".join(x.split()).casefold() for x in inputs]
        users = await self.resolve_users(platform, workspace_id, inputs)
        if users:
            out.extend(await self.people.names_of(platform, workspace_id, users))
            out.extend(u.casefold() for u in users)
        return list(dict.fromkeys(x for x in out if x))
