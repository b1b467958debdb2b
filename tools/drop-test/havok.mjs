// Havok (@babylonjs/havok, the engine of Babylon.js's physics plugin) behind
// the interface of engines.mjs, through its raw HP_* API: no Babylon scene,
// no browser. The WASM is read from node_modules and handed to the module
// factory, since Node's fetch cannot read file: URLs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import HavokPhysics from '@babylonjs/havok';
import { DENSITY, GROUPS, sampleTapered, tapered } from './engines.mjs';
import { add, quatRotate } from './math.mjs';

// Same damping as the other engines (Jolt's defaults).
const LINEAR_DAMPING = 0.05;
const ANGULAR_DAMPING = 0.05;

let havokReady = null;

function loadHavok() {
  const require = createRequire(import.meta.url);
  const wasm = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
  return HavokPhysics({ wasmBinary: wasm });
}

// check throws when a Havok call did not return RESULT_OK; calls that
// return [Result, value] give their value back.
function check(HK, what, res) {
  const r = Array.isArray(res) ? res[0] : res;
  if (r !== HK.Result.RESULT_OK) throw new Error(`Havok ${what} failed`);
  return Array.isArray(res) ? res[1] : undefined;
}

// Havok world.
export class HavokWorld {
  static async create(gravity) {
    havokReady ??= loadHavok();
    return new HavokWorld(await havokReady, gravity);
  }

  constructor(HK, gravity) {
    this.name = 'havok';
    this.HK = HK;
    this.world = check(HK, 'HP_World_Create', HK.HP_World_Create());
    check(HK, 'HP_World_SetGravity', HK.HP_World_SetGravity(this.world, [0, -gravity, 0]));
    this.bodies = [];
    this.shapes = [];
    this.dt = 1 / 60;
    const ground = this.shape(HK.HP_Shape_CreateBox([0, 0, 0], [0, 0, 0, 1], [2e3, 2, 2e3]), 'ground');
    this.filter(ground, 'ground');
    check(HK, 'HP_World_AddBody', HK.HP_World_AddBody(this.world, this.body(ground, HK.MotionType.STATIC, [0, -1, 0], [0, 0, 0, 1]), false));
  }

  shape(res, what) {
    const s = check(this.HK, `${what} shape`, res);
    this.shapes.push(s);
    return s;
  }

  filter(s, role) {
    check(this.HK, 'HP_Shape_SetFilterInfo', this.HK.HP_Shape_SetFilterInfo(s, [GROUPS[role].member, GROUPS[role].mask]));
  }

  body(shape, motion, p, q) {
    const HK = this.HK;
    const b = check(HK, 'HP_Body_Create', HK.HP_Body_Create());
    this.bodies.push(b);
    check(HK, 'HP_Body_SetShape', HK.HP_Body_SetShape(b, shape));
    check(HK, 'HP_Body_SetMotionType', HK.HP_Body_SetMotionType(b, motion));
    check(HK, 'HP_Body_SetQTransform', HK.HP_Body_SetQTransform(b, [p, q]));
    return b;
  }

  // points copies a flat number array into WASM memory as float32 (or
  // int32) and returns its address; the caller frees it.
  points(values, type = Float32Array) {
    const HK = this.HK;
    const ptr = HK._malloc(values.length * 4);
    new type(HK.HEAPU8.buffer, ptr, values.length).set(values);
    return ptr;
  }

  colliderShape(c) {
    const HK = this.HK;
    const what = `${c.where}: the ${c.type}`;
    const hull = (pts) => {
      const ptr = this.points(pts);
      try {
        return this.shape(HK.HP_Shape_CreateConvexHull(ptr, pts.length / 3), what);
      } finally {
        HK._free(ptr);
      }
    };
    switch (c.type) {
      case 'box': return this.shape(HK.HP_Shape_CreateBox([0, 0, 0], [0, 0, 0, 1], c.size), what);
      case 'sphere': return this.shape(HK.HP_Shape_CreateSphere([0, 0, 0], c.radius), what);
      case 'capsule':
      case 'cylinder': {
        if (tapered(c)) return hull(sampleTapered(c));
        const make = c.type === 'capsule' ? HK.HP_Shape_CreateCapsule : HK.HP_Shape_CreateCylinder;
        return this.shape(make([0, -c.height / 2, 0], [0, c.height / 2, 0], c.radiusTop), what);
      }
      case 'convex': return hull(c.points);
      case 'trimesh': {
        const v = this.points(c.points);
        const t = this.points(c.indices, Int32Array);
        try {
          return this.shape(HK.HP_Shape_CreateMesh(v, c.points.length / 3, t, c.indices.length / 3), what);
        } finally {
          HK._free(v);
          HK._free(t);
        }
      }
    }
    throw new Error(`unknown shape ${c.type}`);
  }

  // add creates a body in a role (ROLES of engines.mjs): the colliders in a
  // container shape, the written mass properties when given (Havok takes
  // the inertia per unit mass), else the shapes' at DENSITY, scaled to the
  // given mass when there is one.
  add(b, role) {
    const HK = this.HK;
    const dynamic = role === 'dynamic';
    const container = this.shape(HK.HP_Shape_CreateContainer(), 'container');
    let collidersMass = 0;
    for (const c of b.colliders) {
      const s = this.colliderShape(c);
      check(HK, 'HP_Shape_SetDensity', HK.HP_Shape_SetDensity(s, DENSITY));
      this.filter(s, role); // containers take no filter (not implemented)
      if (dynamic) {
        const m = check(HK, `${c.where}: mass of the ${c.type}`, HK.HP_Shape_BuildMassProperties(s));
        if (c.type === 'convex' && !(m[1] > 0)) throw new Error(`${c.where}: Havok gives the hull zero volume`);
        collidersMass += m[1];
      }
      check(HK, `${c.where}: HP_Shape_AddChild`, HK.HP_Shape_AddChild(container, s, [c.position, c.rotation, [1, 1, 1]]));
    }
    const motion = dynamic ? HK.MotionType.DYNAMIC : HK.MotionType.STATIC;
    const body = this.body(container, motion, b.position, b.rotation);
    let com = [0, 0, 0];
    let inertiaPerMass = null;
    if (dynamic) {
      const ex = b.mass?.explicit;
      const own = check(HK, 'mass of the colliders', HK.HP_Shape_BuildMassProperties(container));
      inertiaPerMass = own[2].slice();
      let props;
      if (ex) {
        props = [ex.com, ex.mass, ex.inertiaDiagonal.map((v) => v / ex.mass), ex.inertiaOrientation];
      } else {
        props = own;
        if (b.mass?.computed) props[1] = b.mass.computed;
      }
      if (!(props[1] > 0) || !Number.isFinite(props[1])) throw new Error(`Havok body has mass ${props[1]}`);
      check(HK, 'HP_Body_SetMassProperties', HK.HP_Body_SetMassProperties(body, props));
      check(HK, 'HP_Body_SetLinearDamping', HK.HP_Body_SetLinearDamping(body, LINEAR_DAMPING));
      check(HK, 'HP_Body_SetAngularDamping', HK.HP_Body_SetAngularDamping(body, ANGULAR_DAMPING));
      com = props[0];
    }
    check(HK, 'HP_World_AddBody', HK.HP_World_AddBody(this.world, body, false));
    return { body, com, collidersMass, inertiaPerMass };
  }

  collidersMass(h) {
    return h.collidersMass;
  }

  // inertiaPerMass is the colliders' principal moments of inertia per unit
  // mass at uniform density (m²), which Havok computes and the others do
  // not expose.
  inertiaPerMass(h) {
    return h.inertiaPerMass;
  }

  // step advances one 1/60 s frame in n equal substeps.
  step(n) {
    const HK = this.HK;
    const dt = 1 / (60 * n);
    if (dt !== this.dt) {
      check(HK, 'HP_World_SetIdealStepTime', HK.HP_World_SetIdealStepTime(this.world, dt));
      this.dt = dt;
    }
    for (let i = 0; i < n; i++) check(HK, 'HP_World_Step', HK.HP_World_Step(this.world, dt));
  }

  state(h) {
    const HK = this.HK;
    const [p, q] = check(HK, 'HP_Body_GetQTransform', HK.HP_Body_GetQTransform(h.body));
    const v = check(HK, 'HP_Body_GetLinearVelocity', HK.HP_Body_GetLinearVelocity(h.body));
    const w = check(HK, 'HP_Body_GetAngularVelocity', HK.HP_Body_GetAngularVelocity(h.body));
    return { position: p, rotation: q, linvel: v, angvel: w, com: add(p, quatRotate(q, h.com)) };
  }

  free() {
    const HK = this.HK;
    for (const b of this.bodies) {
      HK.HP_World_RemoveBody(this.world, b);
      HK.HP_Body_Release(b);
    }
    for (const s of this.shapes) HK.HP_Shape_Release(s);
    HK.HP_World_Release(this.world);
  }
}
