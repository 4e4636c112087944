"""`python -m __pkg__ ...` runs the command line."""

from .cli import main

raise SystemExit(main())
