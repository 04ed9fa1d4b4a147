"""pyfrc's built-in robot tests (autonomous, teleop, disabled, practice) for the example robot."""

from pyfrc.tests import *  # noqa: F403
