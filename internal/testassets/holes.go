package testassets

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// HoleMesh is a generated mesh with through-holes or cavities (issue #36's
// "empty space stays empty"): closed, outward-wound shells, some
// interpenetrating as modellers join parts, and the probe paths a sphere
// must travel without touching a collider: through each hole, into each
// cavity's mouth.
type HoleMesh struct {
	Name   string
	V      []geom.Vec3
	T      [][3]uint32
	Probes []Probe
}

// Probe is a straight path for a probe sphere's centre, and what it
// probes.
type Probe struct {
	From, To geom.Vec3
	What     string
}

// HoleMeshes returns the mug (a cup with a handle), a torus, a ring, a
// chair whose back has a gap, a cup and a teapot-like body with a handle
// and a spout, z up (y up for the chair). Their probes clear the mesh
// itself by the default tolerance's probe (1.5 times 5 % of its diagonal;
// see ProbeClearance) and, but for the mug's handle, by one tolerance
// more: a hull may stray one tolerance from the surface, so those holes
// are ones a decomposition within the tolerance keeps open.
func HoleMeshes() []HoleMesh {
	return []HoleMesh{mug(), torus(), ring(), chair(), cup(), teapot()}
}

func mug() HoleMesh {
	m := join(tubeWall(1, 0.9, 2, 32), box(geom.Vec3{-1, -1, -0.2}, geom.Vec3{1, 1, 0.05}),
		arcTube(geom.Vec3{0.95, 0, 1}, 1.2, 0.12, -math.Pi/2, math.Pi/2, 16, 8))
	m.Name = "mug"
	m.Probes = []Probe{
		{geom.Vec3{1.55, -2, 1}, geom.Vec3{1.55, 2, 1}, "through the handle"},
		{geom.Vec3{0, 0, 3}, geom.Vec3{0, 0, 1.2}, "into the cup's mouth"},
	}
	return m
}

func torus() HoleMesh {
	m := arcTube(geom.Vec3{}, 1, 0.3, 0, 2*math.Pi, 32, 12)
	m.Name = "torus"
	m.Probes = []Probe{{geom.Vec3{0, -1, 0}, geom.Vec3{0, 1, 0}, "through the hole"}}
	return m
}

func ring() HoleMesh {
	m := tubeWall(1, 0.7, 0.3, 32)
	m.Name = "ring"
	m.Probes = []Probe{{geom.Vec3{0, 0, -1}, geom.Vec3{0, 0, 1.3}, "through the hole"}}
	return m
}

// chair: a seat on four legs, a back of two posts and a top rail with an
// opening between them (y up, the back at z = -1).
func chair() HoleMesh {
	m := join(
		box(geom.Vec3{-1, 1, -1}, geom.Vec3{1, 1.15, 1}),
		box(geom.Vec3{-1, 0, -1}, geom.Vec3{-0.85, 1.05, -0.85}),
		box(geom.Vec3{0.85, 0, -1}, geom.Vec3{1, 1.05, -0.85}),
		box(geom.Vec3{-1, 0, 0.85}, geom.Vec3{-0.85, 1.05, 1}),
		box(geom.Vec3{0.85, 0, 0.85}, geom.Vec3{1, 1.05, 1}),
		box(geom.Vec3{-1, 1.1, -1}, geom.Vec3{-0.8, 2.9, -0.85}),
		box(geom.Vec3{0.8, 1.1, -1}, geom.Vec3{1, 2.9, -0.85}),
		box(geom.Vec3{-1, 2.6, -1}, geom.Vec3{1, 2.9, -0.85}),
	)
	m.Name = "chair"
	m.Probes = []Probe{
		{geom.Vec3{0, 1.875, -2}, geom.Vec3{0, 1.875, 0}, "through the back's opening"},
		{geom.Vec3{-2, 0.45, 0}, geom.Vec3{2, 0.45, 0}, "under the seat, between the legs"},
	}
	return m
}

// cup: a wide tumbler, wall 0.1, on a base.
func cup() HoleMesh {
	m := join(tubeWall(1.2, 1.1, 1.5, 40), box(geom.Vec3{-1.15, -1.15, -0.15}, geom.Vec3{1.15, 1.15, 0.05}))
	m.Name = "cup"
	m.Probes = []Probe{{geom.Vec3{0, 0, 2.5}, geom.Vec3{0, 0, 0.6}, "into the mouth"}}
	return m
}

// teapot: a squat round body, a handle curling back into it, a spout
// and a knob on the lid.
func teapot() HoleMesh {
	body := sphere(geom.Vec3{0, 0, 1}, geom.Vec3{0.7, 0.7, 1}, 24, 12)
	handle := ellipseTube(geom.Vec3{0.6, 0, 1}, 1.35, 0.97, 0.09, -math.Pi/2-0.45, math.Pi/2+0.45, 24, 8)
	spout := rod(geom.Vec3{-0.5, 0, 0.7}, geom.Vec3{-1.5, 0, 1.7}, 0.13, 10)
	knob := box(geom.Vec3{-0.15, -0.15, 1.9}, geom.Vec3{0.15, 0.15, 2.15})
	m := join(body, handle, spout, knob)
	m.Name = "teapot"
	m.Probes = []Probe{{geom.Vec3{1.28, -2, 1}, geom.Vec3{1.28, 2, 1}, "through the handle"}}
	return m
}

// ProbeClearance returns the least distance between probe i's path (201
// points along it) and the mesh's triangles: a probe of a smaller radius
// passes the mesh itself.
func (m HoleMesh) ProbeClearance(i int) float64 {
	p := m.Probes[i]
	best := math.Inf(1)
	for s := 0; s <= 200; s++ {
		x := p.From.Add(p.To.Sub(p.From).Scale(float64(s) / 200))
		for _, t := range m.T {
			best = math.Min(best, geom.PointTriangleDist2(x, m.V[t[0]], m.V[t[1]], m.V[t[2]]))
		}
	}
	return math.Sqrt(best)
}

// join concatenates meshes.
func join(ms ...HoleMesh) HoleMesh {
	var out HoleMesh
	for _, m := range ms {
		off := uint32(len(out.V))
		out.V = append(out.V, m.V...)
		for _, t := range m.T {
			out.T = append(out.T, [3]uint32{t[0] + off, t[1] + off, t[2] + off})
		}
	}
	return out
}

func box(lo, hi geom.Vec3) HoleMesh {
	var m HoleMesh
	for i := 0; i < 8; i++ {
		p := lo
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				p[k] = hi[k]
			}
		}
		m.V = append(m.V, p)
	}
	// Corner i has bit k set where it is at hi along axis k.
	quads := [6][4]uint32{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	for _, q := range quads {
		m.T = append(m.T, [3]uint32{q[0], q[1], q[2]}, [3]uint32{q[0], q[2], q[3]})
	}
	return m
}

// tubeWall is a closed tube along z: outer radius ro, inner ri, from z = 0
// to h, n sides.
func tubeWall(ro, ri, h float64, n int) HoleMesh {
	var m HoleMesh
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		c, s := math.Cos(a), math.Sin(a)
		m.V = append(m.V, geom.Vec3{ro * c, ro * s, 0}, geom.Vec3{ro * c, ro * s, h}, geom.Vec3{ri * c, ri * s, 0}, geom.Vec3{ri * c, ri * s, h})
	}
	id := func(i, k int) uint32 { return uint32((i%n)*4 + k) }
	quad := func(a, b, c, d uint32) { m.T = append(m.T, [3]uint32{a, b, c}, [3]uint32{a, c, d}) }
	for i := 0; i < n; i++ {
		quad(id(i, 0), id(i+1, 0), id(i+1, 1), id(i, 1))
		quad(id(i, 2), id(i, 3), id(i+1, 3), id(i+1, 2))
		quad(id(i, 1), id(i+1, 1), id(i+1, 3), id(i, 3))
		quad(id(i, 0), id(i, 2), id(i+1, 2), id(i+1, 0))
	}
	return m
}

// arcTube is a tube of radius r along the arc of radius R about c in the
// xz plane, from angle a0 to a1 (from +x towards +z), n segments; a full
// turn is closed on itself (a torus), a part turn capped at both ends.
func arcTube(c geom.Vec3, R, r, a0, a1 float64, n, sides int) HoleMesh {
	return ellipseTube(c, R, R, r, a0, a1, n, sides)
}

// ellipseTube is arcTube along the ellipse of radii rx (along x) and rz
// (along z); the tube's sections are offset along the direction of angle a
// (round sections on a circle, slightly sheared on an ellipse).
func ellipseTube(c geom.Vec3, rx, rz, r, a0, a1 float64, n, sides int) HoleMesh {
	var m HoleMesh
	full := math.Abs(a1-a0-2*math.Pi) < 1e-12
	rings := n + 1
	if full {
		rings = n
	}
	for i := 0; i < rings; i++ {
		a := a0 + (a1-a0)*float64(i)/float64(n)
		dir := geom.Vec3{math.Cos(a), 0, math.Sin(a)}
		for k := 0; k < sides; k++ {
			b := 2 * math.Pi * float64(k) / float64(sides)
			on := c.Add(geom.Vec3{rx * dir[0], 0, rz * dir[2]})
			m.V = append(m.V, on.Add(dir.Scale(r*math.Cos(b))).Add(geom.Vec3{0, r * math.Sin(b), 0}))
		}
	}
	id := func(i, k int) uint32 { return uint32((i%rings)*sides + k%sides) }
	for i := 0; i < n; i++ {
		for k := 0; k < sides; k++ {
			m.T = append(m.T, [3]uint32{id(i, k), id(i, k+1), id(i+1, k+1)}, [3]uint32{id(i, k), id(i+1, k+1), id(i+1, k)})
		}
	}
	if full {
		return m
	}
	for _, e := range []struct {
		i    int
		flip bool
	}{{0, true}, {n, false}} {
		a := a0 + (a1-a0)*float64(e.i)/float64(n)
		ci := uint32(len(m.V))
		m.V = append(m.V, c.Add(geom.Vec3{rx * math.Cos(a), 0, rz * math.Sin(a)}))
		for k := 0; k < sides; k++ {
			t := [3]uint32{ci, id(e.i, k), id(e.i, k+1)}
			if e.flip {
				t[1], t[2] = t[2], t[1]
			}
			m.T = append(m.T, t)
		}
	}
	return m
}

// sphere is an ellipsoid about c with semi-axes s, nu by nv faces.
func sphere(c, s geom.Vec3, nu, nv int) HoleMesh {
	var m HoleMesh
	m.V = append(m.V, c.Add(geom.Vec3{0, 0, s[2]}), c.Sub(geom.Vec3{0, 0, s[2]}))
	for j := 1; j < nv; j++ {
		th := math.Pi * float64(j) / float64(nv)
		for i := 0; i < nu; i++ {
			ph := 2 * math.Pi * float64(i) / float64(nu)
			m.V = append(m.V, c.Add(geom.Vec3{s[0] * math.Sin(th) * math.Cos(ph), s[1] * math.Sin(th) * math.Sin(ph), s[2] * math.Cos(th)}))
		}
	}
	ring := func(j, i int) uint32 { return uint32(2 + (j-1)*nu + i%nu) }
	for i := 0; i < nu; i++ {
		m.T = append(m.T, [3]uint32{0, ring(1, i), ring(1, i+1)}, [3]uint32{1, ring(nv-1, i+1), ring(nv-1, i)})
		for j := 1; j < nv-1; j++ {
			m.T = append(m.T, [3]uint32{ring(j, i), ring(j+1, i), ring(j+1, i+1)}, [3]uint32{ring(j, i), ring(j+1, i+1), ring(j, i+1)})
		}
	}
	return m
}

// rod is a closed cylinder of radius r from a to b, sides faces round.
func rod(a, b geom.Vec3, r float64, sides int) HoleMesh {
	ax := b.Sub(a).Normalize()
	u := geom.Vec3{0, 1, 0}.Cross(ax)
	if u.Len() < 1e-6 {
		u = geom.Vec3{1, 0, 0}.Cross(ax)
	}
	u = u.Normalize()
	w := ax.Cross(u)
	var m HoleMesh
	for _, e := range []geom.Vec3{a, b} {
		for k := 0; k < sides; k++ {
			t := 2 * math.Pi * float64(k) / float64(sides)
			m.V = append(m.V, e.Add(u.Scale(r*math.Cos(t))).Add(w.Scale(r*math.Sin(t))))
		}
	}
	m.V = append(m.V, a, b)
	ca, cb := uint32(2*sides), uint32(2*sides+1)
	for k := 0; k < sides; k++ {
		k1 := (k + 1) % sides
		p, q, p1, q1 := uint32(k), uint32(sides+k), uint32(k1), uint32(sides+k1)
		m.T = append(m.T, [3]uint32{p, p1, q1}, [3]uint32{p, q1, q}, [3]uint32{ca, p1, p}, [3]uint32{cb, q, q1})
	}
	return m
}
