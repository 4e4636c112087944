"""`rlhub eval` and `rlhub rescore`: play the registry against an OpenAI-compatible endpoint, grade again."""
