package profiles

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// billionLaughs is YAML whose aliases, expanded, make 10⁹ nodes.
func billionLaughs(key string) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString(key + ": *l9\n")
	return b.String()
}

// TestAliasBombBounded: aliases are never expanded while a profile is
// read, so a billion-laughs document fails fast with little memory,
// wherever the alias is used.
func TestAliasBombBounded(t *testing.T) {
	for _, doc := range []string{
		billionLaughs("rules"),
		billionLaughs("colliders"),
		"rules:\n  - &r {match: {name: a}, set: {method: box}}\n  - *r\n",
		"x: &x {a: *x}\n",
	} {
		allocated := allocatedBy(func() { Parse("bomb.yaml", []byte(doc)) })
		if allocated > 8<<20 {
			t.Errorf("%.40q: %d MB allocated", doc, allocated>>20)
		}
		if _, err := Parse("bomb.yaml", []byte(doc)); err == nil {
			t.Errorf("%.40q: accepted", doc)
		}
	}
}

// allocatedBy returns the bytes f allocates.
func allocatedBy(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// FuzzAliases feeds profiles built of anchors and aliases (nested,
// recursive, in every position a profile has) to Parse: it must end with
// a profile or an error, and never allocate more than a bounded multiple
// of the document's size, as alias expansion would.
func FuzzAliases(f *testing.F) {
	f.Add(billionLaughs("rules"), uint8(3))
	f.Add("a: &a [*a]\nrules: *a\n", uint8(2))
	f.Add("colliders: &c {method: box}\nrules:\n  - {match: {name: x}, set: *c}\n", uint8(1))
	f.Add("base: &b {format: khr}\n<<: *b\n", uint8(0))
	f.Fuzz(func(t *testing.T, doc string, repeat uint8) {
		if len(doc) > 1<<12 {
			return
		}
		// Repeating the document's lines multiplies its aliases.
		data := []byte(strings.Repeat(doc+"\n", int(repeat%8)+1))
		allocated := allocatedBy(func() {
			p, err := Parse("fuzz.yaml", data)
			if (p == nil) == (err == nil) {
				t.Fatalf("profile %v and error %v", p, err)
			}
		})
		if limit := uint64(4<<20 + 2000*len(data)); allocated > limit {
			t.Fatalf("%d bytes of YAML allocated %d bytes (limit %d)", len(data), allocated, limit)
		}
	})
}
