package decompose

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

func toTris(m testMesh) []tri {
	ts := make([]tri, len(m.t))
	for i, t := range m.t {
		ts[i] = tri{m.v[t[0]], m.v[t[1]], m.v[t[2]]}
	}
	return ts
}

// randomTris returns n random triangles of edges up to about size in the
// cube [-2,2]³, and the generator of points in that cube.
func randomTris(r *rand.Rand, n int, size float64) ([]tri, func() geom.Vec3) {
	rv := func() geom.Vec3 { return geom.Vec3{r.Float64()*4 - 2, r.Float64()*4 - 2, r.Float64()*4 - 2} }
	ts := make([]tri, n)
	for i := range ts {
		c := rv()
		ts[i] = tri{c, c.Add(rv().Scale(size)), c.Add(rv().Scale(size))}
	}
	return ts, rv
}

func TestBVHDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ts, rv := randomTris(r, 300, 0.2)
	ts = append(ts, tri{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}) // degenerate
	tree := newBVH(ts)
	for i := 0; i < 500; i++ {
		p := rv().Scale(1.5)
		want := math.Inf(1)
		for _, tr := range ts {
			want = math.Min(want, pointTriDist2(p, tr))
		}
		want = math.Sqrt(want)
		if got := tree.dist(p, 0); math.Abs(got-want) > 1e-12 {
			t.Fatalf("dist(%v) = %v, brute force %v", p, got, want)
		}
		// With a stop: exact above it, else some distance below it.
		stop := want * (0.5 + r.Float64())
		if got := tree.dist(p, stop); (want >= stop && math.Abs(got-want) > 1e-12) || (want < stop && (got >= stop || got < want-1e-12)) {
			t.Fatalf("dist(%v, stop %v) = %v, brute force %v", p, stop, got, want)
		}
	}
	// The partition is stable: each leaf keeps its triangles in input
	// order, and every node's box holds its leaves' triangles.
	pos := map[tri]int{}
	for i, tr := range ts {
		pos[tr] = i
	}
	var walk func(n int32) (lo, hi int)
	walk = func(n int32) (lo, hi int) {
		nd := tree.nodes[n]
		if nd.count == 0 {
			l0, h0 := walk(nd.start)
			l1, h1 := walk(nd.start + 1)
			if h0 != l1 {
				t.Fatalf("node %d: children cover %d-%d and %d-%d", n, l0, h0, l1, h1)
			}
			lo, hi = l0, h1
		} else {
			lo, hi = int(nd.start), int(nd.start+nd.count)
			for i := lo + 1; i < hi; i++ {
				if pos[tree.tris[i]] <= pos[tree.tris[i-1]] {
					t.Fatalf("leaf %d: triangles out of input order", n)
				}
			}
		}
		for _, tr := range tree.tris[lo:hi] {
			for _, v := range tr {
				if v[0] < nd.box.Min[0] || v[1] < nd.box.Min[1] || v[2] < nd.box.Min[2] ||
					v[0] > nd.box.Max[0] || v[1] > nd.box.Max[1] || v[2] > nd.box.Max[2] {
					t.Fatalf("node %d: box %v misses %v", n, nd.box, v)
				}
			}
		}
		return lo, hi
	}
	if lo, hi := walk(0); lo != 0 || hi != len(ts) {
		t.Fatalf("tree covers %d-%d of %d triangles", lo, hi, len(ts))
	}
}

// TestEdgeSet: the set answers as a map does, for keys that share
// their low or high halves (corner ids of one part).
func TestEdgeSet(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 10, 3000} {
		s := newEdgeSet(n)
		want := map[uint64]bool{}
		key := func() uint64 { return uint64(r.IntN(n+3))<<32 | uint64(r.IntN(n+3)) }
		for i := 0; i < n; i++ {
			k := key()
			s.add(k)
			want[k] = true
		}
		for i := 0; i < 4*n; i++ {
			k := key()
			if s.has(k) != want[k] {
				t.Fatalf("n %d: has(%x) = %v, want %v", n, k, s.has(k), want[k])
			}
		}
		for k := range want {
			if !s.has(k) {
				t.Fatalf("n %d: added %x missing", n, k)
			}
		}
	}
}

func TestWinding(t *testing.T) {
	b := toTris(box(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1}))
	two := append(append([]tri(nil), b...), toTris(box(geom.Vec3{0.5, 0, 0}, geom.Vec3{1.5, 1, 1}))...)
	tree, tree2 := newBVH(b), newBVH(two)
	for _, tc := range []struct {
		p      geom.Vec3
		w1, w2 int
	}{
		{geom.Vec3{0.25, 0.5, 0.5}, 1, 1},
		{geom.Vec3{0.75, 0.3, 0.6}, 1, 2},
		{geom.Vec3{1.2, 0.5, 0.5}, 0, 1},
		{geom.Vec3{2, 0.5, 0.5}, 0, 0},
		{geom.Vec3{-1, -1, -1}, 0, 0},
	} {
		for _, d := range rayDirs {
			if w := tree.winding(tc.p, d); w != tc.w1 {
				t.Errorf("box: winding(%v, %v) = %d, want %d", tc.p, d, w, tc.w1)
			}
			if w := tree2.winding(tc.p, d); w != tc.w2 {
				t.Errorf("two boxes: winding(%v, %v) = %d, want %d", tc.p, d, w, tc.w2)
			}
		}
	}
	inner, _ := classifyInner(context.Background(), newBVH(two), two, math.Sqrt(3))
	n := 0
	for _, b := range inner {
		if b {
			n++
		}
	}
	// Each box has one face (two triangles) inside the other.
	if n != 4 {
		t.Errorf("%d buried triangles, want 4", n)
	}
}

// TestCutPartition: cutting keeps the area, puts each piece on its side,
// and the two sides' closed volumes add up to the whole.
func TestCutPartition(t *testing.T) {
	m := torus(1, 0.3, 24, 10)
	ts := toTris(m)
	whole := &part{tris: ts, box: geom.BoundsOf(m.v)}
	v0 := partVolume(whole, 1e-9)
	var a0 float64
	for _, tr := range ts {
		a0 += triArea(tr)
	}
	for _, pl := range []plane{{geom.Vec3{1, 0, 0}, 0.37}, {geom.Vec3{0, 0, 1}, 0}, {geom.Vec3{0, 1, 0}, -1.1}, {geom.Vec3{0.6, 0.8, 0}, 0.2}} {
		pos, neg, sec := cut(ts, nil, pl, 1e-12)
		var a, v float64
		for side, s := range []soup{pos, neg} {
			sign := int8(1 - 2*side)
			for _, tr := range s.t {
				a += triArea(tr)
				for _, x := range tr {
					if float64(sign)*pl.eval(x) < -1e-12 {
						t.Fatalf("plane %v: corner %v on the wrong side", pl, x)
					}
				}
			}
			p := &part{tris: s.t, caps: []capRef{{sec, sign}}}
			p.box = geom.EmptyBox()
			for _, tr := range s.t {
				p.box = p.box.Extend(tr[0]).Extend(tr[1]).Extend(tr[2])
			}
			v += partVolume(p, 1e-9)
		}
		if math.Abs(a-a0) > 1e-9*a0 {
			t.Errorf("plane %v: area %v, want %v", pl, a, a0)
		}
		if math.Abs(v-v0) > 1e-9*v0 {
			t.Errorf("plane %v: volumes add to %v, want %v", pl, v, v0)
		}
	}
}

func TestMeasure(t *testing.T) {
	m := box(geom.Vec3{0, 0, 0}, geom.Vec3{2, 1, 1})
	diag := math.Sqrt(6)
	mk := func(lo, hi geom.Vec3) *hull.Hull {
		h, err := hull.Build(box(lo, hi).v, hull.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	exact := Measure(m.v, m.t, []*hull.Hull{mk(geom.Vec3{0, 0, 0}, geom.Vec3{2, 1, 1})}, 4000, 1)
	if exact.Uncovered != 0 || exact.MaxVertexOutside != 0 || exact.BloatMax > 1e-12 || exact.Concavity > 1e-6 {
		t.Errorf("exact hull: %+v", exact)
	}
	// Two halves meeting at x = 1: the shared face is not bloat.
	halves := Measure(m.v, m.t, []*hull.Hull{mk(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1}), mk(geom.Vec3{1, 0, 0}, geom.Vec3{2, 1, 1})}, 4000, 1)
	if halves.Hulls != 2 || halves.Vertices != 16 || halves.BloatMax > 1e-12 || halves.Uncovered != 0 {
		t.Errorf("halves: %+v", halves)
	}
	// SurfaceDistMean does count it: 2 of the 12 unit faces, whose points
	// lie on average 1/6 from the square's edges.
	if want := (2.0 / 12) * (1.0 / 6) / diag; math.Abs(halves.SurfaceDistMean-want) > 0.1*want || exact.SurfaceDistMean > 1e-12 {
		t.Errorf("surface distance: halves %v (want %v), exact %v", halves.SurfaceDistMean, want, exact.SurfaceDistMean)
	}
	if math.Abs(halves.HullVolume-2) > 1e-9 {
		t.Errorf("halves: union volume %v, want 2", halves.HullVolume)
	}
	// Overlapping hulls: the union volume, not the sum.
	over := Measure(m.v, m.t, []*hull.Hull{mk(geom.Vec3{0, 0, 0}, geom.Vec3{1.5, 1, 1}), mk(geom.Vec3{0.5, 0, 0}, geom.Vec3{2, 1, 1})}, 1000, 1)
	if math.Abs(over.HullVolume-2) > 1e-2 {
		t.Errorf("overlap: union volume %v, want 2", over.HullVolume)
	}
	// A hull missing the right quarter: a quarter of the x extent is out.
	short := Measure(m.v, m.t, []*hull.Hull{mk(geom.Vec3{0, 0, 0}, geom.Vec3{1.5, 1, 1})}, 4000, 1)
	if short.Uncovered < 0.1 || math.Abs(short.MaxVertexOutside-0.5/diag) > 1e-9 {
		t.Errorf("short hull: %+v", short)
	}
	// A hull 0.1 too tall: bloat up to 0.1.
	tall := Measure(m.v, m.t, []*hull.Hull{mk(geom.Vec3{0, 0, 0}, geom.Vec3{2, 1.1, 1})}, 4000, 1)
	if math.Abs(tall.BloatMax-0.1/diag) > 1e-9 || tall.Uncovered != 0 {
		t.Errorf("tall hull: %+v", tall)
	}
}

// TestDropContained: a hull inside another is dropped, one overlapping it
// only partly and one inside the dropped one's container are handled, and
// the kept parts keep their order.
func TestDropContained(t *testing.T) {
	mk := func(lo, hi geom.Vec3) *part {
		h, err := hull.Build(box(lo, hi).v, hull.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return &part{hull: h}
	}
	big := mk(geom.Vec3{0, 0, 0}, geom.Vec3{4, 4, 4})
	inner := mk(geom.Vec3{1, 1, 1}, geom.Vec3{2, 2, 2})
	touching := mk(geom.Vec3{0, 0, 0}, geom.Vec3{4, 4, 1}) // shares faces with big: inside
	partly := mk(geom.Vec3{3, 3, 3}, geom.Vec3{5, 5, 5})
	far := mk(geom.Vec3{10, 0, 0}, geom.Vec3{11, 1, 1})
	got := dropContained([]*part{partly, inner, big, touching, far}, 20)
	want := []*part{partly, big, far}
	if len(got) != len(want) {
		t.Fatalf("kept %d parts, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("part %d is not the expected one", i)
		}
	}
	// Two identical hulls: exactly one stays.
	a, b := mk(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1}), mk(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1})
	if n := len(dropContained([]*part{a, b}, 2)); n != 1 {
		t.Errorf("identical hulls: kept %d, want 1", n)
	}
}

// TestForest: a forest answers distance and ray queries like one hierarchy
// over all its trees' triangles.
func TestForest(t *testing.T) {
	ts, rv := randomTris(rand.New(rand.NewPCG(5, 6)), 300, 0.3)
	one := newBVH(ts)
	f := forest{newBVH(ts[:100]), newBVH(ts[100:250]), newBVH(ts[250:])}
	hits := 0
	for i := 0; i < 500; i++ {
		p := rv().Scale(1.5)
		if got, want := f.dist(p, 0), one.dist(p, 0); got != want {
			t.Fatalf("forest dist(%v) = %v, one tree %v", p, got, want)
		}
		// With a stop, an answer below it may be any distance below it.
		if stop := 0.2; (f.dist(p, stop) < stop) != (one.dist(p, 0) < stop) {
			t.Fatalf("forest dist(%v, %v) disagrees with the exact distance %v", p, stop, one.dist(p, 0))
		}
		d := rv().Normalize()
		gt, gb, gok := f.firstHit(p, d)
		wt, wb, wok := one.firstHit(p, d)
		if gok != wok || (wok && (gt != wt || gb != wb)) {
			t.Fatalf("forest firstHit(%v, %v) = %v %v %v, one tree %v %v %v", p, d, gt, gb, gok, wt, wb, wok)
		}
		if wok {
			hits++
		}
	}
	if hits < 50 {
		t.Fatalf("only %d of 500 rays hit: the ray check tests little", hits)
	}
}

// TestReplaceSplitOrder: the search hands its parts over most concave
// first, not in index order; every part tried is replaced by its children
// (or marked unsplittable) wherever it sits, and the rest are kept in place.
func TestReplaceSplitOrder(t *testing.T) {
	parts := make([]*part, 5)
	for i := range parts {
		parts[i] = &part{}
	}
	a, b, c := &part{}, &part{}, &part{}
	// Parts 3 and 1 split, part 0 unsplittable, in that (descending) order.
	got := replaceSplit(parts, []int{3, 0, 1}, [][]*part{{a, b}, nil, {c}})
	want := []*part{parts[0], c, parts[2], a, b, parts[4]}
	if len(got) != len(want) {
		t.Fatalf("got %d parts, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("part %d is not the expected one", i)
		}
	}
	if !parts[0].unsplittable || parts[2].unsplittable || parts[4].unsplittable {
		t.Errorf("unsplittable marks: %v %v %v, want true false false", parts[0].unsplittable, parts[2].unsplittable, parts[4].unsplittable)
	}
}

// TestConcavityStop: an estimate given a stop below its value returns at
// least the stop, and one given a stop above its value returns exactly
// the value it returns without one (the look-ahead's early exit changes no
// kept candidate).
func TestConcavityStop(t *testing.T) {
	m := torus(1, 0.3, 24, 10)
	ts := toTris(m)
	for _, pl := range []plane{{geom.Vec3{1, 0, 0}, 0.37}, {geom.Vec3{0, 0, 1}, 0.1}} {
		pos, _, sec := cut(ts, nil, pl, 1e-12)
		p := &part{tris: pos.t, caps: []capRef{{sec, 1}}}
		h, err := hull.Build(p.points(), hull.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.hull = h
		full, deep, far := concavity(p, func() distIndex { return p.index() }, scoutBudget, 1e-9, 1, false, true, nil, 0.1)
		if full <= 0 {
			t.Fatalf("plane %v: concavity %v of half a torus", pl, full)
		}
		below := scoutBudget
		below.stop = full / 2
		if got, _, _ := concavity(p, func() distIndex { return p.index() }, below, 1e-9, 1, false, true, nil, 0.1); got < below.stop {
			t.Errorf("plane %v: stop %v: got %v, want at least the stop", pl, below.stop, got)
		}
		above := scoutBudget
		above.stop = full * 1.01
		got, gd, gf := concavity(p, func() distIndex { return p.index() }, above, 1e-9, 1, false, true, nil, 0.1)
		if got != full || gd != deep || gf != far {
			t.Errorf("plane %v: stop %v above the value: got %v %v %v, want %v %v %v", pl, above.stop, got, gd, gf, full, deep, far)
		}
	}
}

// TestPointsDistinct: a part's points are its distinct corners in the
// order they first appear, -0 and +0 one point, as a map would have them.
func TestPointsDistinct(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 100, 2000} {
		grid := func() geom.Vec3 {
			// Few distinct values, so that corners repeat; some -0.
			c := func() float64 {
				x := float64(r.IntN(5) - 2)
				if x == 0 && r.IntN(2) == 0 {
					x = math.Copysign(0, -1)
				}
				return x
			}
			return geom.Vec3{c(), c(), c()}
		}
		p := &part{tris: make([]tri, n)}
		for i := range p.tris {
			p.tris[i] = tri{grid(), grid(), grid()}
		}
		seen := map[geom.Vec3]bool{}
		var want []geom.Vec3
		for _, tr := range p.tris {
			for _, v := range tr {
				if !seen[v] {
					seen[v] = true
					want = append(want, v)
				}
			}
		}
		got := p.points()
		if len(got) != len(want) {
			t.Fatalf("%d triangles: %d points, want %d", n, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d triangles: point %d is %v, want %v", n, i, got[i], want[i])
			}
		}
		// Each triangle's corner ids name its corners among the points.
		ids := p.cornerIDs()
		for i, tr := range p.tris {
			for k, v := range tr {
				if got[ids[i][k]] != v {
					t.Fatalf("%d triangles: triangle %d corner %d has id %d, point %v, want %v", n, i, k, ids[i][k], got[ids[i][k]], v)
				}
			}
		}
	}
}

// TestComponentLabels: triangles sharing a corner (equal as float64
// values, -0 and +0 one) share a label, labels are numbered in order of
// first triangle, and other triangles are apart; against a map-based
// flood fill.
func TestComponentLabels(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 5, 60, 1500} {
		c := func() float64 {
			x := float64(r.IntN(12) - 6)
			if x == 0 && r.IntN(2) == 0 {
				x = math.Copysign(0, -1)
			}
			return x
		}
		ts := make([]tri, n)
		for i := range ts {
			ts[i] = tri{{c(), c(), c()}, {c(), c(), c()}, {c(), c(), c()}}
		}
		at := map[geom.Vec3][]int{}
		for i, tr := range ts {
			for _, v := range tr {
				at[v] = append(at[v], i)
			}
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = -1
		}
		var count int32
		for i := range ts {
			if want[i] >= 0 {
				continue
			}
			stack := []int{i}
			want[i] = count
			for len(stack) > 0 {
				j := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, v := range ts[j] {
					for _, k := range at[v] {
						if want[k] < 0 {
							want[k] = count
							stack = append(stack, k)
						}
					}
				}
			}
			count++
		}
		got, m := componentLabels(ts)
		if m != int(count) {
			t.Fatalf("%d triangles: %d components, want %d", n, m, count)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d triangles: triangle %d labelled %d, want %d", n, i, got[i], want[i])
			}
		}
	}
}

// TestBVHView: a view of a tree holding the pieces of its triangles cut
// by planes (cut twice: a view of a view's pieces keeps the first tree)
// gives the nearest distance of a brute-force scan of the pieces, exactly;
// with a stop, that distance when it is not below the stop, else some
// distance below it.
func TestBVHView(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ts, rv := randomTris(r, 400, 0.3)
	tree := newBVH(ts)
	for i, s := range tree.slot {
		if tree.tris[s] != ts[i] {
			t.Fatalf("slot %d of triangle %d holds another triangle", s, i)
		}
	}
	pos, _, _ := cut(ts, nil, plane{geom.Vec3{1, 0, 0}, 0.3}, 1e-12)
	slot := make([]int32, len(pos.t))
	for i, s := range pos.src {
		slot[i] = tree.slot[s]
	}
	_, neg, _ := cut(pos.t, nil, plane{geom.Vec3{0.6, 0, 0.8}, -0.2}, 1e-12)
	slot2 := make([]int32, len(neg.t))
	for i, s := range neg.src {
		slot2[i] = slot[s]
	}
	for _, c := range []struct {
		ts   []tri
		slot []int32
	}{{pos.t, slot}, {neg.t, slot2}} {
		v := tree.view(c.ts, c.slot)
		for i := 0; i < 300; i++ {
			p := rv().Scale(1.5)
			want := math.Inf(1)
			for _, tr := range c.ts {
				want = math.Min(want, pointTriDist2(p, tr))
			}
			want = math.Sqrt(want)
			if got := v.dist(p, 0); got != want {
				t.Fatalf("%d pieces: dist(%v) = %v, brute force %v", len(c.ts), p, got, want)
			}
			stop := want * (0.5 + r.Float64())
			if got := v.dist(p, stop); (want >= stop && got != want) || (want < stop && (got >= stop || got < want)) {
				t.Fatalf("%d pieces: dist(%v, stop %v) = %v, brute force %v", len(c.ts), p, stop, got, want)
			}
		}
	}
}

// TestTrisBox: the same box, bit for bit (zeros' signs included), as
// extending an empty box corner by corner.
func TestTrisBox(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	zeros := []float64{0, math.Copysign(0, -1)}
	for n := 1; n < 200; n += 7 {
		ts, _ := randomTris(r, n, 1)
		for i := range ts {
			for k := range ts[i] {
				for a := 0; a < 3; a++ {
					if r.IntN(4) == 0 {
						ts[i][k][a] = zeros[r.IntN(2)]
					}
				}
			}
		}
		want := geom.EmptyBox()
		for _, tr := range ts {
			want = want.Extend(tr[0]).Extend(tr[1]).Extend(tr[2])
		}
		got := trisBox(ts)
		for a := 0; a < 3; a++ {
			if math.Float64bits(got.Min[a]) != math.Float64bits(want.Min[a]) || math.Float64bits(got.Max[a]) != math.Float64bits(want.Max[a]) {
				t.Fatalf("%d triangles: box %v, want %v", n, got, want)
			}
		}
	}
}

// TestScoreBound: candidates evaluated with a bound keeping the need best
// exact give those need best, with the same scores, as an evaluation
// without one, at one worker and at two, and the bound leaves some
// candidates out (it does something).
func TestScoreBound(t *testing.T) {
	m := torus(1, 0.4, 32, 12)
	m.t = m.t[:len(m.t)-24] // open: a band of faces removed
	var sets [][]*candidate
	for _, c := range []struct{ need, workers int }{{0, 2}, {lookaheadTop, 1}, {lookaheadTop, 2}, {1, 2}} {
		d := testDecomposer(m, Options{Workers: c.workers})
		if d.closed {
			t.Fatal("the torus with a band removed is closed")
		}
		d.rims = openEdges(toTris(m))
		parts := d.splitSide(soup{t: toTris(m)}, nil)
		if err := d.finishAll(parts, fullBudget); err != nil {
			t.Fatal(err)
		}
		cands := d.axisCandidates(parts[0], 0, planesPerAxis, true)
		if err := d.evalCandidates(parts, []int{0}, []float64{0}, cands, scoutBudget, nil, nil, []*scoreBound{newScoreBound(c.need)}); err != nil {
			t.Fatal(err)
		}
		var kept []*candidate
		for _, c := range cands {
			if c.kids != nil {
				kept = append(kept, c)
			}
		}
		sort.SliceStable(kept, func(i, j int) bool { return kept[i].score < kept[j].score })
		if c.need > 0 {
			if len(kept) == len(cands) {
				t.Errorf("need %d: no candidate left out of %d", c.need, len(cands))
			}
			kept = kept[:min(len(kept), c.need)]
		}
		sets = append(sets, kept)
	}
	all := sets[0]
	for i, s := range sets[1:] {
		for j, c := range s {
			if c.pl != all[j].pl || c.score != all[j].score {
				t.Errorf("set %d: candidate %d is %v at %v, without a bound %v at %v", i+1, j, c.pl, c.score, all[j].pl, all[j].score)
			}
		}
	}
}

// TestLookaheadFloor: second cuts evaluated with a floor give the same
// reach, once the larger of it and the floor is taken, as without one, at
// one worker and at two, and skip the cuts left once it is reached (the
// cuts ordered by falling concavity, so that without a floor every one
// lowers the reach and is scored).
func TestLookaheadFloor(t *testing.T) {
	m := torus(1, 0.4, 32, 12)
	m.t = m.t[:len(m.t)-24]
	setup := func(workers int) (*decomposer, []*part) {
		d := testDecomposer(m, Options{Workers: workers})
		d.rims = openEdges(toTris(m))
		parts := d.splitSide(soup{t: toTris(m)}, nil)
		if err := d.finishAll(parts, fullBudget); err != nil {
			t.Fatal(err)
		}
		return d, parts
	}
	// Each cut's largest child concavity alone.
	d, parts := setup(1)
	conc := parts[0].conc
	var planes []plane
	var cmax []float64
	for _, c := range d.axisCandidates(parts[0], 0, planesPerAxis, true) {
		if err := d.evalCandidates(parts, []int{0}, []float64{0}, []*candidate{c}, scoutBudget, []float64{math.Inf(1)}, []float64{0}, nil); err != nil {
			t.Fatal(err)
		}
		if c.kids != nil && c.cmax < conc {
			planes, cmax = append(planes, c.pl), append(cmax, c.cmax)
		}
	}
	idx := make([]int, len(planes))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return cmax[idx[a]] > cmax[idx[b]] })
	if len(idx) < 4 || cmax[idx[0]] == cmax[idx[len(idx)-1]] {
		t.Fatalf("%d cuts lower the open torus's concavity %v: %v", len(idx), conc, cmax)
	}
	reach := func(workers int, floor float64) (float64, int) {
		d, parts := setup(workers)
		var cs []*candidate
		for _, i := range idx {
			cs = append(cs, &candidate{pl: planes[i]})
		}
		if err := d.evalCandidates(parts, []int{0}, []float64{0}, cs, scoutBudget, []float64{parts[0].conc}, []float64{floor}, nil); err != nil {
			t.Fatal(err)
		}
		r, n := parts[0].conc, 0
		for _, c := range cs {
			if c.kids != nil {
				n++
				r = math.Min(r, c.cmax)
			}
		}
		return r, n
	}
	r0, n0 := reach(1, 0)
	floor := cmax[idx[len(idx)/2]] // reached halfway
	for _, w := range []int{1, 2} {
		r, n := reach(w, floor)
		if math.Max(r, floor) != math.Max(r0, floor) || r > floor {
			t.Errorf("workers %d: reach %v with floor %v, %v without", w, r, floor, r0)
		}
		if w == 1 && n >= n0 {
			t.Errorf("workers %d: %d cuts scored with a floor, %d without", w, n, n0)
		}
	}
}

// TestLookaheadLead: the look-ahead's pick for a stuck part (a closed
// torus), its second cuts of entries after the first capped at the first
// entry's value, is the pick worked out with every second cut scored in
// full, at one worker and at two; and the cap can bite (a later entry has
// a child above the first entry's value).
func TestLookaheadLead(t *testing.T) {
	m := torus(1, 0.4, 32, 12)
	setup := func(workers int) (*decomposer, []*part, []*candidate, []*candidate, []float64) {
		d := testDecomposer(m, Options{Workers: workers})
		parts := d.splitSide(soup{t: toTris(m)}, nil)
		if err := d.finishAll(parts, fullBudget); err != nil {
			t.Fatal(err)
		}
		cands := d.axisCandidates(parts[0], 0, planesPerAxis, true)
		if err := d.evalCandidates(parts, []int{0}, []float64{0}, cands, scoutBudget, nil, nil, []*scoreBound{newScoreBound(lookaheadTop)}); err != nil {
			t.Fatal(err)
		}
		var best *candidate
		for _, c := range cands {
			if c.kids != nil && (best == nil || c.score < best.score) {
				best = c
			}
		}
		steps := []float64{1 / float64(planesPerAxis+1)}
		if best == nil || best.cmax < stuckRatio*parts[0].conc || parts[0].conc < lookaheadMin*d.thr {
			t.Fatal("the torus is not stuck")
		}
		return d, parts, cands, []*candidate{best}, steps
	}
	// Every second cut scored in full.
	d, _, cands, _, _ := setup(1)
	var mine []*candidate
	for _, c := range cands {
		if c.kids != nil {
			mine = append(mine, c)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].score < mine[j].score })
	mine = mine[:min(len(mine), lookaheadTop)]
	var want plane
	var wantV, first float64
	bites := false
	for ei, c := range mine {
		v := 0.0
		for _, kd := range c.kids {
			if kd.conc <= d.thr {
				v = math.Max(v, kd.conc)
				continue
			}
			if ei > 0 && kd.conc > first {
				bites = true
			}
			reach := kd.conc
			for _, sc := range d.axisCandidates(kd, 0, lookaheadPlanes, false) {
				if err := d.evalCandidates([]*part{kd}, []int{0}, []float64{0}, []*candidate{sc}, scoutBudget, []float64{math.Inf(1)}, []float64{0}, nil); err != nil {
					t.Fatal(err)
				}
				if sc.kids != nil {
					reach = math.Min(reach, sc.cmax)
				}
			}
			v = math.Max(v, reach)
		}
		if ei == 0 {
			first = v
		}
		if ei == 0 || v < wantV {
			want, wantV = c.pl, v
		}
	}
	if !bites {
		t.Errorf("no later entry's child above the first entry's value %v", first)
	}
	for _, w := range []int{1, 2} {
		d, parts, cands, best, steps := setup(w)
		fixed, err := d.lookahead(parts, []int{0}, steps, cands, best)
		if err != nil {
			t.Fatal(err)
		}
		if !fixed[0] || best[0].pl != want {
			t.Errorf("workers %d: look-ahead picks %v (fixed %v), every cut scored %v", w, best[0].pl, fixed[0], want)
		}
	}
}

// TestStopAt: one more child at stopAt's value takes a candidate's score
// above the limit, and one a little below it does not.
func TestStopAt(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 2000; i++ {
		n := 2 + r.IntN(4)
		rr := r.Float64()
		m := r.Float64()
		s := m * (1 + r.Float64()*float64(n-2))
		limit := rankScore(m, s, rr, n) * (0.5 + 2*r.Float64())
		at := stopAt(limit, m, s, 0.5+0.5*rr, n)
		if got := rankScore(math.Max(m, at), s+at, rr, n); got <= limit {
			t.Fatalf("m %v s %v n %d r %v: a child at stopAt %v scores %v, not above %v", m, s, n, rr, at, got, limit)
		}
		if below := at * (1 - 1e-6); rankScore(m, s, rr, n) <= limit && rankScore(math.Max(m, below), s+below, rr, n) > limit {
			t.Fatalf("m %v s %v n %d r %v: a child at %v, below stopAt %v, scores above %v", m, s, n, rr, below, at, limit)
		}
	}

}

// TestCutNumbered: cutting numbered triangles gives the same sides,
// triangle for triangle and bit for bit, as cut, also where corners differ
// from their number's point in the sign of a zero; and the sides' corners
// numbered from the cut's numbers are numbered as afresh (numberFrom),
// also where a cut point lands on a vertex.
func TestCutNumbered(t *testing.T) {
	m := torus(1, 0.3, 24, 10)
	ts := toTris(m)
	// Corners on the planes x = 0 and z = 0, some written -0.
	neg0 := math.Copysign(0, -1)
	for i := range ts {
		for k := range ts[i] {
			for a := 0; a < 3; a++ {
				if math.Abs(ts[i][k][a]) < 1e-9 {
					ts[i][k][a] = 0
					if (i+k)%2 == 0 {
						ts[i][k][a] = neg0
					}
				}
			}
		}
	}
	p := &part{tris: ts}
	pts, ids := p.points(), p.cornerIDs()
	for _, pl := range []plane{{geom.Vec3{1, 0, 0}, 0}, {geom.Vec3{0, 0, 1}, 0}, {geom.Vec3{1, 0, 0}, 0.37}, {geom.Vec3{0.6, 0.8, 0}, 0.2}} {
		p0, n0, s0 := cut(ts, nil, pl, 1e-12)
		p1, n1, s1 := cutNumbered(ts, nil, pts, ids, pl, 1e-12)
		for side, pair := range [][2]soup{{p0, p1}, {n0, n1}} {
			a, b := pair[0], pair[1]
			if len(a.t) != len(b.t) {
				t.Fatalf("plane %v side %d: %d triangles, cut gives %d", pl, side, len(b.t), len(a.t))
			}
			for i := range a.t {
				for k := 0; k < 3; k++ {
					for c := 0; c < 3; c++ {
						if math.Float64bits(a.t[i][k][c]) != math.Float64bits(b.t[i][k][c]) {
							t.Fatalf("plane %v side %d triangle %d: %v, cut gives %v", pl, side, i, b.t[i], a.t[i])
						}
					}
				}
				if a.src[i] != b.src[i] {
					t.Fatalf("plane %v side %d triangle %d: from %d, cut says %d", pl, side, i, b.src[i], a.src[i])
				}
			}
		}
		if len(s0.segs[0]) != len(s1.segs[0]) || len(s0.segs[1]) != len(s1.segs[1]) {
			t.Fatalf("plane %v: cross-sections differ", pl)
		}
		checkNumberFrom(t, p1)
		checkNumberFrom(t, n1)
	}
	// A grid of 441 corners in the plane: all numbered by position.
	var grid []tri
	for i := 0; i < 20; i++ {
		for j := 0; j < 20; j++ {
			a, b := geom.Vec3{float64(i), float64(j), 0}, geom.Vec3{float64(i + 1), float64(j), 0}
			c, e := geom.Vec3{float64(i + 1), float64(j + 1), 0}, geom.Vec3{float64(i), float64(j + 1), 0}
			grid = append(grid, tri{a, b, c}, tri{a, c, e})
		}
	}
	g := &part{tris: grid}
	gp, gn, _ := cutNumbered(grid, nil, g.points(), g.cornerIDs(), plane{geom.Vec3{0, 0, 1}, 0}, 1e-12)
	checkNumberFrom(t, gp)
	checkNumberFrom(t, gn)
	// A vertex on an edge the cut crosses, where the cut point lands on
	// it: numberFrom welds the two, as numbering afresh does.
	tj := []tri{{{0, 0, 0}, {2, 0, 0}, {1, 1, 0}}, {{1, 0, 0}, {1.5, -1, 0}, {0.5, -1, 0}}, {{2, 0, 0}, {3, -1, 1}, {1.5, -1, 0}}}
	q := &part{tris: tj}
	pos, neg, _ := cutNumbered(tj, nil, q.points(), q.cornerIDs(), plane{geom.Vec3{1, 0, 0}, 1}, 1e-12)
	for _, sd := range []soup{pos, neg} {
		n := len((&part{tris: sd.t}).points())
		if pts, _ := numberFrom(sd.t, sd.pid, sd.npid); len(pts) != n {
			t.Fatalf("T-junction: %d points, numbering afresh gives %d", len(pts), n)
		}
		checkNumberFrom(t, sd)
	}
}

// checkNumberFrom fails unless numberFrom numbers the side's corners as
// part.number does, points bit for bit.
func checkNumberFrom(t *testing.T, sd soup) {
	t.Helper()
	pts, ids := numberFrom(sd.t, sd.pid, sd.npid)
	q := &part{tris: sd.t}
	want, wantIDs := q.points(), q.cornerIDs()
	if len(pts) != len(want) {
		t.Fatalf("numberFrom: %d points, want %d", len(pts), len(want))
	}
	for i := range want {
		for a := 0; a < 3; a++ {
			if math.Float64bits(pts[i][a]) != math.Float64bits(want[i][a]) {
				t.Fatalf("numberFrom: point %d is %v, want %v", i, pts[i], want[i])
			}
		}
	}
	for i := range wantIDs {
		if ids[i] != wantIDs[i] {
			t.Fatalf("numberFrom: triangle %d ids %v, want %v", i, ids[i], wantIDs[i])
		}
	}
}

// TestSplitSideNumbers: the parts splitSide returns carry the numbering
// of their corners that numbering them afresh gives (points bit for bit,
// zeros' signs included, and ids), for sides of several pieces.
func TestSplitSideNumbers(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	d := newDecomposer(context.Background(), Options{}, 10)
	for _, n := range []int{1, 9, 80, 600} {
		c := func() float64 {
			x := float64(r.IntN(3) - 1)
			if x == 0 && r.IntN(2) == 0 {
				x = math.Copysign(0, -1)
			}
			return x
		}
		ts := make([]tri, n)
		for i := range ts {
			// Corners near one of a few centres: several pieces.
			o := geom.Vec3{float64(20 * r.IntN(4)), 0, 0}
			ts[i] = tri{o.Add(geom.Vec3{c(), c(), c()}), o.Add(geom.Vec3{c(), c(), c()}), o.Add(geom.Vec3{c(), c(), c()})}
		}
		kids := d.splitSide(soup{t: ts}, nil)
		if n >= 80 && len(kids) < 2 {
			t.Fatalf("%d triangles: %d pieces", n, len(kids))
		}
		for ki, k := range kids {
			q := &part{tris: k.tris}
			want, wantIDs := q.points(), q.cornerIDs()
			if len(k.corners) != len(want) || len(k.ids) != len(wantIDs) {
				t.Fatalf("%d triangles, piece %d: %d points %d ids, want %d %d", n, ki, len(k.corners), len(k.ids), len(want), len(wantIDs))
			}
			for i := range want {
				for a := 0; a < 3; a++ {
					if math.Float64bits(k.corners[i][a]) != math.Float64bits(want[i][a]) {
						t.Fatalf("%d triangles, piece %d: point %d is %v, want %v", n, ki, i, k.corners[i], want[i])
					}
				}
			}
			for i := range wantIDs {
				if k.ids[i] != wantIDs[i] {
					t.Fatalf("%d triangles, piece %d: triangle %d ids %v, want %v", n, ki, i, k.ids[i], wantIDs[i])
				}
			}
		}
	}
}
