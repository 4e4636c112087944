"""Token counts without a tokenizer download: about 4 characters per token.

That is the usual rule of thumb for English prose with BPE tokenizers (OpenAI documents "1 token
~ 4 characters"); tables of numbers tokenise denser, so real counts for these documents run
somewhat higher. bench.py prints both this estimate and a word/punctuation count for comparison.
"""

CHARS_PER_TOKEN = 4


def approx_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN


def chars_for(tokens: int) -> int:
    return tokens * CHARS_PER_TOKEN
