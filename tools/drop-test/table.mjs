// Markdown table of drop-test summaries, one row per file: bodies, mass
// written vs the mass each engine computes from the colliders at 1000 kg/m³
// (and the body farthest from it), how far the written inertia per unit
// mass is from the colliders' (Havok's, principal moments sorted; the
// largest factor over bodies), and per engine the rest time and worst penetration, each body alone and
// the asset whole, with the whole drop's peak speed and failures.
//
//   node table.mjs [--report REPORT.json]... SUMMARY.json...
//
// With autocollide's JSON reports of the outputs (generate --report), two
// more columns: the bodies merged because their colliders overlapped (the
// new body ← how many), and the bodies per mass source.
//
// Rest time is when the last body came to rest (— when one never did);
// penetration is the deepest collider below the ground at rest, as a share
// of its body's size; peak speed is the fastest body's, as a share of its
// energy bound.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const files = [];
const reports = new Map(); // output path → its asset entry in a generate report
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] !== '--report') {
    files.push(process.argv[i]);
    continue;
  }
  for (const a of JSON.parse(readFileSync(process.argv[++i], 'utf8')).assets ?? []) reports.set(path.resolve(a.output ?? ''), a);
}
if (!files.length) {
  process.stderr.write('usage: node table.mjs [--report REPORT.json]... SUMMARY.json...\n');
  process.exit(2);
}

const g = (v) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : Number(v).toPrecision(3));
const pct = (v) => (v === null || v === undefined ? '—' : `${(100 * v).toFixed(2)}%`);
const secs = (v) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : `${v.toFixed(2)}s`);
const sum = (xs) => xs.reduce((s, x) => s + (x ?? 0), 0);

const engines = ['rapier', 'jolt', 'havok'];
const withReport = reports.size > 0;
const head = ['file', 'bodies', ...(withReport ? ['merged', 'mass from'] : []), 'mass written (kg)', 'colliders R/J/H (kg)', 'worst colliders/written', 'I/m off by (H)', ...engines.map((e) => `${e[0].toUpperCase()} alone rest, pen.`), ...engines.map((e) => `${e[0].toUpperCase()} whole rest, pen., peak`), 'whole fails'];
process.stdout.write(`| ${head.join(' | ')} |\n|${head.map(() => ' --- ').join('|')}|\n`);
for (const f of files) {
  const summary = JSON.parse(readFileSync(f, 'utf8'));
  for (const [file, entry] of Object.entries(summary.files).sort(([a], [b]) => a.localeCompare(b))) {
    const dyn = (r) => (r?.bodies ?? []).filter((b) => b.restHeight !== undefined);
    const any = engines.map((e) => entry[e]).filter((r) => r?.bodies?.length).sort((a, b) => dyn(b).length - dyn(a).length)[0];
    if (!any) continue;
    const bodies = dyn(any);
    const written = sum(bodies.map((b) => b.massWritten));
    const colliders = engines.map((e) => (dyn(entry[e]).length ? g(sum(dyn(entry[e]).map((b) => b.collidersMass))) : '—'));
    let worst = null;
    for (const b of dyn(entry.havok ?? any)) {
      const ratio = b.massWritten > 0 ? b.collidersMass / b.massWritten : null;
      if (ratio !== null && (worst === null || Math.abs(Math.log(ratio)) > Math.abs(Math.log(worst.ratio)))) worst = { ratio, body: b.body };
    }
    let off = null;
    for (const b of dyn(entry.havok ?? {})) {
      const w = b.inertiaPerMassWritten;
      const c = b.collidersInertiaPerMass;
      if (!w || !c) continue;
      const [ws, cs] = [[...w].sort((x, y) => x - y), [...c].sort((x, y) => x - y)];
      const f = Math.max(...ws.map((v, i) => Math.max(v / cs[i], cs[i] / v)));
      if (off === null || f > off.f) off = { f, body: b.body };
    }
    const alone = engines.map((e) => {
      const d = dyn(entry[e]);
      if (!d.length) return '—';
      const rest = d.some((b) => b.restTime === null) ? null : Math.max(...d.map((b) => b.restTime));
      return `${secs(rest)}, ${pct(Math.max(...d.map((b) => b.penetration ?? 0)))}${entry[e].ok ? '' : ' ✗'}`;
    });
    const whole = engines.map((e) => {
      const w = entry[e]?.whole;
      if (!w || w.note) return w?.note ?? '—';
      return `${secs(w.restTime)}, ${pct(w.worstPenetration)}, ${pct(w.peakSpeedRatio)}${w.ok ? '' : ' ✗'}`;
    });
    const kinds = new Set();
    for (const e of engines) {
      for (const x of entry[e]?.whole?.failures ?? []) {
        const m = /(starts inside|skinned mesh node|thrown|not at rest|came to rest only|below the ground|NaN|zero volume)/.exec(x);
        kinds.add(m ? `${m[1]} (${e})` : `${x.slice(0, 40)} (${e})`);
      }
    }
    const merged = [...kinds].reduce((m, k) => {
      const [, what, e] = /^(.*) \((\w+)\)$/.exec(k);
      (m[what] ??= []).push(e[0].toUpperCase());
      return m;
    }, {});
    const fails = Object.entries(merged).map(([w, es]) => `${w} ${es.join('')}`).join('; ') || '—';
    const name = `${path.basename(path.dirname(path.dirname(file)))}/${path.basename(file)}`;
    const rep = reports.get(path.resolve(file));
    const fromReport = [];
    if (withReport) {
      const list = rep?.bodyList ?? [];
      fromReport.push(list.filter((b) => b.merged).map((b) => `${b.name} ← ${b.merged.length}`).join(', ') || '—');
      const src = {};
      for (const b of list) src[b.massSource] = (src[b.massSource] ?? 0) + 1;
      fromReport.push(Object.entries(src).map(([k, n]) => `${k} ${n}`).join(', ') || '—');
    }
    process.stdout.write(`| ${[name, bodies.length, ...fromReport, g(written), colliders.join(' / '), worst ? `${g(worst.ratio)}× (${worst.body})` : '—', off ? `×${off.f.toFixed(2)} (${off.body})` : '—', ...alone, ...whole, fails].join(' | ')} |\n`);
  }
}
