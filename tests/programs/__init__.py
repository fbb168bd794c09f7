"""The team's own corpus of realistic numpy programs (see test_corpus.py)."""
