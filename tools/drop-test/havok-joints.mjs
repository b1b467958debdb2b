// Havok ragdolls for joints.mjs: each joint a Havok generic constraint
// (HP_Constraint_*, @babylonjs/havok's raw API, as Babylon.js's
// Physics6DoFConstraint builds it), its three linear axes locked and its
// angular axes limited; bodies kept apart by collision filters get a
// constraint of their own with every axis free and collisions off, which
// is how a Havok constraint disables a pair's contacts (Havok's filter
// bits, 32 groups, cannot tell 800 bodies apart).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import HavokPhysics from '@babylonjs/havok';
import { HavokWorld } from './havok.mjs';
import { quatRotate } from './math.mjs';

// freshHavok instantiates the Havok module anew: one Havok module steps
// the same ragdoll differently after other worlds have lived in it (Fox
// came to rest in 3.5 s, 4.0 s, or not within 5 s, by what ran before),
// so each ragdoll gets a module of its own and the same file gives the
// same figures.
let wasm = null;
function freshHavok() {
  const require = createRequire(import.meta.url);
  wasm ??= readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
  return HavokPhysics({ wasmBinary: wasm });
}

// havokLimits turns the swing-twist limits into the half-ranges Havok's
// angular axes take. The constraint's X axis is the twist axis (the
// joint's +Y, as in Havok's own ragdoll constraints), its Y the joint's
// Z (swing2) and its Z, X × Y, the joint's X (swing1). Havok reads two
// limited swing axes as one elliptic cone with those half-angles, as the
// file means them (probed from rest poses, havok-limits.mjs: the boundary
// is the file's cone within 0.1° in every direction), so the swings pass
// unchanged. Havok measures twist its own way, which drifts from the
// swing-twist twist as the swing grows (a ±45° limit lets it reach 51° at
// a 72° swing about Z, 39° about X), so the twist range is shrunk as for
// Rapier, to 2·asin(sin(τ/2)·cos(θ/2)) for the cone's widest swing θ,
// which havok-limits.mjs checks keeps every swing's twist within the
// file's.
export function havokLimits(l) {
  const c = Math.cos(Math.min(Math.max(l.swing1, l.swing2), Math.PI) / 2);
  const twist = (a) => (Math.abs(a) >= Math.PI ? a : 2 * Math.asin(Math.sin(a / 2) * c));
  return { twist: [twist(l.twist[0]), twist(l.twist[1])], swing2: l.swing2, swing1: l.swing1 };
}

// havokRagdoll builds one prepared ragdoll (joints.mjs's prepare) in a new
// Havok world with gravity g: {w, hs} as joints.mjs's engines return.
export async function havokRagdoll(bodies, joints, apart, g) {
  const w = new HavokWorld(await freshHavok(), g);
  const HK = w.HK;
  const check = (what, res) => {
    const r = Array.isArray(res) ? res[0] : res;
    if (r !== HK.Result.RESULT_OK) throw new Error(`Havok ${what} failed`);
    return Array.isArray(res) ? res[1] : undefined;
  };
  const hs = bodies.map((b) => w.add(b, 'dynamic'));
  const constraints = [];
  const constraint = (a, b) => {
    const c = check('HP_Constraint_Create', HK.HP_Constraint_Create());
    constraints.push(c);
    check('HP_Constraint_SetParentBody', HK.HP_Constraint_SetParentBody(c, hs[b].body));
    check('HP_Constraint_SetChildBody', HK.HP_Constraint_SetChildBody(c, hs[a].body));
    return c;
  };
  const { LINEAR_X, LINEAR_Y, LINEAR_Z, ANGULAR_X, ANGULAR_Y, ANGULAR_Z } = HK.ConstraintAxis;
  for (const j of joints) {
    const c = constraint(j.a, j.b);
    const anchor = (f) => [f.t, quatRotate(f.q, [0, 1, 0]), quatRotate(f.q, [0, 0, 1])];
    check('HP_Constraint_SetAnchorInParent', HK.HP_Constraint_SetAnchorInParent(c, ...anchor(j.frameB)));
    check('HP_Constraint_SetAnchorInChild', HK.HP_Constraint_SetAnchorInChild(c, ...anchor(j.frameA)));
    for (const axis of [LINEAR_X, LINEAR_Y, LINEAR_Z]) check('HP_Constraint_SetAxisMode', HK.HP_Constraint_SetAxisMode(c, axis, HK.ConstraintAxisLimitMode.LOCKED));
    const l = havokLimits(j.limits);
    for (const [axis, lo, hi] of [[ANGULAR_X, l.twist[0], l.twist[1]], [ANGULAR_Y, -l.swing2, l.swing2], [ANGULAR_Z, -l.swing1, l.swing1]]) {
      if (lo <= -Math.PI && hi >= Math.PI) continue;
      check('HP_Constraint_SetAxisMode', HK.HP_Constraint_SetAxisMode(c, axis, HK.ConstraintAxisLimitMode.LIMITED));
      check('HP_Constraint_SetAxisMinLimit', HK.HP_Constraint_SetAxisMinLimit(c, axis, lo));
      check('HP_Constraint_SetAxisMaxLimit', HK.HP_Constraint_SetAxisMaxLimit(c, axis, hi));
    }
    check('HP_Constraint_SetCollisionsEnabled', HK.HP_Constraint_SetCollisionsEnabled(c, j.collide ? 1 : 0));
    check('HP_Constraint_SetEnabled', HK.HP_Constraint_SetEnabled(c, 1));
  }
  for (const [a, b] of apart) {
    const c = constraint(a, b);
    check('HP_Constraint_SetCollisionsEnabled', HK.HP_Constraint_SetCollisionsEnabled(c, 0));
    check('HP_Constraint_SetEnabled', HK.HP_Constraint_SetEnabled(c, 1));
  }
  const free = w.free.bind(w);
  w.free = () => {
    for (const c of constraints) HK.HP_Constraint_Release(c);
    free();
  };
  return { w, hs };
}
