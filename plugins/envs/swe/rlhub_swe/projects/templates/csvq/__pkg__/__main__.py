"""`python -m __pkg__ QUERY FILE...`"""

from .cli import main

raise SystemExit(main())
