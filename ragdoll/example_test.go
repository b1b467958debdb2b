package ragdoll_test

import (
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/ragdoll"
)

// An upper arm and a forearm along +X, each wrapped in a ring of vertices
// it drives alone: two capsule bodies and an elbow joint at the forearm's
// head, its limits from the first rule of the table matching the bone.
func ExampleBuild() {
	at := func(x float64) geom.Mat4 {
		return geom.TRS(geom.Vec3{x, 0, 0}, geom.IdentityQuat(), geom.Vec3{1, 1, 1})
	}
	bones := []ragdoll.Bone{
		{Name: "LeftUpperArm", Parent: -1, World: at(0)},
		{Name: "LeftForeArm", Parent: 0, World: at(0.3)},
	}
	var skin ragdoll.Skin
	skin.Influences = 1
	for i := 0; i <= 10; i++ {
		x := 0.06 * float64(i)
		for k := 0; k < 8; k++ {
			a := float64(k) * math.Pi / 4
			skin.Positions = append(skin.Positions, geom.Vec3{x, 0.04 * math.Cos(a), 0.04 * math.Sin(a)})
			bone := 0
			if x >= 0.3 {
				bone = 1
			}
			skin.Joints = append(skin.Joints, bone)
			skin.Weights = append(skin.Weights, 1)
		}
	}
	const deg = math.Pi / 180
	limits := []ragdoll.LimitRule{
		{Name: "elbow", Patterns: []string{"*forearm*"}, Limit: ragdoll.Limit{Swing1: 75 * deg, Swing2: 75 * deg, Twist: 30 * deg}},
		{Name: "default", Patterns: []string{"*"}, Limit: ragdoll.Limit{Swing1: 30 * deg, Swing2: 30 * deg, Twist: 20 * deg}},
	}
	rd, err := ragdoll.Build(bones, skin, ragdoll.Settings{Limits: limits})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range rd.Bodies {
		s := b.Collider.Shape
		fmt.Printf("%s: %d vertices, %s radius %.3f height %.3f\n", b.Name, len(b.Vertices), b.Collider.Method, s.Radius, s.Height)
	}
	for _, j := range rd.Joints {
		fmt.Printf("joint %s→%s (%s) at %.2f in the parent, twist ±%.0f°\n",
			rd.Bodies[j.Child].Name, rd.Bodies[j.Parent].Name, j.Rule, j.ParentFrame.Position, j.Limit.Twist*180/math.Pi)
	}
	// Output:
	// LeftUpperArm: 40 vertices, capsule radius 0.040 height 0.230
	// LeftForeArm: 48 vertices, capsule radius 0.040 height 0.291
	// joint LeftForeArm→LeftUpperArm (elbow) at [0.30 0.00 0.00] in the parent, twist ±30°
}
