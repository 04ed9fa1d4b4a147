"""The roboRIO path, without a roboRIO: what robotpy_installer's sync, download and deploy do."""
