"""REV Robotics devices (robotpy-rev 2026): Spark MAX / Spark FLEX motors and their attached sensors.

:mod:`swervelib.devices.rev.motor` builds the motors, :mod:`swervelib.devices.rev.encoders` the
absolute encoders plugged into an angle motor's Spark. Nothing is imported here, so that importing
this package does not load ``rev`` before a REV device is configured.
"""
