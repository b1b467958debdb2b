// One pile of the simulation-cost benchmark: N copies of an asset's
// colliders dropped into a walled box in one engine, timing every step.
//
//   node pile.mjs --engine jolt|rapier [--n 64] [--steps 300] [--max-steps 900]
//                 [--unit L] [--center x,y,z] [--seed 1] FILE
//
// FILE is a glTF/GLB with OMI or KHR physics, read by the drop test's
// loader. Every collider of every body of the file (static ones included)
// becomes one rigid compound per copy, in the file's world frame: what a
// game pays for the asset's collision, whatever its body layout. Lengths
// are divided by --unit (the asset mesh's bounding-box diagonal, so every
// collider set of the same asset gets the same scale: the mesh is 1 m
// across, the size the engines are tuned for) about --center (the mesh's
// box centre, so the copies are placed the same way for every set). Mass
// is the engine's own from the colliders at 1000 kg/m³, the same rule for
// every set (peers' files carry no mass).
//
// The copies start on a grid of cells CELL m wide, ceil(cbrt(N)) a side
// and as many layers as needed, each turned by a seeded random rotation
// (the same rotations for every file at the same seed), inside four walls
// around the grid's footprint on the engines' ground plane. Frames are
// 1/60 s, one engine step each. Prints one JSON object: the median, mean
// and 90th percentile of the wall time (stepMs) and of the process's CPU
// time (stepCpuMs, user + system: what a loaded machine disturbs least)
// of the first --steps steps (ms) and of the CPU time of the steps before
// rest (activeCpuMs: after rest the engines' sleeping bodies cost almost
// nothing, so a pile at rest early has a tiny median over --steps),
// the time to rest (s: the start of the first REST_WINDOW frames during
// which every copy moves slower than REST_LINEAR and turns slower than
// REST_ANGULAR; null when that is not reached within --max-steps), and the
// copies that left the box (a pile that exploded).
import path from 'node:path';
import { loadAsset, scaled } from '../drop-test/loader.mjs';
import { RapierWorld, JoltWorld } from '../drop-test/engines.mjs';
import { add, len, quatMul, quatRotate, sub } from '../drop-test/math.mjs';

const G = 9.81;
const CELL = 1.25; // m; the mesh is 1 m across (its diagonal)
const WALL = 0.2; // wall thickness, m
const REST_WINDOW = 30; // frames
const REST_LINEAR = 0.05; // m/s
const REST_ANGULAR = 0.1; // rad/s
// WORLD: Jolt's settings as in the drop test (speculative contact distance 1 cm).
const WORLD = { speculativeDistance: 0.01 };
const MAKERS = { rapier: RapierWorld.create, jolt: JoltWorld.create };
const USAGE = 'usage: node pile.mjs --engine jolt|rapier [--n 64] [--steps 300] [--max-steps 900] [--unit L] [--center x,y,z] [--seed 1] FILE';

function usage(msg) {
  process.stderr.write(`pile: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { engine: null, n: 64, steps: 300, maxSteps: 900, unit: 1, center: [0, 0, 0], seed: 1, file: null };
  const num = (i, name) => {
    const v = Number(argv[i]);
    if (!Number.isFinite(v)) usage(`${name} needs a number`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--engine') o.engine = argv[++i];
    else if (a === '--n') o.n = num(++i, a);
    else if (a === '--steps') o.steps = num(++i, a);
    else if (a === '--max-steps') o.maxSteps = num(++i, a);
    else if (a === '--unit') o.unit = num(++i, a);
    else if (a === '--seed') o.seed = num(++i, a);
    else if (a === '--center') {
      o.center = (argv[++i] ?? '').split(',').map(Number);
      if (o.center.length !== 3 || !o.center.every(Number.isFinite)) usage('--center needs x,y,z');
    } else if (a.startsWith('--')) usage(`unknown flag ${a}`);
    else if (o.file) usage('one file only');
    else o.file = a;
  }
  if (!MAKERS[o.engine]) usage(`--engine must be one of ${Object.keys(MAKERS).join(', ')}`);
  if (!o.file) usage('no file');
  if (!(o.n >= 1 && o.steps >= 1 && o.unit > 0)) usage('--n, --steps and --unit must be positive');
  o.maxSteps = Math.max(o.maxSteps, o.steps);
  return o;
}

// assetColliders returns every collider of the file in its world frame,
// scaled by 1/unit about center.
export function assetColliders(file, unit, center) {
  const asset = loadAsset(file);
  const out = [];
  for (const b of asset.bodies) {
    for (const c of b.colliders) {
      const w = { ...c, position: add(b.position, quatRotate(b.rotation, c.position)), rotation: quatMul(b.rotation, c.rotation) };
      if (c.points) {
        w.points = [];
        for (let i = 0; i < c.points.length; i += 3) w.points.push(...add(b.position, quatRotate(b.rotation, [c.points[i], c.points[i + 1], c.points[i + 2]])));
      }
      const s = scaled({ ...w, position: sub(w.position, center), points: w.points && shift(w.points, center) }, 1 / unit);
      if (!s.points) delete s.points;
      out.push(s);
    }
  }
  if (!out.length) throw new Error(`${file}: no colliders`);
  return out;
}

function shift(points, center) {
  const out = new Array(points.length);
  for (let i = 0; i < points.length; i++) out[i] = points[i] - center[i % 3];
  return out;
}

// reach is the radius about the origin of a sphere holding the collider.
function reach(c) {
  if (c.points) {
    let r = 0;
    for (let i = 0; i < c.points.length; i += 3) r = Math.max(r, Math.hypot(c.points[i], c.points[i + 1], c.points[i + 2]));
    return r;
  }
  const d = len(c.position);
  switch (c.type) {
    case 'sphere': return d + c.radius;
    case 'box': return d + len(c.size) / 2;
    case 'capsule': return d + c.height / 2 + Math.max(c.radiusTop, c.radiusBottom);
    default: return d + Math.hypot(c.height / 2, Math.max(c.radiusTop, c.radiusBottom));
  }
}

// mulberry32 is a small seeded PRNG (the same rotations on every platform).
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// randomRotation is a uniform random unit quaternion (Shoemake).
function randomRotation(rnd) {
  const [u1, u2, u3] = [rnd(), rnd(), rnd()];
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return [a * Math.sin(2 * Math.PI * u2), a * Math.cos(2 * Math.PI * u2), b * Math.sin(2 * Math.PI * u3), b * Math.cos(2 * Math.PI * u3)];
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

// runPile builds the pile in one engine and runs it; see the file comment.
export async function runPile(o) {
  const colliders = assetColliders(o.file, o.unit, o.center);
  const r = Math.max(...colliders.map(reach));
  // A collider set reaching beyond its cell would start inside its
  // neighbour: its cells grow (the layout then differs, said in cell).
  const cell = Math.max(CELL, 2 * r * 1.02);
  const side = Math.ceil(Math.cbrt(o.n));
  const layers = Math.ceil(o.n / (side * side));
  const width = side * cell;
  const world = await MAKERS[o.engine](G, WORLD);
  try {
    const wallH = layers * cell + 1;
    const walls = [
      [[width / 2 + WALL / 2, wallH / 2, 0], [WALL, wallH, width + 2 * WALL]],
      [[-width / 2 - WALL / 2, wallH / 2, 0], [WALL, wallH, width + 2 * WALL]],
      [[0, wallH / 2, width / 2 + WALL / 2], [width, wallH, WALL]],
      [[0, wallH / 2, -width / 2 - WALL / 2], [width, wallH, WALL]],
    ];
    for (const [p, size] of walls) {
      world.add({ colliders: [{ type: 'box', size, position: [0, 0, 0], rotation: [0, 0, 0, 1], where: 'wall' }], position: p, rotation: [0, 0, 0, 1], mass: null }, 'fixed');
    }
    const rnd = mulberry32(o.seed);
    const handles = [];
    for (let i = 0; i < o.n; i++) {
      const layer = Math.floor(i / (side * side));
      const k = i % (side * side);
      const pos = [(-width + cell) / 2 + (k % side) * cell, 0.05 + cell / 2 + layer * cell, (-width + cell) / 2 + Math.floor(k / side) * cell];
      handles.push(world.add({ colliders, position: pos, rotation: randomRotation(rnd), mass: { computed: null } }, 'dynamic'));
    }
    const times = [];
    const cpus = [];
    let still = 0;
    let restTime = null;
    let frames = 0;
    for (let f = 0; f < o.maxSteps; f++) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      world.step(1);
      const dt = Number(process.hrtime.bigint() - t0) / 1e6;
      const dc = process.cpuUsage(c0);
      frames = f + 1;
      if (f < o.steps) {
        times.push(dt);
        cpus.push((dc.user + dc.system) / 1e3);
      }
      if (restTime === null) {
        const resting = handles.every((h) => {
          const s = world.state(h);
          return len(s.linvel) < REST_LINEAR && len(s.angvel) < REST_ANGULAR;
        });
        still = resting ? still + 1 : 0;
        if (still >= REST_WINDOW) restTime = (f + 1 - REST_WINDOW) / 60;
      }
      if (f + 1 >= o.steps && restTime !== null) break;
    }
    let escaped = 0;
    for (const h of handles) {
      const p = world.state(h).position;
      if (!p.every(Number.isFinite) || Math.abs(p[0]) > width / 2 + 1 || Math.abs(p[2]) > width / 2 + 1 || p[1] < -1) escaped++;
    }
    const stats = (xs) => {
      const sorted = [...xs].sort((a, b) => a - b);
      // The mean leaves out the first step (the engines' lazy set-up and
      // the WASM warm-up: up to 100x a later step).
      const rest = xs.length > 1 ? xs.slice(1) : xs;
      return { median: percentile(sorted, 0.5), mean: rest.reduce((s, t) => s + t, 0) / rest.length, p90: percentile(sorted, 0.9) };
    };
    return {
      file: o.file,
      engine: o.engine,
      n: o.n,
      colliders: colliders.length,
      shapes: Object.fromEntries([...new Set(colliders.map((c) => c.type))].map((t) => [t, colliders.filter((c) => c.type === t).length])),
      hullPoints: colliders.reduce((s, c) => s + (c.points ? c.points.length / 3 : 0), 0),
      cell,
      steps: times.length,
      frames,
      stepMs: stats(times),
      stepCpuMs: stats(cpus),
      // activeCpuMs: the steps before rest began (all of the first
      // --steps when the pile is not at rest by then): what a moving pile
      // costs, apart from the engines' sleeping bodies after rest.
      activeCpuMs: stats(cpus.slice(0, restTime === null ? cpus.length : Math.max(1, Math.min(cpus.length, Math.round(restTime * 60))))),
      restTime,
      escaped,
    };
  } finally {
    world.free();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const o = parseArgs(process.argv.slice(2));
  try {
    process.stdout.write(JSON.stringify(await runPile(o)) + '\n');
  } catch (e) {
    process.stderr.write(`pile: ${o.file}: ${e.message}\n`);
    process.exit(1);
  }
}
