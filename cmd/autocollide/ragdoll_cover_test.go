package main

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
)

// coverTol is the tolerance of the surface coverage judge: a fraction of
// the skinned vertices' bounding-box diagonal.
const coverTol = 1e-4

// TestRagdollArmatures generates the ragdoll preset on the skinned
// corpus (RiggedFigure also Draco-compressed) in OMI and KHR and checks
// each file as read back: every vertex inside its body's colliders
// (checkRagdoll); at least 97% of the skin's surface inside a collider
// (ragdollCoverage); every body but each armature's root jointed to its
// nearest body ancestor, RecursiveSkeletons in 4 ragdolls; and no two
// bodies whose colliders overlap at rest able to collide (restCollisions).
func TestRagdollArmatures(t *testing.T) {
	var ins []string
	for _, name := range ragdollCorpus {
		for _, f := range testassets.Corpus(t) {
			if strings.HasSuffix(f, string(filepath.Separator)+name) {
				ins = append(ins, f)
			}
		}
	}
	if len(ins) != len(ragdollCorpus) {
		t.Fatalf("corpus skinned assets %v, want %v", ins, ragdollCorpus)
	}
	dir := t.TempDir()
	draco := filepath.Join(dir, "RiggedFigure-draco.glb")
	if msg, err := exec.Command(filepath.Join(testassets.Tools(t), "node_modules", ".bin", "gltf-transform"), "draco", ins[2], draco).CombinedOutput(); err != nil {
		t.Fatalf("gltf-transform draco: %v\n%s", err, msg)
	}
	ins = append(ins, draco)
	for _, in := range ins {
		for _, f := range []string{"omi", "khr"} {
			base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
			name := base + " " + f
			out := filepath.Join(dir, base+"-"+f+".glb")
			if code, _, stderr := runCLI("generate", in, "--profile", "ragdoll", "--format", f, "-q", "-o", out); code != 0 {
				t.Fatalf("%s: exit %d: %s", name, code, stderr)
			}
			a, err := gltfio.LoadRaw(out, gltfio.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := checkRagdoll(a); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			rs, err := readRest(a)
			if err != nil {
				t.Fatal(err)
			}
			cov := rs.coverage(20000)
			if cov < 0.97 {
				t.Errorf("%s: surface coverage %.4f, want at least 0.97", name, cov)
			}
			roots, err := rs.jointedToAncestors()
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			want := 1
			if strings.Contains(base, "RecursiveSkeletons") {
				want = 4
			}
			if roots != want {
				t.Errorf("%s: %d ragdolls (bodies without a body ancestor), want %d", name, roots, want)
			}
			// inspect (and preview, which shows what inspect finds)
			// counts one ragdoll per armature, each joint in one.
			f, err := inspect.Describe(a)
			if err != nil {
				t.Fatal(err)
			}
			counted := map[int]int{}
			for _, rd := range f.Ragdolls {
				for _, j := range rd.Joints {
					counted[j.Joint]++
				}
			}
			twice := 0
			for _, n := range counted {
				if n > 1 {
					twice++
				}
			}
			if len(f.Ragdolls) != want || len(counted) != rs.joints || twice > 0 {
				t.Errorf("%s: inspect finds %d ragdolls holding %d of the %d joints, %d of them in more than one; want %d, each joint in one", name, len(f.Ragdolls), len(counted), rs.joints, twice, want)
			}
			overlapping, bad := rs.restCollisions()
			for _, b := range bad[:min(len(bad), 5)] {
				t.Errorf("%s: %s", name, b)
			}
			if len(bad) > 5 {
				t.Errorf("%s: and %d more overlapping pairs that can collide", name, len(bad)-5)
			}
			t.Logf("%-28s bodies %3d joints %3d ragdolls %d: surface coverage %.4f, %d pairs overlap at rest, %d can collide",
				name, len(rs.bodies), rs.joints, roots, cov, overlapping, len(bad))
		}
	}
}

// rest is a ragdoll file's physics at rest pose, in world space.
type rest struct {
	model     *physics.Model
	parts     []mesh.Part // the skinned parts
	parent    map[int]int
	bodies    []int // body nodes, ascending
	colliders []restCollider
	joints    int
	// jointed holds each jointed pair of bodies (lower node first) whose
	// joint disables collision.
	jointed map[[2]int]bool
	bodyOf  func(n int) int
}

// restCollider is a collider placed in world space.
type restCollider struct {
	body   int
	wc     worldCollider
	world  geom.Mat4
	filter *physics.Filter
}

// readRest decodes a ragdoll file's physics and skinned geometry.
func readRest(a *gltfio.Asset) (*rest, error) {
	codec, err := codecs.For(codecs.Family(a.Doc))
	if err != nil {
		return nil, err
	}
	m, _, err := codec.Decode(a.Doc)
	if err != nil {
		return nil, err
	}
	ex, err := mesh.Extract(a.Doc)
	if err != nil {
		return nil, err
	}
	world, err := mesh.WorldTransforms(a.Doc)
	if err != nil {
		return nil, err
	}
	r := &rest{model: m, parent: map[int]int{}, jointed: map[[2]int]bool{}}
	for _, p := range ex.Parts {
		if p.Influences != nil {
			r.parts = append(r.parts, p)
		}
	}
	for i, n := range a.Doc.Nodes {
		for _, c := range n.Children {
			r.parent[c] = i
		}
	}
	r.bodyOf = func(n int) int {
		for {
			if pn := m.Nodes[n]; pn != nil && pn.Motion != nil {
				return n
			}
			p, ok := r.parent[n]
			if !ok {
				return -1
			}
			n = p
		}
	}
	for _, idx := range m.NodeIndices() {
		n := m.Nodes[idx]
		if n.Motion != nil {
			r.bodies = append(r.bodies, idx)
		}
		if n.Joint != nil {
			r.joints++
			x, y := r.bodyOf(idx), r.bodyOf(n.Joint.ConnectedNode)
			if !n.Joint.EnableCollision {
				r.jointed[[2]int{min(x, y), max(x, y)}] = true
			}
		}
		if n.Collider == nil || n.Collider.Shape < 0 {
			continue
		}
		inv, ok := world[idx].Inverse()
		if !ok {
			return nil, fmt.Errorf("nodes[%d]: singular collider transform", idx)
		}
		c := restCollider{body: r.bodyOf(idx), world: world[idx], wc: worldCollider{inv: inv, shape: m.Shapes[n.Collider.Shape]}}
		if c.wc.shape.Type == physics.Convex {
			if c.wc.planes, err = hullPlanes(a, c.wc.shape.Mesh); err != nil {
				return nil, err
			}
		}
		if f := n.Collider.Filter; f >= 0 {
			c.filter = &m.Filters[f]
		}
		r.colliders = append(r.colliders, c)
	}
	return r, nil
}

// coverage is the share of n points spread over the skinned surface by
// area (stratified along the cumulative area, a golden-ratio sequence
// across each triangle) that lie inside some collider, within coverTol of
// the skinned vertices' diagonal.
func (r *rest) coverage(n int) float64 {
	type tri struct{ a, b, c geom.Vec3 }
	var tris []tri
	var cum []float64
	total := 0.0
	box := geom.EmptyBox()
	for _, p := range r.parts {
		for _, t := range p.Triangles {
			x := tri{p.Vertices[t[0]], p.Vertices[t[1]], p.Vertices[t[2]]}
			tris = append(tris, x)
			total += x.b.Sub(x.a).Cross(x.c.Sub(x.a)).Len() / 2
			cum = append(cum, total)
		}
		for _, v := range p.Vertices {
			box = box.Extend(v)
		}
	}
	tol := coverTol * box.Diagonal()
	inside, ti := 0, 0
	for k := 0; k < n; k++ {
		x := (float64(k) + 0.5) / float64(n) * total
		for ti < len(cum)-1 && cum[ti] < x {
			ti++
		}
		u, v := math.Mod(float64(k)*0.7548776662466927, 1), math.Mod(float64(k)*0.5698402909980532, 1)
		if u+v > 1 {
			u, v = 1-u, 1-v
		}
		t := tris[ti]
		p := t.a.Add(t.b.Sub(t.a).Scale(u)).Add(t.c.Sub(t.a).Scale(v))
		for _, c := range r.colliders {
			if contains(c.wc.shape, c.wc.planes, c.wc.inv.Point(p), tol) {
				inside++
				break
			}
		}
	}
	return float64(inside) / float64(n)
}

// jointedToAncestors checks that every body with a body among its
// ancestor nodes has a joint to the nearest one, and returns the number of
// bodies without (the ragdolls' roots).
func (r *rest) jointedToAncestors() (int, error) {
	linked := map[[2]int]bool{}
	for _, idx := range r.model.NodeIndices() {
		if j := r.model.Nodes[idx].Joint; j != nil {
			x, y := r.bodyOf(idx), r.bodyOf(j.ConnectedNode)
			linked[[2]int{min(x, y), max(x, y)}] = true
		}
	}
	roots := 0
	for _, b := range r.bodies {
		p, ok := r.parent[b]
		a := -1
		if ok {
			a = r.bodyOf(p)
		}
		if a < 0 {
			roots++
			continue
		}
		if !linked[[2]int{min(a, b), max(a, b)}] {
			return roots, fmt.Errorf("body nodes[%d] has no joint to its nearest body ancestor nodes[%d]", b, a)
		}
	}
	return roots, nil
}

// restCollisions returns the number of pairs of colliders of different
// bodies that overlap at rest, and a line for each such pair that can
// collide: neither joined by a joint with collision off nor kept apart by
// their filters.
func (r *rest) restCollisions() (int, []string) {
	solids := make([]restShape, len(r.colliders))
	for i, c := range r.colliders {
		solids[i] = newRestShape(c)
	}
	overlapping := 0
	var bad []string
	for i := range r.colliders {
		for j := i + 1; j < len(r.colliders); j++ {
			ci, cj := r.colliders[i], r.colliders[j]
			if ci.body == cj.body || !solids[i].overlaps(solids[j]) {
				continue
			}
			overlapping++
			if r.jointed[[2]int{min(ci.body, cj.body), max(ci.body, cj.body)}] || !filtersCollide(ci.filter, cj.filter) {
				continue
			}
			bad = append(bad, fmt.Sprintf("bodies nodes[%d] and nodes[%d] overlap at rest and can collide", ci.body, cj.body))
		}
	}
	return overlapping, bad
}

// filtersCollide says whether colliders with these filters (nil: none)
// collide: neither lists a system of the other in notCollideWithSystems,
// and one listing collideWithSystems names a system of the other.
func filtersCollide(a, b *physics.Filter) bool {
	return filterAccepts(a, b) && filterAccepts(b, a)
}

func filterAccepts(a, b *physics.Filter) bool {
	if a == nil {
		return true
	}
	var theirs []string
	if b != nil {
		theirs = b.CollisionSystems
	}
	for _, s := range theirs {
		for _, n := range a.NotCollideWithSystems {
			if s == n {
				return false
			}
		}
	}
	if len(a.CollideWithSystems) == 0 {
		return true
	}
	for _, s := range theirs {
		for _, w := range a.CollideWithSystems {
			if s == w {
				return true
			}
		}
	}
	return false
}

// restShape is a collider in world space: a segment swept by a radius
// (sphere, untapered capsule) or the corners of a box or the vertices of
// a hull. Round shapes are measured exactly; a round shape against a box
// by the distance from its segment to the box (convex along the segment,
// so a ternary search finds its minimum); two polytopes by hull.
// Penetration of their points.
type restShape struct {
	round  bool
	a, b   geom.Vec3
	radius float64
	world  geom.Mat4 // box: its placement (with scale), half extents below
	half   geom.Vec3
	isBox  bool
	points []geom.Vec3
	bounds geom.Box
}

func newRestShape(c restCollider) restShape {
	s := c.wc.shape
	w := c.world
	scale := math.Max(w.Linear().Col(0).Len(), math.Max(w.Linear().Col(1).Len(), w.Linear().Col(2).Len()))
	var out restShape
	switch {
	case s.Type == physics.Sphere:
		p := w.Point(geom.Vec3{})
		out = restShape{round: true, a: p, b: p, radius: s.Radius * scale}
	case s.Type == physics.Capsule && s.RadiusTop == s.RadiusBottom:
		out = restShape{round: true, a: w.Point(geom.Vec3{0, s.Height / 2, 0}), b: w.Point(geom.Vec3{0, -s.Height / 2, 0}), radius: s.RadiusTop * scale}
	case s.Type == physics.Box:
		out = restShape{isBox: true, world: w, half: geom.Vec3{s.Size[0] / 2, s.Size[1] / 2, s.Size[2] / 2}}
		for k := 0; k < 8; k++ {
			p := geom.Vec3{out.half[0], out.half[1], out.half[2]}
			for d := 0; d < 3; d++ {
				if k>>d&1 == 1 {
					p[d] = -p[d]
				}
			}
			out.points = append(out.points, w.Point(p))
		}
	default: // hulls (planes' points) and anything else: unsupported here
		for _, pl := range c.wc.planes {
			out.points = append(out.points, w.Point(pl[0]))
		}
	}
	if out.round {
		d := geom.Vec3{out.radius, out.radius, out.radius}
		out.bounds = geom.Box{Min: out.a.Min(out.b).Sub(d), Max: out.a.Max(out.b).Add(d)}
	} else {
		out.bounds = geom.BoundsOf(out.points)
	}
	return out
}

// overlaps says whether two shapes overlap by more than 1e-9 of their size.
func (s restShape) overlaps(o restShape) bool {
	for k := 0; k < 3; k++ {
		if s.bounds.Max[k] <= o.bounds.Min[k] || o.bounds.Max[k] <= s.bounds.Min[k] {
			return false
		}
	}
	eps := 1e-9 * math.Max(s.bounds.Diagonal(), o.bounds.Diagonal())
	switch {
	case s.round && o.round:
		return segmentGap(s.a, s.b, o.a, o.b) < s.radius+o.radius-eps
	case s.round && o.isBox:
		return o.segmentDistance(s.a, s.b) < s.radius-eps
	case s.isBox && o.round:
		return s.segmentDistance(o.a, o.b) < o.radius-eps
	case !s.round && !o.round && len(s.points) > 0 && len(o.points) > 0:
		d, err := hull.Penetration(s.points, o.points)
		return err == nil && d > eps
	}
	return false
}

// segmentDistance is the distance from segment [a, b] to the box.
func (s restShape) segmentDistance(a, b geom.Vec3) float64 {
	inv, _ := s.world.Inverse()
	la, lb := inv.Point(a), inv.Point(b)
	// Box frame units: the box's world placement is rigid up to scale.
	scale := s.world.Linear().Col(0).Len()
	dist := func(t float64) float64 {
		p := la.Add(lb.Sub(la).Scale(t))
		var q geom.Vec3
		for k := 0; k < 3; k++ {
			q[k] = math.Max(math.Abs(p[k])-s.half[k], 0)
		}
		return q.Len() * scale
	}
	lo, hi := 0.0, 1.0
	for range 100 {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		if dist(m1) <= dist(m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	return dist((lo + hi) / 2)
}

// segmentGap is the distance between segments [p1, q1] and [p2, q2],
// found by a ternary search over the first (the distance from a point of
// it to the second segment is convex along it).
func segmentGap(p1, q1, p2, q2 geom.Vec3) float64 {
	toSecond := func(p geom.Vec3) float64 {
		d := q2.Sub(p2)
		t := 0.0
		if l := d.Dot(d); l > 0 {
			t = math.Min(math.Max(p.Sub(p2).Dot(d)/l, 0), 1)
		}
		return p.Sub(p2.Add(d.Scale(t))).Len()
	}
	f := func(s float64) float64 { return toSecond(p1.Add(q1.Sub(p1).Scale(s))) }
	lo, hi := 0.0, 1.0
	for range 100 {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		if f(m1) <= f(m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	return f((lo + hi) / 2)
}
