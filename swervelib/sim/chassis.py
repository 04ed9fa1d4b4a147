"""The robot as a rigid body on the carpet: mass, moment of inertia, tyre grip and field walls.

Each wheel meets the floor at one point. Per physics substep the wheel's drive rotor spins on its
own inertia (motor, gearbox and wheel), then the tyre pushes chassis and wheel towards rolling
without sliding: along the wheel it pulls the chassis and the wheel surface to the same speed,
across it it resists the contact point sliding sideways (with the give of a tread on carpet,
:data:`CORNERING_STIFFNESS`). The push is an impulse, limited to
μ·N·dt (N = the robot's weight shared equally by its wheels): a wheel asked for more than its grip
slips, and then spins faster (or slower) than the floor passes under it, so odometry, which counts
wheel turns, drifts from where the robot really is, as on a real robot. The chassis can therefore
never accelerate faster than μ·g.

The impulses are solved one wheel after another, once per substep (a Gauss-Seidel sweep, forwards
and backwards on alternate substeps so no wheel is always first); wheels
coupled through the chassis, whose mass is far larger than a wheel's equivalent mass, need no more.
A wheel that grips then rolls exactly with the floor under it (the sweep would leave it a little
behind what the wheels after it did to the chassis, which odometry would count as slip).

Walls: the field perimeter as four straight walls and the robot's bumpers as a rectangle. A bumper
corner past a wall is pushed back to it and loses its speed into the wall (an inelastic contact at
that corner, so a robot hitting a wall at an angle also turns).

Pure Python floats throughout: this runs 500 times per second per module in every simulation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

GRAVITY = 9.80665  # m/s²
# The 2026 FRC field inside its perimeter walls (metres): 651.2 in × 317.7 in.
FIELD_LENGTH_M = 16.541
FIELD_WIDTH_M = 8.069
CONTACT_SLOP_M = 1e-4  # a corner this close to a wall counts as touching it
# How hard a tyre pushes back against sliding sideways, per m/s of sideways slide (N·s/m): a
# rubber tread on carpet gives a little, so a wheel a degree or two out of line with the robot's
# motion scrubs with a moderate force instead of an infinite one. A 50 kg robot cornering at
# 2 m/s and 1 rad/s creeps sideways about 4 cm/s (a slip angle near 1°).
CORNERING_STIFFNESS = 2500.0


@dataclass(frozen=True, slots=True)
class FieldWalls:
    """The field perimeter: walls at x = 0 and x = ``length_m``, y = 0 and y = ``width_m``
    (the WPILib field frame, blue alliance wall at x = 0)."""

    length_m: float = FIELD_LENGTH_M
    width_m: float = FIELD_WIDTH_M

    def __post_init__(self) -> None:
        for name in ("length_m", "width_m"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and 0.5 <= value <= 100.0):
                raise ValueError(f"FieldWalls.{name} must be 0.5-100 m, not {value!r}")


@dataclass(frozen=True, slots=True)
class ChassisProperties:
    """What the chassis physics needs. ``bumper_length_m``/``bumper_width_m``: the bumper
    rectangle (front-back, left-right), centred on the robot's centre."""

    mass_kg: float
    moment_of_inertia: float  # kg·m² about the vertical axis
    wheel_grip: float  # tyre-carpet coefficient of friction μ
    bumper_length_m: float
    bumper_width_m: float

    def __post_init__(self) -> None:
        for name, low, high in (
            # wide enough for every configuration the loader accepts (1-1000 lb, modules up to
            # 100 in from the centre); the loader warns about unusual values
            ("mass_kg", 0.1, 1e4),
            ("moment_of_inertia", 1e-4, 1e6),
            ("wheel_grip", 0.01, 10.0),
            ("bumper_length_m", 0.01, 100.0),
            ("bumper_width_m", 0.01, 100.0),
        ):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and low <= value <= high):
                raise ValueError(f"ChassisProperties.{name} must be {low}-{high}, not {value!r}")


# Bumpers reach this far beyond the wheel contact points on every side (metres): a wheel's radius
# of frame plus bumper, about 5 in, as in YAGSL's simulation.
BUMPER_MARGIN_M = 0.127


def bumper_box(wheels: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The bumpers' length and width (metres) around wheels at (front, left) positions."""
    fronts = [front for front, _ in wheels]
    lefts = [left for _, left in wheels]
    length = max(fronts) - min(fronts) + 2 * BUMPER_MARGIN_M
    return length, max(lefts) - min(lefts) + 2 * BUMPER_MARGIN_M


def default_moment_of_inertia(mass_kg: float, length_m: float, width_m: float) -> float:
    """A uniform slab the size of the bumpers: m·(L² + W²)/12 (kg·m²)."""
    return mass_kg * (length_m**2 + width_m**2) / 12.0


def moment_of_inertia(
    mass_kg: float, configured: float | None, wheels: Sequence[tuple[float, float]]
) -> float:
    """``configured`` (``robotMomentOfInertia``), else the bumper-sized slab's."""
    return configured or default_moment_of_inertia(mass_kg, *bumper_box(wheels))


class Chassis:
    """Pose and velocity (field frame) of the robot, moved by tyre impulses and walls."""

    def __init__(
        self,
        properties: ChassisProperties,
        wheels: Sequence[tuple[float, float]],
        *,
        x: float = 0.0,
        y: float = 0.0,
        heading: float = 0.0,
        walls: FieldWalls | None = None,
    ) -> None:
        """``wheels``: each wheel's contact point (front, left) from the robot's centre, metres."""
        self.properties = properties
        self.wheels = [(float(front), float(left)) for front, left in wheels]
        self.x, self.y, self.heading = x, y, heading
        self.vx = self.vy = self.omega = 0.0
        self.walls = walls
        self._inv_mass = 1.0 / properties.mass_kg
        self._inv_inertia = 1.0 / properties.moment_of_inertia
        self._max_force = properties.wheel_grip * properties.mass_kg * GRAVITY / len(self.wheels)
        half_l, half_w = properties.bumper_length_m / 2, properties.bumper_width_m / 2
        self._corners = ((half_l, half_w), (half_l, -half_w), (-half_l, half_w), (-half_l, -half_w))
        self._reach = math.hypot(half_l, half_w)
        self.slipping = [False] * len(self.wheels)
        self._contacts = [(0.0, 0.0, 1.0, 0.0)] * len(self.wheels)
        self._order = tuple(range(len(self.wheels)))
        self._reverse_order = self._order[::-1]
        self._backwards = False
        self.wall_contact = False

    def place(self, x: float, y: float, heading: float) -> None:
        """Put the robot at a pose, moving as it moved relative to itself: its field velocity
        turns with its heading (forward stays forward), its turn rate stays. A robot at rest
        stays at rest; one whose wheels turn keeps the speed they roll at, so the tyres neither
        brake the chassis nor drag the wheels."""
        turn = heading - self.heading
        cos_t, sin_t = math.cos(turn), math.sin(turn)
        vx, vy = self.vx, self.vy
        self.vx, self.vy = cos_t * vx - sin_t * vy, sin_t * vx + cos_t * vy
        self.x, self.y, self.heading = x, y, heading

    def grip(
        self,
        dt: float,
        surface_speeds: list[float],
        wheel_angles: Sequence[float],
        wheel_masses: Sequence[float],
    ) -> None:
        """One substep of tyre contact. ``surface_speeds``: each wheel's rim speed (m/s, positive
        rolling towards where the wheel points), changed in place by the tyre's reaction;
        ``wheel_angles``: each wheel's direction in the robot frame (radians, CCW from forward);
        ``wheel_masses``: the mass at the rim equivalent to each wheel's rotating parts
        (J·(2π/metres per rotor turn)², kg)."""
        inv_m, inv_i = self._inv_mass, self._inv_inertia
        limit = self._max_force * dt
        softness = 1.0 / (CORNERING_STIFFNESS * dt)  # the tyre gives a little sideways
        heading = self.heading
        cos_h, sin_h = math.cos(heading), math.sin(heading)
        vx, vy, omega = self.vx, self.vy, self.omega
        slipping = self.slipping
        contacts = self._contacts
        # Sweep forwards and backwards on alternate substeps: a wheel solved first pushes a
        # little harder when the tyres saturate, and alternating keeps that from turning the robot.
        self._backwards = not self._backwards
        order = self._reverse_order if self._backwards else self._order
        for index in order:
            front, left = self.wheels[index]
            rx = cos_h * front - sin_h * left  # contact point from the centre, field frame
            ry = sin_h * front + cos_h * left
            angle = heading + wheel_angles[index]
            ux, uy = math.cos(angle), math.sin(angle)  # rolling direction; sideways is (-uy, ux)
            gx, gy = vx - omega * ry, vy + omega * rx  # the floor's speed under the contact
            speed = surface_speeds[index]
            along = speed - (gx * ux + gy * uy)  # rim faster than the floor: pushes forward
            across = gx * uy - gy * ux  # the contact sliding sideways, negated
            r_u = rx * uy - ry * ux
            r_n = rx * ux + ry * uy
            rim = 1.0 / wheel_masses[index]
            p_along = along / (inv_m + r_u * r_u * inv_i + rim)
            p_across = across / (inv_m + r_n * r_n * inv_i + softness)
            size = math.hypot(p_along, p_across)
            slipping[index] = size > limit
            if size > limit:
                scale = limit / size
                p_along *= scale
                p_across *= scale
            jx = p_along * ux - p_across * uy
            jy = p_along * uy + p_across * ux
            vx += jx * inv_m
            vy += jy * inv_m
            omega += (rx * jy - ry * jx) * inv_i
            surface_speeds[index] = speed - p_along * rim
            contacts[index] = (rx, ry, ux, uy)
        # A wheel that grips rolls with the floor: the sweep leaves each one a little behind the
        # chassis the wheels after it pushed, which odometry would count as slip.
        for index, (rx, ry, ux, uy) in enumerate(contacts):
            if not slipping[index]:
                surface_speeds[index] = (vx - omega * ry) * ux + (vy + omega * rx) * uy
        self.vx, self.vy, self.omega = vx, vy, omega

    def advance(self, dt: float) -> None:
        """Move by the current velocity for ``dt`` seconds, then meet the walls."""
        self.x += self.vx * dt
        self.y += self.vy * dt
        self.heading += self.omega * dt
        walls = self.walls
        if walls is None:
            return
        reach = self._reach
        if reach < self.x < walls.length_m - reach and reach < self.y < walls.width_m - reach:
            self.wall_contact = False
            return
        self._collide(walls)

    def _collide(self, walls: FieldWalls) -> None:
        """Push the robot back inside every wall a bumper corner is past; inelastic impulses at
        the corners touching a wall take away their speed into it. The corners on one wall share
        its impulse (solved together, not one after another), so a bumper flat against a wall
        neither bounces nor starts to turn."""
        touched = False
        inv_m, inv_i = self._inv_mass, self._inv_inertia
        for _ in range(3):  # a push off one wall may press a corner into another; settle both
            cos_h, sin_h = math.cos(self.heading), math.sin(self.heading)
            arms = [
                (cos_h * front - sin_h * left, sin_h * front + cos_h * left)
                for front, left in self._corners
            ]
            contacts: list[tuple[float, float, float, float]] = []
            for nx, ny, limit in (
                (1.0, 0.0, 0.0),
                (-1.0, 0.0, -walls.length_m),
                (0.0, 1.0, 0.0),
                (0.0, -1.0, -walls.width_m),
            ):
                # how far each corner is past this wall (the wall is where nx·x + ny·y = limit)
                depths = [limit - (nx * (self.x + rx) + ny * (self.y + ry)) for rx, ry in arms]
                touching = [arm for arm, d in zip(arms, depths, strict=True) if d > -CONTACT_SLOP_M]
                if not touching:
                    continue
                touched = True
                depth = max(depths)
                if depth > 0.0:
                    self.x += nx * depth
                    self.y += ny * depth
                contacts += [(rx, ry, nx, ny) for rx, ry in touching]
            if not contacts:
                break
            dvx = dvy = domega = 0.0
            for rx, ry, nx, ny in contacts:
                speed = (self.vx - self.omega * ry) * nx + (self.vy + self.omega * rx) * ny
                if speed >= 0.0:
                    continue
                r_n = rx * ny - ry * nx
                impulse = -speed / (inv_m + r_n * r_n * inv_i) / len(contacts)
                dvx += impulse * nx * inv_m
                dvy += impulse * ny * inv_m
                domega += r_n * impulse * inv_i
            self.vx += dvx
            self.vy += dvy
            self.omega += domega
        self.wall_contact = touched
