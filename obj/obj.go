// Package obj reads the geometry of Wavefront OBJ files: vertex positions
// ("v") and faces ("f"), with polygons fan-triangulated. Texture
// coordinates, normals, groups and materials are ignored. It exists for
// benchmark meshes and tests; assets proper arrive as glTF.
package obj

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/autocollide/autocollide/geom"
)

// Mesh is an indexed triangle mesh.
type Mesh struct {
	Vertices  []geom.Vec3
	Triangles [][3]uint32
}

// ReadFile reads the OBJ file at path.
func ReadFile(path string) (*Mesh, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("obj: %w", err)
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Read parses OBJ text. Indices may be negative (relative to the vertices
// read so far), as the format allows. Faces with fewer than three vertices
// and out-of-range indices are errors.
func Read(r io.Reader) (*Mesh, error) {
	m := &Mesh{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line := 0
	var poly []uint32
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "v":
			if len(fields) < 4 {
				return nil, fmt.Errorf("obj: line %d: vertex needs 3 coordinates", line)
			}
			var p geom.Vec3
			for i := 0; i < 3; i++ {
				x, err := strconv.ParseFloat(fields[1+i], 64)
				if err != nil {
					return nil, fmt.Errorf("obj: line %d: %w", line, err)
				}
				p[i] = x
			}
			m.Vertices = append(m.Vertices, p)
		case "f":
			poly = poly[:0]
			for _, f := range fields[1:] {
				s, _, _ := strings.Cut(f, "/")
				i, err := strconv.Atoi(s)
				if err != nil {
					return nil, fmt.Errorf("obj: line %d: bad index %q", line, f)
				}
				n := len(m.Vertices)
				if i < 0 {
					i = n + i + 1
				}
				if i < 1 || i > n {
					return nil, fmt.Errorf("obj: line %d: index %s out of range (1..%d)", line, s, n)
				}
				poly = append(poly, uint32(i-1))
			}
			if len(poly) < 3 {
				return nil, fmt.Errorf("obj: line %d: face with %d vertices", line, len(poly))
			}
			for k := 1; k+1 < len(poly); k++ {
				m.Triangles = append(m.Triangles, [3]uint32{poly[0], poly[k], poly[k+1]})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("obj: %w", err)
	}
	return m, nil
}
