"""The drive: modules, kinematics, odometry, driving modes and telemetry."""
