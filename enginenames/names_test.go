package enginenames

import (
	"slices"
	"testing"

	"github.com/autocollide/autocollide/physics"
)

// TestParse: the prefixes and suffixes are read as Unreal and Godot read
// them, and ordinary names are left alone.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		name  string
		t     physics.ShapeType
		cands []string
	}{
		{"UCX_Chair", physics.Convex, []string{"Chair"}},
		{"UCX_Chair_01", physics.Convex, []string{"Chair_01", "Chair"}},
		{"ubx_Crate_2", physics.Box, []string{"Crate_2", "Crate"}},
		{"USP_Ball", physics.Sphere, []string{"Ball"}},
		{"UCP_Pole_x", physics.Capsule, []string{"Pole_x"}},
		{"UCX_", "", nil},
		{"Chair", "", nil},
		{"XUCX_Chair", "", nil},
	} {
		got, cands, ok := ParseUnreal(c.name)
		if ok != (c.t != "") || got != c.t || !slices.Equal(cands, c.cands) {
			t.Errorf("%q: %q %v %v", c.name, got, cands, ok)
		}
	}
	for name, want := range map[string]GodotHint{
		"Wall-col": GodotCol, "Wall_col": GodotCol, "Wall$COL": GodotCol, "Wall-colonly": GodotColOnly,
		"Rock-convcol": GodotConvCol, "Rock_convcolonly": GodotConvColOnly, "Barrel-rigid": GodotRigid,
		"Protocol": GodotNone, "col": GodotNone, "-col": GodotNone, "Wall-collider": GodotNone, "Frigid": GodotNone,
	} {
		if got := ParseGodot(name); got != want {
			t.Errorf("%q: %v, want %v", name, got, want)
		}
	}
}

// TestUnrealNames: a written name has the shape's prefix, the render
// name and a two-digit index (three from 100), and reads back as that
// shape of that render mesh; Godot hints read back as written.
func TestUnrealNames(t *testing.T) {
	for _, c := range []struct {
		t      physics.ShapeType
		render string
		i      int
		want   string
	}{
		{physics.Convex, "Chair", 0, "UCX_Chair_00"},
		{physics.Box, "Chair_01", 7, "UBX_Chair_01_07"},
		{physics.Sphere, "Ball", 12, "USP_Ball_12"},
		{physics.Capsule, "Pole", 100, "UCP_Pole_100"},
	} {
		got := unrealName(c.t, c.render, c.i)
		if got != c.want {
			t.Errorf("%s %q %d: %q, want %q", c.t, c.render, c.i, got, c.want)
		}
		st, cands, ok := ParseUnreal(got)
		if !ok || st != c.t || len(cands) != 2 || cands[1] != c.render {
			t.Errorf("%q reads as %s %v", got, st, cands)
		}
	}
	for _, h := range []GodotHint{GodotCol, GodotColOnly, GodotConvCol, GodotConvColOnly, GodotRigid} {
		if got := ParseGodot("Leg.collider0" + h.String()); got != h {
			t.Errorf("%s reads as %s", h, got)
		}
	}
}
