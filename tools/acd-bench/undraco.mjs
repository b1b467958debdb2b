// Writes a copy of a glTF file with its KHR_draco_mesh_compression
// primitives decoded (plain accessors), so that the Go bench, which has no
// Draco decoder, can read it. Uses the glTF-Transform libraries and the
// draco3dgltf decoder that @gltf-transform/cli (tools/package.json) brings.
//
//   node undraco.mjs IN.gltf OUT.glb
import { NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import draco3d from "draco3dgltf";

const [input, output] = process.argv.slice(2);
const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
  "draco3d.decoder": await draco3d.createDecoderModule(),
});
const doc = await io.read(input);
for (const ext of doc.getRoot().listExtensionsUsed()) {
  if (ext.extensionName === "KHR_draco_mesh_compression") ext.dispose();
}
await io.write(output, doc);
