"""Reference and wrong answers as real code, one module per family group (see ..answers)."""
