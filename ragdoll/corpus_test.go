package ragdoll

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"
)

// skinnedInstance is one skinned node of a corpus asset as Build takes it.
type skinnedInstance struct {
	node  int
	bones []Bone
	skin  Skin
}

// skinnedInstances reads every node with a mesh and a skin the way package
// mesh poses them: bones are the skin's joints (parent: the nearest
// ancestor node that is a joint of the same skin), World the node world
// transforms mesh.WorldTransforms gives, vertices posed by linear-blend
// skinning over JOINTS_n/WEIGHTS_n.
func skinnedInstances(t *testing.T, doc *gltf.Document) []skinnedInstance {
	t.Helper()
	world, err := mesh.WorldTransforms(doc)
	if err != nil {
		t.Fatal(err)
	}
	parent := make([]int, len(doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range doc.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	var out []skinnedInstance
	for ni, n := range doc.Nodes {
		if n.Mesh == nil || n.Skin == nil {
			continue
		}
		sk := doc.Skins[*n.Skin]
		index := map[int]int{}
		for k, j := range sk.Joints {
			index[j] = k
		}
		inst := skinnedInstance{node: ni}
		for _, j := range sk.Joints {
			p := parent[j]
			for p >= 0 {
				if _, ok := index[p]; ok {
					break
				}
				p = parent[p]
			}
			b := Bone{Name: doc.Nodes[j].Name, Parent: -1, World: world[j]}
			if p >= 0 {
				b.Parent = index[p]
			}
			inst.bones = append(inst.bones, b)
		}
		ibm, err := modeler.ReadInverseBindMatrices(doc, doc.Accessors[*sk.InverseBindMatrices], nil)
		if err != nil {
			t.Fatal(err)
		}
		jm := make([]geom.Mat4, len(sk.Joints))
		for k, j := range sk.Joints {
			var inv geom.Mat4
			for r := 0; r < 4; r++ {
				for c := 0; c < 4; c++ {
					inv[r][c] = float64(ibm[k][r][c]) // modeler gives rows
				}
			}
			jm[k] = world[j].Mul(inv)
		}
		inst.skin.Influences = 4
		for _, prim := range doc.Meshes[*n.Mesh].Primitives {
			if _, ok := prim.Attributes["JOINTS_1"]; ok {
				t.Fatalf("node %d: JOINTS_1 not read by this test", ni)
			}
			pos, err := modeler.ReadPosition(doc, doc.Accessors[prim.Attributes[gltf.POSITION]], nil)
			if err != nil {
				t.Fatal(err)
			}
			base := len(inst.skin.Positions)
			if prim.Mode != gltf.PrimitiveTriangles {
				t.Fatalf("node %d: only triangles are read by this test", ni)
			}
			var idx []uint32
			if prim.Indices == nil {
				for i := range pos {
					idx = append(idx, uint32(i))
				}
			} else if idx, err = modeler.ReadIndices(doc, doc.Accessors[*prim.Indices], nil); err != nil {
				t.Fatal(err)
			}
			for i := 0; i+2 < len(idx); i += 3 {
				inst.skin.Triangles = append(inst.skin.Triangles, [3]int{base + int(idx[i]), base + int(idx[i+1]), base + int(idx[i+2])})
			}
			js, err := modeler.ReadJoints(doc, doc.Accessors[prim.Attributes["JOINTS_0"]], nil)
			if err != nil {
				t.Fatal(err)
			}
			ws, err := modeler.ReadWeights(doc, doc.Accessors[prim.Attributes["WEIGHTS_0"]], nil)
			if err != nil {
				t.Fatal(err)
			}
			for v, p := range pos {
				q := geom.Vec3{float64(p[0]), float64(p[1]), float64(p[2])}
				var posed geom.Vec3
				var sum float64
				for i := 0; i < 4; i++ {
					w := float64(ws[v][i])
					inst.skin.Joints = append(inst.skin.Joints, int(js[v][i]))
					inst.skin.Weights = append(inst.skin.Weights, w)
					if w != 0 {
						posed, sum = posed.Add(jm[js[v][i]].Point(q).Scale(w)), sum+w
					}
				}
				if sum > 0 {
					posed = posed.Scale(1 / sum)
				} else {
					posed = q
				}
				inst.skin.Positions = append(inst.skin.Positions, posed)
			}
		}
		out = append(out, inst)
	}
	return out
}

// TestCorpus runs every skinned asset of the shared corpus through Build:
// every vertex inside the collider of its dominant bone's body, for every
// collider method, joints consistent. The Pirate has no skin, so it is
// checked to have none. Counts go to the test log.
func TestCorpus(t *testing.T) {
	want := []string{"CesiumMan", "Fox", "RecursiveSkeletons", "RiggedFigure"}
	var found []string
	for _, path := range testassets.Corpus(t) {
		rel, _ := filepath.Rel(filepath.Join(testassets.Shared(t), "corpus"), path)
		asset, _, _ := strings.Cut(rel, string(filepath.Separator))
		doc, err := gltf.Open(path)
		if err != nil {
			t.Logf("%s: not opened by qmuntal/gltf (%v)", asset, err)
			continue
		}
		insts := skinnedInstances(t, doc)
		if len(insts) == 0 {
			continue
		}
		found = append(found, asset)
		t.Run(asset, func(t *testing.T) { corpusAsset(t, doc, insts) })
	}
	if !slices.Equal(found, want) {
		t.Errorf("skinned corpus assets %v, want %v", found, want)
	}
	pirate, err := os.ReadFile(filepath.Join(testassets.Shared(t), "corpus", "Pirate", "pirate.glb"))
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		Skins []any `json:"skins"`
	}
	if len(pirate) < 20 {
		t.Fatal("pirate.glb: not a GLB")
	}
	n := int(binary.LittleEndian.Uint32(pirate[12:16]))
	if err := json.Unmarshal(pirate[20:20+n], &head); err != nil {
		t.Fatal(err)
	}
	if len(head.Skins) != 0 {
		t.Error("the Pirate now has a skin: read it through package mesh (EXT_meshopt_compression) and add it")
	}
}

func corpusAsset(t *testing.T, doc *gltf.Document, insts []skinnedInstance) {
	// The adapter poses as package mesh does: same bounds.
	ex, err := mesh.Extract(doc)
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		m Method
		a Assignment
	}
	for _, r := range []run{{Capsule, Dominant}, {Capsule, Threshold}, {Box, Dominant}, {Sphere, Dominant}, {Hull, Dominant}} {
		m := r.m
		var bones, bodies, merged, joints, verts int
		var volume float64
		worst := 1.0
		rules := map[string]int{}
		for _, in := range insts {
			rd, err := Build(in.bones, in.skin, Settings{Method: m, Assign: r.a})
			if err != nil {
				t.Fatalf("node %d: %v", in.node, err)
			}
			checkContainment(t, rd, in.bones, in.skin)
			if c, out := coverage(rd, in.skin, 4000); c < 0.97 {
				t.Errorf("node %d %s: surface coverage %.4f < 0.97 (first outside: %v)", in.node, m, c, out[0])
			} else {
				worst = min(worst, c)
			}
			checkJoints(t, rd, in.bones)
			bones += len(in.bones)
			bodies += len(rd.Bodies)
			merged += len(rd.Merged)
			joints += len(rd.Joints)
			verts += len(in.skin.Positions)
			for _, b := range rd.Bodies {
				volume += b.Collider.Volume
			}
			for _, j := range rd.Joints {
				rules[j.Rule]++
			}
			if r == (run{Capsule, Dominant}) {
				checkBounds(t, ex, in)
				if len(insts) == 1 {
					t.Logf("merged: %s", mergedNames(rd, in.bones))
				}
			}
		}
		if bodies < 2 || joints == 0 {
			t.Errorf("%s: %d bodies, %d joints: no ragdoll", m, bodies, joints)
		}
		assign := map[Assignment]string{Dominant: "dominant", Threshold: "threshold"}[r.a]
		t.Logf("%-7s %-9s %d instances: bones %d, bodies %d, merged %d, joints %d, vertices %d, collider volume %.6g, surface coverage %.4f, rules %v",
			m, assign, len(insts), bones, bodies, merged, joints, verts, volume, worst, fmtRules(rules))
	}
}

// checkBounds compares the adapter's posed vertices with package mesh's
// part for the same node.
func checkBounds(t *testing.T, ex *mesh.Result, in skinnedInstance) {
	t.Helper()
	for _, p := range ex.Parts {
		if p.Node != in.node {
			continue
		}
		a, b := geom.BoundsOf(p.Vertices), geom.BoundsOf(in.skin.Positions)
		tol := 1e-5 * b.Diagonal()
		for k := 0; k < 3; k++ {
			if math.Abs(a.Min[k]-b.Min[k]) > tol || math.Abs(a.Max[k]-b.Max[k]) > tol {
				t.Fatalf("node %d: mesh poses into %v, this test into %v", in.node, a, b)
			}
		}
		return
	}
	t.Fatalf("node %d: no part from package mesh", in.node)
}

func fmtRules(r map[string]int) string {
	var keys []string
	for k := range r {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var s []string
	for _, k := range keys {
		s = append(s, fmt.Sprintf("%s:%d", k, r[k]))
	}
	return strings.Join(s, " ")
}

func mergedNames(rd *Ragdoll, bones []Bone) string {
	var s []string
	for _, m := range rd.Merged {
		into := "none"
		if m.Body >= 0 {
			into = rd.Bodies[m.Body].Name
		}
		s = append(s, bones[m.Bone].Name+"→"+into)
	}
	return strings.Join(s, ", ")
}
