// Runs the Khronos glTF validator on every file named on the command line
// and prints one JSON object: {"<file>": {"errors": N, "warnings": N,
// "codes": ["CODE", ...error codes...]}, ...}. External resources are read
// from the file's folder. Used by the Go end-to-end tests.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const out = {};
for (const file of process.argv.slice(2)) {
  const dir = path.dirname(file);
  try {
    const data = new Uint8Array(await readFile(file));
    const report = await validator.validateBytes(data, {
      uri: path.basename(file),
      maxIssues: 0,
      externalResourceFunction: async (uri) => new Uint8Array(await readFile(path.join(dir, decodeURIComponent(uri)))),
    });
    const codes = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''}`.trim());
    out[file] = { errors: report.issues.numErrors, warnings: report.issues.numWarnings, codes };
  } catch (e) {
    out[file] = { errors: -1, codes: [String(e)] };
  }
}
process.stdout.write(JSON.stringify(out));
