package khr_test

import (
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/qmuntal/gltf"
)

// FuzzDecode: KHR's decoder never panics on arbitrary JSON, and its
// encoding is a fixed point after one round (testkit.FuzzCodec).
func FuzzDecode(f *testing.F) {
	testkit.FuzzCodec(f, "../..", khr.Decode, func(doc *gltf.Document, m *physics.Model) error {
		return khr.Encode(doc, m, khr.Options{})
	})
}
