// The engines behind one small interface: a world with a ground plane at
// y = 0 and bodies added in one of three roles (ROLES): dynamic bodies
// collide with the ground, with each other and with fixed bodies; fixed
// bodies (an asset's static and kinematic bodies, dropped whole) stay put
// and collide with dynamic ones; loaded-only bodies collide with nothing.
// Every body passed in is {colliders, position, rotation, mass} where mass
// is {explicit: {mass, com, inertiaDiagonal, inertiaOrientation}} or
// {computed: massOrNull} (the engine computes from the shapes at
// 1000 kg/m³, scaled to the given mass when there is one). add returns a
// handle; collidersMass(handle) is the mass the engine computes from the
// body's colliders at DENSITY (their volumes summed, overlaps counted
// twice), whatever mass the body was given. Havok is in havok.mjs.
import RAPIER from '@dimforge/rapier3d-compat';
import initJolt from 'jolt-physics';

export const DENSITY = 1000;
// Damping: Jolt's defaults, applied to Rapier too so the two compare.
const LINEAR_DAMPING = 0.05;
const ANGULAR_DAMPING = 0.05;
// Jolt's default penetration slop is 2 cm; 1 mm keeps its resting depth
// under Rapier's (whose allowed linear error is 5 mm in 0.21; the drop
// test simulates every body at unit size, where these are 0.1% and 0.5%
// of it).
const JOLT_PENETRATION_SLOP = 0.001;

// ROLES of a body in a world.
export const ROLES = ['dynamic', 'fixed', 'loaded'];

// Collision groups as bits, shared by the engines: a pair collides when
// each one's membership is in the other's mask.
const GROUND = 1;
const DYNAMIC = 2;
const LOADED = 4;
const FIXED = 8;
export const GROUPS = {
  ground: { member: GROUND, mask: DYNAMIC },
  dynamic: { member: DYNAMIC, mask: GROUND | DYNAMIC | FIXED },
  fixed: { member: FIXED, mask: DYNAMIC },
  loaded: { member: LOADED, mask: 0 },
};
const rapierGroups = (role) => (GROUPS[role].member << 16) | GROUPS[role].mask;

// sampleTapered returns points on two spheres (capsule) or two circles
// (cylinder) for engines without tapered shapes: their hull is within
// 1 − cos(π/16) ≈ 2% of the shape.
export function sampleTapered(c) {
  const pts = [];
  const h = c.height / 2;
  const N = 16;
  for (const [y, r] of [[h, c.radiusTop], [-h, c.radiusBottom]]) {
    if (c.type === 'cylinder') {
      for (let i = 0; i < N; i++) pts.push(r * Math.cos((2 * Math.PI * i) / N), y, r * Math.sin((2 * Math.PI * i) / N));
    } else {
      for (let j = 0; j <= N / 2; j++) {
        const phi = (Math.PI * j) / (N / 2);
        for (let i = 0; i < N; i++) {
          const th = (2 * Math.PI * i) / N;
          pts.push(r * Math.sin(phi) * Math.cos(th), y + r * Math.cos(phi), r * Math.sin(phi) * Math.sin(th));
        }
      }
    }
  }
  return new Float32Array(pts);
}

export const tapered = (c) => Math.abs(c.radiusTop - c.radiusBottom) > 1e-9 * Math.max(c.radiusTop, c.radiusBottom);

let rapierReady = null;

// Rapier world.
export class RapierWorld {
  static async create(gravity) {
    rapierReady ??= RAPIER.init();
    await rapierReady;
    return new RapierWorld(gravity);
  }

  constructor(gravity) {
    this.name = 'rapier';
    this.world = new RAPIER.World({ x: 0, y: -gravity, z: 0 });
    this.world.timestep = 1 / 60;
    const ground = this.world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
    this.world.createCollider(RAPIER.ColliderDesc.cuboid(1e3, 1, 1e3).setTranslation(0, -1, 0).setCollisionGroups(rapierGroups('ground')), ground);
  }

  colliderDesc(c) {
    let d;
    switch (c.type) {
      case 'box': d = RAPIER.ColliderDesc.cuboid(c.size[0] / 2, c.size[1] / 2, c.size[2] / 2); break;
      case 'sphere': d = RAPIER.ColliderDesc.ball(c.radius); break;
      case 'capsule': d = tapered(c) ? RAPIER.ColliderDesc.convexHull(sampleTapered(c)) : RAPIER.ColliderDesc.capsule(c.height / 2, c.radiusTop); break;
      case 'cylinder': d = tapered(c) ? RAPIER.ColliderDesc.convexHull(sampleTapered(c)) : RAPIER.ColliderDesc.cylinder(c.height / 2, c.radiusTop); break;
      case 'convex': d = RAPIER.ColliderDesc.convexHull(new Float32Array(c.points)); break;
      case 'trimesh': d = RAPIER.ColliderDesc.trimesh(new Float32Array(c.points), new Uint32Array(c.indices)); break;
    }
    if (!d) throw new Error(`${c.where}: Rapier refused the ${c.type} shape`);
    const [x, y, z] = c.position;
    const [qx, qy, qz, qw] = c.rotation;
    return d.setTranslation(x, y, z).setRotation({ x: qx, y: qy, z: qz, w: qw });
  }

  // add creates a body in a role (ROLES).
  add(b, role) {
    const dynamic = role === 'dynamic';
    const [x, y, z] = b.position;
    const [qx, qy, qz, qw] = b.rotation;
    let desc = (dynamic ? RAPIER.RigidBodyDesc.dynamic() : RAPIER.RigidBodyDesc.fixed())
      .setTranslation(x, y, z)
      .setRotation({ x: qx, y: qy, z: qz, w: qw })
      .setLinearDamping(LINEAR_DAMPING)
      .setAngularDamping(ANGULAR_DAMPING);
    const ex = b.mass?.explicit;
    if (dynamic && ex) {
      const [cx, cy, cz] = ex.com;
      const [ix, iy, iz] = ex.inertiaDiagonal;
      const [ox, oy, oz, ow] = ex.inertiaOrientation;
      desc = desc.setAdditionalMassProperties(ex.mass, { x: cx, y: cy, z: cz }, { x: ix, y: iy, z: iz }, { x: ox, y: oy, z: oz, w: ow });
    }
    const rb = this.world.createRigidBody(desc);
    const cols = [];
    for (const c of b.colliders) {
      const d = this.colliderDesc(c)
        .setDensity(dynamic && !ex ? DENSITY : 0)
        .setCollisionGroups(rapierGroups(role));
      const col = this.world.createCollider(d, rb);
      if (c.type === 'convex' && !(col.volume() > 0)) throw new Error(`${c.where}: Rapier gives the hull zero volume`);
      cols.push(col);
    }
    if (dynamic && !ex && b.mass?.computed) {
      const total = cols.reduce((s, col) => s + col.mass(), 0);
      if (!(total > 0)) throw new Error('Rapier computes zero mass from the colliders');
      for (const col of cols) col.setDensity((DENSITY * b.mass.computed) / total);
    }
    rb.recomputeMassPropertiesFromColliders();
    if (dynamic && !(rb.mass() > 0)) throw new Error(`Rapier body has mass ${rb.mass()}`);
    return { rb, cols };
  }

  collidersMass(h) {
    return h.cols.reduce((s, col) => s + col.volume(), 0) * DENSITY;
  }

  // penetration is how deep two bodies' colliders overlap where they are
  // (0 when they do not): the deepest of Rapier's contacts between their
  // colliders, a query on the shapes that needs no step.
  penetration(h1, h2) {
    let depth = 0;
    for (const a of h1.cols) {
      for (const b of h2.cols) {
        const c = a.contactCollider(b, 0);
        if (c && c.distance < 0) depth = Math.max(depth, -c.distance);
      }
    }
    return depth;
  }

  // step advances one 1/60 s frame in n equal substeps.
  step(n) {
    this.world.timestep = 1 / (60 * n);
    for (let i = 0; i < n; i++) this.world.step();
  }

  state({ rb }) {
    const p = rb.translation();
    const q = rb.rotation();
    const v = rb.linvel();
    const w = rb.angvel();
    const c = rb.worldCom();
    return { position: [p.x, p.y, p.z], rotation: [q.x, q.y, q.z, q.w], linvel: [v.x, v.y, v.z], angvel: [w.x, w.y, w.z], com: [c.x, c.y, c.z] };
  }

  free() {
    this.world.free();
  }
}

let joltReady = null;
const JOLT_LAYER = { dynamic: 1, loaded: 2, fixed: 3 };

// Jolt world.
export class JoltWorld {
  // create makes a world; speculativeDistance (m) overrides Jolt's
  // speculative contact distance (its default: 2 cm).
  static async create(gravity, { speculativeDistance } = {}) {
    joltReady ??= initJolt();
    return new JoltWorld(await joltReady, gravity, speculativeDistance);
  }

  constructor(J, gravity, speculativeDistance) {
    this.name = 'jolt';
    this.J = J;
    // Object layers: 0 ground, 1 dynamic, 2 loaded-only, 3 fixed (JOLT_LAYER);
    // broad phase: 0 not moving, 1 moving.
    const pairs = new J.ObjectLayerPairFilterTable(4);
    pairs.EnableCollision(0, 1);
    pairs.EnableCollision(1, 1);
    pairs.EnableCollision(1, 3);
    const bp = new J.BroadPhaseLayerInterfaceTable(4, 2);
    bp.MapObjectToBroadPhaseLayer(0, new J.BroadPhaseLayer(0));
    bp.MapObjectToBroadPhaseLayer(1, new J.BroadPhaseLayer(1));
    bp.MapObjectToBroadPhaseLayer(2, new J.BroadPhaseLayer(0));
    bp.MapObjectToBroadPhaseLayer(3, new J.BroadPhaseLayer(0));
    const settings = new J.JoltSettings();
    settings.mMaxWorkerThreads = 1;
    settings.mObjectLayerPairFilter = pairs;
    settings.mBroadPhaseLayerInterface = bp;
    settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bp, 2, pairs, 4);
    this.ji = new J.JoltInterface(settings);
    J.destroy(settings);
    this.ps = this.ji.GetPhysicsSystem();
    this.ps.SetGravity(new J.Vec3(0, -gravity, 0));
    const phs = this.ps.GetPhysicsSettings();
    phs.mPenetrationSlop = JOLT_PENETRATION_SLOP;
    if (speculativeDistance !== undefined) phs.mSpeculativeContactDistance = speculativeDistance;
    this.ps.SetPhysicsSettings(phs);
    this.bi = this.ps.GetBodyInterface();
    const ground = new J.BodyCreationSettings(new J.BoxShape(new J.Vec3(1e3, 1, 1e3), 0), new J.RVec3(0, -1, 0), new J.Quat(0, 0, 0, 1), J.EMotionType_Static, 0);
    this.bi.CreateAndAddBody(ground, J.EActivation_DontActivate);
    J.destroy(ground);
  }

  shapeSettings(c) {
    const J = this.J;
    switch (c.type) {
      case 'box': return new J.BoxShapeSettings(new J.Vec3(c.size[0] / 2, c.size[1] / 2, c.size[2] / 2), 0);
      case 'sphere': return new J.SphereShapeSettings(c.radius);
      case 'capsule': return tapered(c) ? new J.TaperedCapsuleShapeSettings(c.height / 2, c.radiusTop, c.radiusBottom) : new J.CapsuleShapeSettings(c.height / 2, c.radiusTop);
      case 'cylinder': return tapered(c) ? new J.TaperedCylinderShapeSettings(c.height / 2, c.radiusTop, c.radiusBottom, 0) : new J.CylinderShapeSettings(c.height / 2, c.radiusTop, 0);
      case 'convex': {
        const s = new J.ConvexHullShapeSettings();
        for (let i = 0; i < c.points.length; i += 3) s.mPoints.push_back(new J.Vec3(c.points[i], c.points[i + 1], c.points[i + 2]));
        s.mMaxConvexRadius = 0;
        return s;
      }
      case 'trimesh': {
        const verts = new J.VertexList();
        for (let i = 0; i < c.points.length; i += 3) verts.push_back(new J.Float3(c.points[i], c.points[i + 1], c.points[i + 2]));
        const tris = new J.IndexedTriangleList();
        for (let i = 0; i < c.indices.length; i += 3) tris.push_back(new J.IndexedTriangle(c.indices[i], c.indices[i + 1], c.indices[i + 2], 0, 0));
        return new J.MeshShapeSettings(verts, tris, new J.PhysicsMaterialList());
      }
    }
    throw new Error(`unknown shape ${c.type}`);
  }

  add(b, role) {
    const J = this.J;
    const dynamic = role === 'dynamic';
    const compound = new J.StaticCompoundShapeSettings();
    let volume = 0;
    for (const c of b.colliders) {
      const s = this.shapeSettings(c);
      if (!dynamic || c.type === 'trimesh') s.mDensity = DENSITY;
      const r = s.Create();
      if (r.HasError()) throw new Error(`${c.where}: Jolt refused the ${c.type} shape: ${r.GetError().c_str()}`);
      const shape = r.Get();
      if (dynamic && shape.MustBeStatic()) throw new Error(`${c.where}: a ${c.type} shape on a dynamic body (Jolt needs it static)`);
      if (c.type === 'convex' && !(shape.GetVolume() > 0)) throw new Error(`${c.where}: Jolt gives the hull zero volume`);
      volume += shape.GetVolume();
      const [x, y, z] = c.position;
      const [qx, qy, qz, qw] = c.rotation;
      compound.AddShapeShape(new J.Vec3(x, y, z), new J.Quat(qx, qy, qz, qw), shape, 0);
    }
    const cr = compound.Create();
    if (cr.HasError()) throw new Error(`Jolt refused the compound: ${cr.GetError().c_str()}`);
    let shape = cr.Get();
    const ex = dynamic ? b.mass?.explicit : null;
    if (ex) {
      const c0 = shape.GetCenterOfMass();
      shape = new J.OffsetCenterOfMassShape(shape, new J.Vec3(ex.com[0] - c0.GetX(), ex.com[1] - c0.GetY(), ex.com[2] - c0.GetZ()));
    }
    const [x, y, z] = b.position;
    const [qx, qy, qz, qw] = b.rotation;
    const bcs = new J.BodyCreationSettings(shape, new J.RVec3(x, y, z), new J.Quat(qx, qy, qz, qw), dynamic ? J.EMotionType_Dynamic : J.EMotionType_Static, JOLT_LAYER[role]);
    bcs.mLinearDamping = LINEAR_DAMPING;
    bcs.mAngularDamping = ANGULAR_DAMPING;
    if (ex) {
      const [ox, oy, oz, ow] = ex.inertiaOrientation;
      const R = J.Mat44.prototype.sRotation(new J.Quat(ox, oy, oz, ow));
      const D = J.Mat44.prototype.sScaleVec3(new J.Vec3(...ex.inertiaDiagonal));
      bcs.mOverrideMassProperties = J.EOverrideMassProperties_MassAndInertiaProvided;
      bcs.mMassPropertiesOverride.mMass = ex.mass;
      bcs.mMassPropertiesOverride.mInertia = R.MulMat44(D).MulMat44(R.Transposed3x3());
    } else if (dynamic && b.mass?.computed) {
      bcs.mOverrideMassProperties = J.EOverrideMassProperties_CalculateInertia;
      bcs.mMassPropertiesOverride.mMass = b.mass.computed;
    }
    const body = this.bi.CreateBody(bcs);
    J.destroy(bcs);
    if (!body) throw new Error('Jolt could not create the body');
    if (dynamic) {
      const im = body.GetMotionProperties().GetInverseMass();
      if (!(im > 0) || !Number.isFinite(im)) throw new Error(`Jolt body has inverse mass ${im}`);
    }
    const id = body.GetID();
    this.bi.AddBody(id, dynamic ? J.EActivation_Activate : J.EActivation_DontActivate);
    return { id, volume };
  }

  collidersMass(h) {
    return h.volume * DENSITY;
  }

  // step advances one 1/60 s frame in n collision steps.
  step(n) {
    this.ji.Step(1 / 60, n);
  }

  state({ id }) {
    const p = this.bi.GetPosition(id);
    const q = this.bi.GetRotation(id);
    const v = this.bi.GetLinearVelocity(id);
    const w = this.bi.GetAngularVelocity(id);
    const c = this.bi.GetCenterOfMassTransform(id).GetTranslation();
    return {
      com: [c.GetX(), c.GetY(), c.GetZ()],
      position: [p.GetX(), p.GetY(), p.GetZ()],
      rotation: [q.GetX(), q.GetY(), q.GetZ(), q.GetW()],
      linvel: [v.GetX(), v.GetY(), v.GetZ()],
      angvel: [w.GetX(), w.GetY(), w.GetZ()],
    };
  }

  free() {
    this.J.destroy(this.ji);
  }
}
