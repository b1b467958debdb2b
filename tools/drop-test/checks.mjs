// Engine-independent geometry for the drop test: support functions of the
// collider shapes (for heights and sizes) and the validity of hull meshes.
import { sub, cross, dot, len, quatRotate } from './math.mjs';

const inv = (q) => [-q[0], -q[1], -q[2], q[3]];

// support returns max over the collider's points x of x·d, with d and the
// result in body space.
export function support(c, d) {
  if (c.points) {
    let m = -Infinity;
    for (let i = 0; i < c.points.length; i += 3) m = Math.max(m, c.points[i] * d[0] + c.points[i + 1] * d[1] + c.points[i + 2] * d[2]);
    return m;
  }
  const l = quatRotate(inv(c.rotation), d); // d in the collider's frame
  const n = len(l);
  let s;
  switch (c.type) {
    case 'sphere': s = c.radius * n; break;
    case 'box': s = (Math.abs(l[0]) * c.size[0] + Math.abs(l[1]) * c.size[1] + Math.abs(l[2]) * c.size[2]) / 2; break;
    case 'capsule': s = Math.max(c.height / 2 * l[1] + c.radiusTop * n, -c.height / 2 * l[1] + c.radiusBottom * n); break;
    case 'cylinder': {
      const r = Math.hypot(l[0], l[2]);
      s = Math.max(c.height / 2 * l[1] + c.radiusTop * r, -c.height / 2 * l[1] + c.radiusBottom * r);
      break;
    }
    default: throw new Error(`unknown shape ${c.type}`);
  }
  return dot(c.position, d) + s;
}

// supportPoint returns a point of the collider farthest along d (body
// space).
export function supportPoint(c, d) {
  if (c.points) {
    let best = -Infinity;
    let p = null;
    for (let i = 0; i < c.points.length; i += 3) {
      const v = c.points[i] * d[0] + c.points[i + 1] * d[1] + c.points[i + 2] * d[2];
      if (v > best) [best, p] = [v, [c.points[i], c.points[i + 1], c.points[i + 2]]];
    }
    return p;
  }
  const l = quatRotate(inv(c.rotation), d);
  const n = len(l) || 1;
  const u = l.map((v) => v / n);
  let p;
  switch (c.type) {
    case 'sphere': p = u.map((v) => v * c.radius); break;
    case 'box': p = l.map((v, i) => (Math.sign(v) * c.size[i]) / 2); break;
    case 'capsule': {
      const top = c.height / 2 * l[1] + c.radiusTop * n >= -c.height / 2 * l[1] + c.radiusBottom * n;
      const [y, r] = top ? [c.height / 2, c.radiusTop] : [-c.height / 2, c.radiusBottom];
      p = [u[0] * r, y + u[1] * r, u[2] * r];
      break;
    }
    case 'cylinder': {
      const h = Math.hypot(l[0], l[2]);
      const top = c.height / 2 * l[1] + c.radiusTop * h >= -c.height / 2 * l[1] + c.radiusBottom * h;
      const [y, r] = top ? [c.height / 2, c.radiusTop] : [-c.height / 2, c.radiusBottom];
      p = h > 0 ? [(l[0] / h) * r, y, (l[2] / h) * r] : [0, y, 0];
      break;
    }
    default: throw new Error(`unknown shape ${c.type}`);
  }
  const w = quatRotate(c.rotation, p);
  return [w[0] + c.position[0], w[1] + c.position[1], w[2] + c.position[2]];
}

// lowestPoint is the world position of a body's lowest collider point when
// its frame is at position p with rotation q.
export function lowestPoint(colliders, p, q) {
  const d = quatRotate(inv(q), [0, -1, 0]);
  let best = colliders[0];
  for (const c of colliders) if (support(c, d) > support(best, d)) best = c;
  const x = quatRotate(q, supportPoint(best, d));
  return [x[0] + p[0], x[1] + p[1], x[2] + p[2]];
}

// bodySupport is the support of every collider of a body.
export function bodySupport(colliders, d) {
  return Math.max(...colliders.map((c) => support(c, d)));
}

// lowestY is the world height of a body's lowest collider point when its
// frame is at position p with rotation q.
export function lowestY(colliders, p, q) {
  return p[1] - bodySupport(colliders, quatRotate(inv(q), [0, -1, 0]));
}

// bounds returns the body-space box of the colliders and its diagonal.
export function bounds(colliders) {
  const lo = [0, 1, 2].map((i) => -bodySupport(colliders, [0, 1, 2].map((j) => (i === j ? -1 : 0))));
  const hi = [0, 1, 2].map((i) => bodySupport(colliders, [0, 1, 2].map((j) => (i === j ? 1 : 0))));
  return { lo, hi, size: len(sub(hi, lo)) };
}

// JOLT_MAX_HULL_POINTS is Jolt's ConvexHullShape::cMaxPointsInHull.
export const JOLT_MAX_HULL_POINTS = 256;

// hullProblems checks a hull autocollide generated (marked in extras) as
// written: at most 256 distinct points (Jolt's limit), a closed mesh with every edge shared by two triangles
// in opposite directions, outward winding (positive signed volume), convex
// (every point behind every face plane) and a volume that is not zero.
// It returns a list of reasons, empty when the hull is sound.
export function hullProblems(c, size) {
  // Not ours: the engines build the hull of the points themselves (and
  // report a hull over their limits or without volume).
  if (!c.generated) return [];
  const out = [];
  const P = (i) => [c.points[3 * i], c.points[3 * i + 1], c.points[3 * i + 2]];
  const distinct = new Set();
  for (let i = 0; i < c.points.length; i += 3) distinct.add(`${c.points[i]},${c.points[i + 1]},${c.points[i + 2]}`);
  if (distinct.size > JOLT_MAX_HULL_POINTS) out.push(`${distinct.size} points, over Jolt's ${JOLT_MAX_HULL_POINTS}`);
  if (c.indices.length < 12) return [...out, `${c.indices.length / 3} triangles, not a closed hull`];
  // Weld by position so that split vertices do not read as open edges.
  const ids = new Map();
  const weld = (i) => {
    const k = `${c.points[3 * i]},${c.points[3 * i + 1]},${c.points[3 * i + 2]}`;
    if (!ids.has(k)) ids.set(k, i);
    return ids.get(k);
  };
  const edges = new Map();
  let vol = 0;
  for (let t = 0; t < c.indices.length; t += 3) {
    const [a, b, d] = [weld(c.indices[t]), weld(c.indices[t + 1]), weld(c.indices[t + 2])];
    for (const [u, v] of [[a, b], [b, d], [d, a]]) edges.set(`${u}>${v}`, (edges.get(`${u}>${v}`) ?? 0) + 1);
    vol += dot(P(a), cross(P(b), P(d))) / 6;
  }
  let open = 0;
  for (const [k, n] of edges) {
    const [u, v] = k.split('>');
    if (n !== 1 || edges.get(`${v}>${u}`) !== 1) open++;
  }
  if (open) out.push(`${open} edges not shared by exactly two opposite triangles (open or inconsistent winding)`);
  const minVol = 1e-9 * size ** 3;
  if (vol < -minVol) out.push(`signed volume ${vol.toPrecision(3)} m³ < 0: inward winding (turned inside out)`);
  else if (Math.abs(vol) <= minVol) out.push(`volume ${vol.toPrecision(3)} m³ is zero (flat hull)`);
  else {
    // Convexity: with outward winding, no point lies in front of a face.
    const tol = 1e-5 * size;
    let worst = 0;
    for (let t = 0; t < c.indices.length; t += 3) {
      const a = P(c.indices[t]);
      const n = cross(sub(P(c.indices[t + 1]), a), sub(P(c.indices[t + 2]), a));
      const nl = len(n);
      if (nl < 1e-12 * size * size) continue;
      for (let i = 0; i < c.points.length / 3; i++) worst = Math.max(worst, dot(sub(P(i), a), n) / nl);
    }
    if (worst > tol) out.push(`not convex: a point lies ${worst.toPrecision(3)} m in front of a face`);
  }
  return out;
}

// massProblems checks the written mass properties: positive finite mass,
// positive inertia that satisfies the triangle inequality of a real body,
// a unit inertia orientation, and a centre of mass inside the colliders'
// bounding box.
export function massProblems(m, box) {
  const out = [];
  const finite = (v) => (Array.isArray(v) ? v.every(Number.isFinite) : Number.isFinite(v));
  if (m.mass !== null && (!finite(m.mass) || m.mass < 0)) out.push(`mass ${m.mass} is not a finite non-negative number`);
  if (m.inertiaDiagonal) {
    const d = m.inertiaDiagonal;
    if (!finite(d) || d.some((v) => v < 0)) out.push(`inertiaDiagonal ${JSON.stringify(d)} has a negative or non-finite value`);
    else if (d.every((v) => v > 0)) {
      const [a, b, c] = d;
      const slack = 1e-6 * (a + b + c);
      if (a + b < c - slack || a + c < b - slack || b + c < a - slack) out.push(`inertiaDiagonal ${JSON.stringify(d)} violates the triangle inequality (no real body has it)`);
    }
  }
  const q = m.inertiaOrientation;
  if (!finite(q) || Math.abs(Math.hypot(...q) - 1) > 1e-3) out.push(`inertiaOrientation ${JSON.stringify(q)} is not a unit quaternion`);
  if (m.com) {
    if (!finite(m.com)) out.push(`centerOfMass ${JSON.stringify(m.com)} is not finite`);
    else {
      const slack = 1e-3 * box.size;
      if (m.com.some((v, i) => v < box.lo[i] - slack || v > box.hi[i] + slack)) out.push(`centerOfMass ${JSON.stringify(m.com)} lies outside the colliders' bounds`);
    }
  }
  return out;
}


