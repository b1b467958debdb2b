// Command hostile writes the amplifying inputs of issue 27 (see package
// internal/hostile) to a folder, to measure a build's peak memory on them
// by hand or compare two builds:
//
//	go run ./tools/hostile -dir /tmp/h
//	/usr/bin/time -f '%M kB, exit %x' autocollide generate /tmp/h/nested.gltf -o /tmp/h/out.gltf
//
// TestMemoryBound in cmd/autocollide runs the same inputs and asserts the
// bound.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/autocollide/autocollide/internal/hostile"
)

func main() {
	dir := flag.String("dir", "", "folder to write the inputs to")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "hostile: -dir is required")
		os.Exit(2)
	}
	files := []struct {
		name string
		data []byte
	}{
		{"meshopt-10m-vertices.glb", hostile.MeshoptVertices(10_000_000)},
		{"nested.gltf", hostile.NestedExtras(250, 1_500_000)},
		{"wide.gltf", hostile.WideExtras(1_000_000)},
		{"values.gltf", hostile.ManyValues(2_400_000)},
		{"long-name.gltf", hostile.LongName(1<<20, 200)},
		{"rules.yaml", hostile.Profile(100_000)},
		{"instances-8000-origin.gltf", hostile.Instanced(8_000, 0)},
		{"instances-99999-spread.gltf", hostile.Instanced(99_999, 2)},
		{"instances-20000-shifted.gltf", hostile.Instanced(20_000, 1e-4)},
		{"instances-25000-spread.gltf", hostile.Instanced(25_000, 2)},
		{"colliders-99990.gltf", hostile.Colliders(99_990)},
		{"colliders-40000.gltf", hostile.Colliders(40_000)},
		{"physics-draco-40x9.9m.glb", hostile.PhysicsOnlyDraco(40, 9_900_000, 37_000)},
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
	for _, f := range files {
		p := filepath.Join(*dir, f.name)
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "hostile:", err)
			os.Exit(1)
		}
		fmt.Printf("%s\t%d bytes\n", p, len(f.data))
	}
}
