package kinds

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/physics"
)

// TestTableConsistent checks each row carries what its Build needs and
// nothing else, so that a new row cannot be half filled in.
func TestTableConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range All() {
		if k.Method == "" || seen[k.Method] {
			t.Errorf("method %q empty or repeated", k.Method)
		}
		seen[k.Method] = true
		if got, ok := ByMethod(k.Method); !ok || got.Method != k.Method {
			t.Errorf("ByMethod(%q) = %v, %v", k.Method, got.Method, ok)
		}
		if (k.Build == Fitted) != (k.Fit != "") {
			t.Errorf("%s: build %d with fit %q", k.Method, k.Build, k.Fit)
		}
		switch k.Build {
		case Choose, Nothing:
			if k.Shape != "" {
				t.Errorf("%s writes no shape of its own but names %q", k.Method, k.Shape)
			}
			continue
		case Fitted:
			s, ok := ShapeOf(k.Shape)
			if !ok || s.FromFit == nil || s.Mass == nil {
				t.Errorf("%s: shape %q has no fitted form or mass", k.Method, k.Shape)
			}
		}
		if _, ok := ShapeOf(k.Shape); !ok {
			t.Errorf("%s: shape %q is not in Shapes", k.Method, k.Shape)
		}
	}
	for _, f := range fit.Kinds() {
		if k, ok := ByFit(f); !ok || k.Fit != f {
			t.Errorf("fit kind %q has no row", f)
		}
	}
	if _, ok := ByMethod("no-such"); ok {
		t.Error("ByMethod found a method not in the table")
	}
	if m := MadeMethods(); slices.Contains(m, "auto") || len(m) != len(Methods())-1 {
		t.Errorf("MadeMethods = %v", m)
	}
}

// TestFittedShapesKeepTheFit checks that a fitted primitive's shape has
// the fit's volume (the mass dispatch and the shape conversion agree with
// fit), and that the floor only grows it.
func TestFittedShapesKeepTheFit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pts := make([]geom.Vec3, 200)
	for i := range pts {
		pts[i] = geom.Vec3{r.Float64() * 3, r.Float64(), r.Float64() * 0.5}
	}
	for _, k := range All() {
		if k.Build != Fitted {
			continue
		}
		f, err := fit.Fit(k.Fit, pts, fit.Options{GapSamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		sk, _ := ShapeOf(k.Shape)
		s := sk.FromFit(f, 0)
		if s.Type != k.Shape {
			t.Errorf("%s: shape type %q, want %q", k.Method, s.Type, k.Shape)
		}
		if v := sk.Mass(s).Volume; math.Abs(v-f.Volume) > 1e-9*f.Volume {
			t.Errorf("%s: shape volume %g, fit volume %g", k.Method, v, f.Volume)
		}
		floor := 10.0
		if v := sk.Mass(sk.FromFit(f, floor)).Volume; v < f.Volume || v < floor*floor*floor*0.5 {
			t.Errorf("%s: floored volume %g, fit volume %g", k.Method, v, f.Volume)
		}
	}
}

// TestAxialFloor checks what the thickness floor does to a sphere-like
// fit: a cylinder becomes a slab no thinner than the floor, a capsule
// keeps the floor as its radius and gets only a positive height (its
// thickness is its diameter), and a long capsule is left alone.
func TestAxialFloor(t *testing.T) {
	const floor = 0.5
	round := fit.Shape{Radius: 0.1, Height: 0}
	cyl, _ := ShapeOf(physics.Cylinder)
	if s := cyl.FromFit(round, floor); s.Height != floor || s.RadiusTop != floor {
		t.Errorf("cylinder: height %g radius %g, want both %g", s.Height, s.RadiusTop, floor)
	}
	capsule, _ := ShapeOf(physics.Capsule)
	s := capsule.FromFit(round, floor)
	if s.RadiusTop != floor || s.Height <= 0 || s.Height > floor/5 {
		t.Errorf("capsule: height %g radius %g, want radius %g and a height in (0, %g]", s.Height, s.RadiusTop, floor, floor/5)
	}
	long := fit.Shape{Radius: 1, Height: 3}
	if s := capsule.FromFit(long, floor); s.Height != 3 || s.RadiusTop != 1 {
		t.Errorf("long capsule: height %g radius %g, want 3 and 1", s.Height, s.RadiusTop)
	}
}
