// Reference decoder for autocollide's meshopt tests: runs the npm
// `meshoptimizer` package's MeshoptDecoder.decodeGltfBuffer (its
// WebAssembly build) on a batch of compressed streams.
//
// Usage: node decode.mjs [request.json]   (reads stdin when no file is given)
// Request: JSON array of {mode, filter, count, byteStride, src}, src in base64.
// Response (stdout): JSON array, one entry per request, in order:
//   {"out": base64} on success, or {"error": message} when the decoder throws.
import { readFileSync } from 'node:fs';
import { MeshoptDecoder } from 'meshoptimizer';

const input = readFileSync(process.argv[2] ?? 0, 'utf8');
const requests = JSON.parse(input);
await MeshoptDecoder.ready;

const results = requests.map((r) => {
	try {
		const src = Buffer.from(r.src, 'base64');
		const target = new Uint8Array(r.count * r.byteStride);
		MeshoptDecoder.decodeGltfBuffer(target, r.count, r.byteStride, new Uint8Array(src), r.mode, r.filter || 'NONE');
		return { out: Buffer.from(target).toString('base64') };
	} catch (e) {
		return { error: String(e && e.message ? e.message : e) };
	}
});
process.stdout.write(JSON.stringify(results));
