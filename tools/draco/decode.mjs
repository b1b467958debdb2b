// Reference decoder for autocollide's Draco tests and benchmark: decodes
// Draco streams with the npm `draco3dgltf` decoder (the WebAssembly build
// glTF loaders use) and reports the faces and every attribute's values.
//
// Usage:
//   node decode.mjs [request.json]      batch: JSON array of base64 streams in
//                                       (stdin when not given), JSON array out
//   node decode.mjs --bench RUNS F.drc... after a second of warm-up, times
//                                       at least RUNS decodes and a second of
//                                       them per file; prints "NAME mean-ns"
// Answer per stream: {"error": message} or
//   {"points": n, "faces": base64 uint32 LE (3 per face),
//    "attributes": [{"uniqueId", "type", "dataType", "components", "normalized",
//                    "values": base64 LE in dataType, points × components}]}
// type and dataType are Draco's enum numbers (POSITION=0 … GENERIC=4;
// INT8=1 … FLOAT32=9), as in package draco.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import draco3d from 'draco3dgltf';

const M = await draco3d.createDecoderModule({});

// Draco data type → [typed array, the module's heap view name].
const kinds = {
	1: [Int8Array, 'HEAP8'], 2: [Uint8Array, 'HEAPU8'], 3: [Int16Array, 'HEAP16'], 4: [Uint16Array, 'HEAPU16'],
	5: [Int32Array, 'HEAP32'], 6: [Uint32Array, 'HEAPU32'], 9: [Float32Array, 'HEAPF32'],
};

// decode returns the faces and attributes of one stream, as typed arrays.
function decode(decoder, bytes) {
	const mesh = new M.Mesh();
	try {
		const status = decoder.DecodeArrayToMesh(bytes, bytes.length, mesh);
		if (!status.ok() || mesh.ptr === 0) throw new Error(status.error_msg() || 'decoding failed');
		const points = mesh.num_points();
		const n = mesh.num_faces() * 3;
		const fptr = M._malloc(Math.max(4 * n, 4));
		decoder.GetTrianglesUInt32Array(mesh, 4 * n, fptr);
		const faces = new Uint32Array(M.HEAPU32.buffer, fptr, n).slice();
		M._free(fptr);
		const attributes = [];
		for (let i = 0; i < mesh.num_attributes(); i++) {
			const a = decoder.GetAttribute(mesh, i);
			const dt = a.data_type();
			const kind = kinds[dt];
			if (!kind) throw new Error(`attribute ${a.unique_id()}: data type ${dt} is not readable here`);
			const [Ctor, heap] = kind;
			const count = points * a.num_components();
			const size = count * Ctor.BYTES_PER_ELEMENT;
			const ptr = M._malloc(Math.max(size, 4));
			if (!decoder.GetAttributeDataArrayForAllPoints(mesh, a, dt, size, ptr)) {
				M._free(ptr);
				throw new Error(`attribute ${a.unique_id()}: values not readable`);
			}
			const values = new Ctor(M[heap].buffer, ptr, count).slice();
			M._free(ptr);
			attributes.push({
				uniqueId: a.unique_id(), type: a.attribute_type(), dataType: dt,
				components: a.num_components(), normalized: a.normalized(), values,
			});
		}
		return { points, faces, attributes };
	} finally {
		M.destroy(mesh);
	}
}

const b64 = (t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength).toString('base64');
const decoder = new M.Decoder();

if (process.argv[2] === '--bench') {
	const runs = Number(process.argv[3]);
	for (const file of process.argv.slice(4)) {
		const bytes = new Int8Array(readFileSync(file));
		// Warm-up: node compiles WebAssembly in tiers, the optimized code
		// arriving after some runs; decode for a second (at least once).
		for (const t0 = Date.now(); Date.now() - t0 < 1000; ) decode(decoder, bytes);
		let n = 0;
		const t0 = process.hrtime.bigint();
		let elapsed = 0n;
		while (n < runs || elapsed < 1000000000n) {
			decode(decoder, bytes);
			n++;
			elapsed = process.hrtime.bigint() - t0;
		}
		console.log(`${basename(file)} ${Number(elapsed) / n}`);
	}
} else {
	const requests = JSON.parse(readFileSync(process.argv[2] ?? 0, 'utf8'));
	const results = requests.map((src) => {
		try {
			const b = Buffer.from(src, 'base64');
			const m = decode(decoder, new Int8Array(b.buffer, b.byteOffset, b.byteLength));
			return {
				points: m.points, faces: b64(m.faces),
				attributes: m.attributes.map((a) => ({ ...a, values: b64(a.values) })),
			};
		} catch (e) {
			return { error: String(e && e.message ? e.message : e) };
		}
	});
	process.stdout.write(JSON.stringify(results));
}
M.destroy(decoder);
