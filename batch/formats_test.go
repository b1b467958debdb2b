package batch

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/enginenames"
	"github.com/autocollide/autocollide/physics/codecs"
)

// TestSchemaFormatsAreTheFamilies checks that the report schema's
// profile.format enum names exactly the formats generate writes, in
// order: the physics codecs' families (physics/codecs.All), then the
// engine-name formats. A family added to the codec list must be added to
// the schema too (ARCHITECTURE.md, "Add a format").
func TestSchemaFormatsAreTheFamilies(t *testing.T) {
	var doc struct {
		Properties struct {
			Profile struct {
				Properties struct {
					Format struct {
						Enum []string `json:"enum"`
					} `json:"format"`
				} `json:"properties"`
			} `json:"profile"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(Schema, &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Properties.Profile.Properties.Format.Enum
	want := append(codecs.Families(), enginenames.Families()...)
	if !slices.Equal(got, want) {
		t.Errorf("schema properties.profile.properties.format enum = %v, the families are %v", got, want)
	}
}
