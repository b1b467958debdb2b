package ragdoll

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
)

func at(x, y, z float64) geom.Mat4 {
	return geom.TRS(geom.Vec3{x, y, z}, geom.IdentityQuat(), geom.Vec3{1, 1, 1})
}

// chain is a vertical chain of bones 0.5 apart, bone i the parent of i+1,
// and a tube around each bone listed in tubes (the last bone's tube goes
// 0.5 further up).
func chain(names []string, tubes ...int) ([]Bone, Skin) {
	r := &rigBuilder{rng: rand.New(rand.NewPCG(9, 9))}
	for i, n := range names {
		r.bones = append(r.bones, Bone{Name: n, Parent: i - 1, World: at(0, 0.5*float64(i), 0)})
	}
	for _, b := range tubes {
		r.tube(b, -1, -1, geom.Vec3{0, 0.5 * float64(b+1), 0}, 0.1)
	}
	return r.bones, r.skin()
}

func TestSingleBone(t *testing.T) {
	bones, skin := chain([]string{"Only"}, 0)
	rd, err := Build(bones, skin, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Bodies) != 1 || len(rd.Joints) != 0 || len(rd.Merged) != 0 {
		t.Fatalf("%d bodies, %d joints, %d merged; want 1, 0, 0", len(rd.Bodies), len(rd.Joints), len(rd.Merged))
	}
	if a := rd.Bodies[0].Axis; math.Abs(a[1]-1) > 1e-9 {
		t.Errorf("leaf axis %v, want +Y (towards its vertices)", a)
	}
	checkContainment(t, rd, bones, skin)
}

// TestBoneWithoutVertices: a weightless bone mid-chain merges into its
// parent and the joint skips it, anchored at the child's head.
func TestBoneWithoutVertices(t *testing.T) {
	bones, skin := chain([]string{"A", "B", "C"}, 0, 2)
	rd, err := Build(bones, skin, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Bodies) != 2 || rd.Bodies[0].Name != "A" || rd.Bodies[1].Name != "C" {
		t.Fatalf("bodies %+v, want A and C", rd.Bodies)
	}
	if len(rd.Merged) != 1 || rd.Merged[0] != (Merge{Bone: 1, Body: 0}) {
		t.Errorf("merged %v, want B into A", rd.Merged)
	}
	if len(rd.Joints) != 1 || rd.Joints[0].ParentFrame.Position != (geom.Vec3{0, 1, 0}) {
		t.Errorf("joints %+v, want C→A at (0, 1, 0) in A", rd.Joints)
	}
	checkContainment(t, rd, bones, skin)
	checkJoints(t, rd, bones)
}

// TestWeightlessRootAnchors: weightless bones holding two chains: the one
// where the chains meet stays, as an anchor sphere jointed to both; the
// one above it has no body.
func TestWeightlessRootAnchors(t *testing.T) {
	r := &rigBuilder{rng: rand.New(rand.NewPCG(4, 4))}
	r.bones = []Bone{
		{Name: "Armature", Parent: -1, World: at(0, 0, 0)},
		{Name: "Root", Parent: 0, World: at(0, 1, 0)},
		{Name: "LeftLegX", Parent: 1, World: at(0.2, 1, 0)},
		{Name: "RightLegX", Parent: 1, World: at(-0.2, 1, 0)},
	}
	r.tube(2, -1, -1, geom.Vec3{0.2, 0, 0}, 0.08)
	r.tube(3, -1, -1, geom.Vec3{-0.2, 0, 0}, 0.08)
	rd, err := Build(r.bones, r.skin(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Bodies) != 3 || !rd.Bodies[0].Anchor || rd.Bodies[0].Name != "Root" {
		t.Fatalf("bodies %+v, want the Root anchor and two legs", rd.Bodies)
	}
	if len(rd.Merged) != 1 || rd.Merged[0] != (Merge{Bone: 0, Body: -1}) {
		t.Errorf("merged %v, want the Armature, into no body", rd.Merged)
	}
	c := rd.Bodies[0].Collider
	if c.Method != Sphere || math.Abs(c.Shape.Radius-0.05) > 1e-12 {
		t.Errorf("anchor collider %+v, want a sphere of radius 0.05 (a quarter of 0.2)", c)
	}
	if len(rd.Joints) != 2 {
		t.Errorf("%d joints, want 2", len(rd.Joints))
	}
	checkContainment(t, rd, r.bones, r.skin())
	checkJoints(t, rd, r.bones)
}

// TestZeroLengthBones: children at their parent's position, and a whole
// skeleton at one point, give finite axes and containing colliders.
func TestZeroLengthBones(t *testing.T) {
	r := &rigBuilder{rng: rand.New(rand.NewPCG(5, 5))}
	r.bones = []Bone{
		{Name: "A", Parent: -1, World: at(0, 0, 0)},
		{Name: "B", Parent: 0, World: at(0, 0, 0)},
		{Name: "C", Parent: 1, World: at(0, 0, 0)},
	}
	r.tube(0, -1, 1, geom.Vec3{0, 0.5, 0}, 0.1)
	r.tube(1, 0, 2, geom.Vec3{0.5, 0, 0}, 0.1)
	r.tube(2, 1, -1, geom.Vec3{0, 0, 0.5}, 0.1)
	for _, m := range []Method{Capsule, Box, Sphere, Hull} {
		rd, err := Build(r.bones, r.skin(), Settings{Method: m})
		if err != nil {
			t.Fatal(err)
		}
		if len(rd.Bodies) != 3 {
			t.Fatalf("%d bodies, want 3", len(rd.Bodies))
		}
		for _, b := range rd.Bodies {
			if !b.Axis.IsFinite() || math.Abs(b.Axis.Len()-1) > 1e-9 {
				t.Errorf("%s: body %s axis %v", m, b.Name, b.Axis)
			}
		}
		checkContainment(t, rd, r.bones, r.skin())
		checkJoints(t, rd, r.bones)
	}
	// Every joint and vertex at one point but one: no direction anywhere
	// but the frame's.
	bones := []Bone{{Name: "P", Parent: -1, World: at(1, 1, 1)}, {Name: "Q", Parent: 0, World: at(1, 1, 1)}}
	skin := Skin{Positions: []geom.Vec3{{1, 1, 1}, {1, 1, 1}}, Influences: 1, Joints: []int{0, 1}, Weights: []float64{1, 1}}
	rd, err := Build(bones, skin, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Bodies) != 1 || rd.Bodies[0].Collider.Method != Sphere {
		t.Fatalf("bodies %+v, want P with a sphere", rd.Bodies)
	}
	checkContainment(t, rd, bones, skin)
}

// TestMirroredBone: a bone whose rest transform mirrors still gets a
// right-handed frame and containing colliders.
func TestMirroredBone(t *testing.T) {
	bones, skin := chain([]string{"A", "B"}, 0, 1)
	bones[1].World = geom.TRS(geom.Vec3{0, 0.5, 0}, geom.IdentityQuat(), geom.Vec3{-2, 1, 1})
	rd, err := Build(bones, skin, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range rd.Bodies {
		if d := b.Frame.Linear().Det(); math.Abs(d-1) > 1e-12 {
			t.Errorf("body %s frame determinant %g", b.Name, d)
		}
	}
	checkContainment(t, rd, bones, skin)
	checkJoints(t, rd, bones)
}

func TestUnweightedVertices(t *testing.T) {
	bones, skin := chain([]string{"A"}, 0)
	skin.Positions = append(skin.Positions, geom.Vec3{9, 9, 9})
	skin.Joints = append(skin.Joints, 0, 0, 0, 0)
	skin.Weights = append(skin.Weights, 0, 0, 0, 0)
	rd, err := Build(bones, skin, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if rd.Unweighted != 1 {
		t.Errorf("Unweighted %d, want 1", rd.Unweighted)
	}
	checkContainment(t, rd, bones, skin)
}

func TestBadInput(t *testing.T) {
	good, skin := chain([]string{"A", "B"}, 0, 1)
	nan := math.NaN()
	mutSkin := func(f func(*Skin)) Skin {
		s := skin
		s.Positions = append([]geom.Vec3(nil), skin.Positions...)
		s.Joints = append([]int(nil), skin.Joints...)
		s.Weights = append([]float64(nil), skin.Weights...)
		f(&s)
		return s
	}
	mutBones := func(f func([]Bone)) []Bone {
		b := append([]Bone(nil), good...)
		f(b)
		return b
	}
	cases := []struct {
		name  string
		bones []Bone
		skin  Skin
		set   Settings
		err   error
		text  string
	}{
		{"no bones", nil, skin, Settings{}, ErrNoBones, ""},
		{"parent out of range", mutBones(func(b []Bone) { b[1].Parent = 7 }), skin, Settings{}, ErrSkeleton, `bone 1 "B": parent 7`},
		{"own parent", mutBones(func(b []Bone) { b[1].Parent = 1 }), skin, Settings{}, ErrSkeleton, "parent 1"},
		{"cycle", mutBones(func(b []Bone) { b[0].Parent = 1 }), skin, Settings{}, ErrSkeleton, "cycle"},
		{"NaN transform", mutBones(func(b []Bone) { b[0].World[0][3] = nan }), skin, Settings{}, ErrSkeleton, "not finite"},
		{"zero scale", mutBones(func(b []Bone) { b[1].World = geom.TRS(geom.Vec3{}, geom.IdentityQuat(), geom.Vec3{1, 0, 1}) }), skin, Settings{}, ErrSkeleton, "singular"},
		{"projective", mutBones(func(b []Bone) { b[1].World[3][0] = 1 }), skin, Settings{}, ErrSkeleton, "affine"},
		{"no vertices", good, Skin{Influences: 4}, Settings{}, ErrSkin, "no vertices"},
		{"short weights", good, mutSkin(func(s *Skin) { s.Weights = s.Weights[1:] }), Settings{}, ErrSkin, "weights"},
		{"zero influences", good, mutSkin(func(s *Skin) { s.Influences = 0 }), Settings{}, ErrSkin, "influences"},
		{"NaN weight", good, mutSkin(func(s *Skin) { s.Weights[6] = nan }), Settings{}, ErrSkin, "vertex 1 weight 2"},
		{"negative weight", good, mutSkin(func(s *Skin) { s.Weights[0] = -1 }), Settings{}, ErrSkin, "vertex 0 weight 0"},
		{"huge weights", good, mutSkin(func(s *Skin) { s.Weights[0], s.Weights[1] = math.MaxFloat64, math.MaxFloat64 }), Settings{}, ErrSkin, "overflow"},
		{"joint out of range", good, mutSkin(func(s *Skin) { s.Joints[0] = 2 }), Settings{}, ErrSkin, "outside the 2 bones"},
		{"NaN position", good, mutSkin(func(s *Skin) { s.Positions[3] = geom.Vec3{nan, 0, 0} }), Settings{}, ErrSkin, "vertex 3 position"},
		{"triangle corner out of range", good, mutSkin(func(s *Skin) { s.Triangles = [][3]int{{0, 1, 2}, {0, 1, 99999}} }), Settings{}, ErrSkin, "triangle 1 corner 2 is vertex 99999"},
		{"segment not from 0", good, mutSkin(func(s *Skin) { s.Segments = []int{1} }), Settings{}, ErrSkin, "segment 0 starts at vertex 1"},
		{"segments descending", good, mutSkin(func(s *Skin) { s.Segments = []int{0, 3, 2} }), Settings{}, ErrSkin, "segment 2 starts at vertex 2"},
		{"all weights zero", good, mutSkin(func(s *Skin) { clear(s.Weights) }), Settings{}, ErrNoWeights, ""},
		{"unknown method", good, skin, Settings{Method: "cone"}, ErrBadSetting, `"cone"`},
		{"bad threshold", good, skin, Settings{WeightThreshold: 2}, ErrBadSetting, "threshold"},
		{"NaN share", good, skin, Settings{MinWeightShare: nan}, ErrBadSetting, "not finite"},
		{"bad assignment", good, skin, Settings{Assign: 7}, ErrBadSetting, "assignment"},
		{"tiny hull", good, skin, Settings{MaxHullVertices: 3}, ErrBadSetting, "hull"},
		{"bad pattern", good, skin, Settings{Limits: []LimitRule{{Name: "x", Patterns: []string{"["}}}}, ErrBadSetting, `pattern "["`},
		{"bad angle", good, skin, Settings{Limits: []LimitRule{{Name: "x", Patterns: []string{"*"}, Limit: Limit{Twist: 4}}}}, ErrBadSetting, "outside [0, π]"},
		{"no rule", good, skin, Settings{Limits: []LimitRule{{Name: "x", Patterns: []string{"z*"}}}}, nil, `bone 1 "B": no limit rule`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rd, err := Build(c.bones, c.skin, c.set)
			if err == nil {
				t.Fatalf("no error (%d bodies)", len(rd.Bodies))
			}
			if c.err != nil && !errors.Is(err, c.err) {
				t.Errorf("error %q is not %q", err, c.err)
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Errorf("error %q does not say %q", err, c.text)
			}
		})
	}
}

// TestRandomInputNeverPanics: random skeletons and skins, many of them
// broken, give an error or a ragdoll whose colliders contain every
// vertex.
func TestRandomInputNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	built := 0
	for it := 0; it < 300; it++ {
		n := 1 + rng.IntN(8)
		bones := make([]Bone, n)
		for b := range bones {
			bones[b] = Bone{Name: []string{"spine", "LeftArm", "x", ""}[rng.IntN(4)], Parent: rng.IntN(b+1) - 1,
				World: at(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())}
			if rng.IntN(40) == 0 {
				bones[b].Parent = rng.IntN(n+2) - 1
			}
			if rng.IntN(40) == 0 {
				bones[b].World[1][1] = 0
			}
		}
		k := 1 + rng.IntN(4)
		nv := rng.IntN(40)
		skin := Skin{Positions: make([]geom.Vec3, nv), Influences: k, Joints: make([]int, nv*k), Weights: make([]float64, nv*k)}
		for v := range skin.Positions {
			skin.Positions[v] = geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			if rng.IntN(3) == 0 { // coincident vertices
				skin.Positions[v] = geom.Vec3{}
			}
		}
		for i := range skin.Joints {
			skin.Joints[i] = rng.IntN(n)
			skin.Weights[i] = []float64{0, 0, 1, rng.Float64(), 1e-300}[rng.IntN(5)]
			if rng.IntN(200) == 0 {
				skin.Weights[i] = math.Inf(1)
			}
		}
		set := Settings{Method: []Method{Capsule, Box, Sphere, Hull}[rng.IntN(4)], Assign: Assignment(rng.IntN(2)), MinSize: -1}
		rd, err := Build(bones, skin, set)
		if err != nil {
			continue
		}
		built++
		checkContainment(t, rd, bones, skin)
		checkJoints(t, rd, bones)
	}
	if built < 50 {
		t.Errorf("only %d of 300 random inputs built", built)
	}
}

// TestTieGoesToNearestJoint: a vertex weighted equally to two bones goes
// to the one whose joint is nearest it, whichever index is lower: the
// ring at the joint between A and B (B's head) to B, a vertex by A's head
// to A.
func TestTieGoesToNearestJoint(t *testing.T) {
	for _, order := range [][2]int{{0, 1}, {1, 0}} { // bone indices of A and B
		a, b := order[0], order[1]
		bones := make([]Bone, 2)
		bones[a] = Bone{Name: "A", Parent: -1, World: at(0, 0, 0)}
		bones[b] = Bone{Name: "B", Parent: a, World: at(0, 0.5, 0)}
		var s Skin
		s.Influences = 2
		add := func(p geom.Vec3, j0, j1 int, w0, w1 float64) int {
			s.Positions = append(s.Positions, p)
			s.Joints = append(s.Joints, j0, j1)
			s.Weights = append(s.Weights, w0, w1)
			return len(s.Positions) - 1
		}
		var joint []int
		for k := range 8 {
			ang := 2 * math.Pi * float64(k) / 8
			x, z := 0.1*math.Cos(ang), 0.1*math.Sin(ang)
			for _, y := range []float64{0, 0.25} {
				add(geom.Vec3{x, y, z}, a, 0, 1, 0)
			}
			joint = append(joint, add(geom.Vec3{x, 0.5, z}, a, b, 0.5, 0.5))
			for _, y := range []float64{0.75, 1} {
				add(geom.Vec3{x, y, z}, b, 0, 1, 0)
			}
		}
		low := add(geom.Vec3{0.1, 0.05, 0}, b, a, 0.5, 0.5)
		rd, err := Build(bones, s, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rd.Bodies) != 2 {
			t.Fatalf("A at %d: %d bodies, want 2", a, len(rd.Bodies))
		}
		bodyOf := map[string][]int{}
		for _, bd := range rd.Bodies {
			bodyOf[bd.Name] = bd.Vertices
		}
		for _, v := range joint {
			if !slices.Contains(bodyOf["B"], v) || slices.Contains(bodyOf["A"], v) {
				t.Errorf("A at %d: joint-ring vertex %d not B's alone", a, v)
			}
		}
		if !slices.Contains(bodyOf["A"], low) || slices.Contains(bodyOf["B"], low) {
			t.Errorf("A at %d: vertex %d by A's head not A's alone", a, low)
		}
		checkContainment(t, rd, bones, s)
	}
}

// TestBallBodyIsSphere: with the capsule method, a bone whose vertices
// make a ball gets the ball's enclosing sphere (a capsule around it would
// have a vestigial cylinder and no less volume), and a bone whose vertices
// make a tube keeps its capsule.
func TestBallBodyIsSphere(t *testing.T) {
	bones, skin := chain([]string{"Tube", "Ball"}, 0)
	for k := range 64 { // a Fibonacci sphere of radius 0.2 around Ball's head
		y := 1 - 2*(float64(k)+0.5)/64
		r, a := math.Sqrt(1-y*y), float64(k)*math.Pi*(3-math.Sqrt(5))
		skin.Positions = append(skin.Positions, geom.Vec3{0.2 * r * math.Cos(a), 0.5 + 0.2*y, 0.2 * r * math.Sin(a)})
		skin.Joints = append(skin.Joints, 1)
		skin.Weights = append(skin.Weights, 1)
		for range skin.Influences - 1 {
			skin.Joints, skin.Weights = append(skin.Joints, 0), append(skin.Weights, 0)
		}
	}
	rd, err := Build(bones, skin, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Bodies) != 2 {
		t.Fatalf("%d bodies, want 2", len(rd.Bodies))
	}
	for _, b := range rd.Bodies {
		want := map[string]fit.Kind{"Tube": fit.KindCapsule, "Ball": fit.KindSphere}[b.Name]
		if b.Collider.Shape.Kind != want {
			t.Errorf("%s: a %v, want a %v", b.Name, b.Collider.Shape.Kind, want)
		}
	}
	checkContainment(t, rd, bones, skin)
}
