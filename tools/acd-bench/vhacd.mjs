// Runs V-HACD (vhacd-js, WebAssembly) with its default options on OBJ meshes
// and writes, per mesh, the hull vertices and the median wall-clock and CPU
// seconds of `repeat` runs as JSON, for main.go to measure.
//
//   node vhacd.mjs OUT.json REPEAT mesh1.obj mesh2.obj ...
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { ConvexMeshDecomposition } from "vhacd-js/lib/vhacd.js";

function readOBJ(path) {
  const pos = [];
  const idx = [];
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const f = line.trim().split(/\s+/);
    if (f[0] === "v") {
      pos.push(+f[1], +f[2], +f[3]);
    } else if (f[0] === "f") {
      const n = pos.length / 3;
      const poly = f.slice(1).map((s) => {
        const i = parseInt(s.split("/")[0], 10);
        return i < 0 ? n + i : i - 1;
      });
      for (let k = 1; k + 1 < poly.length; k++) idx.push(poly[0], poly[k], poly[k + 1]);
    }
  }
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const [out, repeatArg, ...files] = process.argv.slice(2);
const repeat = Math.max(1, parseInt(repeatArg, 10) || 1);
const vhacd = await ConvexMeshDecomposition.create();
const results = {};
for (const file of files) {
  const name = basename(file, ".obj");
  const mesh = readOBJ(file);
  const wall = [];
  const cpu = [];
  let hulls = [];
  try {
    for (let r = 0; r < repeat; r++) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      hulls = vhacd.computeConvexHulls(mesh, {});
      wall.push(Number(process.hrtime.bigint() - t0) / 1e9);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1e6);
    }
    results[name] = {
      seconds: median(wall),
      cpuSeconds: median(cpu),
      hulls: hulls.map((h) => {
        const pts = [];
        for (let i = 0; i < h.positions.length; i += 3) pts.push([h.positions[i], h.positions[i + 1], h.positions[i + 2]]);
        return pts;
      }),
    };
  } catch (e) {
    results[name] = { error: String(e) };
  }
  process.stderr.write(`vhacd-js ${name}: ${hulls.length} hulls, ${results[name].seconds ?? "-"} s\n`);
}
writeFileSync(out, JSON.stringify(results));
