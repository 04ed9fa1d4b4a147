"""``python -m swervelib``: the command-line tools."""

from swervelib.cli.main import main

raise SystemExit(main())
