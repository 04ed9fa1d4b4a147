"""Command-line tools (``python -m swervelib --help``)."""
