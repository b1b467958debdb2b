// Engine drop test: loads glTF/GLB files carrying OMI or KHR physics, builds
// every body in Rapier, Jolt and Havok, drops the asset onto a ground plane,
// and checks that the result is physically sane.
//
//   node drop-test.mjs [--json SUMMARY.json] [--engines rapier,jolt,havok]
//                      [--modes alone,whole] [--engine-mass] [--real-size] FILE...
//
// Two modes, each in every engine:
//   alone: each dynamic body in a world of its own, at unit size (see
//     dropAlone), started in its file orientation with its lowest collider
//     point min(10% of its size, 5 cm) above the ground;
//   whole: every body of the asset as written, at once, in their file poses
//     (see dropWhole), its smallest dynamic body at unit size: dynamic
//     bodies collide with each other, static and kinematic ones stay put;
//     the asset's lowest collider point starts min(10% of its size, 5 cm)
//     above the ground.
// Frames are 1/60 s (small bodies with substeps, see substeps); at least
// MIN_STEPS are run and at most MAX_STEPS (5 s), stopping once every dynamic
// body has been at rest for REST_WINDOW frames.
//
// Checks, per dynamic body:
//   - the written mass properties are plausible (checks.mjs massProblems),
//     every hull we wrote is sound (hullProblems), every engine accepts
//     every shape (alone mode);
//   - no NaN at any step; the centre-of-mass speed never exceeds what
//     falling from the start height can give (energy bound, ×SPEED_SLACK),
//     nor the angular speed what that energy can give about the smallest
//     principal axis: a body thrown by an overlap breaks these;
//   - at rest within 5 s (speeds under REST_LINEAR/REST_ANGULAR, or rolling
//     without slipping);
//   - alone: the lowest point of its colliders at rest is on the ground
//     within the height tolerance, and no vertex of its render meshes is
//     below the ground by more than it (colliders contain their meshes);
//   - whole: no collider below the ground by more than the height
//     tolerance at rest (bodies may rest on each other), and no body or
//     collider on or under a skinned mesh node.
// Static and kinematic bodies (and trimeshes) only have to load.
//
// Prints one line per file, engine and mode (PASS/FAIL with the reasons),
// writes a JSON summary to --json ({"files": {FILE: {ENGINE: {ok, bodies,
// failures, whole}}}}: ok, bodies and failures are the alone mode's, whole
// is {ok, failures, bodies, restTime, peakSpeed, worstPenetration, ...}),
// and exits 1 when anything failed (2 on usage errors). --engine-mass
// ignores the written mass properties and lets the engines compute them
// from the shapes (telling a mass problem from a shape one). --real-size
// simulates at the file's own lengths, as an engine's importer would,
// instead of at unit size (see dropAlone); the checks are the same.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadAsset, scaled } from './loader.mjs';
import { RapierWorld, JoltWorld, DENSITY } from './engines.mjs';
import { HavokWorld } from './havok.mjs';
import { bodySupport, bounds, hullProblems, lowestPoint, lowestY, massProblems } from './checks.mjs';
import { add, cross, len, quatRotate, sub } from './math.mjs';

const G = 9.81;
const MIN_STEPS = 180; // 3 s at 60 Hz
const MAX_STEPS = 300; // 5 s
const REST_WINDOW = 30; // 0.5 s at rest ends the run
const MAX_SUBSTEPS = 16;
// Drop height: a tenth of the body's (asset's) size, at most 5 cm.
const DROP_FRACTION = 0.1;
const DROP_MAX = 0.05;
const SPEED_SLACK = 1.5;
// Rest: at most the speed the body would reach falling 1% of its size, and
// at most the turn rate that moves its extremities at that speed. No
// engine here has rolling resistance, so a body that tipped over onto a
// rounded hull may still rock gently; an exploding, sliding or spinning
// body is far above these.
const REST_LINEAR = (size) => Math.sqrt(2 * G * 0.01 * size);
const REST_ANGULAR = (size) => REST_LINEAR(size) / (size / 2);
// Height tolerance: 2% of the body's size. Each body (asset) is simulated
// at unit size, where the engines settle about 1 mm (0.1%) into the
// ground; compounds of many hulls and rounded shapes resting on a point
// add up to about 1.6% in Jolt on the corpus. A wrong shape (a capsule on
// the wrong axis, a hull turned over) is off by tens of percent.
const HEIGHT_TOL = (size) => 0.02 * size;

const USAGE = 'usage: node drop-test.mjs [--json SUMMARY.json] [--engines rapier,jolt,havok] [--modes alone,whole] [--engine-mass] [--real-size] FILE...';
const MAKERS = { rapier: RapierWorld.create, jolt: JoltWorld.create, havok: HavokWorld.create };
// WORLD: engine settings of the drop test's worlds (the others ignore it).
// Jolt's speculative contact distance is 1 cm, half its default: Jolt
// documents that a large one gives ghost collisions (speculative contacts
// from closest points that are not where the shapes meet). At unit size,
// the default profile's ToyCar stands on its wheel hulls with seven
// chassis hulls 2.3-3.2% of its size above the ground; with 2 cm (and 2.5,
// 3, 4 cm) Jolt jittered it at 2.5-4.6 rad/s and sank it 2.4-3.4% of its
// size, with 1 or 1.5 cm it rests at once, 0.4-0.6% deep. (joints.mjs keeps
// Jolt's 2 cm: with 1 cm CesiumMan's ragdoll is not at rest after 5 s.)
const WORLD = { speculativeDistance: 0.01 };
const MODES = ['alone', 'whole'];

function usage(msg) {
  process.stderr.write(`drop-test: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let jsonOut = null;
let engineNames = Object.keys(MAKERS);
let modes = MODES;
let engineMass = false;
let realSize = false;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--json') jsonOut = args[++i] ?? usage('--json needs a file');
  else if (args[i] === '--engine-mass') engineMass = true;
  else if (args[i] === '--real-size') realSize = true;
  else if (args[i] === '--engines') engineNames = (args[++i] ?? usage('--engines needs a list')).split(',');
  else if (args[i] === '--modes') modes = (args[++i] ?? usage('--modes needs a list')).split(',');
  else if (args[i].startsWith('--')) usage(`unknown flag ${args[i]}`);
  else files.push(args[i]);
}
if (!files.length) usage('no files');
for (const e of engineNames) if (!MAKERS[e]) usage(`unknown engine ${e}`);
for (const m of modes) if (!MODES.includes(m)) usage(`unknown mode ${m}`);

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

// scaledMass is a mass at lengths × k: the centre of mass × k, inertia × k².
function scaledMass(mass, k) {
  const ex = mass?.explicit;
  if (!ex) return mass;
  return { explicit: { ...ex, com: ex.com.map((v) => v * k), inertiaDiagonal: ex.inertiaDiagonal.map((v) => v * k * k) } };
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

// dropped tells whether a body falls: dynamic, and not KHR's mass 0
// (infinite mass), which is loaded but not dropped.
function dropped(b) {
  return b.motion.type === 'dynamic' && !(b.family === 'khr' && b.motion.mass === 0);
}

function finite(s) {
  return [s.position, s.rotation, s.linvel, s.angvel].every((v) => v.every(Number.isFinite));
}

// substeps splits each 60 Hz frame so that gravity moves a body by at most
// 0.5% of its size per substep (g·dt² over the size), as games do for small
// objects (Jolt's collision steps). A 1 m body gets 1, a 10 cm one 3, a
// 1 cm one 8. Without them, thin 10 cm bodies (ToyCar's Fabric, SheenCloth)
// sink into or fall through the ground at 60 Hz: a limit of the time step,
// not of the shapes, which rest fine when substepped.
function substeps(size) {
  const dt = 1 / 60;
  return Math.min(MAX_SUBSTEPS, Math.max(1, Math.ceil(Math.sqrt((G * dt * dt) / (0.005 * size)))));
}

// A dropped body during a run: its engine handle, its checks' scales and
// its result record r.
function mover(b, handle, box, mass, fall) {
  // Angular bound from ½·I·ω² ≤ m·g·fall, with I/m ≥ the smallest
  // principal moment per mass (or, when the engine computes it, that of a
  // sphere of a tenth of the body's size).
  const ex = mass?.explicit;
  const iPerM = ex ? Math.min(...ex.inertiaDiagonal) / ex.mass : 0.4 * (0.05 * box.size) ** 2;
  return {
    b, handle, size: box.size,
    vmax: SPEED_SLACK * Math.sqrt(2 * G * fall),
    wmax: SPEED_SLACK * Math.sqrt((2 * G * fall) / iPerM),
    maxLin: 0, maxAng: 0, peakPen: 0, st: null,
  };
}

// atRest tells whether a body is at rest in state st: under the rest speeds,
// or rolling without slipping on the ground (its contact point still).
function atRest(d) {
  const { st, size, b } = d;
  if (len(st.linvel) <= REST_LINEAR(size) && len(st.angvel) <= REST_ANGULAR(size)) return 'rest';
  const p = lowestPoint(b.colliders, st.position, st.rotation);
  const contact = add(st.linvel, cross(st.angvel, sub(p, st.com)));
  d.contactSpeed = len(contact);
  if (len(contact) <= REST_LINEAR(size) && Math.abs(p[1]) <= HEIGHT_TOL(size)) return 'rolling';
  return null;
}

// run steps a world until every mover has been at rest for REST_WINDOW
// frames (at least MIN_STEPS, at most MAX_STEPS) and returns the time in
// seconds at which they came to rest, or null. States are scaled back by
// 1/k. fail is called for a NaN (the run stops).
function run(world, movers, k, n, fail) {
  let restSince = null;
  for (let s = 0; s < MAX_STEPS; s++) {
    world.step(n);
    let all = true;
    for (const d of movers) {
      const st = world.state(d.handle);
      d.st = { ...st, position: st.position.map((v) => v / k), linvel: st.linvel.map((v) => v / k), com: st.com.map((v) => v / k) };
      if (!finite(d.st)) {
        fail(d.b, `NaN in the state at step ${s}`);
        return null;
      }
      d.maxLin = Math.max(d.maxLin, len(d.st.linvel));
      d.maxAng = Math.max(d.maxAng, len(d.st.angvel));
      d.peakPen = Math.max(d.peakPen, -lowestY(d.b.colliders, d.st.position, d.st.rotation) / d.size);
      d.rest = atRest(d);
      if (!d.rest) all = false;
    }
    if (!all) restSince = null;
    else restSince ??= s;
    if (restSince !== null && s + 1 >= MIN_STEPS && s + 1 - restSince >= REST_WINDOW) return (restSince + 1) / 60;
  }
  return null;
}

// verdict checks a mover after the run and fills its result record r.
function verdict(d, r, restTime, fail) {
  const { st, size } = d;
  const low = lowestY(d.b.colliders, st.position, st.rotation);
  Object.assign(r, {
    maxSpeed: d.maxLin, speedBound: d.vmax,
    maxAngularSpeed: d.maxAng, angularBound: d.wmax,
    finalSpeed: len(st.linvel), finalAngularSpeed: len(st.angvel),
    restHeight: low, penetration: Math.max(0, -low) / size, peakPenetration: Math.max(0, d.peakPen),
    tolerance: HEIGHT_TOL(size),
  });
  if (d.rest === 'rolling') r.rolling = true;
  if (d.maxLin > d.vmax) fail(d.b, `thrown: speed ${d.maxLin.toPrecision(3)} m/s > bound ${d.vmax.toPrecision(3)}`);
  if (d.maxAng > d.wmax) fail(d.b, `thrown: angular speed ${d.maxAng.toPrecision(3)} rad/s > bound ${d.wmax.toPrecision(3)}`);
  if (restTime === null && !d.rest) {
    fail(d.b, `not at rest within 5 s: ${r.finalSpeed.toPrecision(3)} m/s, ${r.finalAngularSpeed.toPrecision(3)} rad/s (contact point ${(d.contactSpeed ?? 0).toPrecision(3)} m/s)`);
  }
  return low;
}

// massFigures records a dropped body's written mass and what the engine
// computes from its colliders at DENSITY (mass; with Havok, principal
// moments of inertia per unit mass, beside the written ones), scaled back
// from the simulation's lengths × k.
function massFigures(world, handle, b, r, k) {
  r.massWritten = b.motion.mass ?? null;
  r.collidersMass = world.collidersMass(handle) / k ** 3;
  const ipm = world.inertiaPerMass?.(handle);
  if (ipm) r.collidersInertiaPerMass = ipm.map((v) => v / (k * k));
  const d = b.motion.inertiaDiagonal;
  if (d && b.motion.mass > 0) r.inertiaPerMassWritten = d.map((v) => v / b.motion.mass);
}

// lateRest fails a run whose bodies are all at rest at its end but have
// not stayed so for REST_WINDOW frames (verdict fails the others).
function lateRest(movers, restTime, fail) {
  if (restTime === null && movers.every((d) => d.rest)) fail(movers[0].b, `came to rest only in the last ${REST_WINDOW / 60} s of ${MAX_STEPS / 60} s`);
}

// dropAlone builds one body in a world of its own, drops it when it is
// dynamic, and checks the result; failures go to fail.
//
// Each body is simulated at unit size: lengths × k = 1/size, gravity × k,
// inertia × k² (mass unchanged). That is an exact similarity (the same
// motion at the same times, every length and speed × k), and it makes the
// engines' absolute tolerances, tuned for objects about a metre across
// (Rapier's allowed error, Jolt's slop, speculative distance, 1 mm hull
// tolerance and sleep speed), mean the same for the corpus's 1 cm and
// 200 m bodies. Results are scaled back before they are checked.
async function dropAlone(engine, b, r, box, fail) {
  const dynamic = b.motion.type === 'dynamic';
  if (dynamic && !dropped(b)) r.note = 'KHR mass 0 (infinite): loaded, not dropped';
  const drop = dropped(b);
  const size = box.size;
  const k = realSize ? 1 : 1 / size;
  const world = await MAKERS[engine](G * k, WORLD);
  try {
    const mass = drop ? massOf(b) : null;
    // Start: file orientation, lowest collider point at the drop height.
    const h0 = Math.min(DROP_FRACTION * size, DROP_MAX);
    const y0 = h0 - lowestY(b.colliders, [0, 0, 0], b.rotation);
    const start = { colliders: b.colliders.map((c) => scaled(c, k)), position: (drop ? [0, y0, 0] : b.position).map((v) => v * k), rotation: b.rotation, mass: scaledMass(mass, k) };
    let handle;
    try {
      handle = world.add(start, drop ? 'dynamic' : 'loaded');
    } catch (e) {
      fail(b, e.message);
      return;
    }
    if (!drop) return;
    massFigures(world, handle, b, r, k);
    const d = mover(b, handle, box, mass, h0 + size);
    const n = substeps(size);
    r.substeps = n;
    const restTime = run(world, [d], k, n, fail);
    if (!d.st || !finite(d.st)) return;
    lateRest([d], restTime, fail);
    r.dropHeight = h0;
    r.restTime = restTime;
    const low = verdict(d, r, restTime, fail);
    const st = d.st;
    r.tipped = Math.abs(quatDot(st.rotation, b.rotation)) < Math.cos(0.1);
    const tol = HEIGHT_TOL(size);
    let renderLow = null;
    if (b.renderPoints.length) {
      renderLow = Infinity;
      const p = b.renderPoints;
      for (let i = 0; i < p.length; i += 3) renderLow = Math.min(renderLow, quatRotate(st.rotation, [p[i], p[i + 1], p[i + 2]])[1]);
      renderLow += st.position[1];
    }
    r.renderLowest = renderLow;
    if (Math.abs(low) > tol) fail(b, `rest height: lowest collider point at ${low.toPrecision(3)} m, ground at 0 (tolerance ${tol.toPrecision(3)})`);
    if (renderLow !== null && renderLow < -tol) fail(b, `render mesh ${(-renderLow).toPrecision(3)} m below the ground at rest: the colliders do not contain it (tolerance ${tol.toPrecision(3)})`);
  } finally {
    world.free();
  }
}

// worldBox is the world-space box of a body's colliders in its file pose.
function worldBox(b) {
  const axis = (i, s) => [0, 1, 2].map((j) => (i === j ? s : 0));
  const inv = [-b.rotation[0], -b.rotation[1], -b.rotation[2], b.rotation[3]];
  const lo = [0, 1, 2].map((i) => b.position[i] - bodySupport(b.colliders, quatRotate(inv, axis(i, -1))));
  const hi = [0, 1, 2].map((i) => b.position[i] + bodySupport(b.colliders, quatRotate(inv, axis(i, 1))));
  return { lo, hi };
}

// dropWhole drops every body of the asset at once, in their file poses:
// dynamic bodies fall and collide with each other, the others stay put.
// Each body is checked against its own size (rest speeds, height
// tolerance) and against the fall of the whole asset (speed bounds).
//
// The asset is scaled (an exact similarity, as in dropAlone) so that its
// smallest dropped body is at unit size, the size each body was dropped
// at alone, and the others are larger: no body is simulated smaller than
// the engines' tolerances allow. Scaling the whole asset to unit size
// instead made RecursiveSkeletons' 0.9 m columns (on towers 150 m across)
// 6 mm wide, about Rapier's 5 mm allowed error (0.21's default): Rapier threw the hull towers' base at 209 m/s and Havok kept
// the box towers sliding, where at this scale all three stand them still;
// and NegativeScaleTest's 1:1000 panels were 0.2 mm thick, a fifth of
// Jolt's 1 mm penetration slop, and sank 2-3% of their size.
async function dropWhole(engine, asset) {
  const failures = [];
  const fail = (b, msg) => failures.push(`${b.where} ${JSON.stringify(b.name)}: ${msg}`);
  const bodies = asset.bodies.filter((b) => b.colliders.length);
  const res = { ok: false, bodies: [], failures };
  if (!bodies.some(dropped)) {
    res.note = 'no dynamic body';
    res.ok = true;
    return res;
  }
  for (const b of bodies) for (const s of b.skinned) fail(b, `${s}: its colliders come loose from the body in engines that re-parent skinned meshes`);
  res.overlaps = asset.overlaps.map((o) => ({ bodies: [o.a.where, o.b.where], depth: o.depth, fraction: o.fraction }));
  for (const o of asset.overlaps) fail(o.a, `starts inside ${o.b.where} ${JSON.stringify(o.b.name)}: their colliders overlap by ${o.depth.toPrecision(3)} m (${pct(o.fraction)} of the smaller body's size)`);
  const boxes = bodies.map(worldBox);
  const lo = [0, 1, 2].map((i) => Math.min(...boxes.map((x) => x.lo[i])));
  const hi = [0, 1, 2].map((i) => Math.max(...boxes.map((x) => x.hi[i])));
  const size = len(sub(hi, lo));
  // Scale: the smallest dropped body at unit size, as it was alone (see
  // wholeScale).
  const k = realSize ? 1 : 1 / Math.min(...bodies.filter(dropped).map((b) => bounds(b.colliders).size));
  const h0 = Math.min(DROP_FRACTION * size, DROP_MAX);
  const shift = [-(lo[0] + hi[0]) / 2, h0 - lo[1], -(lo[2] + hi[2]) / 2];
  Object.assign(res, { size, dropHeight: h0 });
  const world = await MAKERS[engine](G * k, WORLD);
  try {
    const movers = [];
    for (const b of bodies) {
      const box = bounds(b.colliders);
      const r = { body: b.name, where: b.where, type: b.motion.type, colliders: b.colliders.length, size: box.size, massWritten: b.motion.mass ?? null };
      res.bodies.push(r);
      const drop = dropped(b);
      const mass = drop ? massOf(b) : null;
      const start = { colliders: b.colliders.map((c) => scaled(c, k)), position: add(b.position, shift).map((v) => v * k), rotation: b.rotation, mass: scaledMass(mass, k) };
      let handle;
      try {
        handle = world.add(start, drop ? 'dynamic' : 'fixed');
      } catch (e) {
        fail(b, e.message);
        return res;
      }
      if (!drop) continue;
      massFigures(world, handle, b, r, k);
      const d = mover(b, handle, box, mass, h0 + size);
      d.r = r;
      movers.push(d);
    }
    const n = substeps(Math.min(...movers.map((d) => d.size)));
    res.substeps = n;
    const restTime = run(world, movers, k, n, fail);
    res.restTime = restTime;
    if (movers.some((d) => !d.st || !finite(d.st))) return res;
    lateRest(movers, restTime, fail);
    for (const d of movers) {
      const low = verdict(d, d.r, restTime, fail);
      if (low < -HEIGHT_TOL(d.size)) fail(d.b, `lowest collider point ${(-low).toPrecision(3)} m below the ground at rest (tolerance ${HEIGHT_TOL(d.size).toPrecision(3)}, 2% of the body's size)`);
    }
    res.peakSpeed = Math.max(...movers.map((d) => d.maxLin));
    res.peakSpeedRatio = Math.max(...movers.map((d) => d.maxLin / d.vmax));
    res.worstPenetration = Math.max(...movers.map((d) => d.r.penetration));
  } finally {
    world.free();
    res.ok = failures.length === 0;
  }
  return res;
}

// startOverlaps finds the pairs of dynamic bodies whose colliders overlap
// in their file poses (bodies born inside each other), deeper than the
// height tolerance of the smaller one: Rapier's contact query, the same
// for every engine, on the asset scaled to unit size (Rapier's contact
// tolerances are absolute: on ToyCar's millimetre hulls it reports a 1.6 mm
// overlap between hulls 2 mm apart, and none at 100 times the size). An
// engine may push such bodies apart gently or throw them; either way the
// file asks for two solids in one place.
async function startOverlaps(asset) {
  const bodies = asset.bodies.filter((b) => b.colliders.length && dropped(b));
  const out = [];
  if (bodies.length < 2) return out;
  const boxes = bodies.map(worldBox);
  const lo = [0, 1, 2].map((i) => Math.min(...boxes.map((x) => x.lo[i])));
  const hi = [0, 1, 2].map((i) => Math.max(...boxes.map((x) => x.hi[i])));
  const k = 1 / len(sub(hi, lo));
  const world = await RapierWorld.create(0);
  try {
    const hs = bodies.map((b) => world.add({ colliders: b.colliders.map((c) => scaled(c, k)), position: b.position.map((v) => v * k), rotation: b.rotation }, 'loaded'));
    const sizes = bodies.map((b) => bounds(b.colliders).size);
    for (let i = 0; i < bodies.length; i++) {
      for (let j = i + 1; j < bodies.length; j++) {
        const depth = world.penetration(hs[i], hs[j]) / k;
        const small = Math.min(sizes[i], sizes[j]);
        if (depth > HEIGHT_TOL(small)) out.push({ a: bodies[i], b: bodies[j], depth, fraction: depth / small });
      }
    }
  } finally {
    world.free();
  }
  return out;
}

async function runAlone(engine, asset) {
  const results = [];
  const failures = [];
  const fail = (b, msg) => failures.push(`${b.where} ${JSON.stringify(b.name)}: ${msg}`);
  for (const b of asset.bodies) {
    if (!b.colliders.length) continue;
    const box = bounds(b.colliders);
    const r = { body: b.name, where: b.where, type: b.motion.type, colliders: b.colliders.length, shapes: [...new Set(b.colliders.map((c) => c.type))].sort(), size: box.size };
    if (b.motion.type === 'dynamic') r.massWritten = b.motion.mass ?? null;
    if (b.notes.length) r.notes = b.notes;
    results.push(r);
    for (const p of staticProblems(b, box)) fail(b, p);
    await dropAlone(engine, b, r, box, fail);
  }
  return { ok: failures.length === 0, bodies: results, failures };
}

function quatDot(a, b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

function pct(v) {
  return `${(100 * v).toFixed(2)}%`;
}

const summary = { engines: engineNames, modes, realSize, density: DENSITY, files: {} };
let failed = 0;
const report = (ok, engine, mode, file, info, failures) => {
  if (ok) process.stdout.write(`PASS ${engine} ${mode} ${path.basename(file)}: ${info}\n`);
  else {
    failed++;
    process.stdout.write(`FAIL ${engine} ${mode} ${file}: ${info}\n${failures.map((f) => `    ${f}\n`).join('')}`);
  }
};
for (const file of files) {
  const entry = {};
  summary.files[file] = entry;
  let asset;
  try {
    asset = loadAsset(file);
  } catch (e) {
    for (const engine of engineNames) {
      entry[engine] = { ok: false, bodies: [], failures: [`load: ${e.message}`] };
      report(false, engine, 'load', file, `load: ${e.message}`, []);
    }
    continue;
  }
  if (modes.includes('whole')) {
    try {
      asset.overlaps = await startOverlaps(asset);
    } catch (e) {
      asset.overlaps = [];
      for (const engine of engineNames) report(false, engine, 'overlaps', file, `${e.stack ?? e}`, []);
    }
  }
  for (const engine of engineNames) {
    const attempt = async (f) => {
      try {
        return await f(engine, asset);
      } catch (e) {
        return { ok: false, bodies: [], failures: [`${engine}: ${e.stack ?? e}`] };
      }
    };
    const res = modes.includes('alone') ? await attempt(runAlone) : { ok: true, bodies: [], failures: [] };
    entry[engine] = res;
    if (modes.includes('alone')) {
      const dyn = res.bodies.filter((b) => b.restHeight !== undefined);
      const worst = dyn.reduce((m, b) => Math.max(m, Math.abs(b.restHeight) / b.size), 0);
      const rest = dyn.reduce((m, b) => Math.max(m, b.restTime ?? Infinity), 0);
      const count = (f) => dyn.filter(f).length;
      const extra = [[count((b) => b.tipped), 'tipped over'], [count((b) => b.rolling), 'rolling']].filter(([n]) => n).map(([n, w]) => `, ${n} ${w}`).join('');
      report(res.ok, engine, 'alone', file, `${res.bodies.length} bodies (${dyn.length} dropped${extra}), worst rest height ${pct(worst)} of size, at rest by ${rest.toFixed(2)} s`, res.failures);
    }
    if (modes.includes('whole')) {
      const w = await attempt(dropWhole);
      res.whole = w;
      const info = w.note ?? `${w.bodies.length} bodies at once, at rest ${w.restTime == null ? 'never' : `at ${w.restTime.toFixed(2)} s`}, peak speed ${pct(w.peakSpeedRatio ?? 0)} of bound, worst penetration ${pct(w.worstPenetration ?? 0)} of size`;
      report(w.ok, engine, 'whole', file, info, w.failures);
    }
  }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(summary, null, 1));
process.exit(failed ? 1 : 0);
