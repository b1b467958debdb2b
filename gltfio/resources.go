package gltfio

import (
	"bytes"
	"path"
	"strings"
)

// geometryBuffers returns the indices of the buffers holding data that
// geometry is read from: the accessors of mesh primitives (attributes,
// indices, morph targets), of GPU instancing and of skins, the views
// KHR_draco_mesh_compression decodes, and the sources of meshopt-compressed
// views among these. A buffer missing on disk is an error when it is one
// of these and a warning otherwise (only images or animations lose data).
func geometryBuffers(tree *Object) map[int]bool {
	accessors := map[int]bool{}
	views := map[int]bool{}
	addAcc := func(v any) {
		if i, ok := asInt(v); ok {
			accessors[i] = true
		}
	}
	addAll := func(o *Object) {
		if o == nil {
			return
		}
		for _, k := range o.Keys() {
			v, _ := o.Get(k)
			addAcc(v)
		}
	}
	for _, m := range tree.Arr("meshes") {
		mo, _ := m.(*Object)
		for _, p := range mo.Arr("primitives") {
			po, _ := p.(*Object)
			addAll(po.Obj("attributes"))
			v, _ := po.Get("indices")
			addAcc(v)
			for _, t := range po.Arr("targets") {
				to, _ := t.(*Object)
				addAll(to)
			}
			if bv, ok := po.Obj("extensions").Obj("KHR_draco_mesh_compression").Int("bufferView"); ok {
				views[bv] = true
			}
		}
	}
	for _, n := range tree.Arr("nodes") {
		no, _ := n.(*Object)
		addAll(no.Obj("extensions").Obj("EXT_mesh_gpu_instancing").Obj("attributes"))
	}
	for _, s := range tree.Arr("skins") {
		so, _ := s.(*Object)
		v, _ := so.Get("inverseBindMatrices")
		addAcc(v)
	}
	accs := tree.Arr("accessors")
	for i := range accessors {
		if i < 0 || i >= len(accs) {
			continue
		}
		ao, _ := accs[i].(*Object)
		if bv, ok := ao.Int("bufferView"); ok {
			views[bv] = true
		}
		sp := ao.Obj("sparse")
		for _, part := range []string{"indices", "values"} {
			if bv, ok := sp.Obj(part).Int("bufferView"); ok {
				views[bv] = true
			}
		}
	}
	buffers := map[int]bool{}
	bvs := tree.Arr("bufferViews")
	for i := range views {
		if i < 0 || i >= len(bvs) {
			continue
		}
		vo, _ := bvs[i].(*Object)
		if b, ok := vo.Int("buffer"); ok {
			buffers[b] = true
		}
		for _, name := range meshoptExtensions {
			if b, ok := vo.Obj("extensions").Obj(name).Int("buffer"); ok {
				buffers[b] = true
			}
		}
	}
	return buffers
}

// meshoptExtensions name the extensions whose views read compressed data
// from a buffer of their own.
var meshoptExtensions = []string{"EXT_meshopt_compression", "KHR_meshopt_compression"}

// imageMIME returns the media type of an image from its first bytes, or
// from its file name's extension when the bytes say nothing; "" when
// neither is known.
func imageMIME(data []byte, name string) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(data, []byte("\xABKTX 20\xBB\r\n\x1A\n")):
		return "image/ktx2"
	case len(data) >= 12 && string(data[4:8]) == "ftyp" && (string(data[8:12]) == "avif" || string(data[8:12]) == "avis"):
		return "image/avif"
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".webp":
		return "image/webp"
	case ".ktx2":
		return "image/ktx2"
	case ".avif":
		return "image/avif"
	}
	return ""
}

// dataURIMIME returns the media type a data: URI declares ("" if none).
func dataURIMIME(uri string) string {
	meta, _, _ := strings.Cut(strings.TrimPrefix(uri, "data:"), ",")
	mt, _, _ := strings.Cut(meta, ";")
	return mt
}
