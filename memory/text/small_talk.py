"""Chat's words that carry no topic ("ok", "thanks", "lol"), which a keyword search leaves out."""

from __future__ import annotations

import re

__all__ = ["topic_words"]

# Acknowledgements, laughter, greetings and interjections, in English and French. Each stands in
# a large share of a chat's turns, so a keyword search for "ok thanks" found dozens of turns,
# each lifted to the relevance floor of a keyword match. Words of time ("morning"), of
# judgement ("nice", "cool") and of people ("everyone") stay: a question can ask about them.
_NO_TOPIC = frozenset(
    """
    ok okay kk thanks thank thx ty tysm thankyou lol lmao lmfao rofl haha hahaha hah hehe heh xd
    yeah yea ya yes yep yup nope nah hi hey heya hiya hello yo sup wow omg oh ah aha uh um umm hmm hm
    ooh aw aww np pls plz please brb afk ttyl gn gm
    merci mdr ptdr ouais oui salut coucou bonjour bonsoir stp svp bah ben bref
    """.split()
)
_WORD = re.compile(r"\w+(?:['’]\w+)*")


def topic_words(text: str) -> str:
    """`text` without the words that carry no topic, for a keyword search ("ok thanks" -> "")."""
    return " ".join(word for word in _WORD.findall(text) if word.casefold() not in _NO_TOPIC)
