package ragdoll

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// rigBuilder makes a procedural skinned humanoid: bones with random rest
// rotations and a 0.01 scale (as a centimetre rig exported with a scaled
// armature), and tubes of vertices around the bones, blended with the
// parent near the head and the child near the tail.
type rigBuilder struct {
	rng     *rand.Rand
	bones   []Bone
	pos     []geom.Vec3
	joints  []int
	weights []float64
}

func (r *rigBuilder) bone(name string, parent int, head geom.Vec3) int {
	q := geom.Quat{r.rng.NormFloat64(), r.rng.NormFloat64(), r.rng.NormFloat64(), r.rng.NormFloat64()}.Normalize()
	w := geom.TRS(head, q, geom.Vec3{0.01, 0.01, 0.01})
	r.bones = append(r.bones, Bone{Name: name, Parent: parent, World: w})
	return len(r.bones) - 1
}

func (r *rigBuilder) head(b int) geom.Vec3 { return r.bones[b].World.Translation() }

// vertex adds a vertex with up to four (bone, weight) pairs.
func (r *rigBuilder) vertex(p geom.Vec3, bw ...float64) {
	r.pos = append(r.pos, p)
	for k := 0; k < 4; k++ {
		if 2*k+1 < len(bw) {
			r.joints = append(r.joints, int(bw[2*k]))
			r.weights = append(r.weights, bw[2*k+1])
		} else {
			r.joints = append(r.joints, 0)
			r.weights = append(r.weights, 0)
		}
	}
}

// tube wraps bone b's segment from its head to tail in rings of 12
// vertices about 2 cm apart; parent and child (-1: none) share the weight
// of the first and last fifth.
func (r *rigBuilder) tube(b, parent, child int, tail geom.Vec3, radius float64) {
	a := r.head(b)
	d := tail.Sub(a)
	u := d.Normalize()
	e1 := u.Cross(geom.Vec3{0.3, 0.5, 0.8}).Normalize()
	e2 := u.Cross(e1)
	rings := max(2, int(math.Ceil(d.Len()/0.02))+1)
	for i := 0; i < rings; i++ {
		t := float64(i) / float64(rings-1)
		c := a.Add(d.Scale(t))
		pa, pc := 0.0, 0.0
		if parent >= 0 {
			pa = 0.4 * math.Max(0, 1-t/0.2)
		}
		if child >= 0 {
			pc = 0.4 * math.Max(0, (t-0.8)/0.2)
		}
		for k := 0; k < 12; k++ {
			th := 2 * math.Pi * float64(k) / 12
			p := c.Add(e1.Scale(radius * math.Cos(th))).Add(e2.Scale(radius * math.Sin(th)))
			r.vertex(p, float64(b), 1-pa-pc, float64(max(parent, 0)), pa, float64(max(child, 0)), pc)
		}
	}
}

// ball wraps bone b in a sphere of vertices of radius rad around c.
func (r *rigBuilder) ball(b, parent int, c geom.Vec3, rad float64) {
	for i := 0; i < 200; i++ {
		z := 1 - 2*(float64(i)+0.5)/200
		th := float64(i) * math.Pi * (3 - math.Sqrt(5))
		s := math.Sqrt(1 - z*z)
		p := c.Add(geom.Vec3{s * math.Cos(th), z, s * math.Sin(th)}.Scale(rad))
		w := 0.0
		if p[1] < c[1]-0.6*rad {
			w = 0.3
		}
		r.vertex(p, float64(b), 1-w, float64(parent), w)
	}
}

// humanoid is the test rig: a weightless Armature root over the hips, a
// spine, neck and head (with a weightless end bone), clavicles, arms with a
// zero-length twist bone on the forearm, hands with three-phalanx fingers,
// legs and toes. Character faces +Z, left is +X, 1.8 m tall.
func humanoid(seed uint64) (*rigBuilder, map[string]int) {
	r := &rigBuilder{rng: rand.New(rand.NewPCG(seed, 1))}
	id := map[string]int{}
	add := func(name string, parent string, head geom.Vec3) int {
		p := -1
		if parent != "" {
			p = id[parent]
		}
		id[name] = r.bone(name, p, head)
		return id[name]
	}
	add("Armature", "", geom.Vec3{})
	add("Hips", "Armature", geom.Vec3{0, 1.0, 0})
	add("Spine", "Hips", geom.Vec3{0, 1.12, 0})
	add("Chest", "Spine", geom.Vec3{0, 1.28, 0})
	add("Neck", "Chest", geom.Vec3{0, 1.5, 0})
	add("Head", "Neck", geom.Vec3{0, 1.6, 0})
	add("HeadTop_End", "Head", geom.Vec3{0, 1.8, 0})
	for _, side := range []struct {
		n string
		s float64
	}{{"Left", 1}, {"Right", -1}} {
		n, s := side.n, side.s
		add(n+"Clavicle", "Chest", geom.Vec3{s * 0.04, 1.45, 0})
		add(n+"Arm", n+"Clavicle", geom.Vec3{s * 0.18, 1.45, 0})
		add(n+"ForeArm", n+"Arm", geom.Vec3{s * 0.45, 1.45, 0})
		add(n+"ForeArmTwist", n+"ForeArm", geom.Vec3{s * 0.45, 1.45, 0}) // zero length
		add(n+"Hand", n+"ForeArm", geom.Vec3{s * 0.70, 1.45, 0})
		for f, z := range []float64{-0.035, -0.012, 0.012, 0.035} {
			parent := n + "Hand"
			for j := 1; j <= 3; j++ {
				name := n + "Finger" + string(rune('1'+f)) + string(rune('0'+j))
				add(name, parent, geom.Vec3{s * (0.78 + 0.028*float64(j-1)), 1.45, z})
				parent = name
			}
		}
		parent := n + "Hand"
		for j := 1; j <= 3; j++ {
			name := n + "Thumb" + string(rune('0'+j))
			add(name, parent, geom.Vec3{s * (0.73 + 0.02*float64(j-1)), 1.44, 0.05 + 0.02*float64(j-1)})
			parent = name
		}
		add(n+"UpLeg", "Hips", geom.Vec3{s * 0.1, 0.95, 0})
		add(n+"Leg", n+"UpLeg", geom.Vec3{s * 0.1, 0.52, 0})
		add(n+"Foot", n+"Leg", geom.Vec3{s * 0.1, 0.08, 0})
		add(n+"ToeBase", n+"Foot", geom.Vec3{s * 0.1, 0.02, 0.13})
	}
	h := r.head
	r.tube(id["Hips"], -1, id["Spine"], h(id["Spine"]), 0.15)
	r.tube(id["Spine"], id["Hips"], id["Chest"], h(id["Chest"]), 0.14)
	r.tube(id["Chest"], id["Spine"], id["Neck"], h(id["Neck"]), 0.16)
	r.tube(id["Neck"], id["Chest"], id["Head"], h(id["Head"]), 0.05)
	r.ball(id["Head"], id["Neck"], geom.Vec3{0, 1.7, 0.02}, 0.11)
	for _, n := range []string{"Left", "Right"} {
		r.tube(id[n+"Clavicle"], id["Chest"], id[n+"Arm"], h(id[n+"Arm"]), 0.05)
		r.tube(id[n+"Arm"], id[n+"Clavicle"], id[n+"ForeArm"], h(id[n+"ForeArm"]), 0.045)
		fore := len(r.pos)
		r.tube(id[n+"ForeArm"], id[n+"Arm"], id[n+"Hand"], h(id[n+"Hand"]), 0.038)
		// The twist bone takes a fifth of the forearm's middle, never the
		// largest share.
		for v := fore; v < len(r.pos); v++ {
			if r.weights[4*v] == 1 {
				r.joints[4*v+3], r.weights[4*v], r.weights[4*v+3] = id[n+"ForeArmTwist"], 0.8, 0.2
			}
		}
		r.tube(id[n+"Hand"], id[n+"ForeArm"], -1, h(id[n+"Finger11"]), 0.03)
		for f := 1; f <= 4; f++ {
			for j := 1; j <= 3; j++ {
				b := id[n+"Finger"+string(rune('0'+f))+string(rune('0'+j))]
				tail := h(b).Add(h(b).Sub(h(r.bones[b].Parent)).Normalize().Scale(0.028))
				if j < 3 {
					tail = h(b + 1)
				}
				r.tube(b, r.bones[b].Parent, -1, tail, 0.008)
			}
		}
		for j := 1; j <= 3; j++ {
			b := id[n+"Thumb"+string(rune('0'+j))]
			tail := h(b).Add(geom.Vec3{0, -0.005, 0.02})
			if j < 3 {
				tail = h(b + 1)
			}
			r.tube(b, r.bones[b].Parent, -1, tail, 0.009)
		}
		r.tube(id[n+"UpLeg"], id["Hips"], id[n+"Leg"], h(id[n+"Leg"]), 0.08)
		r.tube(id[n+"Leg"], id[n+"UpLeg"], id[n+"Foot"], h(id[n+"Foot"]), 0.06)
		r.tube(id[n+"Foot"], id[n+"Leg"], id[n+"ToeBase"], h(id[n+"ToeBase"]), 0.045)
		r.tube(id[n+"ToeBase"], id[n+"Foot"], -1, h(id[n+"ToeBase"]).Add(geom.Vec3{0, 0, 0.06}), 0.03)
	}
	return r, id
}

func (r *rigBuilder) skin() Skin {
	return Skin{Positions: r.pos, Influences: 4, Joints: r.joints, Weights: r.weights}
}

// bodyOfBone maps every bone to the body that took its vertices (-1: none),
// from Bodies and Merged alone, checking that they cover each bone once.
func bodyOfBone(t *testing.T, rd *Ragdoll, n int) []int {
	t.Helper()
	of := make([]int, n)
	for i := range of {
		of[i] = -2
	}
	for i, b := range rd.Bodies {
		for _, bone := range b.Bones {
			if of[bone] != -2 {
				t.Fatalf("bone %d listed twice", bone)
			}
			of[bone] = i
		}
		if !slices.Contains(b.Bones, b.Bone) {
			t.Errorf("body %d %q does not list its own bone", i, b.Name)
		}
	}
	for _, m := range rd.Merged {
		if m.Body >= 0 && of[m.Bone] != m.Body || m.Body < 0 && of[m.Bone] != -2 {
			t.Errorf("merged bone %d: body %d, Bodies say %d", m.Bone, m.Body, of[m.Bone])
		}
		of[m.Bone] = m.Body
	}
	for b, o := range of {
		if o == -2 {
			t.Errorf("bone %d is neither a body nor merged", b)
		}
	}
	return of
}

// checkContainment asserts that every weighted vertex is taken by the body
// of its dominant bone, and lies inside that body's collider.
func checkContainment(t *testing.T, rd *Ragdoll, bones []Bone, skin Skin) {
	t.Helper()
	of := bodyOfBone(t, rd, len(bones))
	taken := make([][]int, len(skin.Positions))
	for i, b := range rd.Bodies {
		if len(b.Points) < len(b.Vertices) {
			t.Fatalf("body %q: %d points for %d vertices", b.Name, len(b.Points), len(b.Vertices))
		}
		for k, p := range b.Points[len(b.Vertices):] {
			if !b.Collider.Contains(p) {
				t.Fatalf("body %q: surface point %d outside its %s", b.Name, k, b.Collider.Method)
			}
		}
		for k, v := range b.Vertices {
			taken[v] = append(taken[v], i)
			if !b.Collider.Contains(b.Points[k]) {
				t.Fatalf("body %q: vertex %d outside its %s", b.Name, v, b.Collider.Method)
			}
			if d := b.Frame.Point(b.Points[k]).Sub(skin.Positions[v]).Len(); d > 1e-9 {
				t.Fatalf("body %q: vertex %d point is %g from the vertex", b.Name, v, d)
			}
		}
	}
	k := skin.Influences
	for v := range skin.Positions {
		sum := map[int]float64{} // a bone listed twice sums its weights
		for i := v * k; i < (v+1)*k; i++ {
			sum[skin.Joints[i]] += skin.Weights[i]
		}
		// Ties: the bone whose joint is nearest the vertex, then the
		// lower index.
		dist := func(b int) float64 { return skin.Positions[v].Sub(bones[b].World.Translation()).Len() }
		best, bw := -1, 0.0
		for b, w := range sum {
			if w > bw || (w == bw && w > 0 && (dist(b) < dist(best) || dist(b) == dist(best) && b < best)) {
				best, bw = b, w
			}
		}
		if best < 0 {
			continue
		}
		if want := of[best]; want < 0 || !slices.Contains(taken[v], want) {
			t.Fatalf("vertex %d (dominant bone %d %q): taken by %v, want body %d", v, best, bones[best].Name, taken[v], want)
		}
	}
}

// checkJoints asserts that each joint's two frames are one world pose at
// the child bone's head, with +Y along the child's axis, and links a body
// to its parent.
func checkJoints(t *testing.T, rd *Ragdoll, bones []Bone) {
	t.Helper()
	if want := len(rd.Bodies) - roots(rd); len(rd.Joints) != want {
		t.Errorf("%d joints for %d bodies with a parent", len(rd.Joints), want)
	}
	for _, j := range rd.Joints {
		c, p := rd.Bodies[j.Child], rd.Bodies[j.Parent]
		if c.Parent != j.Parent {
			t.Errorf("joint %q→%q: the child's parent body is %d", c.Name, p.Name, c.Parent)
		}
		head := bones[c.Bone].World.Translation()
		scale := 1 + head.Len()
		a := c.Frame.Point(j.ChildFrame.Position)
		b := p.Frame.Point(j.ParentFrame.Position)
		if a.Sub(head).Len() > 1e-9*scale || b.Sub(head).Len() > 1e-9*scale {
			t.Errorf("joint %q: anchors %v and %v, head %v", c.Name, a, b, head)
		}
		ra := c.Frame.Linear().Mul(j.ChildFrame.Rotation.Mat3())
		rb := p.Frame.Linear().Mul(j.ParentFrame.Rotation.Mat3())
		for r := 0; r < 3; r++ {
			for k := 0; k < 3; k++ {
				if math.Abs(ra[r][k]-rb[r][k]) > 1e-9 {
					t.Fatalf("joint %q: frames differ\n%v\n%v", c.Name, ra, rb)
				}
			}
		}
		if d := ra.Col(1).Dot(c.Frame.Linear().MulVec(c.Axis)); d < 1-1e-9 {
			t.Errorf("joint %q: +Y is %g rad off the bone axis", c.Name, math.Acos(math.Min(d, 1)))
		}
	}
}

func roots(rd *Ragdoll) int {
	n := 0
	for _, b := range rd.Bodies {
		if b.Parent < 0 {
			n++
		}
	}
	return n
}

func TestHumanoidRig(t *testing.T) {
	r, id := humanoid(1)
	rd, err := Build(r.bones, r.skin(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range rd.Bodies {
		names = append(names, b.Name)
	}
	want := []string{"Hips", "Spine", "Chest", "Neck", "Head",
		"LeftClavicle", "LeftArm", "LeftForeArm", "LeftHand",
		"RightClavicle", "RightArm", "RightForeArm", "RightHand",
		"LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
		"RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"}
	if !slices.Equal(names, want) {
		t.Fatalf("bodies %v\nwant   %v", names, want)
	}
	of := bodyOfBone(t, rd, len(r.bones))
	bodyName := func(bone string) string {
		if o := of[id[bone]]; o >= 0 {
			return rd.Bodies[o].Name
		}
		return ""
	}
	fingers := 0
	for name, b := range id {
		switch {
		case strings.Contains(name, "Finger") || strings.Contains(name, "Thumb"):
			fingers++
			side := "Left"
			if name[0] == 'R' {
				side = "Right"
			}
			if got := bodyName(name); got != side+"Hand" {
				t.Errorf("%s merged into %q, want %sHand", name, got, side)
			}
		case name == "HeadTop_End":
			if got := bodyName(name); got != "Head" {
				t.Errorf("HeadTop_End merged into %q", got)
			}
		case name == "LeftForeArmTwist" || name == "RightForeArmTwist":
			if got := bodyName(name); got != name[:len(name)-5] {
				t.Errorf("%s merged into %q", name, got)
			}
		case name == "Armature":
			if of[b] != -1 {
				t.Errorf("weightless Armature root went to body %d, want none", of[b])
			}
		}
	}
	if fingers != 30 {
		t.Errorf("%d finger bones checked, want 30", fingers)
	}
	checkContainment(t, rd, r.bones, r.skin())
	checkJoints(t, rd, r.bones)
	if roots(rd) != 1 || rd.Bodies[0].Name != "Hips" {
		t.Errorf("%d root bodies, first %q; want Hips alone", roots(rd), rd.Bodies[0].Name)
	}
	// The first matching rule wins, case-insensitively: a forearm is also
	// an arm. With no table, every joint gets DefaultLimits' one rule.
	const d = math.Pi / 180
	table := []LimitRule{
		{"elbow", []string{"*FOREARM*"}, Limit{75 * d, 70 * d, 30 * d}},
		{"shoulder", []string{"*arm*"}, Limit{80 * d, 80 * d, 45 * d}},
		{"rest", []string{"*"}, Limit{10 * d, 20 * d, 5 * d}},
	}
	withTable, err := Build(r.bones, r.skin(), Settings{Limits: table})
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{"LeftForeArm": 0, "RightForeArm": 0, "LeftArm": 1, "RightArm": 1, "Spine": 2, "Head": 2, "LeftHand": 2}
	seen := 0
	for k, j := range withTable.Joints {
		name := withTable.Bodies[j.Child].Name
		if want, ok := rules[name]; ok {
			seen++
			if j.Rule != table[want].Name || j.Limit != table[want].Limit {
				t.Errorf("joint %s: rule %q %+v, want %q %+v", name, j.Rule, j.Limit, table[want].Name, table[want].Limit)
			}
		}
		if def := DefaultLimits()[0]; rd.Joints[k].Rule != def.Name || rd.Joints[k].Limit != def.Limit {
			t.Errorf("joint %s with no table: rule %q %+v, want %q", name, rd.Joints[k].Rule, rd.Joints[k].Limit, def.Name)
		}
	}
	if seen != len(rules) || len(withTable.Joints) != len(rd.Joints) {
		t.Errorf("%d of the %d named joints found; %d joints with the table, %d without", seen, len(rules), len(withTable.Joints), len(rd.Joints))
	}
	// Capsules follow their bones: the forearm's runs from elbow to wrist.
	fa := rd.Bodies[slices.Index(names, "LeftForeArm")]
	axis := fa.Collider.Shape.Rotation.Rotate(geom.Vec3{0, 1, 0})
	world := fa.Frame.Linear().MulVec(axis)
	if math.Abs(world[0]) < 1-1e-9 {
		t.Errorf("left forearm capsule axis %v in world, want ±X", world)
	}
	t.Logf("rig: %d bones, %d bodies, %d merged, %d joints", len(r.bones), len(rd.Bodies), len(rd.Merged), len(rd.Joints))
}

// TestHumanoidRigMethods: every collider method and the threshold
// assignment keep every vertex inside the colliders of the bodies that
// take it.
func TestHumanoidRigMethods(t *testing.T) {
	r, _ := humanoid(2)
	for _, m := range []Method{Capsule, Box, Sphere, Hull} {
		for _, a := range []Assignment{Dominant, Threshold} {
			rd, err := Build(r.bones, r.skin(), Settings{Method: m, Assign: a})
			if err != nil {
				t.Fatalf("%s/%d: %v", m, a, err)
			}
			checkContainment(t, rd, r.bones, r.skin())
			checkJoints(t, rd, r.bones)
			shared := 0
			for _, b := range rd.Bodies {
				if b.Collider.Method != m {
					t.Errorf("%s: body %q got a %s", m, b.Name, b.Collider.Method)
				}
				shared += len(b.Vertices)
			}
			if a == Threshold && shared <= len(r.pos) {
				t.Errorf("%s threshold: %d vertex memberships for %d vertices: no vertex shared", m, shared, len(r.pos))
			}
		}
	}
}

// TestDeterministic: the same input gives the same ragdoll, field by field.
func TestDeterministic(t *testing.T) {
	r, _ := humanoid(3)
	a, err := Build(r.bones, r.skin(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(r.bones, r.skin(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Bodies) != len(b.Bodies) || len(a.Joints) != len(b.Joints) || !slices.Equal(a.Merged, b.Merged) {
		t.Fatal("counts differ between runs")
	}
	for i := range a.Bodies {
		x, y := a.Bodies[i], b.Bodies[i]
		if x.Collider.Shape != y.Collider.Shape || !slices.Equal(x.Vertices, y.Vertices) || x.Axis != y.Axis {
			t.Fatalf("body %d differs between runs", i)
		}
	}
	if !slices.Equal(a.Joints, b.Joints) {
		t.Fatal("joints differ between runs")
	}
}
