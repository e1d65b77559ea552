"""python3 -m tlcost capture ...  (see `python3 -m tlcost capture --help`)."""
import sys

from .cli import main

sys.exit(main())
