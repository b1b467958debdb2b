package ragdoll

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// twigRig is a trunk of four bones 0.5 apart (tubes of radius 0.1, the
// first segment of the skin) with a twig of three bones 0.02 apart on top
// (tubes of radius 0.005, the second segment), as RecursiveSkeletons'
// 0.9-unit branches sit on its 3-unit columns. With trunk false the skin
// is the twig alone.
func twigRig(trunk bool) ([]Bone, Skin) {
	r := &rigBuilder{rng: rand.New(rand.NewPCG(3, 7))}
	for i := range 4 {
		r.bones = append(r.bones, Bone{Name: "trunk", Parent: i - 1, World: at(0, 0.5*float64(i), 0)})
	}
	for i := range 3 {
		r.bones = append(r.bones, Bone{Name: "twig", Parent: 3 + i, World: at(0, 2+0.02*float64(i), 0)})
	}
	if trunk {
		for b := range 4 {
			r.tube(b, -1, -1, geom.Vec3{0, 0.5 * float64(b+1), 0}, 0.1)
		}
	}
	start := len(r.pos)
	for b := 4; b < 7; b++ {
		r.tube(b, -1, -1, geom.Vec3{0, 2 + 0.02*float64(b-3), 0}, 0.005)
	}
	s := r.skin()
	if trunk {
		s.Segments = []int{0, start}
	}
	return r.bones, s
}

// TestMinSizeAgainstArmature: a bone's size is measured against its whole
// armature, not its skin segment (its share of the weight is). The twig's
// bones, each 0.025 across, are 1.2% of the 2.1 armature (under MinSize,
// 3%) though 38% of their own segment: they merge into the trunk's top
// body. Alone in a skin they are the whole and keep their bodies.
func TestMinSizeAgainstArmature(t *testing.T) {
	bones, skin := twigRig(true)
	rd, err := Build(bones, skin, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	of := bodyOfBone(t, rd, len(bones))
	if got, want := of[4:], []int{of[3], of[3], of[3]}; !slices.Equal(got, want) {
		t.Errorf("twig bones' bodies %v, want the trunk top's %d", got, of[3])
	}
	if len(rd.Bodies) != 4 || len(rd.Joints) != 3 {
		t.Errorf("%d bodies, %d joints; want the trunk's 4 and 3", len(rd.Bodies), len(rd.Joints))
	}
	checkContainment(t, rd, bones, skin)

	bones, skin = twigRig(false)
	rd, err = Build(bones, skin, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	of = bodyOfBone(t, rd, len(bones))
	if of[5] < 0 || of[6] < 0 || of[5] == of[4] || of[6] == of[5] {
		t.Errorf("alone, twig bones 4-6 in bodies %v, want one each", of[4:])
	}
	checkContainment(t, rd, bones, skin)
}
