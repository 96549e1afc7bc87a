import sys

from sushigo.cli.app import main

sys.exit(main())
