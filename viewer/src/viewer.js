// The autocollide 3D viewer: a glTF output's render mesh and the colliders
// its physics extensions describe, drawn with three.js, coloured as the
// PNG previews are (the palette comes from the page, written by Go from
// the kinds table). Bundled into one classic script (build.sh) that
// defines the global AutocollideViewer.

import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { DRACOLoader } from "three/addons/loaders/DRACOLoader.js";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { MeshoptDecoder } from "three/addons/libs/meshopt_decoder.module.js";
import dracoWrapper from "three/addons/libs/draco/gltf/draco_wasm_wrapper.js" with { type: "text" };
import dracoWasm from "three/addons/libs/draco/gltf/draco_decoder.wasm";
import { readPhysics, limitText } from "./physics.js";

// EmbeddedDraco is a DRACOLoader whose decoder is part of this script:
// nothing is fetched, so the viewer works offline.
class EmbeddedDraco extends DRACOLoader {
  _loadLibrary(url, responseType) {
    if (responseType === "arraybuffer") {
      return Promise.resolve(dracoWasm.slice().buffer);
    }
    return Promise.resolve(dracoWrapper);
  }
}

function hsv(palette, k) {
  const h = ((palette.hueStart + k * palette.hueStep) % 1) * 6;
  const i = Math.floor(h), f = h - i, v = palette.hueValue, s = palette.hueSaturation;
  const p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  return [[v, t, p], [q, v, p], [p, v, t], [p, q, v], [t, p, v], [v, p, q]][i % 6];
}

function rgb(c) {
  return new THREE.Color().setRGB(c[0], c[1], c[2], THREE.SRGBColorSpace);
}

function capsuleGeometry(rt, rb, h) {
  const pts = [];
  const n = 12;
  for (let k = 0; k <= n; k++) {
    const a = -Math.PI / 2 + (k / n) * (Math.PI / 2);
    pts.push(new THREE.Vector2(Math.max(rb * Math.cos(a), 1e-6), -h / 2 + rb * Math.sin(a)));
  }
  for (let k = 0; k <= n; k++) {
    const a = (k / n) * (Math.PI / 2);
    pts.push(new THREE.Vector2(Math.max(rt * Math.cos(a), 1e-6), h / 2 + rt * Math.sin(a)));
  }
  return new THREE.LatheGeometry(pts, 32);
}

function shapeGeometry(s, size) {
  switch (s.type) {
    case "box":
      return new THREE.BoxGeometry(s.size[0], s.size[1], s.size[2]);
    case "sphere":
      return new THREE.SphereGeometry(s.radius, 32, 16);
    case "capsule":
      return capsuleGeometry(s.radiusTop, s.radiusBottom, s.height);
    case "cylinder":
      return new THREE.CylinderGeometry(s.radiusTop, s.radiusBottom, s.height, 32);
    case "plane": {
      const g = new THREE.PlaneGeometry(s.sizeX > 0 ? s.sizeX : size, s.sizeZ > 0 ? s.sizeZ : size);
      g.rotateX(-Math.PI / 2);
      return g;
    }
  }
  return null;
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

const TYPE_ORDER = ["box", "sphere", "capsule", "cylinder", "convex", "trimesh", "plane", "trigger", "joint"];

// Viewer is one open view: a canvas and its controls inside host.
class Viewer {
  constructor(host, opts) {
    this.host = host;
    this.palette = opts.palette;
    this.meshOpacity = 1;
    this.colliderOpacity = 0.55;
    this.wireframe = false;
    this.hiddenTypes = new Set();
    this.hiddenBodies = new Set();
    this.items = []; // {obj, type, body, fill, edges}
    this.renderMeshes = [];
    host.classList.add("acv");
    this.side = el("div", { class: "acv-side" });
    this.stage = el("div", { class: "acv-stage" });
    this.status = el("div", { class: "acv-status" }, "loading…");
    this.stage.appendChild(this.status);
    host.appendChild(this.stage);
    host.appendChild(this.side);
    if (opts.figures) this.side.appendChild(opts.figures);
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.setClearColor(0xf2f2f2, 1);
    this.stage.appendChild(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x808080, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.4);
    sun.position.set(1, 2, 1.5);
    this.scene.add(sun);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener("change", () => this.render());
    this.onResize = () => this.resize();
    window.addEventListener("resize", this.onResize);
    this.resize();
    this.ready = this.settle(this.load(opts, false));
  }

  // reload replaces the model with another (opts as open's), keeping the
  // renderer, and so the shaders it compiled, and the toggles; with
  // keepCamera (the same asset generated again) the camera stays where
  // the user left it. The old model stays on screen until the new one is
  // drawn. It returns the new ready promise.
  reload(opts, keepCamera) {
    this.status.textContent = "loading…";
    this.status.hidden = false;
    this.status.classList.remove("acv-error");
    this.ready = this.settle(this.load(opts, keepCamera));
    return this.ready;
  }

  settle(loading) {
    return loading.then(
      () => { this.status.textContent = ""; this.status.hidden = true; this.render(); return this; },
      (err) => { this.status.textContent = "could not load the model: " + (err && err.message ? err.message : err); this.status.classList.add("acv-error"); throw err; });
  }

  async load(opts, keepCamera) {
    const manager = new THREE.LoadingManager();
    if (opts.urlModifier) manager.setURLModifier(opts.urlModifier);
    const loader = new GLTFLoader(manager);
    const draco = new EmbeddedDraco();
    loader.setDRACOLoader(draco);
    loader.setMeshoptDecoder(MeshoptDecoder);
    let gltf;
    try {
      if (opts.buffer) {
        gltf = await loader.parseAsync(opts.buffer, opts.base || "");
      } else {
        gltf = await loader.loadAsync(opts.url);
      }
    } catch (err) {
      draco.dispose();
      throw err;
    }
    // The new model is built aside, then swapped in whole.
    const old = { root: this.root, draco: this.draco };
    this.draco = draco;
    this.items = [];
    this.renderMeshes = [];
    const parser = gltf.parser;
    const json = parser.json;
    const phys = readPhysics(json);
    this.physics = phys;
    const root = gltf.scene;
    this.root = root;
    root.updateMatrixWorld(true);
    const nodeObj = [];
    root.traverse((o) => {
      const a = parser.associations.get(o);
      if (a && a.nodes !== undefined && nodeObj[a.nodes] === undefined) nodeObj[a.nodes] = o;
    });
    for (const i of phys.hiddenNodes) if (nodeObj[i]) nodeObj[i].visible = false;
    root.traverse((o) => {
      if (o.isMesh && o.visible) this.renderMeshes.push(o);
    });
    const sceneBox = new THREE.Box3().setFromObject(root);
    const size = sceneBox.isEmpty() ? 1 : sceneBox.getSize(new THREE.Vector3()).length();

    const meshGeoms = new Map();
    const meshGeometry = async (m) => {
      if (!meshGeoms.has(m)) {
        meshGeoms.set(m, parser.getDependency("mesh", m).then((obj) => {
          const gs = [];
          obj.updateMatrixWorld(true);
          obj.traverse((c) => {
            if (c.isMesh) gs.push(c.geometry);
          });
          return gs;
        }));
      }
      return meshGeoms.get(m);
    };
    // Decomposition hues: bodies with several convex colliders, as the
    // previews do.
    const convexPerBody = new Map();
    for (const c of phys.colliders) {
      if (!c.trigger && c.shape.type === "convex") convexPerBody.set(c.body, (convexPerBody.get(c.body) || 0) + 1);
    }
    const nextHue = new Map();
    for (const c of phys.colliders) {
      const host = nodeObj[c.node];
      if (!host) continue;
      let color = this.palette.shapes[c.shape.type] || [0.5, 0.5, 0.5];
      if (c.trigger) {
        color = this.palette.trigger;
      } else if (c.shape.type === "convex" && convexPerBody.get(c.body) > 1) {
        const k = nextHue.get(c.body) || 0;
        nextHue.set(c.body, k + 1);
        color = hsv(this.palette, k);
      }
      let geoms;
      if (c.shape.type === "convex" || c.shape.type === "trimesh") {
        geoms = typeof c.shape.mesh === "number" ? await meshGeometry(c.shape.mesh) : [];
      } else {
        const g = shapeGeometry(c.shape, size);
        geoms = g ? [g] : [];
      }
      for (const g of geoms) {
        this.addItem(host, g, c.trigger ? "trigger" : c.shape.type, c.body, rgb(color));
      }
    }
    this.addJoints(root, phys, nodeObj, size);
    this.side.textContent = "";
    if (opts.figures) this.side.appendChild(opts.figures);
    this.buildControls(phys, json);
    if (!keepCamera || !old.root) this.frame(root);
    this.scene.add(root);
    if (old.root) this.scene.remove(old.root);
    // Drawn before the old model is freed: its materials keep the
    // compiled shaders the new one reuses.
    this.apply();
    if (old.root) disposeTree(old.root);
    if (old.draco) old.draco.dispose();
  }

  addItem(host, geometry, type, body, color) {
    const fill = new THREE.MeshLambertMaterial({ color: color, side: THREE.DoubleSide, transparent: true, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
    const mesh = new THREE.Mesh(geometry, fill);
    const edgeColor = color.clone().multiplyScalar(0.6);
    const edges = new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 25), new THREE.LineBasicMaterial({ color: edgeColor }));
    const group = new THREE.Group();
    group.add(mesh);
    group.add(edges);
    group.renderOrder = 1;
    host.add(group);
    this.items.push({ obj: group, type: type, body: body, fill: fill, mesh: mesh, edges: edges });
  }

  // addJoints draws the joints under root (whose transform is the
  // identity: they are placed in world space).
  addJoints(root, phys, nodeObj, size) {
    if (!phys.joints.length) return;
    const color = rgb(this.palette.joint);
    const dot = new THREE.SphereGeometry(size * 0.01, 12, 8);
    // Drawn last, over everything: the joints are inside the colliders.
    const mat = new THREE.MeshBasicMaterial({ color: color, depthTest: false, depthWrite: false, transparent: true });
    const lineMat = new THREE.LineBasicMaterial({ color: color, depthTest: false, depthWrite: false, transparent: true });
    const a = new THREE.Vector3(), b = new THREE.Vector3();
    for (const j of phys.joints) {
      const o = nodeObj[j.node], p = nodeObj[j.connected];
      if (!o || !p) continue;
      o.getWorldPosition(a);
      p.getWorldPosition(b);
      const group = new THREE.Group();
      const m = new THREE.Mesh(dot, mat);
      m.position.copy(a);
      m.renderOrder = 10;
      const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints([a.clone(), b.clone()]), lineMat);
      line.renderOrder = 10;
      group.add(m);
      group.add(line);
      group.renderOrder = 10; // a group's order comes before its children's

      root.add(group);
      this.items.push({ obj: group, type: "joint", body: j.node, joint: j });
    }
  }

  buildControls(phys, json) {
    const side = this.side;
    const counts = {};
    for (const it of this.items) counts[it.type] = (counts[it.type] || 0) + 1;
    const types = el("fieldset", { class: "acv-types" });
    types.appendChild(el("legend", {}, "shapes"));
    for (const t of TYPE_ORDER) {
      if (!counts[t]) continue;
      const label = el("label", { class: "acv-type" });
      const box = el("input", { type: "checkbox", "data-type": t });
      box.checked = !this.hiddenTypes.has(t);
      box.addEventListener("change", () => this.setType(t, box.checked));
      const c = t === "trigger" ? this.palette.trigger : t === "joint" ? this.palette.joint : this.palette.shapes[t] || [0.5, 0.5, 0.5];
      const sw = el("span", { class: "acv-swatch" });
      sw.style.background = "#" + rgb(c).getHexString(THREE.SRGBColorSpace);
      label.appendChild(box);
      label.appendChild(sw);
      label.appendChild(document.createTextNode(" " + (this.palette.legend[t] || t) + " (" + counts[t] + ")"));
      types.appendChild(label);
    }
    if (!this.items.length) types.appendChild(el("p", { class: "acv-none" }, "no physics in this file"));
    side.appendChild(types);

    const bodies = el("fieldset", { class: "acv-bodies" });
    bodies.appendChild(el("legend", {}, "bodies"));
    const bodyIds = [];
    for (const it of this.items) if (it.type !== "joint" && bodyIds.indexOf(it.body) < 0) bodyIds.push(it.body);
    for (const b of bodyIds) {
      const label = el("label", { class: "acv-body" });
      const box = el("input", { type: "checkbox", "data-body": String(b) });
      box.checked = !this.hiddenBodies.has(b);
      box.addEventListener("change", () => this.setBody(b, box.checked));
      const n = b >= 0 ? (json.nodes[b].name || "nodes[" + b + "]") : "no body (static)";
      const motion = b >= 0 ? phys.bodies.find((x) => x.node === b) : null;
      const kind = motion && motion.motion ? (motion.motion.type || (motion.motion.isKinematic ? "kinematic" : "dynamic")) : "";
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + n + (kind ? " · " + kind : "")));
      bodies.appendChild(label);
    }
    if (bodyIds.length) side.appendChild(bodies);

    const view = el("fieldset", { class: "acv-view" });
    view.appendChild(el("legend", {}, "view"));
    const wire = el("label");
    const wbox = el("input", { type: "checkbox", "data-control": "wireframe" });
    wbox.checked = this.wireframe;
    wbox.addEventListener("change", () => this.setWireframe(wbox.checked));
    wire.appendChild(wbox);
    wire.appendChild(document.createTextNode(" wireframe"));
    view.appendChild(wire);
    const slider = (name, text, value, set) => {
      const l = el("label", { class: "acv-slider" }, text + " ");
      const s = el("input", { type: "range", min: "0", max: "1", step: "0.05", "data-control": name });
      s.value = String(value);
      s.addEventListener("input", () => set(Number(s.value)));
      l.appendChild(s);
      view.appendChild(l);
    };
    slider("mesh-opacity", "render mesh", this.meshOpacity, (v) => this.setMeshOpacity(v));
    slider("collider-opacity", "colliders", this.colliderOpacity, (v) => this.setColliderOpacity(v));
    side.appendChild(view);

    if (phys.joints.length) {
      const js = el("details", { class: "acv-joints" });
      js.appendChild(el("summary", {}, "joints (" + phys.joints.length + ")"));
      const ul = el("ul");
      for (const j of phys.joints) {
        const n = (json.nodes[j.node] || {}).name || "nodes[" + j.node + "]";
        const p = (json.nodes[j.connected] || {}).name || "nodes[" + j.connected + "]";
        ul.appendChild(el("li", {}, n + " → " + p + ": " + (limitText(phys.jointDefs[j.joint]) || "no limits")));
      }
      js.appendChild(ul);
      side.appendChild(js);
    }
  }

  frame(root) {
    const box = new THREE.Box3().setFromObject(root);
    for (const it of this.items) box.expandByObject(it.obj);
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-3);
    const dist = radius / Math.sin((this.camera.fov * Math.PI) / 360) * 1.05;
    const dir = new THREE.Vector3(0.9, 0.6, 1.3).normalize();
    this.camera.position.copy(center).addScaledVector(dir, dist);
    this.camera.near = dist / 100;
    this.camera.far = dist * 10;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
  }

  resize() {
    const w = Math.max(this.stage.clientWidth, 1), h = Math.max(this.stage.clientHeight, 1);
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  apply() {
    for (const it of this.items) {
      it.obj.visible = !this.hiddenTypes.has(it.type) && (it.type === "joint" || !this.hiddenBodies.has(it.body));
      if (it.fill) {
        it.fill.opacity = this.colliderOpacity;
        it.fill.depthWrite = this.colliderOpacity >= 1;
        it.mesh.visible = !this.wireframe && this.colliderOpacity > 0;
      }
    }
    for (const m of this.renderMeshes) {
      // A node's mesh can carry the collider nodes as children: hide its
      // material, not the object.
      for (const mat of Array.isArray(m.material) ? m.material : [m.material]) {
        mat.visible = this.meshOpacity > 0;
        mat.transparent = this.meshOpacity < 1;
        mat.opacity = this.meshOpacity;
        mat.depthWrite = this.meshOpacity >= 1;
        mat.needsUpdate = true;
      }
    }
    this.render();
  }

  setType(t, on) { on ? this.hiddenTypes.delete(t) : this.hiddenTypes.add(t); this.apply(); }
  setBody(b, on) { on ? this.hiddenBodies.delete(b) : this.hiddenBodies.add(b); this.apply(); }
  setWireframe(on) { this.wireframe = on; this.apply(); }
  setMeshOpacity(v) { this.meshOpacity = v; this.syncSlider("mesh-opacity", v); this.apply(); }
  setColliderOpacity(v) { this.colliderOpacity = v; this.syncSlider("collider-opacity", v); this.apply(); }

  syncSlider(name, v) {
    const s = this.side.querySelector('input[data-control="' + name + '"]');
    if (s) s.value = String(v);
  }

  render() {
    if (this.renderer) this.renderer.render(this.scene, this.camera);
  }

  // rects gives, per shape type drawn, the rectangle (CSS pixels, from
  // the canvas' top left) that its visible colliders' bounding boxes
  // project to: nothing of that type is drawn outside it.
  rects() {
    const out = {};
    const canvas = this.renderer.domElement;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    const v = new THREE.Vector3();
    for (const it of this.items) {
      if (!it.obj.visible) continue;
      const box = new THREE.Box3().setFromObject(it.obj);
      if (box.isEmpty()) continue;
      const r = out[it.type] || (out[it.type] = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity });
      for (let k = 0; k < 8; k++) {
        v.set(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z).project(this.camera);
        const x = (v.x + 1) / 2 * w, y = (1 - v.y) / 2 * h;
        r.x0 = Math.min(r.x0, x); r.y0 = Math.min(r.y0, y);
        r.x1 = Math.max(r.x1, x); r.y1 = Math.max(r.y1, y);
      }
    }
    return out;
  }

  // counts gives the number of collider items per type drawn.
  counts() {
    const out = {};
    for (const it of this.items) out[it.type] = (out[it.type] || 0) + 1;
    return out;
  }

  dispose() {
    window.removeEventListener("resize", this.onResize);
    this.controls.dispose();
    disposeTree(this.scene);
    if (this.draco) this.draco.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
    this.renderer = null;
    this.host.textContent = "";
  }
}

// disposeTree frees the geometries and materials under obj.
function disposeTree(obj) {
  obj.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    for (const m of o.material ? (Array.isArray(o.material) ? o.material : [o.material]) : []) m.dispose();
  });
}

// open draws the glTF at opts.url (or the bytes opts.buffer, whose
// resources opts.urlModifier may map to blob URLs) inside host;
// opts.palette gives the colours, opts.figures a node shown beside the
// view. The returned viewer's ready promise settles once it is drawn; its
// reload(opts, keepCamera) shows another model in the same view.
export function open(host, opts) {
  return new Viewer(host, opts);
}

export { readPhysics };
