import sys

from wlansim.cli import main

sys.exit(main())
