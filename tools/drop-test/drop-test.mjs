// Engine drop test: loads glTF/GLB files carrying OMI or KHR physics, builds
// every body in Rapier and in Jolt, drops each dynamic body on its own onto a
// ground plane and checks that the result is physically sane.
//
//   node drop-test.mjs [--json SUMMARY.json] [--engines rapier,jolt] [--engine-mass] FILE...
//
// --engine-mass ignores the written mass properties and lets the engines
// compute them from the shapes (telling a mass problem from a shape one).
// Prints one line per file and engine (PASS/FAIL with the reasons), writes a
// JSON summary ({"files": {FILE: {ENGINE: {ok, bodies: [...], failures}}}})
// to --json, and exits 1 when anything failed (2 on usage errors).
//
// Per dynamic body, each in a world of its own at unit size (see dropBody):
//   - the written mass properties are plausible (checks.mjs massProblems),
//     every hull we wrote is sound (hullProblems: ≤ 256 points, closed,
//     outward, convex, non-zero volume), and both engines accept every shape;
//   - it starts in its file orientation with its lowest collider point
//     min(10% of its size, 5 cm) above the ground; 3 s are stepped at 60 Hz
//     (small bodies with substeps, see substeps);
//   - no NaN at any step; the centre-of-mass speed never exceeds what falling
//     from the start height can give (energy bound, ×SPEED_SLACK), nor the
//     angular speed what that energy can give about the smallest principal
//     axis;
//   - at the end it is at rest (speeds under REST_LINEAR/REST_ANGULAR, or
//     rolling without slipping), the lowest point of its colliders in the
//     final pose (it may have tipped over) is on the ground within the height
//     tolerance, and no vertex of its render meshes is below the ground by
//     more than that tolerance (colliders contain their meshes, so a mesh
//     poking through the ground means the collider does not stand for it).
// Static and kinematic bodies (and trimeshes) only have to load.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadAsset } from './loader.mjs';
import { RapierWorld, JoltWorld, DENSITY } from './engines.mjs';
import { bounds, hullProblems, lowestPoint, lowestY, massProblems } from './checks.mjs';
import { add, cross, len, quatRotate, sub } from './math.mjs';

const G = 9.81;
const STEPS = 180; // 3 s at 60 Hz
// Drop height: a tenth of the body's size, at most 5 cm.
const DROP_FRACTION = 0.1;
const DROP_MAX = 0.05;
const SPEED_SLACK = 1.5;
// Rest: at most the speed the body would reach falling 1% of its size, and
// at most the turn rate that moves its extremities at that speed. Neither
// engine has rolling resistance, so a body that tipped over onto a rounded
// hull may still rock gently at 3 s; an exploding, sliding or spinning
// body is far above these.
const REST_LINEAR = (size) => Math.sqrt(2 * G * 0.01 * size);
const REST_ANGULAR = (size) => REST_LINEAR(size) / (size / 2);
// Height tolerance: 2% of the body's size. Each body is simulated at unit
// size (see dropBody), where both engines settle about 1 mm (0.1%) into the
// ground; compounds of many hulls and rounded shapes resting on a point add
// up to about 1.6% in Jolt on the corpus. A wrong shape (a capsule on the
// wrong axis, a hull turned over) is off by tens of percent.
const HEIGHT_TOL = (size) => 0.02 * size;

function usage(msg) {
  process.stderr.write(`drop-test: ${msg}\nusage: node drop-test.mjs [--json SUMMARY.json] [--engines rapier,jolt] [--engine-mass] FILE...\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let jsonOut = null;
let engineNames = ['rapier', 'jolt'];
let engineMass = false;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--json') jsonOut = args[++i] ?? usage('--json needs a file');
  else if (args[i] === '--engine-mass') engineMass = true;
  else if (args[i] === '--engines') engineNames = (args[++i] ?? usage('--engines needs a list')).split(',');
  else if (args[i].startsWith('--')) usage(`unknown flag ${args[i]}`);
  else files.push(args[i]);
}
if (!files.length) usage('no files');
for (const e of engineNames) if (!['rapier', 'jolt'].includes(e)) usage(`unknown engine ${e}`);
const makers = { rapier: RapierWorld.create, jolt: JoltWorld.create };

// frameMotion expresses a body's written motion in the body frame: the
// centre of mass is in node space, so the node's world scale (reflection
// included) applies to it, and a reflection mirrors the inertia axes.
// Inertia values are kg·m² and need no scaling.
function frameMotion(b) {
  const m = b.motion;
  const [x, y, z, w] = m.inertiaOrientation;
  return {
    ...m,
    com: m.com ? m.com.map((v, i) => v * b.scale[i]) : null,
    inertiaOrientation: b.scale[0] < 0 ? [x, -y, -z, w] : [x, y, z, w],
  };
}

// massOf turns a body's motion into what the engines are given.
function massOf(b) {
  if (engineMass) return { computed: b.motion.mass > 0 ? b.motion.mass : null };
  const m = frameMotion(b);
  const d = m.inertiaDiagonal;
  if (m.mass > 0 && d && d.every((v) => v > 0)) {
    return { explicit: { mass: m.mass, com: m.com ?? [0, 0, 0], inertiaDiagonal: d, inertiaOrientation: m.inertiaOrientation } };
  }
  return { computed: m.mass > 0 ? m.mass : null };
}

// staticProblems are the engine-independent checks of one body.
function staticProblems(b, box) {
  const out = [];
  for (const c of b.colliders) {
    if (c.type === 'convex') for (const p of hullProblems(c, box.size)) out.push(`${c.where}: hull ${p}`);
  }
  if (b.motion.type === 'dynamic') for (const p of massProblems(frameMotion(b), box)) out.push(`${b.where}: ${p}`);
  return out;
}

function finite(s) {
  return [s.position, s.rotation, s.linvel, s.angvel].every((v) => v.every(Number.isFinite));
}

// substeps splits each 60 Hz frame so that gravity moves a body by at most
// 0.5% of its size per substep (g·dt² over the size), as games do for small
// objects (Jolt's collision steps). A 1 m body gets 1, a 10 cm one 3, a
// 1 cm one 8. Without them, thin 10 cm bodies (ToyCar's Fabric, SheenCloth)
// sink into or fall through the ground in both engines at 60 Hz: a limit of
// the time step, not of the shapes, which rest fine when substepped.
function substeps(size) {
  const dt = 1 / 60;
  return Math.max(1, Math.ceil(Math.sqrt((G * dt * dt) / (0.005 * size))));
}

// scaled returns a collider with its lengths multiplied by k.
function scaled(c, k) {
  const out = { ...c, position: c.position.map((v) => v * k) };
  if (c.points) out.points = c.points.map((v) => v * k);
  for (const f of ['radius', 'height', 'radiusTop', 'radiusBottom']) if (c[f] !== undefined) out[f] = c[f] * k;
  if (c.size) out.size = c.size.map((v) => v * k);
  return out;
}

// dropBody builds one body in a world of its own, drops it when it is
// dynamic, and checks the result; failures go to fail.
//
// Each body is simulated at unit size: lengths × k = 1/size, gravity × k,
// inertia × k² (mass unchanged). That is an exact similarity (the same
// motion at the same times, every length and speed × k), and it makes the
// engines' absolute tolerances, tuned for objects about a metre across
// (Rapier's allowed error, Jolt's slop, speculative distance, 1 mm hull
// tolerance and sleep speed), mean the same for the corpus's 1 cm and
// 200 m bodies. Results are scaled back before they are checked.
async function dropBody(engine, b, r, box, fail) {
  const dynamic = b.motion.type === 'dynamic';
  if (dynamic && b.family === 'khr' && b.motion.mass === 0) r.note = 'KHR mass 0 (infinite): loaded, not dropped';
  const drop = dynamic && r.note === undefined;
  const size = box.size;
  const k = 1 / size;
  const world = await makers[engine](G * k);
  try {
    const mass = drop ? massOf(b) : null;
    const ex = mass?.explicit;
    const kmass = ex ? { explicit: { ...ex, com: ex.com.map((v) => v * k), inertiaDiagonal: ex.inertiaDiagonal.map((v) => v * k * k) } } : mass;
    // Start: file orientation, lowest collider point at the drop height.
    const h0 = Math.min(DROP_FRACTION * size, DROP_MAX);
    const y0 = h0 - lowestY(b.colliders, [0, 0, 0], b.rotation);
    const start = { colliders: b.colliders.map((c) => scaled(c, k)), position: (drop ? [0, y0, 0] : b.position).map((v) => v * k), rotation: b.rotation, mass: kmass };
    let handle;
    try {
      handle = world.add(start, drop);
    } catch (e) {
      fail(e.message);
      return;
    }
    if (!drop) return;
    let maxLin = 0;
    let maxAng = 0;
    const state = () => {
      const st = world.state(handle);
      return { ...st, position: st.position.map((v) => v / k), linvel: st.linvel.map((v) => v / k), com: st.com.map((v) => v / k) };
    };
    const n = substeps(size);
    r.substeps = n;
    for (let s = 0; s < STEPS; s++) {
      world.step(n);
      const st = state();
      if (!finite(st)) {
        fail(`NaN in the state at step ${s}`);
        return;
      }
      maxLin = Math.max(maxLin, len(st.linvel));
      maxAng = Math.max(maxAng, len(st.angvel));
    }
    const st = state();
    // Energy bound: the centre of mass can fall at most h0 + size.
    const fall = h0 + size;
    const vmax = SPEED_SLACK * Math.sqrt(2 * G * fall);
    // Angular bound from ½·I·ω² ≤ m·g·fall, with I/m ≥ the smallest
    // principal moment per mass (or, when the engine computes it, that of
    // a sphere of a tenth of the body's size).
    const iPerM = mass.explicit ? Math.min(...mass.explicit.inertiaDiagonal) / mass.explicit.mass : 0.4 * (0.05 * size) ** 2;
    const wmax = SPEED_SLACK * Math.sqrt((2 * G * fall) / iPerM);
    const low = lowestY(b.colliders, st.position, st.rotation);
    const lin = len(st.linvel);
    const ang = len(st.angvel);
    const tol = HEIGHT_TOL(size);
    let renderLow = null;
    if (b.renderPoints.length) {
      renderLow = Infinity;
      const p = b.renderPoints;
      for (let k = 0; k < p.length; k += 3) renderLow = Math.min(renderLow, quatRotate(st.rotation, [p[k], p[k + 1], p[k + 2]])[1]);
      renderLow += st.position[1];
    }
    Object.assign(r, {
      dropHeight: h0,
      maxSpeed: maxLin, speedBound: vmax,
      maxAngularSpeed: maxAng, angularBound: wmax,
      finalSpeed: lin, finalAngularSpeed: ang,
      restHeight: low, renderLowest: renderLow, tolerance: tol,
      tipped: Math.abs(quatDot(st.rotation, b.rotation)) < Math.cos(0.1),
    });
    if (maxLin > vmax) fail(`exploded: speed ${maxLin.toPrecision(3)} m/s > bound ${vmax.toPrecision(3)}`);
    if (maxAng > wmax) fail(`exploded: angular speed ${maxAng.toPrecision(3)} rad/s > bound ${wmax.toPrecision(3)}`);
    if (lin > REST_LINEAR(size) || ang > REST_ANGULAR(size)) {
      // Rolling without slipping (a round collider on its side) is rest
      // for a body without rolling resistance, which neither engine has:
      // its contact point is still and it stays on the ground.
      const p = lowestPoint(b.colliders, st.position, st.rotation);
      const contact = add(st.linvel, cross(st.angvel, sub(p, st.com)));
      r.contactSpeed = len(contact);
      if (len(contact) <= REST_LINEAR(size) && Math.abs(low) <= tol) r.rolling = true;
      else fail(`not at rest after 3 s: ${lin.toPrecision(3)} m/s, ${ang.toPrecision(3)} rad/s (contact point ${len(contact).toPrecision(3)} m/s)`);
    }
    if (Math.abs(low) > tol) fail(`rest height: lowest collider point at ${low.toPrecision(3)} m, ground at 0 (tolerance ${tol.toPrecision(3)})`);
    if (renderLow !== null && renderLow < -tol) fail(`render mesh ${(-renderLow).toPrecision(3)} m below the ground at rest: the colliders do not contain it (tolerance ${tol.toPrecision(3)})`);
  } finally {
    world.free();
  }
}

async function runEngine(engine, asset) {
  const results = [];
  const failures = [];
  for (const b of asset.bodies) {
    if (!b.colliders.length) continue;
    const box = bounds(b.colliders);
    const r = { body: b.name, where: b.where, type: b.motion.type, colliders: b.colliders.length, shapes: [...new Set(b.colliders.map((c) => c.type))].sort(), size: box.size };
    if (b.notes.length) r.notes = b.notes;
    results.push(r);
    const fail = (msg) => failures.push(`${b.where} ${JSON.stringify(b.name)}: ${msg}`);
    for (const p of staticProblems(b, box)) fail(p);
    await dropBody(engine, b, r, box, fail);
  }
  return { ok: failures.length === 0, bodies: results, failures };
}

function quatDot(a, b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

const summary = { engines: engineNames, density: DENSITY, files: {} };
let failed = 0;
for (const file of files) {
  const entry = {};
  summary.files[file] = entry;
  let asset;
  try {
    asset = loadAsset(file);
  } catch (e) {
    for (const engine of engineNames) {
      entry[engine] = { ok: false, bodies: [], failures: [`load: ${e.message}`] };
      process.stdout.write(`FAIL ${engine} ${file}: load: ${e.message}\n`);
      failed++;
    }
    continue;
  }
  for (const engine of engineNames) {
    let res;
    try {
      res = await runEngine(engine, asset);
    } catch (e) {
      res = { ok: false, bodies: [], failures: [`${engine}: ${e.stack ?? e}`] };
    }
    entry[engine] = res;
    const dyn = res.bodies.filter((b) => b.restHeight !== undefined);
    const worst = dyn.reduce((m, b) => Math.max(m, Math.abs(b.restHeight) / b.size), 0);
    const count = (f) => dyn.filter(f).length;
    const extra = [[count((b) => b.tipped), 'tipped over'], [count((b) => b.rolling), 'rolling']].filter(([n]) => n).map(([n, w]) => `, ${n} ${w}`).join('');
    const info = `${res.bodies.length} bodies (${dyn.length} dropped${extra}), worst rest height ${(100 * worst).toFixed(2)}% of size`;
    if (res.ok) process.stdout.write(`PASS ${engine} ${path.basename(file)}: ${info}\n`);
    else {
      failed++;
      process.stdout.write(`FAIL ${engine} ${file}: ${info}\n${res.failures.map((f) => `    ${f}\n`).join('')}`);
    }
  }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(summary, null, 1));
process.exit(failed ? 1 : 0);
