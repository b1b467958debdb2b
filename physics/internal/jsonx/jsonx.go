// Package jsonx holds the JSON plumbing shared by the physics encoders
// and decoders: raw extension access on qmuntal/gltf values and
// finite-number checks.
package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// Raw returns the JSON of extension name in exts. qmuntal/gltf stores
// extensions it does not know as json.RawMessage; values set by code may
// be anything encoding/json can marshal.
func Raw(exts map[string]any, name string) (json.RawMessage, bool, error) {
	v, ok := exts[name]
	if !ok {
		return nil, false, nil
	}
	switch r := v.(type) {
	case json.RawMessage:
		return r, true, nil
	case []byte:
		return json.RawMessage(r), true, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, true, fmt.Errorf("marshal extension %s: %w", name, err)
	}
	return b, true, nil
}

// Unmarshal decodes raw JSON into v, reporting the failure at path.
func Unmarshal(raw []byte, v any, path string) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Marshal encodes v without HTML escaping; struct fields keep their
// declared order and map keys are sorted, so the output is deterministic.
func Marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// Finite reports whether every value is a finite number.
func Finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// RawMap converts a model's raw member map to JSON values.
func RawMap(m map[string][]byte) map[string]json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = json.RawMessage(v)
	}
	return out
}

// BytesMap is the inverse of RawMap.
func BytesMap(m map[string]json.RawMessage) map[string][]byte {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out
}

// MotionArrays are the fixed lengths of a motion's array members in both
// families.
var MotionArrays = map[string]int{
	"centerOfMass": 3, "inertiaDiagonal": 3, "inertiaOrientation": 4,
	"linearVelocity": 3, "angularVelocity": 3,
}

// CheckLengths reports, at path.member, an array member of the object raw
// whose length differs from lens[member]. encoding/json would silently pad
// or truncate a Go array.
func CheckLengths(raw []byte, lens map[string]int, path string) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, k := range sortedKeys(lens) {
		v, ok := obj[k]
		if !ok {
			continue
		}
		var arr []float64
		if err := json.Unmarshal(v, &arr); err != nil {
			return fmt.Errorf("%s.%s: %w", path, k, err)
		}
		if len(arr) != lens[k] {
			return fmt.Errorf("%s.%s: %d numbers, want %d", path, k, len(arr), lens[k])
		}
	}
	return nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
