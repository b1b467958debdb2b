package ragdoll

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// anchorShare is the radius of a sphere standing for vertices that give no
// shape (an anchor's none, or points that all coincide), as a fraction of
// the distance from the body's head to its nearest child body's head...
const anchorShare = 0.25

// ... or, without such a child, as a fraction of the skin's diagonal.
const anchorFallback = 0.01

// trunkBox: with the Capsule method, a body of the trunk (pelvis, spine,
// head) takes the minimum-volume box around its points instead when that
// box's volume is below this share of the capsule's (or sphere's): a low
// torso or a head is often far from round, and a capsule around it stands
// far off the surface. Limbs keep their capsule along the bone.
const trunkBox = 0.8

// fitBodies fills each body's axis, points and collider.
func (sk *skeleton) fitBodies(rd *Ragdoll, w *weights, s Settings, class []Class) error {
	diag := w.bounds.Diagonal()
	for i := range rd.Bodies {
		b := &rd.Bodies[i]
		b.Points = make([]geom.Vec3, 0, len(b.Vertices)+len(b.surface))
		for _, v := range b.Vertices {
			b.Points = append(b.Points, toLocal(b.Frame, w.pos[v]))
		}
		for _, p := range dedupe(b.surface) {
			b.Points = append(b.Points, toLocal(b.Frame, p))
		}
		b.Axis = b.Frame.Linear().Transpose().MulVec(sk.axis(b, w, diag))
		c, err := b.fit(s, sk.anchorRadius(rd, i, diag), trunk(class[b.Bone]))
		if err != nil {
			return fmt.Errorf("ragdoll: %s: %w", sk.name(b.Bone), err)
		}
		b.Collider = c
	}
	return nil
}

// axis returns the bone's direction in world space (unit): towards the
// mean of its child joints (the farthest child when they cancel out);
// for a leaf towards the centroid of the body's vertices; else the
// direction from its parent's joint; else the frame's +Y. Joints closer
// than 1e-9 of the skin's diagonal count as coincident.
func (sk *skeleton) axis(b *Body, w *weights, diag float64) geom.Vec3 {
	h, eps := sk.head[b.Bone], 1e-9*diag
	var mean geom.Vec3
	far, farD, k := geom.Vec3{}, 0.0, 0
	for _, c := range sk.children[b.Bone] {
		d := sk.head[c].Sub(h)
		if l := d.Len(); l > eps {
			mean, k = mean.Add(d), k+1
			if l > farD {
				far, farD = d, l
			}
		}
	}
	if k > 0 {
		if mean.Len()/float64(k) > eps {
			return mean.Normalize()
		}
		return far.Normalize()
	}
	if len(b.Vertices) > 0 {
		var c geom.Vec3
		for _, v := range b.Vertices {
			c = c.Add(w.pos[v])
		}
		if d := c.Scale(1 / float64(len(b.Vertices))).Sub(h); d.Len() > eps {
			return d.Normalize()
		}
	}
	if p := sk.bones[b.Bone].Parent; p >= 0 {
		if d := h.Sub(sk.head[p]); d.Len() > eps {
			return d.Normalize()
		}
	}
	return b.Frame.Linear().Col(1)
}

// anchorRadius is the radius of body i's sphere when its vertices give no
// shape.
func (sk *skeleton) anchorRadius(rd *Ragdoll, i int, diag float64) float64 {
	h := sk.head[rd.Bodies[i].Bone]
	near := math.Inf(1)
	for _, c := range rd.Bodies[i+1:] {
		if c.Parent == i {
			if d := sk.head[c.Bone].Sub(h).Len(); d > 0 && d < near {
				near = d
			}
		}
	}
	if math.IsInf(near, 1) {
		return anchorFallback * diag
	}
	return anchorShare * near
}

// trunk reports whether a class is the trunk's (see trunkBox).
func trunk(c Class) bool { return c == Pelvis || c == Spine || c == Head }

// fit fits the body's collider around its points (in its frame); a trunk
// body may take a box for a capsule (trunkBox).
func (b *Body) fit(s Settings, radius float64, trunk bool) (Collider, error) {
	if b.Anchor {
		return sphereAt(geom.Vec3{}, radius), nil
	}
	in, err := fit.Prepare(b.Points)
	if errors.Is(err, fit.ErrCoincident) {
		return sphereAt(b.Points[0], radius), nil
	}
	if err != nil {
		return Collider{}, err
	}
	c := Collider{Method: s.Method}
	switch s.Method {
	case Capsule:
		c.Shape, err = in.CapsuleAlong(b.Axis, s.Fit)
		// A capsule no smaller than the points' enclosing sphere is that
		// sphere with a vestigial cylinder (a ball-shaped body: a head, a
		// joint of RecursiveSkeletons' chains); the sphere says so, and
		// engines handle it better (Jolt let such capsules, 1e-3 of their
		// radius long, roll 4-10 cm into the ground).
		if err == nil {
			if sp, e := in.Fit(fit.KindSphere, s.Fit); e == nil && sp.Volume <= c.Shape.Volume {
				c.Shape = sp
			}
		}
		if err == nil && trunk {
			if bx, e := in.Fit(fit.KindBox, s.Fit); e == nil && bx.Volume < trunkBox*c.Shape.Volume {
				c.Shape = bx
			}
		}
	case Box:
		c.Shape, err = in.Fit(fit.KindBox, s.Fit)
	case Sphere:
		c.Shape, err = in.Fit(fit.KindSphere, s.Fit)
	case Hull:
		if c.Hull, err = hull.Build(b.Points, hull.Options{MaxVertices: s.MaxHullVertices}); err == nil {
			c.Volume = c.Hull.Volume()
		}
		if err != nil {
			return Collider{}, fmt.Errorf("hull: %w", err)
		}
		return c, nil
	}
	if err != nil {
		return Collider{}, fmt.Errorf("%s: %w", s.Method, err)
	}
	c.Volume = c.Shape.Volume
	return c, nil
}

// sphereAt is a sphere collider of radius r centred at p.
func sphereAt(p geom.Vec3, r float64) Collider {
	v := 4.0 / 3 * math.Pi * r * r * r
	return Collider{Method: Sphere, Volume: v, Shape: fit.Shape{
		Kind: fit.KindSphere, Center: p, Rotation: geom.IdentityQuat(), Radius: r, Volume: v, Overshoot: math.Inf(1)}}
}

// Contains reports whether p (in the body's frame) lies inside the
// collider: exactly for primitives (they are inflated by the fit
// tolerance already), within hull.ContainmentTolerance of the hull's
// bounding-box diagonal for hulls.
func (c Collider) Contains(p geom.Vec3) bool {
	if c.Method != Hull {
		return fit.Contains(c.Shape, p, 0)
	}
	if c.Hull == nil {
		return false
	}
	v := c.Hull.Vertices
	tol := hull.ContainmentTolerance * geom.BoundsOf(v).Diagonal()
	for _, t := range c.Hull.Triangles {
		a := v[t[0]]
		n := v[t[1]].Sub(a).Cross(v[t[2]].Sub(a))
		if l := n.Len(); l > 0 && p.Sub(a).Dot(n)/l > tol {
			return false
		}
	}
	return true
}

// dedupe returns the distinct points of pts, sorted (adjacent split
// triangles share their edges' midpoints).
func dedupe(pts []geom.Vec3) []geom.Vec3 {
	s := slices.Clone(pts)
	slices.SortFunc(s, func(a, b geom.Vec3) int {
		for k := range 3 {
			if c := cmp.Compare(a[k], b[k]); c != 0 {
				return c
			}
		}
		return 0
	})
	return slices.Compact(s)
}
