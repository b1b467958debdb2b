// Checks how Havok bounds a ragdoll joint built by havok-joints.mjs:
// where its limit begins, probed from rest poses, against the file's
// limits. A child (1 kg, its centre 1 m from the joint along +Y) is put
// at a swing θ about the axis (cos φ, 0, sin φ) and a twist τ about +Y,
// under a parent of 10⁶ kg, without gravity, and stepped once: Havok's
// limit has begun where the child gets an angular speed (bisected to
// 0.01°). For each case, in nine swing directions φ from 0° to 90°, the
// swing boundary must be the file's elliptic cone 1/√((cos φ/swing1)² +
// (sin φ/swing2)²) within SWING_TOL; and at 95% of the cone, in three
// directions, Havok's twist boundary no more than SWING_TOL past the
// file's twist limit (Havok measures twist its own way).
//
//   node havok-limits.mjs        # exits 1 when a boundary is off
import { havokRagdoll } from './havok-joints.mjs';
import { quatMul, quatRotate } from './math.mjs';

const D = Math.PI / 180;
const SWING_TOL = 0.5; // degrees

const body = (position, rotation, mass) => ({
  where: 'probe', scale: [1, 1, 1], position, rotation,
  colliders: [{ type: 'sphere', radius: 0.05, position: [0, 0, 0], rotation: [0, 0, 0, 1], where: 'probe sphere' }],
  mass: { explicit: { mass, com: [0, 0, 0], inertiaDiagonal: [0.01 * mass, 0.01 * mass, 0.01 * mass], inertiaOrientation: [0, 0, 0, 1] } },
});
const axisAngle = (ax, a) => [ax[0] * Math.sin(a / 2), ax[1] * Math.sin(a / 2), ax[2] * Math.sin(a / 2), Math.cos(a / 2)];

// pushed says whether Havok's joint pushes a child at swing θ about
// (cos φ, 0, sin φ) and twist τ (radians), lifted 10 m above the ground.
async function pushed(limits, swing, phi, twist) {
  const r = quatMul(axisAngle([Math.cos(phi), 0, Math.sin(phi)], swing), axisAngle([0, 1, 0], twist));
  const up = quatRotate(r, [0, 1, 0]);
  const bodies = [body([up[0], up[1] + 10, up[2]], r, 1), body([0, 10, 0], [0, 0, 0, 1], 1e6)];
  const joints = [{ a: 0, b: 1, frameA: { t: [0, -1, 0], q: [0, 0, 0, 1] }, frameB: { t: [0, 0, 0], q: [0, 0, 0, 1] }, limits, collide: false }];
  const { w, hs } = await havokRagdoll(bodies, joints, [], 0);
  try {
    w.step(1);
    return Math.hypot(...w.state(hs[0]).angvel) > 1e-3;
  } finally {
    w.free();
  }
}

// boundary bisects the first angle at which pushed(at(angle)) holds.
async function boundary(at) {
  let lo = 0;
  let hi = 179 * D;
  while (hi - lo > 0.01 * D) {
    const m = (lo + hi) / 2;
    if (await pushed(...at(m))) hi = m;
    else lo = m;
  }
  return lo;
}

const cases = [
  { swing1: 60, swing2: 30, twist: 180 },
  { swing1: 80, swing2: 80, twist: 45 },
  { swing1: 30, swing2: 30, twist: 20 },
];
let bad = false;
for (const c of cases) {
  const l = { swing1: c.swing1 * D, swing2: c.swing2 * D, twist: c.twist >= 180 ? [-Math.PI, Math.PI] : [-c.twist * D, c.twist * D] };
  let worst = 0;
  for (let k = 0; k <= 8; k++) {
    const phi = (k * 90 * D) / 8;
    const cone = 1 / Math.hypot(Math.cos(phi) / l.swing1, Math.sin(phi) / l.swing2);
    const got = await boundary((s) => [l, s, phi, 0]);
    worst = Math.max(worst, Math.abs(got - cone) / D);
  }
  let ok = worst <= SWING_TOL;
  const twists = [];
  if (c.twist < 180) {
    // Havok's twist limit at a swing near the cone's edge, in three
    // directions, never past the file's.
    for (const phi of [0, 45, 90]) {
      const cone = 1 / Math.hypot(Math.cos(phi * D) / l.swing1, Math.sin(phi * D) / l.swing2);
      const sw = 0.95 * cone;
      const got = (await boundary((t) => [l, sw, phi * D, t])) / D;
      if (got > c.twist + SWING_TOL) ok = false;
      twists.push(`${got.toFixed(1)}° at ${(sw / D).toFixed(0)}° swing about ${['X', 'XZ', 'Z'][phi / 45]}`);
    }
  }
  bad ||= !ok;
  console.log(`${ok ? 'PASS' : 'FAIL'} swing ${c.swing1}°/${c.swing2}°: Havok's boundary off the file's cone by at most ${worst.toFixed(2)}° in 9 directions` +
    (twists.length ? `; twist (file ±${c.twist}°) limited from ${twists.join(', ')}` : ''));
}
process.exit(bad ? 1 : 0);
