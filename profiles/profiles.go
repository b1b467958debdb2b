// Package profiles defines autocollide's YAML profiles: the settings a
// studio keeps per kind of asset. Presets are embedded in the binary;
// a profile file is decoded strictly, so a misspelled key or a wrong type
// is an error with its line and column, never silently ignored.
package profiles

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed presets/*.yaml
var presets embed.FS

// Profile is a set of generation settings.
type Profile struct {
	// Name is the preset name or the file the profile came from.
	Name string `yaml:"-"`
	// Format is the extension family to write: "omi" or "khr".
	Format string `yaml:"format"`
	// KHRGeometry is the KHR collider geometry form: "mesh" or "node".
	KHRGeometry string `yaml:"khrGeometry"`
	// Method is how colliders are made: "auto", "aabb", "box", "sphere",
	// "capsule", "cylinder", "hull" or "decompose".
	Method string `yaml:"method"`
	// MaxHullVertices caps the vertices of each convex hull.
	MaxHullVertices int `yaml:"maxHullVertices"`
	// Density (kg/m³), Material (a named density) or Mass (kg per body)
	// says how heavy dynamic bodies are; at most one is set.
	Density  float64 `yaml:"density"`
	Material string  `yaml:"material"`
	Mass     float64 `yaml:"mass"`
}

// Presets returns the names of the embedded presets, sorted.
func Presets() []string {
	entries, _ := presets.ReadDir("presets")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// Load returns the preset called nameOrFile, or reads the profile file
// of that name when it is a path (contains a slash or ends in .yaml/.yml).
func Load(nameOrFile string) (*Profile, error) {
	if nameOrFile == "" {
		nameOrFile = "default"
	}
	if strings.ContainsAny(nameOrFile, `/\`) || strings.HasSuffix(nameOrFile, ".yaml") || strings.HasSuffix(nameOrFile, ".yml") {
		data, err := os.ReadFile(nameOrFile)
		if err != nil {
			return nil, err
		}
		return Parse(nameOrFile, data)
	}
	data, err := presets.ReadFile(path.Join("presets", nameOrFile+".yaml"))
	if err != nil {
		return nil, fmt.Errorf("unknown profile %q (presets: %s)", nameOrFile, strings.Join(Presets(), ", "))
	}
	return Parse(nameOrFile, data)
}

// Parse decodes a profile document strictly: unknown keys and wrong types
// are errors naming name:line:column.
func Parse(name string, data []byte) (*Profile, error) {
	p := &Profile{Name: name, Format: "omi", KHRGeometry: "mesh", Method: "hull", MaxHullVertices: 255}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(p); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", name, yamlError(err))
	}
	var node yaml.Node
	if err := yaml.Unmarshal(data, &node); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := p.check(&node); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

func yamlError(err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return errors.New(strings.Join(te.Errors, "; "))
	}
	return err
}

// check validates values, pointing at the offending key's position.
func (p *Profile) check(doc *yaml.Node) error {
	pos := func(key string) string {
		if len(doc.Content) == 0 {
			return ""
		}
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return fmt.Sprintf("line %d, column %d: ", m.Content[i+1].Line, m.Content[i+1].Column)
			}
		}
		return ""
	}
	oneOf := func(key, v string, allowed ...string) error {
		for _, a := range allowed {
			if v == a {
				return nil
			}
		}
		return fmt.Errorf("%s%s: %q is not one of %s", pos(key), key, v, strings.Join(allowed, ", "))
	}
	if err := oneOf("format", p.Format, "omi", "khr"); err != nil {
		return err
	}
	if err := oneOf("khrGeometry", p.KHRGeometry, "mesh", "node"); err != nil {
		return err
	}
	if err := oneOf("method", p.Method, "auto", "aabb", "box", "sphere", "capsule", "cylinder", "hull", "decompose"); err != nil {
		return err
	}
	if p.MaxHullVertices < 4 {
		return fmt.Errorf("%smaxHullVertices: %d is below 4, the fewest a closed hull has", pos("maxHullVertices"), p.MaxHullVertices)
	}
	return nil
}
