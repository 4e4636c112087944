"""rlhub-docqa: sample a consistent world, render it as a document, ask computed questions."""
