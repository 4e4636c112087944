"""One module per tool-call format: `parse(text, schemas) -> ParsedTurn` and `render(calls, text, schemas)`."""
