"""Simulation that tells the truth: a physical robot model separate from its configuration."""

from swervelib.sim.swerve_sim import SwerveSim
from swervelib.sim.truth import CornerTruth, HardwareTruth

__all__ = ["CornerTruth", "HardwareTruth", "SwerveSim"]
