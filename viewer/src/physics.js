// Reading the physics a glTF document carries: OMI_physics_shape +
// OMI_physics_body (+ OMI_physics_joint), and KHR_implicit_shapes +
// KHR_physics_rigid_bodies, into one plain list the scene code draws.
//
// A shape is {type, size | radius | height, radiusTop, radiusBottom |
// mesh | sizeX, sizeZ}; each collider names its node, the body node it
// belongs to (the nearest node with a motion, itself included; -1 for
// static geometry without a body), its shape and whether it is a trigger.

const OMI_DEFAULTS = {
  box: { size: [1, 1, 1] },
  sphere: { radius: 0.5 },
  capsule: { height: 1, radiusTop: 0.5, radiusBottom: 0.5 },
  cylinder: { height: 2, radiusTop: 0.5, radiusBottom: 0.5 },
};
const KHR_DEFAULTS = {
  box: { size: [1, 1, 1] },
  sphere: { radius: 0.5 },
  capsule: { height: 0.5, radiusTop: 0.25, radiusBottom: 0.25 },
  cylinder: { height: 0.5, radiusTop: 0.25, radiusBottom: 0.25 },
  plane: { sizeX: 0, sizeZ: 0 },
};

function ext(o, name) {
  return o && o.extensions && o.extensions[name];
}

function implicit(s, defaults) {
  const type = s && s.type;
  const params = Object.assign({}, defaults[type] || {}, (s && s[type]) || {});
  return Object.assign({ type: type }, params);
}

// readPhysics returns {family, shapes, colliders, bodies, joints,
// jointDefs, hiddenNodes} for a glTF JSON document.
export function readPhysics(json) {
  const nodes = json.nodes || [];
  const out = { family: "", colliders: [], bodies: [], joints: [], jointDefs: [], hiddenNodes: [] };
  const omiShapes = ((ext(json, "OMI_physics_shape") || {}).shapes || []).map(function (s) {
    if (s && (s.type === "convex" || s.type === "trimesh")) {
      return { type: s.type, mesh: ((s[s.type] || {}).mesh) };
    }
    return implicit(s, OMI_DEFAULTS);
  });
  const khrShapes = ((ext(json, "KHR_implicit_shapes") || {}).shapes || []).map(function (s) {
    return implicit(s, KHR_DEFAULTS);
  });
  const khrDoc = ext(json, "KHR_physics_rigid_bodies") || {};
  const omiJointDoc = ext(json, "OMI_physics_joint") || {};

  const parent = new Array(nodes.length).fill(-1);
  nodes.forEach(function (n, i) {
    (n.children || []).forEach(function (c) {
      if (c >= 0 && c < nodes.length) parent[c] = i;
    });
  });
  const hasMotion = nodes.map(function (n) {
    const omi = ext(n, "OMI_physics_body");
    const khr = ext(n, "KHR_physics_rigid_bodies");
    return !!((omi && omi.motion) || (khr && khr.motion));
  });
  function bodyOf(i) {
    for (let k = i, guard = 0; k >= 0 && guard <= nodes.length; k = parent[k], guard++) {
      if (hasMotion[k]) return k;
    }
    return -1;
  }
  function khrGeometry(g) {
    if (!g) return null;
    if (typeof g.shape === "number") return khrShapes[g.shape] || null;
    let mesh = g.mesh;
    if (typeof g.node === "number" && nodes[g.node]) {
      mesh = nodes[g.node].mesh;
      out.hiddenNodes.push(g.node);
    }
    if (typeof mesh !== "number") return null;
    return { type: g.convexHull ? "convex" : "trimesh", mesh: mesh };
  }
  function add(i, shape, trigger) {
    if (!shape || !shape.type) return;
    out.colliders.push({ node: i, body: bodyOf(i), shape: shape, trigger: trigger });
  }

  nodes.forEach(function (n, i) {
    const omi = ext(n, "OMI_physics_body");
    if (omi) {
      out.family = "omi";
      if (omi.collider && typeof omi.collider.shape === "number") add(i, omiShapes[omi.collider.shape], false);
      if (omi.trigger && typeof omi.trigger.shape === "number") add(i, omiShapes[omi.trigger.shape], true);
    }
    const khr = ext(n, "KHR_physics_rigid_bodies");
    if (khr) {
      out.family = "khr";
      if (khr.collider) add(i, khrGeometry(khr.collider.geometry) || khrShapes[khr.collider.shape], false);
      if (khr.trigger) add(i, khrGeometry(khr.trigger.geometry) || khrShapes[khr.trigger.shape], true);
      if (khr.joint && typeof khr.joint.connectedNode === "number") {
        out.joints.push({ node: i, connected: khr.joint.connectedNode, joint: khr.joint.joint });
      }
    }
    const oj = ext(n, "OMI_physics_joint");
    if (oj && typeof oj.connectedNode === "number") {
      out.joints.push({ node: i, connected: oj.connectedNode, joint: oj.joint });
    }
    if (hasMotion[i]) {
      out.bodies.push({ node: i, name: n.name || "nodes[" + i + "]", motion: ((omi && omi.motion) || (khr && khr.motion)) });
    }
  });
  out.jointDefs = khrDoc.physicsJoints || omiJointDoc.physicsJoints || [];
  return out;
}

// limitText describes a joint definition's limits: "angular [0 1] ±30°".
export function limitText(def) {
  if (!def || !def.limits) return "";
  const deg = function (r) { return (r * 180 / Math.PI).toFixed(0) + "°"; };
  return def.limits.map(function (l) {
    const axes = l.angularAxes ? "angular " + JSON.stringify(l.angularAxes) : "linear " + JSON.stringify(l.linearAxes || []);
    const ang = !!l.angularAxes;
    const f = function (v) { return v === undefined ? "free" : ang ? deg(v) : v.toFixed(3) + " m"; };
    return axes + " " + f(l.min) + " … " + f(l.max);
  }).join("; ");
}
