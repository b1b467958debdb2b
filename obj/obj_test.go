package obj

import (
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	src := `# quad and a triangle with negative indices
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vn 0 0 1
f 1//1 2//1 3//1 4//1
v 0 0 1
f -1 -4 -3
`
	m, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Vertices) != 5 {
		t.Fatalf("%d vertices, want 5", len(m.Vertices))
	}
	want := [][3]uint32{{0, 1, 2}, {0, 2, 3}, {4, 1, 2}}
	if len(m.Triangles) != len(want) {
		t.Fatalf("triangles %v, want %v", m.Triangles, want)
	}
	for i := range want {
		if m.Triangles[i] != want[i] {
			t.Fatalf("triangle %d = %v, want %v", i, m.Triangles[i], want[i])
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, src := range []string{
		"v 0 0\n",
		"v 0 0 x\n",
		"v 0 0 0\nf 1 2 3\n",
		"v 0 0 0\nv 1 0 0\nf 1 2\n",
		"v 0 0 0\nf a 1 1\n",
	} {
		if _, err := Read(strings.NewReader(src)); err == nil {
			t.Errorf("%q: no error", src)
		}
	}
}
