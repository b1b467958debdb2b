package generate

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/physics"
)

// TestRuleBodySettings: a rule's density gives the body of the instance
// it matches density × its box's volume, the other bodies keep the
// options' density; a rule's motion makes the matched body static with
// no mass written; a -rigid naming convention decides over a rule's
// motion, with a note.
func TestRuleBodySettings(t *testing.T) {
	crate, crateT := boxMesh(geom.Vec3{}, geom.Vec3{1, 2, 0.5})
	cube, cubeT := boxMesh(geom.Vec3{}, geom.Vec3{0.5, 0.5, 0.5})
	data := buildGLTF(t, []fnode{{name: "Crate", v: crate, t: crateT}, {name: "Cube", v: cube, t: cubeT, at: geom.Vec3{5, 0, 0}}}, []int{0, 1})
	rule := func(s PartSettings) func(context.Context, NodeInfo) (PartSettings, bool, error) {
		return func(_ context.Context, n NodeInfo) (PartSettings, bool, error) {
			if n.Name != "Crate" {
				return PartSettings{}, false, nil
			}
			s.Rule = "crate"
			return s, true, nil
		}
	}
	opt := Options{Collider: ColliderSettings{Method: Box}, Body: BodySettings{Motion: physics.Dynamic, Mass: Mass{Density: 200}}}
	opt.Rules = rule(PartSettings{Mass: Mass{Density: 500}})
	g := gen(t, data, opt)
	want := map[string]float64{"Crate": 500 * 1 * 2 * 0.5, "Cube": 200 * 0.5 * 0.5 * 0.5}
	if len(g.rep.BodyList) != 2 {
		t.Fatalf("%d bodies, want 2: %+v", len(g.rep.BodyList), g.rep.BodyList)
	}
	for _, b := range g.rep.BodyList {
		if w := want[b.Name]; b.Motion != physics.Dynamic || math.Abs(b.Mass-w) > 1e-6*w {
			t.Errorf("%s: %s body of %g kg, want dynamic, %g kg", b.Name, b.Motion, b.Mass, w)
		}
		if mo := g.model.Nodes[b.Node].Motion; mo == nil || mo.Mass == nil || math.Abs(*mo.Mass-want[b.Name]) > 1e-4*want[b.Name] {
			t.Errorf("%s: written motion %+v, want mass %g", b.Name, mo, want[b.Name])
		}
	}

	opt.Rules = rule(PartSettings{Motion: physics.Static})
	g = gen(t, data, opt)
	for _, b := range g.rep.BodyList {
		mo := g.model.Nodes[b.Node].Motion
		wantStatic := b.Name == "Crate"
		if (b.Motion == physics.Static) != wantStatic || mo == nil || (mo.Type == physics.Static) != wantStatic || wantStatic && mo.Mass != nil {
			t.Errorf("%s: report %s, written %+v; static: %v", b.Name, b.Motion, mo, wantStatic)
		}
	}

	rigid := buildGLTF(t, []fnode{{name: "Crate-rigid", v: crate, t: crateT}}, []int{0})
	opt.Rules = func(_ context.Context, n NodeInfo) (PartSettings, bool, error) {
		return PartSettings{Rule: "all", Motion: physics.Static}, true, nil
	}
	opt.Body.NamingConventions = true
	g = gen(t, rigid, opt)
	if len(g.rep.BodyList) != 1 || g.rep.BodyList[0].Motion != physics.Dynamic {
		t.Errorf("-rigid under a static rule: %+v, want one dynamic body", g.rep.BodyList)
	}
	if !strings.Contains(strings.Join(g.rep.Notes, "\n"), `rule "all"'s motion static gives way`) {
		t.Errorf("no note that the rule gave way: %q", g.rep.Notes)
	}
}
