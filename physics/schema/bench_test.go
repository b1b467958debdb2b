package schema_test

import (
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics/schema"
)

// BenchmarkLoad measures compiling the physics schemas (what each
// package-level CheckDocument call pays; reuse a Checker to avoid it).
func BenchmarkLoad(b *testing.B) {
	dir := filepath.Join(testassets.Shared(b), "specs")
	for b.Loop() {
		if _, err := schema.Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}
