import sys

from sushigo.cli import main

sys.exit(main())
