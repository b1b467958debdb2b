package generate

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/autocollide/autocollide/physics"
)

// TestOptionsJSON: Options marshal in the flat layout they had before
// they were split into groups (caches and output fingerprints hash it),
// and every field of ColliderSettings and Encoding, and the body's Mass,
// changes the JSON (a field MarshalJSON forgot would not).
func TestOptionsJSON(t *testing.T) {
	// The layout of Options before the split, field for field.
	type before struct {
		Format           string
		KHRGeometryNode  bool
		Method           Method
		MaxHullVertices  int
		Binary           bool
		Mass             Mass
		Concavity        float64
		MaxHulls         int
		MaxHullFaces     int
		MaxHullTriangles int
		AbsConcavity     float64
		AutoTolerance    float64
		HullFill         float64
		SearchTriangles  int
		Workers          int `json:"-"`
		Body             BodySettings
		RulesKey         string
	}
	body := BodySettings{Mode: BodiesByPattern, Pattern: regexp.MustCompile("^a"), Motion: physics.Kinematic,
		Material: &physics.Material{}, Filter: &physics.Filter{Name: "f"}, Trigger: true, NamingConventions: true,
		Mass: Mass{Density: 2, Mass: 3}}
	o := Options{
		Collider: ColliderSettings{Method: Decompose, MaxHullVertices: 1, Concavity: 2, MaxHulls: 3, MaxHullFaces: 4,
			MaxHullTriangles: 5, AbsConcavity: 6, AutoTolerance: 7, HullFill: 8, SearchTriangles: 9},
		Body:     body,
		Encoding: Encoding{Format: physics.KHR, KHRGeometryNode: true, Binary: true},
		RulesKey: "rules",
		Run:      Run{Workers: 4},
	}
	old := before{"khr", true, Decompose, 1, true, Mass{Density: 2, Mass: 3}, 2, 3, 4, 5, 6, 7, 8, 9, 4, body, "rules"}
	got, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(old)
	if string(got) != string(want) {
		t.Errorf("Options JSON\n%s\nwant the layout before the split\n%s", got, want)
	}

	var zero Options
	base, _ := json.Marshal(zero)
	check := func(name string, v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).Name == "ExplicitFormat" {
				continue // refuses or not; changes no output (see MarshalJSON)
			}
			f := v.Field(i)
			saved := reflect.New(f.Type()).Elem()
			saved.Set(f)
			switch f.Kind() {
			case reflect.String:
				f.SetString("x")
			case reflect.Int:
				f.SetInt(7)
			case reflect.Float64:
				f.SetFloat(0.5)
			case reflect.Bool:
				f.SetBool(true)
			default:
				t.Errorf("%s.%s: kind %s not covered by this test", name, v.Type().Field(i).Name, f.Kind())
				continue
			}
			js, _ := json.Marshal(zero)
			if string(js) == string(base) {
				t.Errorf("%s.%s does not reach Options' JSON: add it to MarshalJSON", name, v.Type().Field(i).Name)
			}
			f.Set(saved)
		}
	}
	check("ColliderSettings", reflect.ValueOf(&zero.Collider).Elem())
	check("Encoding", reflect.ValueOf(&zero.Encoding).Elem())
	check("Mass", reflect.ValueOf(&zero.Body.Mass).Elem())
}

// TestOptionsJSONNewField: a field added to ColliderSettings enters the
// fingerprint with no edit to MarshalJSON, and leaves it as it was while
// zero (its default), so that adding a setting invalidates no cache.
func TestOptionsJSONNewField(t *testing.T) {
	o := Options{
		Collider: ColliderSettings{Method: Hull, MaxHullVertices: 32, Concavity: 0.01, MaxColliders: 5},
		Encoding: Encoding{Format: physics.OMI},
		RulesKey: "k",
	}
	want, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	// ColliderSettings with one more field, as a change adding a setting
	// would make it.
	var fields []reflect.StructField
	ct := reflect.TypeOf(o.Collider)
	for i := range ct.NumField() {
		fields = append(fields, ct.Field(i))
	}
	fields = append(fields, reflect.StructField{Name: "NewSetting", Type: reflect.TypeOf(0.0)})
	grown := reflect.New(reflect.StructOf(fields)).Elem()
	for i := range ct.NumField() {
		grown.Field(i).Set(reflect.ValueOf(o.Collider).Field(i))
	}
	got, err := flatJSON(o.Body, o.RulesKey, grown.Interface(), o.Encoding)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("a new setting at zero changed the fingerprint:\n%s\nwant\n%s", got, want)
	}
	grown.FieldByName("NewSetting").SetFloat(0.25)
	got, err = flatJSON(o.Body, o.RulesKey, grown.Interface(), o.Encoding)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) == string(want) {
		t.Error("a new setting set to 0.25 left the fingerprint unchanged")
	}
	var back map[string]any
	if err := json.Unmarshal(got, &back); err != nil || back["NewSetting"] != 0.25 {
		t.Errorf("fingerprint %s: NewSetting = %v (%v), want 0.25", got, back["NewSetting"], err)
	}
}
