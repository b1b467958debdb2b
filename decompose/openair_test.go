package decompose

import (
	"math/bits"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// chi returns the Euler characteristic of the free space with cover
// blocked, counted over the whole grid (closes counts only the change).
func (a *openAir) chi(cover airSet) int {
	free := func(i, j, k int) bool {
		if i < 0 || j < 0 || k < 0 || i >= a.n[0] || j >= a.n[1] || k >= a.n[2] {
			return false
		}
		g := (i*a.n[1]+j)*a.n[2] + k
		switch a.state[g] {
		case gridExterior:
			return true
		case gridAir:
			return !cover.has(a.idx[g])
		}
		return false
	}
	chi := 0
	for i := 0; i < a.n[0]; i++ {
		for j := 0; j < a.n[1]; j++ {
			for k := 0; k < a.n[2]; k++ {
				// The cells with (i, j, k) as their least corner.
				for mask := 0; mask < 8; mask++ {
					all := true
					for sub := 0; sub < 8 && all; sub++ {
						if sub&^mask == 0 {
							all = free(i+sub&1, j+sub>>1&1, k+sub>>2&1)
						}
					}
					if all {
						chi += 1 - 2*(bits.OnesCount(uint(mask))%2)
					}
				}
			}
		}
	}
	return chi
}

// TestOpenAirTopology: on the hole meshes' search parts, the open air's
// free space has the Euler characteristic of its shape (1 + voids −
// tunnels: the torus and the ring one tunnel, so 1 with the mesh as the
// one void), and closes' incremental change equals the whole count's after
// blocking each part's union with its neighbour; bridging the torus's hole
// (and the mug's handle) by the hull of the whole mesh raises it by one.
func TestOpenAirTopology(t *testing.T) {
	for _, hm := range testassets.HoleMeshes() {
		if hm.Name != "torus" && hm.Name != "ring" && hm.Name != "mug" {
			continue
		}
		t.Run(hm.Name, func(t *testing.T) {
			m := testMesh{v: hm.V, t: hm.T}
			d := testDecomposer(m, Options{})
			parts, err := d.search(toTris(m), nil, &Result{})
			if err != nil {
				t.Fatal(err)
			}
			a, err := d.sampleAir(d.solid, parts)
			if err != nil || a == nil {
				t.Fatalf("no open air (%v)", err)
			}
			cover := a.newSet()
			for _, p := range parts {
				cover.or(a.blocked(p.hull))
			}
			base := a.chi(cover)
			// One void (the mesh), one component; a tunnel per hole.
			if want := map[string]int{"torus": 1, "ring": 1, "mug": 1}[hm.Name]; base != want {
				t.Errorf("χ of the free space around the search's hulls = %d, want %d", base, want)
			}
			for i := range parts {
				j := (i + 1) % len(parts)
				u, err := d.unite(parts[i], parts[j])
				if err != nil {
					t.Fatal(err)
				}
				s := a.blocked(u.hull)
				dchi := a.closes(s, cover)
				after := append(airSet{}, cover...)
				after.or(s)
				if got := a.chi(after) - base; got != dchi {
					t.Errorf("parts %d+%d: closes says Δχ = %d, the whole count %d", i, j, dchi, got)
				}
			}
			all, err := buildHull(m.v, -1, 0)
			if err != nil {
				t.Fatal(err)
			}
			dchi := a.closes(a.blocked(all), cover)
			if dchi != 1 {
				t.Errorf("the hull of everything: Δχ = %d, want 1 (the hole bridged)", dchi)
			}
		})
	}
}
