package kinds

import (
	"github.com/autocollide/autocollide/geom"
)

// The solid makers every tessellation of a shape goes through: the shape
// rows' Tessellate (drawn by the preview) and the engines' collision
// meshes (enginenames), which differ only in their rings.

// BoxSolid returns the axis-aligned box of full extents size, centred on
// the origin: its 8 corners (corner i at −size/2 + size·(i&1, i>>1&1,
// i>>2&1)) and 12 triangles wound outward.
func BoxSolid(size geom.Vec3) ([]geom.Vec3, [][3]uint32) {
	var s solid
	for i := range 8 {
		s.verts = append(s.verts, geom.Vec3{
			(float64(i&1) - 0.5) * size[0],
			(float64(i>>1&1) - 0.5) * size[1],
			(float64(i>>2&1) - 0.5) * size[2],
		})
	}
	for _, q := range [][4]uint32{{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}} {
		s.tris = append(s.tris, [3]uint32{q[0], q[1], q[2]}, [3]uint32{q[0], q[2], q[3]})
	}
	s.orient()
	return s.verts, s.tris
}

// RingStack returns the closed solid through rings around local +Y, listed
// top to bottom, each of n points (geom.Circle.Points), with a pole vertex
// above the first ring at height top and one below the last at height
// bottom: vertex 0 is the top pole, then the rings' points, then the
// bottom pole. Its triangles go segment by segment, from the top pole down
// to the bottom one, wound outward: the solid must be convex around the
// origin. Without rings it is the two poles and no triangle.
func RingStack(top float64, rings []geom.Circle, bottom float64, n int) ([]geom.Vec3, [][3]uint32) {
	s := solid{verts: []geom.Vec3{{0, top, 0}}}
	for _, rg := range rings {
		s.verts = append(s.verts, rg.Points(n)...)
	}
	s.verts = append(s.verts, geom.Vec3{0, bottom, 0})
	if len(rings) == 0 {
		return s.verts, nil
	}
	at := func(k, j int) uint32 { return uint32(1 + k*n + j%n) }
	last := uint32(len(s.verts) - 1)
	for j := range n {
		s.tris = append(s.tris, [3]uint32{0, at(0, j), at(0, j+1)})
		for k := 0; k+1 < len(rings); k++ {
			s.tris = append(s.tris, [3]uint32{at(k, j), at(k+1, j), at(k+1, j+1)}, [3]uint32{at(k, j), at(k+1, j+1), at(k, j+1)})
		}
		s.tris = append(s.tris, [3]uint32{last, at(len(rings)-1, j+1), at(len(rings)-1, j)})
	}
	s.orient()
	return s.verts, s.tris
}

// orient winds every face outward: the solids are convex around the
// origin, so a face whose normal points towards it is turned.
func (s *solid) orient() {
	for i, t := range s.tris {
		a, b, c := s.verts[t[0]], s.verts[t[1]], s.verts[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if n.Dot(a.Add(b).Add(c)) < 0 {
			s.tris[i] = [3]uint32{t[0], t[2], t[1]}
		}
	}
}
