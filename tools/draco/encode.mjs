// Reference encoder for autocollide's Draco tests: turns meshes generated
// by the Go tests into Draco streams with the npm `draco3dgltf` encoder
// (the WebAssembly build glTF pipelines use), with every option exposed.
//
// Usage:
//   node encode.mjs [request.json]          batch: JSON array in, JSON array out
//   node encode.mjs --drc OUT.drc MESH.json  one mesh object in, .drc bytes out
// (request.json / MESH.json: stdin when not given or "-")
//
// A mesh object:
//   {"indices": base64 uint32 LE (3 per face),
//    "attributes": [{"type": "POSITION"|"NORMAL"|"COLOR"|"TEX_COORD"|"GENERIC",
//                    "dataType": "float32"|"int8"|"uint8"|"int16"|"uint16"|"int32"|"uint32",
//                    "components": 1..4, "normalized": bool,
//                    "data": base64 LE values, point-major,
//                    "bits": 0 (none) or quantization bits}],
//    "method": "edgebreaker"|"sequential",
//    "level": 0..10            compression level; speed = 10 - level
//    "encodeSpeed", "decodeSpeed": 0..10 (override level)
//    "dedup": bool             EncodeToDracoBuffer's deduplication (default true)}
// Answer per mesh: {"drc": base64, "ids": [unique id per attribute, in order],
//                   "points": n, "faces": n} or {"error": message}.
import { readFileSync, writeFileSync } from 'node:fs';
import draco3d from 'draco3dgltf';

const args = process.argv.slice(2);
let drcOut = null;
if (args[0] === '--drc') {
	drcOut = args[1];
	args.splice(0, 2);
}
const src = args[0] && args[0] !== '-' ? args[0] : 0;
const input = JSON.parse(readFileSync(src, 'utf8'));
const M = await draco3d.createEncoderModule({});

const arrays = {
	float32: Float32Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
	uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
};
const adders = {
	float32: 'AddFloatAttribute', int8: 'AddInt8Attribute', uint8: 'AddUInt8Attribute', int16: 'AddInt16Attribute',
	uint16: 'AddUInt16Attribute', int32: 'AddInt32Attribute', uint32: 'AddUInt32Attribute',
};

function typed(b64, Ctor) {
	const b = Buffer.from(b64 ?? '', 'base64');
	const copy = new Uint8Array(b); // aligned copy
	return new Ctor(copy.buffer, 0, copy.byteLength / Ctor.BYTES_PER_ELEMENT);
}

function encode(r) {
	const builder = new M.MeshBuilder();
	const mesh = new M.Mesh();
	const encoder = new M.ExpertEncoder(mesh);
	const out = new M.DracoInt8Array();
	try {
		const indices = typed(r.indices, Uint32Array);
		if (indices.length % 3 !== 0) throw new Error('indices are not whole triangles');
		const faces = indices.length / 3;
		builder.AddFacesToMesh(mesh, faces, indices);
		const ids = [];
		let points = -1;
		for (const a of r.attributes) {
			const Ctor = arrays[a.dataType];
			if (!Ctor) throw new Error('unknown dataType ' + a.dataType);
			if (M[a.type] === undefined) throw new Error('unknown attribute type ' + a.type);
			const values = typed(a.data, Ctor);
			const n = values.length / a.components;
			if (points >= 0 && n !== points) throw new Error('attributes disagree on the point count');
			points = n;
			const id = builder[adders[a.dataType]](mesh, M[a.type], n, a.components, values);
			if (id < 0) throw new Error('cannot add attribute ' + a.type);
			if (a.normalized) builder.SetNormalizedFlagForAttribute(mesh, id, true);
			if (a.bits) encoder.SetAttributeQuantization(id, a.bits);
			ids.push(id);
		}
		encoder.SetTrackEncodedProperties(true);
		const speed = 10 - (r.level ?? 7);
		encoder.SetSpeedOptions(r.encodeSpeed ?? speed, r.decodeSpeed ?? speed);
		encoder.SetEncodingMethod(r.method === 'sequential' ? M.MESH_SEQUENTIAL_ENCODING : M.MESH_EDGEBREAKER_ENCODING);
		const n = encoder.EncodeToDracoBuffer(r.dedup ?? true, out);
		if (n <= 0) throw new Error('the encoder failed');
		const bytes = new Uint8Array(n);
		for (let i = 0; i < n; i++) bytes[i] = out.GetValue(i);
		return { drc: bytes, ids, points: encoder.GetNumberOfEncodedPoints(), faces: encoder.GetNumberOfEncodedFaces() };
	} finally {
		M.destroy(out);
		M.destroy(encoder);
		M.destroy(mesh);
		M.destroy(builder);
	}
}

if (drcOut) {
	writeFileSync(drcOut, encode(input).drc);
} else {
	const results = input.map((r) => {
		try {
			const e = encode(r);
			return { ...e, drc: Buffer.from(e.drc).toString('base64') };
		} catch (e) {
			return { error: String(e && e.message ? e.message : e) };
		}
	});
	process.stdout.write(JSON.stringify(results));
}
