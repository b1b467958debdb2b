package fit

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// Kind names a primitive collider shape.
type Kind string

// The shapes Fit can produce.
const (
	KindBox      Kind = "box"      // minimum-volume oriented box
	KindAABB     Kind = "aabb"     // axis-aligned box in the input frame
	KindSphere   Kind = "sphere"   // minimum enclosing sphere
	KindCapsule  Kind = "capsule"  // minimum-volume capsule (equal radii)
	KindCylinder Kind = "cylinder" // minimum-volume cylinder
)

// Kinds lists every kind Fit accepts, in a fixed order.
func Kinds() []Kind { return []Kind{KindBox, KindAABB, KindSphere, KindCapsule, KindCylinder} }

// Shape is a fitted primitive. Every input point lies inside it (see
// Contains); the shape is inflated by Options.Tolerance so that holds with a
// strict margin.
type Shape struct {
	Kind Kind
	// Center is the shape's centre in the input points' frame.
	Center geom.Vec3
	// Rotation turns the shape's local frame into the input frame. It is the
	// identity for aabb and sphere. Capsule and cylinder axes are
	// Rotation·(0,1,0).
	Rotation geom.Quat
	// Size holds the full extents along local X, Y, Z (box and aabb).
	Size geom.Vec3
	// Radius is the sphere, capsule or cylinder radius.
	Radius float64
	// RadiusTop and RadiusBottom equal Radius (capsule and cylinder; tapered
	// shapes are not fitted yet).
	RadiusTop, RadiusBottom float64
	// Height is, for a capsule, the distance between the hemisphere centres
	// and, for a cylinder, the full height.
	Height float64
	// Volume is the shape's volume.
	Volume float64
	// Overshoot is Volume divided by the volume of the points' convex hull;
	// it is +Inf when the hull is flat (coplanar or collinear points).
	Overshoot float64
	// MaxGap estimates the largest distance from the shape's surface to the
	// convex hull, from Options.GapSamples points spread over the surface
	// (0 when GapSamples < 0).
	MaxGap float64
}

// Defaults used when the corresponding Options field is zero.
const (
	// DefaultTolerance is the containment margin as a fraction of the
	// points' bounding-box diagonal.
	DefaultTolerance = 1e-6
	// DefaultExactMaxVertices is the largest hull searched in full (the box
	// sweeps every edge arc; axis searches use every vertex). Bigger hulls
	// are first reduced to a core set.
	DefaultExactMaxVertices = 256
	// DefaultCoreDirections is the number of directions whose extreme hull
	// vertices form the core set of a big hull.
	DefaultCoreDirections = 128
	// DefaultGapSamples is the number of surface samples used for MaxGap.
	DefaultGapSamples = 128
)

// Options tunes the fits. The zero value selects the defaults.
type Options struct {
	// Tolerance is the margin, as a fraction of the bounding-box diagonal,
	// by which every shape is inflated beyond the farthest point (0 =
	// DefaultTolerance; negative = no margin).
	Tolerance float64
	// ExactMaxVertices: hulls with at most this many vertices are searched
	// in full; bigger ones through a core set (0 = default).
	ExactMaxVertices int
	// CoreDirections is the number of sampling directions for the core set
	// of big hulls (0 = default).
	CoreDirections int
	// GapSamples is the number of surface samples for MaxGap (0 = default,
	// negative = skip the estimate).
	GapSamples int
}

func (o Options) tolerance() float64 {
	switch {
	case o.Tolerance == 0:
		return DefaultTolerance
	case o.Tolerance < 0:
		return 0
	}
	return o.Tolerance
}

func (o Options) exactMax() int {
	if o.ExactMaxVertices <= 0 {
		return DefaultExactMaxVertices
	}
	return o.ExactMaxVertices
}

func (o Options) coreDirections() int {
	if o.CoreDirections <= 0 {
		return DefaultCoreDirections
	}
	return o.CoreDirections
}

func (o Options) gapSamples() int {
	if o.GapSamples == 0 {
		return DefaultGapSamples
	}
	return max(o.GapSamples, 0)
}

// Errors returned for unusable input.
var (
	ErrNoPoints    = errors.New("fit: no points")
	ErrNotFinite   = errors.New("fit: point is not finite")
	ErrCoincident  = errors.New("fit: all points coincide (zero extent)")
	ErrUnknownKind = errors.New("fit: unknown shape kind")
)

// Input is a point set prepared for fitting: its bounds, its convex hull and
// the hull's vertices. Prepare it once and fit every kind from it; an Input
// is read-only after preparation and safe for concurrent use.
type Input struct {
	points  []geom.Vec3 // every input point, input frame (not copied)
	origin  geom.Vec3   // bounding-box centre; the local coordinates below are relative to it
	bounds  geom.Box
	diag    float64
	support []geom.Vec3 // hull vertices (local): every point's fit is decided by these
	adj     [][]int32   // hull vertex adjacency (nil when the hull is flat)
	hullVol float64     // 0 when flat
	dim     int         // 1 collinear, 2 coplanar, 3 solid
	pca     geom.Mat3   // principal axes of all points (columns, right-handed)

	// The search set and best box frame depend only on the points and the
	// search options; they are memoised so the box, capsule and cylinder
	// fits of one Input share them.
	mu    sync.Mutex
	memos map[searchKey]*memo
}

type searchKey struct{ exactMax, coreDirs int }

type memo struct {
	set      []geom.Vec3
	poly     *polytope // hull of set with face normals (nil if flat)
	box      geom.Mat3
	hasFrame bool
}

// memoFor returns the memo of the search options in opt.
func (in *Input) memoFor(opt Options) *memo {
	k := searchKey{opt.exactMax(), opt.coreDirections()}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.memos == nil {
		in.memos = map[searchKey]*memo{}
	}
	m := in.memos[k]
	if m == nil {
		m = &memo{set: in.computeSearchSet(opt)}
		if in.dim == 3 {
			m.poly = newPolytope(m.set)
		}
		in.memos[k] = m
	}
	return m
}

// Prepare validates points and builds their convex hull. It fails on an
// empty set, on a NaN or infinite coordinate, and when every point coincides.
// Collinear and coplanar sets are accepted: their shapes are thin. The
// Input keeps points (not a copy): do not modify them while it is in use.
func Prepare(points []geom.Vec3) (*Input, error) {
	return PrepareWithHull(points, nil)
}

// PrepareWithHull is Prepare with a convex hull the caller already built
// from the same points (h may be nil). The hull's vertices steer the search;
// containment is still decided on every point, so an approximate or capped
// hull costs optimality, never correctness.
func PrepareWithHull(points []geom.Vec3, h *hull.Hull) (*Input, error) {
	if len(points) == 0 {
		return nil, ErrNoPoints
	}
	in := &Input{points: points}
	var err error
	if in.bounds, in.pca, err = scan(points); err != nil {
		return nil, err
	}
	in.origin = in.bounds.Center()
	in.diag = in.bounds.Diagonal()
	if in.diag == 0 {
		return nil, ErrCoincident
	}
	if h == nil {
		h, err = hull.Build(points, uncapped)
		if err != nil {
			h = nil // flat or broken: handled below
		}
	}
	// The hull package returns thin slabs for flat input; those are flat
	// sets here, not solids.
	if h != nil && h.Degenerate == hull.NotDegenerate && len(h.Vertices) >= 4 && len(h.Triangles) >= 4 {
		vol := h.Volume()
		if vol > flatVolume*in.diag*in.diag*in.diag {
			in.dim = 3
			in.hullVol = vol
			in.support = make([]geom.Vec3, len(h.Vertices))
			for i, v := range h.Vertices {
				in.support[i] = v.Sub(in.origin)
			}
			in.adj = adjacency(len(h.Vertices), h.Triangles)
			return in, nil
		}
	}
	degenerate := h != nil && h.Degenerate != hull.NotDegenerate
	if lo, hi := extents(points, in.pca, in.origin); !degenerate && hi[2]-lo[2] > flatThickness*in.diag {
		// Not flat, yet no usable hull: search every point (slower, and
		// Overshoot is +Inf as the hull volume is unknown).
		in.dim = 3
		in.support = make([]geom.Vec3, len(points))
		for i, p := range points {
			in.support[i] = p.Sub(in.origin)
		}
		return in, nil
	}
	in.flatSupport()
	return in, nil
}

// flatThickness is the extent along the least principal axis, relative to
// the diagonal, above which a set without a usable hull is still treated as
// solid (unless the hull package itself reported it flat or line-like).
const flatThickness = 1e-9

// uncapped asks the hull package for every hull vertex.
var uncapped = hull.Options{MaxVertices: math.MaxInt32}

// flatVolume is the hull volume, relative to the cube of the bounding-box
// diagonal, below which the point set is treated as flat.
const flatVolume = 1e-15

// flatSupport fills the support set of a coplanar or collinear point set:
// the vertices of its 2-D hull in the plane of its two principal axes.
func (in *Input) flatSupport() {
	a, b := in.pca.Col(0), in.pca.Col(1)
	q := make([]vec2, len(in.points))
	for i, p := range in.points {
		l := p.Sub(in.origin)
		q[i] = vec2{l.Dot(a), l.Dot(b)}
	}
	idx := hull2D(q)
	in.support = make([]geom.Vec3, len(idx))
	for i, k := range idx {
		in.support[i] = in.points[k].Sub(in.origin)
	}
	in.dim = 2
	if len(idx) <= 2 || polygonArea(q, idx) <= flatArea*in.diag*in.diag {
		in.dim = 1
	}
}

// flatArea is the 2-D hull area, relative to the squared diagonal, below
// which a flat set is treated as collinear.
const flatArea = 1e-12

// adjacency lists each hull vertex's neighbours, sorted, for hill-climbing
// support queries.
func adjacency(n int, tris [][3]uint32) [][]int32 {
	adj := make([][]int32, n)
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if int(a) < n && int(b) < n {
				adj[a] = append(adj[a], int32(b))
				adj[b] = append(adj[b], int32(a))
			}
		}
	}
	for i, l := range adj {
		slices.Sort(l)
		u := l[:0]
		for j, v := range l {
			if j == 0 || v != l[j-1] {
				u = append(u, v)
			}
		}
		adj[i] = u
	}
	return adj
}

// HullVolume returns the volume of the points' convex hull (0 when flat).
func (in *Input) HullVolume() float64 { return in.hullVol }

// HullVertexCount returns the number of support points the fits search:
// the 3-D hull's vertices, or the 2-D hull's for a flat set.
func (in *Input) HullVertexCount() int { return len(in.support) }

// Fit fits one shape kind to points. To fit several kinds of the same points,
// Prepare once and call (*Input).Fit.
func Fit(kind Kind, points []geom.Vec3, opt Options) (Shape, error) {
	if !validKind(kind) {
		return Shape{}, fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
	in, err := Prepare(points)
	if err != nil {
		return Shape{}, err
	}
	return in.Fit(kind, opt)
}

func validKind(k Kind) bool {
	for _, v := range Kinds() {
		if v == k {
			return true
		}
	}
	return false
}

// Fit fits one shape kind to the prepared points.
func (in *Input) Fit(kind Kind, opt Options) (Shape, error) {
	if in == nil || len(in.support) == 0 {
		return Shape{}, errors.New("fit: Input not prepared (use Prepare)")
	}
	tol := opt.tolerance() * in.diag
	var s Shape
	switch kind {
	case KindAABB:
		s = in.aabb(tol)
	case KindBox:
		s = in.box(opt, tol)
	case KindSphere:
		s = in.sphere(tol)
	case KindCapsule:
		s = in.capsule(opt, tol)
	case KindCylinder:
		s = in.cylinder(opt, tol)
	default:
		return Shape{}, fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
	s.Volume = volume(s)
	s.Overshoot = math.Inf(1)
	if in.hullVol > 0 {
		s.Overshoot = s.Volume / in.hullVol
	}
	if n := opt.gapSamples(); n > 0 {
		s.MaxGap = in.maxGap(s, n)
	}
	return s, nil
}

func volume(s Shape) float64 {
	switch s.Kind {
	case KindBox, KindAABB:
		return s.Size[0] * s.Size[1] * s.Size[2]
	case KindSphere:
		return 4.0 / 3 * math.Pi * s.Radius * s.Radius * s.Radius
	case KindCapsule:
		return capsuleVolume(s.Radius, s.Height)
	case KindCylinder:
		return math.Pi * s.Radius * s.Radius * s.Height
	}
	return 0
}

func capsuleVolume(r, h float64) float64 {
	return math.Pi*r*r*h + 4.0/3*math.Pi*r*r*r
}

// Contains reports whether p (input frame) lies inside s grown by tol.
func Contains(s Shape, p geom.Vec3, tol float64) bool {
	d := p.Sub(s.Center)
	switch s.Kind {
	case KindSphere:
		return d.Len() <= s.Radius+tol
	case KindAABB, KindBox, KindCapsule, KindCylinder:
	default:
		return false
	}
	l := s.Rotation.Mat3().Transpose().MulVec(d)
	switch s.Kind {
	case KindCapsule:
		y := math.Max(-s.Height/2, math.Min(s.Height/2, l[1]))
		return geom.Vec3{l[0], l[1] - y, l[2]}.Len() <= s.Radius+tol
	case KindCylinder:
		return math.Abs(l[1]) <= s.Height/2+tol && math.Hypot(l[0], l[2]) <= s.Radius+tol
	default:
		for k := 0; k < 3; k++ {
			if math.Abs(l[k]) > s.Size[k]/2+tol {
				return false
			}
		}
		return true
	}
}
