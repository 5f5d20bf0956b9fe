"""A headless tour of collide2d's joints: builds one of each, steps, and prints what they do.

Anchors and axes are world points at creation; angles in radians, lengths in metres.
"""

import math

import collide2d as c2d

world = c2d.World(gravity=(0, -10))
ground = world.add_body(kind="static")
ground.add_box(60, 1, offset=(0, -0.5))

# Revolute: a pendulum 2 m long. Small swings take 2 pi sqrt(L / g) = 2.81 s.
bob = world.add_body(position=(2, 10))
bob.add_circle(0.1, density=50)
pendulum = world.add_revolute_joint(ground, bob, (0, 10))

# Revolute with limits and a motor: an arm driven at 1 rad/s, stopped at 45 degrees.
arm = world.add_body(position=(6, 5))
arm.add_box(2, 0.2)
elbow = world.add_revolute_joint(ground, arm, (5, 5), lower_angle=-math.pi / 4,
                                 upper_angle=math.pi / 4, motor_speed=1.0,
                                 max_motor_torque=100.0)

# Prismatic: a lift rising along y at 0.5 m/s up to 2 m.
lift = world.add_body(position=(10, 1))
lift.add_box(2, 0.2)
rail = world.add_prismatic_joint(ground, lift, (10, 1), (0, 1), lower=0.0, upper=2.0,
                                 motor_speed=0.5, max_motor_force=1000.0)

# Wheel: a 1 kg-ish wheel hung on a 2 Hz sprung axle under a static beam.
hub = world.add_body(position=(14, 4))
hub.add_circle(0.4)
axle = world.add_wheel_joint(ground, hub, (14, 4), (0, 1), spring_hertz=2.0,
                             spring_damping_ratio=1.0)

# Distance: a rigid rod, a rope (slack below 2 m) and a spring.
rod_end = world.add_body(position=(-3, 8))
rod_end.add_circle(0.2)
rod = world.add_distance_joint(ground, rod_end, (-3, 10), (-3, 8))
weight = world.add_body(position=(-6, 9))
weight.add_box(0.4, 0.4, density=25.0)             # 4 kg: it pulls 40 N
rope = world.add_distance_joint(ground, weight, (-6, 10), (-6, 9), max_length=2.0)
bouncer = world.add_body(position=(-9, 8))
bouncer.add_circle(0.3)
spring = world.add_distance_joint(ground, bouncer, (-9, 10), (-9, 8), spring_hertz=1.5,
                                  spring_damping_ratio=0.2)

# Weld: a beam glued to the ground at its left end: a rigid cantilever.
beam = world.add_body(position=(-13, 6))
beam.add_box(2, 0.3)
weld = world.add_weld_joint(ground, beam, (-14, 6))

# Angle joints: pymunk's rotary spring, rotary limit, simple motor and ratchet in one.
wheel_a = world.add_body(position=(20, 6))
wheel_a.add_circle(0.5)
world.add_revolute_joint(ground, wheel_a, (20, 6))
wheel_b = world.add_body(position=(22, 6))
wheel_b.add_circle(0.5)
world.add_revolute_joint(ground, wheel_b, (22, 6))
motor = world.add_angle_joint(ground, wheel_a, motor_speed=2.0, max_motor_torque=50.0)
# Gear: wheel_b turns the other way at half the speed (angle_b + 0.5 angle_a is constant).
gear = world.add_gear_joint(wheel_a, wheel_b, ratio=0.5)

# Motor joint: a box held where it is relative to the ground, by at most 200 N and 50 N m.
follower = world.add_body(position=(0, 3))
follower.add_box(0.5, 0.5)
hold = world.add_motor_joint(ground, follower, max_force=200.0, max_torque=50.0)

# Mouse joint: drag a box towards a point.
crate = world.add_body(position=(25, 1))
crate.add_box(1, 1)
mouse = world.add_mouse_joint(crate, (25, 1), max_force=500.0)
mouse.target = (27, 3)

# A joint that breaks: the rope snaps when its pull passes 30 N, as soon as it is taut.
rope.break_force = 30.0


@world.on_joint_break
def snapped(joint):
    print(f"  {joint.kind} joint broke")


print(f"{len(world.joints)} joints:", ", ".join(j.kind for j in world.joints))
for step in range(1, 121):
    world.step(1 / 60)
    if step % 60 == 0:
        print(f"t = {step / 60:.0f} s: pendulum {pendulum.angle:+.2f} rad, elbow "
              f"{elbow.angle:+.2f} rad, lift {rail.translation:.2f} m, axle "
              f"{axle.translation:+.3f} m, rod {rod.length:.3f} m, spring "
              f"{spring.length:.2f} m, wheels {wheel_a.angle:+.2f} / {wheel_b.angle:+.2f} "
              f"rad, crate at {crate.position.round(2)}")
print("the rope is", "enabled" if rope.enabled else "broken (disabled)")
print("the pendulum's pivot pulls its bob with", pendulum.reaction_force.round(2), "N")
print("weld holds the beam", "level" if abs(beam.angle) < 0.01 else "tilted",
      f"(angle {beam.angle:+.4f} rad)")
g = world.joint_geometry()
print("joint_geometry for drawing:", len(g.kind), "rows; kinds",
      [c2d.JOINT_KINDS[k] for k in g.kind[:3]], "...")
world.remove(mouse)
print(f"after world.remove(mouse): {len(world.joints)} joints")
