// A small glTF/GLB physics loader written from the specifications in
// ../shared/specs: OMI_physics_shape + OMI_physics_body and
// KHR_implicit_shapes + KHR_physics_rigid_bodies (geometry.mesh and the
// older geometry.node). It reads what an engine importer needs: bodies with
// their motion as written, and every collider expressed in its body's frame
// (the body node's world rotation and translation; scale is baked into the
// shapes). Anything it cannot read is thrown as an Error naming the JSON path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mat4Identity, mat4Mul, mat4FromTRS, mat4Point, mat4InverseRT, decompose } from './math.mjs';

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const READERS = {
  5120: [1, (dv, o) => dv.getInt8(o), 127],
  5121: [1, (dv, o) => dv.getUint8(o), 255],
  5122: [2, (dv, o) => dv.getInt16(o, true), 32767],
  5123: [2, (dv, o) => dv.getUint16(o, true), 65535],
  5125: [4, (dv, o) => dv.getUint32(o, true), 4294967295],
  5126: [4, (dv, o) => dv.getFloat32(o, true), 1],
};

// readDocument parses a .gltf or .glb file and resolves its buffers.
export function readDocument(file) {
  const bytes = readFileSync(file);
  let doc;
  let bin = null;
  if (bytes.length >= 12 && bytes.readUInt32LE(0) === 0x46546c67) {
    let off = 12;
    while (off + 8 <= bytes.length) {
      const n = bytes.readUInt32LE(off);
      const type = bytes.readUInt32LE(off + 4);
      const chunk = bytes.subarray(off + 8, off + 8 + n);
      if (type === 0x4e4f534a) doc = JSON.parse(chunk.toString('utf8'));
      else if (type === 0x004e4942) bin = chunk;
      off += 8 + n;
    }
    if (!doc) throw new Error('GLB without a JSON chunk');
  } else {
    doc = JSON.parse(bytes.toString('utf8'));
  }
  const dir = path.dirname(file);
  const buffers = (doc.buffers ?? []).map((b, i) => {
    if (b.uri === undefined) return bin;
    if (b.uri.startsWith('data:')) return Buffer.from(b.uri.slice(b.uri.indexOf(',') + 1), 'base64');
    try {
      return readFileSync(path.join(dir, decodeURIComponent(b.uri)));
    } catch (e) {
      throw new Error(`buffers[${i}]: ${e.message}`);
    }
  });
  return { doc, buffers };
}

// readAccessor returns an accessor's values as a flat Float64Array
// (normalized integers mapped to [-1, 1] / [0, 1]), sparse values applied.
export function readAccessor({ doc, buffers }, index) {
  const where = `accessors[${index}]`;
  const acc = doc.accessors?.[index];
  if (!acc) throw new Error(`${where}: missing`);
  const nc = COMPONENTS[acc.type];
  const rd = READERS[acc.componentType];
  if (!nc || !rd) throw new Error(`${where}: unsupported type ${acc.type}/${acc.componentType}`);
  const [size, get, max] = rd;
  const norm = acc.normalized && acc.componentType !== 5126;
  const conv = (v) => (norm ? Math.max(v / max, -1) : v);
  const out = new Float64Array(acc.count * nc);
  if (acc.bufferView !== undefined) {
    const { dv, stride } = view({ doc, buffers }, acc.bufferView, where);
    const st = stride || size * nc;
    const base = acc.byteOffset ?? 0;
    if (base + st * (acc.count - 1) + size * nc > dv.byteLength) throw new Error(`${where}: data past its bufferView`);
    for (let i = 0; i < acc.count; i++) {
      for (let c = 0; c < nc; c++) out[i * nc + c] = conv(get(dv, base + i * st + c * size));
    }
  }
  if (acc.sparse) {
    const sp = acc.sparse;
    const ir = READERS[sp.indices.componentType];
    const iv = view({ doc, buffers }, sp.indices.bufferView, `${where}.sparse.indices`).dv;
    const vv = view({ doc, buffers }, sp.values.bufferView, `${where}.sparse.values`).dv;
    for (let k = 0; k < sp.count; k++) {
      const i = ir[1](iv, (sp.indices.byteOffset ?? 0) + k * ir[0]);
      for (let c = 0; c < nc; c++) out[i * nc + c] = conv(get(vv, (sp.values.byteOffset ?? 0) + (k * nc + c) * size));
    }
  }
  return out;
}

function view({ doc, buffers }, index, where) {
  const bv = doc.bufferViews?.[index];
  if (!bv) throw new Error(`${where}: bufferViews[${index}] missing`);
  if (bv.extensions?.EXT_meshopt_compression) throw new Error(`${where}: EXT_meshopt_compression data is not decoded by the drop test`);
  const buf = buffers[bv.buffer];
  if (!buf) throw new Error(`${where}: buffers[${bv.buffer}] has no data`);
  const off = bv.byteOffset ?? 0;
  if (off + bv.byteLength > buf.length) throw new Error(`${where}: bufferViews[${index}] past its buffer`);
  return { dv: new DataView(buf.buffer, buf.byteOffset + off, bv.byteLength), stride: bv.byteStride };
}

// meshTriangles returns a mesh's triangle primitives as points (flat
// [x,y,z,...]) and triangle indices, every primitive appended.
export function meshTriangles(gl, meshIndex, where) {
  const mesh = gl.doc.meshes?.[meshIndex];
  if (!mesh) throw new Error(`${where}: meshes[${meshIndex}] missing`);
  const points = [];
  const indices = [];
  mesh.primitives.forEach((p, pi) => {
    const pw = `${where}: meshes[${meshIndex}].primitives[${pi}]`;
    if (p.attributes?.POSITION === undefined) throw new Error(`${pw}: no POSITION`);
    const mode = p.mode ?? 4;
    const pos = readAccessor(gl, p.attributes.POSITION);
    const n = pos.length / 3;
    const base = points.length / 3;
    for (const v of pos) points.push(v);
    const idx = p.indices !== undefined ? readAccessor(gl, p.indices) : Float64Array.from({ length: n }, (_, i) => i);
    for (const i of idx) if (i >= n) throw new Error(`${pw}: index ${i} out of range`);
    if (mode === 4) {
      for (let i = 0; i + 2 < idx.length; i += 3) indices.push(base + idx[i], base + idx[i + 1], base + idx[i + 2]);
    } else if (mode === 5) {
      for (let i = 0; i + 2 < idx.length; i++) {
        if (i % 2 === 0) indices.push(base + idx[i], base + idx[i + 1], base + idx[i + 2]);
        else indices.push(base + idx[i + 1], base + idx[i], base + idx[i + 2]);
      }
    } else if (mode === 6) {
      for (let i = 1; i + 1 < idx.length; i++) indices.push(base + idx[0], base + idx[i], base + idx[i + 1]);
    }
  });
  return { points, indices };
}

function localMatrix(node) {
  if (node.matrix) return node.matrix.slice();
  return mat4FromTRS(node.translation ?? [0, 0, 0], node.rotation ?? [0, 0, 0, 1], node.scale ?? [1, 1, 1]);
}

// physicsOf returns a node's physics object and its family, or null.
function physicsOf(node) {
  const e = node.extensions ?? {};
  if (e.OMI_physics_body) return { family: 'omi', ext: e.OMI_physics_body };
  if (e.KHR_physics_rigid_bodies) return { family: 'khr', ext: e.KHR_physics_rigid_bodies };
  return null;
}

// motionOf returns {type, mass, com, inertiaDiagonal, inertiaOrientation}
// with the family's defaults, or null when the node has no motion.
function motionOf(ph) {
  const m = ph?.ext.motion;
  if (!m) return null;
  if (ph.family === 'omi') {
    return {
      type: m.type,
      mass: m.mass ?? 1,
      com: m.centerOfMass ?? null,
      inertiaDiagonal: m.inertiaDiagonal ?? null,
      inertiaOrientation: m.inertiaOrientation ?? [0, 0, 0, 1],
    };
  }
  return {
    type: m.isKinematic ? 'kinematic' : 'dynamic',
    mass: m.mass ?? null, // absent: the engine computes it; 0: infinite
    com: m.centerOfMass ?? null,
    inertiaDiagonal: m.inertiaDiagonal ?? null,
    inertiaOrientation: m.inertiaOrientation ?? [0, 0, 0, 1],
  };
}

// shapeOf resolves a collider to {type, ...parameters} or a mesh
// reference {type: 'convex'|'trimesh', meshes: [{mesh, matrix}]}.
function shapeOf(gl, ph, where) {
  const { doc } = gl;
  const c = ph.ext.collider;
  if (ph.family === 'omi') {
    if (c.shape === undefined || c.shape === -1) return null;
    const s = doc.extensions?.OMI_physics_shape?.shapes?.[c.shape];
    if (!s) throw new Error(`${where}.collider.shape: OMI_physics_shape shapes[${c.shape}] missing`);
    const sw = `extensions.OMI_physics_shape.shapes[${c.shape}]`;
    const p = s[s.type] ?? {};
    switch (s.type) {
      case 'box': return { type: 'box', size: p.size ?? [1, 1, 1], where: sw };
      case 'sphere': return { type: 'sphere', radius: p.radius ?? 0.5, where: sw };
      case 'capsule': return { type: 'capsule', height: p.height ?? 1, radiusTop: p.radiusTop ?? 0.5, radiusBottom: p.radiusBottom ?? 0.5, where: sw };
      case 'cylinder': return { type: 'cylinder', height: p.height ?? 2, radiusTop: p.radiusTop ?? 0.5, radiusBottom: p.radiusBottom ?? 0.5, where: sw };
      case 'convex':
      case 'trimesh':
        if (p.mesh === undefined || p.mesh < 0) throw new Error(`${sw}.${s.type}.mesh: missing`);
        return { type: s.type, meshes: [{ mesh: p.mesh, matrix: mat4Identity() }], where: sw };
      default: throw new Error(`${sw}.type: unsupported ${JSON.stringify(s.type)}`);
    }
  }
  const g = c.geometry;
  if (!g) throw new Error(`${where}.collider.geometry: missing`);
  if (g.shape !== undefined) {
    const s = doc.extensions?.KHR_implicit_shapes?.shapes?.[g.shape];
    if (!s) throw new Error(`${where}.collider.geometry.shape: KHR_implicit_shapes shapes[${g.shape}] missing`);
    const sw = `extensions.KHR_implicit_shapes.shapes[${g.shape}]`;
    const p = s[s.type] ?? {};
    switch (s.type) {
      case 'box': return { type: 'box', size: p.size ?? [1, 1, 1], where: sw };
      case 'sphere': return { type: 'sphere', radius: p.radius ?? 0.5, where: sw };
      case 'capsule': return { type: 'capsule', height: p.height ?? 0.5, radiusTop: p.radiusTop ?? 0.25, radiusBottom: p.radiusBottom ?? 0.25, where: sw };
      case 'cylinder': return { type: 'cylinder', height: p.height ?? 0.5, radiusTop: p.radiusTop ?? 0.25, radiusBottom: p.radiusBottom ?? 0.25, where: sw };
      default: throw new Error(`${sw}.type: unsupported ${JSON.stringify(s.type)}`);
    }
  }
  const type = g.convexHull ? 'convex' : 'trimesh';
  if (g.mesh !== undefined) return { type, meshes: [{ mesh: g.mesh, matrix: mat4Identity() }], where: `meshes[${g.mesh}]` };
  if (g.node !== undefined) {
    // The 2025 form: the referenced node's meshes and its children's,
    // in the collider node's space.
    const meshes = [];
    const walk = (ni, m, depth) => {
      const n = doc.nodes?.[ni];
      if (!n || depth > 64) throw new Error(`${where}.collider.geometry.node: nodes[${ni}] missing or cyclic`);
      if (n.mesh !== undefined) meshes.push({ mesh: n.mesh, matrix: m });
      for (const ch of n.children ?? []) walk(ch, mat4Mul(m, localMatrix(doc.nodes[ch] ?? {})), depth + 1);
    };
    walk(g.node, mat4Identity(), 0);
    return { type, meshes, where: `nodes[${g.node}]` };
  }
  throw new Error(`${where}.collider.geometry: neither shape, mesh nor node`);
}

// loadAsset reads a file and returns its bodies (with colliders in body
// space) and its static colliders (in world space, as a body at the origin).
// Each body lists in skinned the body or collider nodes that are or lie
// under a skinned mesh node.
export function loadAsset(file) {
  const gl = readDocument(file);
  const { doc } = gl;
  const nodes = doc.nodes ?? [];
  const sceneIndex = doc.scene ?? 0;
  const scene = doc.scenes?.[sceneIndex];
  const world = new Map(); // node index → world matrix
  const owner = new Map(); // node index → body node index or -1
  const skinned = new Map(); // node index → the skinned mesh node it is or is under
  const visit = (ni, parentM, body, skin, depth) => {
    const n = nodes[ni];
    if (!n) throw new Error(`scenes[${sceneIndex}]: nodes[${ni}] missing`);
    if (depth > 256 || world.has(ni)) throw new Error(`nodes[${ni}]: cycle or node used twice`);
    const m = mat4Mul(parentM, localMatrix(n));
    world.set(ni, m);
    const mo = motionOf(physicsOf(n));
    const b = mo ? ni : body;
    owner.set(ni, b);
    const sk = n.skin !== undefined && n.mesh !== undefined ? ni : skin;
    if (sk >= 0) skinned.set(ni, sk);
    for (const ch of n.children ?? []) visit(ch, m, b, sk, depth + 1);
  };
  for (const r of scene?.nodes ?? []) visit(r, mat4Identity(), -1, -1, 0);
  // onSkinned names a body or collider node that is, or lies under, a
  // skinned mesh node: glTF ignores that node's transform for its mesh,
  // and engines' importers re-parent skinned meshes (Babylon.js does), so
  // the colliders come loose from the body.
  const onSkinned = (ni, what) => {
    const sk = skinned.get(ni);
    if (sk === undefined) return null;
    return sk === ni ? `${what} nodes[${ni}] is a skinned mesh node` : `${what} nodes[${ni}] lies under the skinned mesh node nodes[${sk}]`;
  };

  const bodies = new Map();
  const bodyOf = (bi) => {
    if (!bodies.has(bi)) {
      const n = bi >= 0 ? nodes[bi] : {};
      const ph = physicsOf(n);
      const d = bi >= 0 ? decompose(world.get(bi)) : { t: [0, 0, 0], q: [0, 0, 0, 1], signed: [1, 1, 1] };
      bodies.set(bi, {
        node: bi,
        name: bi >= 0 ? (n.name ?? `nodes[${bi}]`) : 'static colliders',
        where: bi >= 0 ? `nodes[${bi}]` : 'scene',
        family: ph?.family ?? null,
        motion: bi >= 0 ? motionOf(ph) : { type: 'static' },
        position: d.t,
        rotation: d.q,
        scale: d.signed, // node space → body frame: diag(scale)
        frame: bi >= 0 ? mat4FromTRS(d.t, d.q, [1, 1, 1]) : mat4Identity(),
        colliders: [],
        renderPoints: [],
        notes: [],
        skinned: [],
      });
      const sk = bi >= 0 ? onSkinned(bi, 'body') : null;
      if (sk) bodies.get(bi).skinned.push(sk);
    }
    return bodies.get(bi);
  };
  for (const [ni, m] of world) {
    const n = nodes[ni];
    const ph = physicsOf(n);
    const bi = owner.get(ni);
    if (ph && motionOf(ph)) bodyOf(ni);
    if (!ph?.ext.collider) continue;
    const where = `nodes[${ni}] ${JSON.stringify(n.name ?? '')}.extensions.${ph.family === 'omi' ? 'OMI_physics_body' : 'KHR_physics_rigid_bodies'}`;
    const shape = shapeOf(gl, ph, where);
    if (!shape) continue;
    const body = bodyOf(bi);
    const sk = ni !== bi ? onSkinned(ni, 'collider') : null;
    if (sk) body.skinned.push(sk);
    const rel = mat4Mul(mat4InverseRT(body.frame), m); // collider node in body frame
    body.colliders.push(colliderIn(gl, shape, rel, `nodes[${ni}]`, body));
  }
  // Render meshes of each body (nodes it owns), in body space, for the
  // containment check at rest. Skinned and instanced meshes are skipped.
  for (const [ni, m] of world) {
    const n = nodes[ni];
    const bi = owner.get(ni);
    if (n.mesh === undefined || !bodies.has(bi) || bi < 0) continue;
    const body = bodies.get(bi);
    if (n.skin !== undefined || n.extensions?.EXT_mesh_gpu_instancing) {
      body.notes.push(`nodes[${ni}]: skinned or instanced mesh left out of the render check`);
      continue;
    }
    const mesh = doc.meshes?.[n.mesh];
    if ((n.weights ?? mesh?.weights ?? []).some((w) => w !== 0)) {
      body.notes.push(`nodes[${ni}]: morphed mesh left out of the render check`);
      continue;
    }
    let tri;
    try {
      tri = meshTriangles(gl, n.mesh, `nodes[${ni}]`);
    } catch (e) {
      body.notes.push(`render check skips ${e.message}`);
      continue;
    }
    const rel = mat4Mul(mat4InverseRT(body.frame), m);
    const used = new Uint8Array(tri.points.length / 3);
    for (const i of tri.indices) used[i] = 1;
    for (let i = 0; i < used.length; i++) {
      if (used[i]) body.renderPoints.push(...mat4Point(rel, [tri.points[3 * i], tri.points[3 * i + 1], tri.points[3 * i + 2]]));
    }
  }
  return { file, bodies: [...bodies.values()] };
}

// colliderIn expresses a shape on a collider node whose matrix relative to
// the body frame is rel: primitives get a position, a rotation and their
// parameters scaled; hulls and trimeshes get their points in body space.
function colliderIn(gl, shape, rel, where, body) {
  if (shape.type === 'convex' || shape.type === 'trimesh') {
    const points = [];
    const indices = [];
    for (const { mesh, matrix } of shape.meshes) {
      const t = meshTriangles(gl, mesh, where);
      const base = points.length / 3;
      const m = mat4Mul(rel, matrix);
      for (let i = 0; i < t.points.length; i += 3) points.push(...mat4Point(m, [t.points[i], t.points[i + 1], t.points[i + 2]]));
      // A mirroring transform flips the winding; undo it so that
      // "outward" keeps its meaning in body space.
      const flip = determinant3(m) < 0;
      for (let i = 0; i + 2 < t.indices.length; i += 3) {
        const [a, b, c] = [t.indices[i], t.indices[i + 1], t.indices[i + 2]];
        if (flip) indices.push(base + a, base + c, base + b);
        else indices.push(base + a, base + b, base + c);
      }
    }
    // Hulls autocollide wrote promise to be the exact hull mesh (closed,
    // outward, convex); others are any mesh whose hull the engine takes.
    const generated = shape.meshes.every(({ mesh }) => gl.doc.meshes?.[mesh]?.extras?.autocollide?.generated === true);
    return { type: shape.type, where: `${where} (${shape.where})`, position: [0, 0, 0], rotation: [0, 0, 0, 1], points, indices, generated };
  }
  const d = decompose(rel);
  const [sx, sy, sz] = d.s;
  const c = { type: shape.type, where: `${where} (${shape.where})`, position: d.t, rotation: d.q };
  const uniform = Math.abs(sx - sy) < 1e-6 * sx && Math.abs(sx - sz) < 1e-6 * sx;
  if (d.shear > 1e-6 || (!uniform && shape.type !== 'box')) body.notes.push(`${where}: non-uniform scale on a ${shape.type} collider, approximated`);
  switch (shape.type) {
    case 'box': return { ...c, size: [shape.size[0] * sx, shape.size[1] * sy, shape.size[2] * sz] };
    case 'sphere': return { ...c, radius: shape.radius * Math.max(sx, sy, sz) };
    default: {
      const rs = Math.max(sx, sz);
      return { ...c, height: shape.height * sy, radiusTop: shape.radiusTop * rs, radiusBottom: shape.radiusBottom * rs };
    }
  }
}

function determinant3(m) {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
}

// scaled returns collider record c (as loadAsset gives it) with every
// length multiplied by k.
export function scaled(c, k) {
  const out = { ...c, position: c.position.map((v) => v * k) };
  if (c.points) out.points = c.points.map((v) => v * k);
  for (const f of ['radius', 'height', 'radiusTop', 'radiusBottom']) if (c[f] !== undefined) out[f] = c[f] * k;
  if (c.size) out.size = c.size.map((v) => v * k);
  return out;
}
