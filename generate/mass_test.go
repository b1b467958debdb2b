package generate

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
)

// foldedSolid is a closed mesh whose pieces are wound against each other:
// a unit cube, and 10 m away a 0.9 m cube wound inside out. Every edge is
// shared by two triangles in opposite directions (closed), the signed
// volume is positive (1 − 0.729), but the second moments of the inverted
// piece count negative: the tensor has a negative principal moment, as
// for a mesh that folds through itself.
func foldedSolid() Solid {
	a := boxConvex(geom.Vec3{}, geom.Vec3{1, 1, 1})
	b := boxConvex(geom.Vec3{10, 0, 0}, geom.Vec3{0.9, 0.9, 0.9})
	s := Solid{Vertices: append(append([]geom.Vec3{}, a.Vertices...), b.Vertices...), Triangles: a.Triangles}
	for _, t := range b.Triangles {
		s.Triangles = append(s.Triangles, [3]uint32{t[0] + 8, t[2] + 8, t[1] + 8})
	}
	return s
}

// TestBodyMassFoldedMesh (issue 41, defect 11): a closed mesh whose
// integrals are not a solid's is weighed by its colliders, so the body
// gets positive principal moments (before: SourceMesh and a negative
// moment, which the output's validate refused as "an autocollide bug").
func TestBodyMassFoldedMesh(t *testing.T) {
	s := foldedSolid()
	if !mass.IsClosedByPosition(s.Vertices, s.Triangles) {
		t.Fatal("fixture not closed")
	}
	raw, err := mass.Mesh(s.Vertices, s.Triangles)
	if err != nil {
		t.Fatal(err)
	}
	if raw.Physical() {
		t.Fatalf("fixture integrates to a physical tensor %v: it tests nothing", raw.Inertia)
	}
	hull := boxConvex(geom.Vec3{5, 0, 0}, geom.Vec3{11, 1, 1})
	c := Collider{Mass: mass.Box(geom.Vec3{11, 1, 1}).Transform(geom.IdentityQuat(), geom.Vec3{5, 0, 0}), Convex: &hull}
	p, src, err := BodyMass(context.Background(), []Solid{s}, []Collider{c})
	if err != nil || src != SourceColliders {
		t.Fatalf("folded mesh: source %q, %v; want %q", src, err, SourceColliders)
	}
	d, _ := mass.Principal(p.Inertia)
	if !p.Physical() || d[0] <= 0 || d[1] <= 0 || d[2] <= 0 {
		t.Errorf("folded mesh weighed by its colliders: principal moments %v, want positive", d)
	}
	// Colliders that are no solid either: an error, not a tensor.
	bad := Collider{Mass: mass.Properties{Volume: 1, Inertia: geom.Mat3{{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}
	if _, _, err := BodyMass(context.Background(), []Solid{s}, []Collider{bad}); err == nil {
		t.Error("folded mesh and non-physical colliders: no error")
	}
}

// TestCheckResultInternal (issue 41, defect 11): generated physics that
// fails validate is autocollide's fault: the error wraps ErrInternal, on
// which batch marks the asset internal and the command exits 3 (before:
// a plain error, exit 1).
func TestCheckResultInternal(t *testing.T) {
	a, err := gltfio.Load(filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"), gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Asset(context.Background(), a, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := checkResult(a); err != nil {
		t.Fatalf("valid output refused: %v", err)
	}
	bodies := 0
	for i := range a.Tree.Arr("nodes") {
		if _, ok := a.Tree.Arr("nodes")[i].(*gltfio.Object).Obj("extensions").Get("OMI_physics_body"); ok {
			if err := a.Set(gltfio.Num(-1), "nodes", i, "extensions", "OMI_physics_body", "motion", "mass"); err != nil {
				t.Fatal(err)
			}
			bodies++
		}
	}
	if bodies == 0 {
		t.Fatal("no body to break")
	}
	if err := checkResult(a); !errors.Is(err, ErrInternal) {
		t.Errorf("broken output: %v, want an error wrapping ErrInternal", err)
	}
}

// TestPlanStopsOnDeadline (issue 41, defect 7): a profile's rules and
// body pattern are matched against node names under the deadline: once
// the context is done, planning stops before the next match (before: no
// deadline until every name was matched; one 280-byte pattern against six
// long names took 35-76 s).
func TestPlanStopsOnDeadline(t *testing.T) {
	a, err := gltfio.Load(filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"), gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := mesh.Extract(a.Doc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	opt := Options{}
	opt.Rules = func(context.Context, NodeInfo) (PartSettings, bool, error) {
		calls++
		cancel() // the deadline passes during the first match
		return PartSettings{}, false, nil
	}
	if _, err := planAsset(ctx, a, ex, map[int]bool{}, opt); !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("planAsset past its deadline: %v after %d matches, want context.Canceled after 1", err, calls)
	}
	if len(ex.Parts) < 2 {
		t.Fatal("fixture has a single part: the test proves nothing")
	}
	pl, err := planAsset(context.Background(), a, ex, map[int]bool{}, Options{})
	if err != nil || len(pl.parts) == 0 {
		t.Errorf("planAsset without a deadline: %v, %d parts", err, len(pl.parts))
	}
}
