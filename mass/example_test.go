package mass_test

import (
	"fmt"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
)

// A closed 2×1×1 box mesh made of wood: the mesh integral gives the
// closed form (volume 2, centre at the box's centre, principal moments
// m·(b²+c²)/12, smallest about the long axis).
func ExampleMesh() {
	v := []geom.Vec3{
		{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 0},
		{0, 0, 1}, {2, 0, 1}, {2, 1, 1}, {0, 1, 1},
	}
	t := [][3]uint32{
		{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, // z = 0, z = 1
		{0, 1, 5}, {0, 5, 4}, {3, 6, 2}, {3, 7, 6}, // y = 0, y = 1
		{0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5}, // x = 0, x = 2
	}
	p, err := mass.Mesh(v, t)
	if err != nil {
		fmt.Println(err)
		return
	}
	wood, err := mass.Density("wood")
	if err != nil {
		fmt.Println(err)
		return
	}
	b := mass.FromDensity(p, wood)
	fmt.Printf("volume %.3f m³, centre %.3f\n", p.Volume, p.CenterOfMass)
	fmt.Printf("wood: %.0f kg/m³, mass %.0f kg\n", wood, b.Mass)
	fmt.Printf("principal moments %.3f kg·m²\n", b.InertiaDiagonal)
	// Output:
	// volume 2.000 m³, centre [1.000 0.500 0.500]
	// wood: 700 kg/m³, mass 1400 kg
	// principal moments [233.333 583.333 583.333] kg·m²
}
