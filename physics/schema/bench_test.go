package schema_test

import (
	"testing"

	"github.com/autocollide/autocollide/physics/schema"
)

// BenchmarkLoad measures compiling the physics schemas (what each
// package-level CheckDocument call pays; reuse a Checker to avoid it).
func BenchmarkLoad(b *testing.B) {
	dir, err := schema.FindSpecs()
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := schema.Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}
