// Package hull builds convex hulls of point sets: closed, outward-wound
// triangle meshes that contain every input point.
//
// This first version is a thin guarded wrapper around quickhull-go; the
// hardening (degenerate inputs, vertex limits, verification) follows.
package hull

import (
	"errors"
	"fmt"

	"github.com/autocollide/autocollide/geom"
	"github.com/golang/geo/r3"
	quickhull "github.com/markus-wa/quickhull-go/v2"
)

// Options controls hull construction.
type Options struct {
	// MaxVertices caps the hull's vertex count (0 = 255).
	MaxVertices int
	// MaxFaces caps the hull's polygon count (0 = no cap).
	MaxFaces int
}

// Hull is a closed convex triangle mesh with outward winding.
type Hull struct {
	Vertices  []geom.Vec3
	Triangles [][3]uint32
}

// ErrTooFewPoints is returned when fewer than one finite point is given.
var ErrTooFewPoints = errors.New("hull: no finite points")

// Build returns the convex hull of points.
func Build(points []geom.Vec3, opt Options) (h *Hull, err error) {
	b := geom.BoundsOf(points)
	if b.IsEmpty() {
		return nil, ErrTooFewPoints
	}
	c := b.Center()
	s := b.Diagonal()
	if s == 0 {
		s = 1
	}
	in := make([]r3.Vector, 0, len(points))
	for _, p := range points {
		if !p.IsFinite() {
			continue
		}
		q := p.Sub(c).Scale(1 / s)
		in = append(in, r3.Vector{X: q[0], Y: q[1], Z: q[2]})
	}
	if len(in) == 0 {
		return nil, ErrTooFewPoints
	}
	defer func() {
		if r := recover(); r != nil {
			h, err = nil, fmt.Errorf("hull: quickhull failed: %v", r)
		}
	}()
	var qh quickhull.QuickHull
	ch := qh.ConvexHull(in, false, false, 0)
	if len(ch.Indices) < 12 {
		return nil, errors.New("hull: degenerate (flat or line-like) input")
	}
	h = &Hull{Vertices: make([]geom.Vec3, len(ch.Vertices))}
	for i, v := range ch.Vertices {
		h.Vertices[i] = geom.Vec3{v.X, v.Y, v.Z}.Scale(s).Add(c)
	}
	for i := 0; i+2 < len(ch.Indices); i += 3 {
		h.Triangles = append(h.Triangles, [3]uint32{uint32(ch.Indices[i]), uint32(ch.Indices[i+1]), uint32(ch.Indices[i+2])})
	}
	return h, nil
}

// Volume returns the enclosed volume (divergence theorem).
func (h *Hull) Volume() float64 {
	if len(h.Vertices) == 0 {
		return 0
	}
	o := h.Vertices[0]
	var v float64
	for _, t := range h.Triangles {
		a, b, c := h.Vertices[t[0]].Sub(o), h.Vertices[t[1]].Sub(o), h.Vertices[t[2]].Sub(o)
		v += a.Dot(b.Cross(c))
	}
	return v / 6
}
