package decompose

import (
	"context"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// FuzzDecompose builds a small mesh from bytes (up to 24 vertices on a
// small integer grid, up to 32 triangles, so open, flat, self-intersecting
// and degenerate meshes are all common) and decomposes it with small caps
// to keep each run fast. It must not panic; it fails only when no triangle
// has extent, and otherwise keeps every promise of checkResult:
// conservative containment of every vertex, closed convex hulls with
// positive volume, the vertex cap.
func FuzzDecompose(f *testing.F) {
	f.Add([]byte{8, 0, 0, 0, 9, 0, 0, 0, 9, 0, 9, 9, 0, 0, 0, 9, 9, 0, 9, 0, 9, 9, 9, 9}, []byte{0, 1, 2, 1, 3, 2, 4, 6, 5, 5, 6, 7, 0, 4, 1, 1, 4, 5, 2, 3, 6, 3, 7, 6, 0, 2, 4, 2, 6, 4, 1, 5, 3, 3, 5, 7}, uint8(4))
	f.Add([]byte{4, 0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 10}, []byte{0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2}, uint8(2))
	f.Add([]byte{3, 1, 1, 1, 2, 2, 2, 3, 3, 3}, []byte{0, 1, 2}, uint8(1)) // collinear
	f.Add([]byte{4, 0, 0, 0, 5, 0, 0, 5, 5, 0, 0, 5, 0}, []byte{0, 1, 2, 0, 2, 3}, uint8(8))
	// Two degenerate triangles (segments) apart, MaxHulls 1: their merged
	// part had an infinite concavity and merging down to one hull failed.
	f.Add([]byte("7\x00\x00\x00\t\x00\x00\x00\t\x00\t\t\x00\x00\x00\t\t\x00\t\x00\t\t"), []byte("110BB20"), uint8(0))
	f.Fuzz(func(t *testing.T, verts, tris []byte, hulls uint8) {
		if len(verts) == 0 {
			return
		}
		nv := min(int(verts[0]%24)+1, (len(verts)-1)/3)
		if nv == 0 {
			return
		}
		var m testMesh
		for i := 0; i < nv; i++ {
			b := verts[1+3*i:]
			m.v = append(m.v, geom.Vec3{float64(int8(b[0]) / 8), float64(int8(b[1]) / 8), float64(int8(b[2]) / 8)})
		}
		for i := 0; i+3 <= len(tris) && len(m.t) < 32; i += 3 {
			m.t = append(m.t, [3]uint32{uint32(int(tris[i]) % nv), uint32(int(tris[i+1]) % nv), uint32(int(tris[i+2]) % nv)})
		}
		box := geom.EmptyBox()
		for _, tr := range m.t {
			for _, vi := range tr {
				box = box.Extend(m.v[vi])
			}
		}
		opt := Options{MaxHulls: int(hulls%4) + 1, MaxHullVertices: 16, Workers: 1}
		r, err := Decompose(context.Background(), m.v, m.t, opt)
		if len(m.t) == 0 || box.Diagonal() == 0 {
			if err == nil {
				t.Fatalf("no extent, yet %d hulls", len(r.Hulls))
			}
			return
		}
		if err != nil {
			t.Fatalf("%v (mesh %v)", err, m)
		}
		if len(r.Hulls) == 0 || len(r.Hulls) > opt.MaxHulls {
			t.Fatalf("%d hulls, cap %d", len(r.Hulls), opt.MaxHulls)
		}
		checkResult(t, m, r, opt.MaxHullVertices)
	})
}
