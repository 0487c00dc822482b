"""The tests of memory/text, one module a topic: how chat lines become memory notes."""
