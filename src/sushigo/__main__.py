import sys

from sushigo.cli.app import main

if __name__ == "__main__":  # not when a worker process of the analysis pool imports it
    sys.exit(main())
