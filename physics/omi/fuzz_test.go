package omi_test

import (
	"testing"

	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/omi"
)

// FuzzDecode: OMI's decoder never panics on arbitrary JSON, and its
// encoding is a fixed point after one round (testkit.FuzzCodec).
func FuzzDecode(f *testing.F) {
	testkit.FuzzCodec(f, "../..", omi.Decode, omi.Encode)
}
