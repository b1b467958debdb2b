package preview

import (
	"fmt"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/mesh"
)

// jointColor draws ragdoll joints: magenta, unlike every shape colour.
var jointColor = rgb{0.80, 0.05, 0.55}

// jointMark is a ragdoll joint drawn as a dot at the joint and a stick
// to the parent body's origin (the parent bone's head): the ragdoll's
// skeleton, in world space.
type jointMark struct {
	at, parent geom.Vec3
}

// addRagdolls records the ragdolls inspect finds in the asset (Stats) and
// a mark per joint.
func (sc *scene) addRagdolls(a *gltfio.Asset) error {
	f, err := inspect.Describe(a)
	if err != nil {
		return err
	}
	sc.stats.Budgets = f.Budgets
	if len(f.Ragdolls) == 0 {
		return nil
	}
	world, err := mesh.WorldTransforms(a.Doc)
	if err != nil {
		return err
	}
	sc.stats.Ragdolls = f.Ragdolls
	for _, rd := range f.Ragdolls {
		for _, j := range rd.Joints {
			sc.joints = append(sc.joints, jointMark{at: world[f.Joints[j.Joint].Node].Translation(), parent: world[j.ParentBody].Translation()})
		}
	}
	return nil
}

// ragdollLegend is the legend entry of the joints, with the counts.
func ragdollLegend(st Stats) legendItem {
	bodies, merged, joints := 0, 0, 0
	for _, rd := range st.Ragdolls {
		bodies, merged, joints = bodies+len(rd.Bodies), merged+len(rd.Merged), joints+len(rd.Joints)
	}
	return legendItem{colors: []rgb{jointColor}, text: fmt.Sprintf("ragdoll joints %d (bones with bodies %d, merged %d)", joints, bodies, merged)}
}

// drawJoints paints the marks over the panel, on top of everything: a
// stick ss pixels wide and a dot 3·ss wide at each joint.
func (p *panel) drawJoints(marks []jointMark, cam camera, ss int) {
	dot := func(x, y float64, size int) {
		x0, y0 := int(x)-size/2, int(y)-size/2
		for yy := max(y0, 0); yy < min(y0+size, p.h); yy++ {
			for xx := max(x0, 0); xx < min(x0+size, p.w); xx++ {
				i := yy*p.w + xx
				copy(p.rgb[3*i:3*i+3], jointColor[:])
			}
		}
	}
	for _, m := range marks {
		a, b := cam.project(m.at), cam.project(m.parent)
		n := int(max(abs(b[0]-a[0]), abs(b[1]-a[1]), 1))
		n = min(n, 4*(p.w+p.h))
		for k := 0; k <= n; k++ {
			t := float64(k) / float64(n)
			dot(a[0]+(b[0]-a[0])*t, a[1]+(b[1]-a[1])*t, ss)
		}
		dot(a[0], a[1], 3*ss)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
