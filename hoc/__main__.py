import sys

from hoc.cli.main import main

sys.exit(main())
