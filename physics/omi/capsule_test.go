package omi

import (
	"encoding/json"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// TestLegacyShortCapsuleIsSphere: an OMI_collider capsule no taller than
// its diameter is a sphere of its radius (lossy when shorter: the height
// is lost), never a capsule of height 0, which both current schemas
// forbid; a taller one keeps its mid-height.
func TestLegacyShortCapsuleIsSphere(t *testing.T) {
	for _, tc := range []struct {
		height float64
		want   physics.Shape
		lossy  bool
	}{
		{0.6, physics.Shape{Type: physics.Sphere, Radius: 0.5}, true},
		{1.0, physics.Shape{Type: physics.Sphere, Radius: 0.5}, false},
		{1.5, physics.Shape{Type: physics.Capsule, Height: 0.5, RadiusTop: 0.5, RadiusBottom: 0.5}, false},
	} {
		doc := &gltf.Document{
			ExtensionsUsed: []string{physics.ExtOMICollider},
			Extensions: gltf.Extensions{physics.ExtOMICollider: json.RawMessage(
				`{"colliders":[{"type":"capsule","radius":0.5,"height":` + jsonNum(tc.height) + `}]}`)},
			Nodes: []*gltf.Node{{Extensions: gltf.Extensions{physics.ExtOMICollider: json.RawMessage(`{"collider":0}`)}}},
		}
		m, warns, err := Decode(doc)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Shapes[0]; got.Type != tc.want.Type || got.Radius != tc.want.Radius || got.Height != tc.want.Height ||
			got.RadiusTop != tc.want.RadiusTop || got.RadiusBottom != tc.want.RadiusBottom {
			t.Errorf("height %g: %+v, want %+v", tc.height, got, tc.want)
		}
		lossy := false
		for _, w := range warns {
			if w.Lossy {
				lossy = w.Path == "extensions.OMI_collider.colliders[0].height"
			}
		}
		if lossy != tc.lossy {
			t.Errorf("height %g: lossy %v, want %v (%v)", tc.height, lossy, tc.lossy, warns)
		}
	}
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}
