package preview

import (
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/physics"
)

// solid is a triangle mesh, in the shape's local space until placed.
type solid struct {
	verts []geom.Vec3
	tris  [][3]uint32
}

// shapeSolid returns the tessellation of s its kinds row gives (a plane:
// its quad), and false for shapes without one (hulls and meshes, drawn
// from their mesh).
func shapeSolid(s physics.Shape) (solid, bool) {
	row, ok := kinds.ShapeOf(s.Type)
	if !ok || row.Tessellate == nil {
		return solid{}, false
	}
	verts, tris := row.Tessellate(s)
	return solid{verts, tris}, true
}

// creaseAngle is the dihedral angle above which an edge between two
// triangles is drawn: it catches box edges, cylinder rims and hull ridges
// but not the 11.25° steps of a tessellated sphere or capsule.
const creaseAngle = 30 * math.Pi / 180

// creases returns the edges of s to outline: boundary edges, edges shared
// by more than two triangles, and edges whose two triangles' normals
// differ by more than creaseAngle. Order follows the triangles.
func creases(s solid) [][2]uint32 {
	type key [2]uint32
	normals := make([]geom.Vec3, len(s.tris))
	adj := make(map[key][]int, len(s.tris)*3/2)
	for t, tri := range s.tris {
		a, b, c := s.verts[tri[0]], s.verts[tri[1]], s.verts[tri[2]]
		normals[t] = b.Sub(a).Cross(c.Sub(a)).Normalize()
		for e := range 3 {
			u, v := tri[e], tri[(e+1)%3]
			if u == v {
				continue
			}
			k := key{min(u, v), max(u, v)}
			adj[k] = append(adj[k], t)
		}
	}
	cosLimit := math.Cos(creaseAngle)
	var out [][2]uint32
	for t, tri := range s.tris {
		for e := range 3 {
			u, v := tri[e], tri[(e+1)%3]
			if u == v {
				continue
			}
			k := key{min(u, v), max(u, v)}
			ts := adj[k]
			if ts[0] != t {
				continue // reported by the first triangle using it
			}
			crease := len(ts) != 2
			if len(ts) == 2 {
				n0, n1 := normals[ts[0]], normals[ts[1]]
				zero := n0.Len2() == 0 || n1.Len2() == 0
				crease = !zero && n0.Dot(n1) < cosLimit
			}
			if crease {
				out = append(out, [2]uint32{u, v})
			}
		}
	}
	return out
}
