package gltfio

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// ContentHash is the SHA-256 (hex) of what generation reads from the
// asset as loaded, in the layout a .glb output gives it: the JSON of the
// tree packed as packGLB packs it (members in order) and its BIN chunk.
// Hashing the packed form makes the hash independent of the container:
// a .gltf with external or data: buffers and images, and the .glb
// written from it, hash alike. Call it on a freshly loaded asset: since
// Load removes an earlier run's additions, an input and the output
// generated from it (in either container) have the same content hash,
// and any edit of the source (a vertex moved, a node renamed) changes it.
func (a *Asset) ContentHash() (string, error) {
	p, err := a.packGLB(packCopy(a.Tree))
	if err != nil {
		return "", err
	}
	js, err := json.Marshal(p.tree)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	part := func(b []byte) {
		var n [8]byte
		for i := range n {
			n[i] = byte(uint64(len(b)) >> (8 * i))
		}
		h.Write(n[:])
		h.Write(b)
	}
	part(js)
	part(p.bin)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// SetGeneratedExtra sets member key of extras.autocollide on the first
// node this session generated (the one that holds the undo record), so
// it is written with the output and removed with it by the next run. It
// fails when nothing was generated.
func (a *Asset) SetGeneratedExtra(key string, v any) error {
	if a.journal == nil || a.journal.first < 0 {
		return errors.New("no generated node to hold " + key)
	}
	node, ok := a.Tree.Arr("nodes")[a.journal.first].(*Object)
	if !ok {
		return fmt.Errorf("nodes[%d]: not an object", a.journal.first)
	}
	node.Obj("extras").Obj(MarkKey).Set(key, v)
	return nil
}

// GeneratedExtra returns member key of extras.autocollide on the first
// node an earlier run generated, read from an asset loaded with LoadRaw.
// found is false when the asset holds no generated node with that
// member.
func (a *Asset) GeneratedExtra(key string) (v any, found bool) {
	for _, n := range a.Tree.Arr("nodes") {
		o, _ := n.(*Object)
		m := o.Obj("extras").Obj(MarkKey)
		if g, _ := m.Get("generated"); g != true {
			continue
		}
		return m.Get(key)
	}
	return nil, false
}

// HasGenerated reports whether the tree holds nodes an earlier
// autocollide run generated (for an asset loaded with LoadRaw).
func (a *Asset) HasGenerated() bool {
	for _, n := range a.Tree.Arr("nodes") {
		o, _ := n.(*Object)
		if g, _ := o.Obj("extras").Obj(MarkKey).Get("generated"); g == true {
			return true
		}
	}
	return false
}
