package gltfio

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/autocollide/autocollide/geom"
)

// MarkKey is the extras member that marks what autocollide generated.
const MarkKey = "autocollide"

// FingerprintKey is the member of extras.autocollide, on the first node
// a run generated, that records what made the output (batch's
// Fingerprint; inspect shows it).
const FingerprintKey = "fingerprint"

// appendable lists the top-level arrays autocollide appends to.
var appendable = []string{"nodes", "meshes", "accessors", "bufferViews", "buffers"}

// journal records what an edit session changed, so that Strip can undo it
// exactly: the original lengths of the arrays appended to, and the
// original value (or absence) of every member replaced.
type journal struct {
	counts  map[string]int
	created map[string]bool // top-level arrays that did not exist
	changes []change
	seen    map[string]bool
	binLen  int // original length of the GLB BIN buffer; -1 if untouched
	own     int // index of our own data: URI buffer, -1 if none
	ownData []byte
	first   int // index of the first generated node, -1 if none
	// grown holds the nodes whose children array AppendNode replaced
	// with a copy (the journal keeps the original): it appends to the
	// copy in place after, so that n children cost O(n), not O(n²).
	grown map[int]bool
}

type change struct {
	path   []any // string keys and int indices
	old    any
	absent bool
}

func (a *Asset) j() *journal {
	if a.journal == nil {
		a.journal = &journal{counts: map[string]int{}, created: map[string]bool{}, seen: map[string]bool{}, binLen: -1, own: -1, first: -1}
		for _, k := range appendable {
			if v, ok := a.Tree.Get(k); ok {
				arr, _ := v.([]any)
				a.journal.counts[k] = len(arr)
			}
		}
	}
	return a.journal
}

func pathKey(path []any) string {
	var b strings.Builder
	for _, p := range path {
		fmt.Fprintf(&b, "/%v", p)
	}
	return b.String()
}

// Set sets the value at a path of object keys (string) and array indices
// (int) below the root, creating missing objects on the way, and journals
// the first change at each place so Strip can restore it.
func (a *Asset) Set(value any, path ...any) error {
	j := a.j()
	var cur any = a.Tree
	for i, p := range path {
		last := i == len(path)-1
		switch key := p.(type) {
		case string:
			o, ok := cur.(*Object)
			if !ok {
				return fmt.Errorf("%s: not an object", pathKey(path[:i]))
			}
			v, present := o.Get(key)
			if last || !present {
				j.record(path[:i+1], v, !present)
			}
			if last {
				o.Set(key, value)
				return nil
			}
			if !present {
				v = NewObject()
				o.Set(key, v)
			}
			cur = v
		case int:
			arr, ok := cur.([]any)
			if !ok || key < 0 || key >= len(arr) {
				return fmt.Errorf("%s: no element %d", pathKey(path[:i]), key)
			}
			if last {
				j.record(path[:i+1], arr[key], false)
				arr[key] = value
				return nil
			}
			cur = arr[key]
		default:
			return fmt.Errorf("bad path element %v", p)
		}
	}
	return errors.New("empty path")
}

// record journals the value at path unless path or one of its prefixes
// has been journaled already (restoring the prefix restores it).
func (j *journal) record(path []any, old any, absent bool) {
	if len(path) >= 2 {
		// Inside an element appended by this session: truncation undoes it.
		if name, ok := path[0].(string); ok {
			if i, ok := path[1].(int); ok && i >= j.counts[name] {
				if _, tracked := j.counts[name]; tracked || j.created[name] {
					return
				}
			}
		}
	}
	for n := 1; n <= len(path); n++ {
		if j.seen[pathKey(path[:n])] {
			return
		}
	}
	j.seen[pathKey(path)] = true
	j.changes = append(j.changes, change{path: append([]any(nil), path...), old: old, absent: absent})
}

// appendTo appends v to a top-level array and returns its index.
func (a *Asset) appendTo(name string, v any) int {
	j := a.j()
	arr := a.Tree.Arr(name)
	if _, ok := a.Tree.Get(name); !ok {
		j.created[name] = true
	}
	arr = append(arr, v)
	a.Tree.Set(name, arr)
	return len(arr) - 1
}

func mark(o *Object) {
	m := NewObject()
	m.Set("generated", true)
	ex := NewObject()
	ex.Set(MarkKey, m)
	o.Set("extras", ex)
}

// AppendNode appends a generated node as the last child of parent and
// returns its index. The node gets the autocollide mark in its extras.
func (a *Asset) AppendNode(parent int, node *Object) (int, error) {
	nodes := a.Tree.Arr("nodes")
	if parent < 0 || parent >= len(nodes) {
		return 0, fmt.Errorf("nodes[%d]: no such parent node", parent)
	}
	po, ok := nodes[parent].(*Object)
	if !ok {
		return 0, fmt.Errorf("nodes[%d]: not an object", parent)
	}
	mark(node)
	idx := a.appendTo("nodes", node)
	if a.j().first < 0 {
		a.j().first = idx
	}
	if a.j().grown[parent] {
		po.Set("children", append(po.Arr("children"), IntNum(idx)))
		return idx, nil
	}
	children := append(append([]any{}, po.Arr("children")...), IntNum(idx))
	if err := a.Set(children, "nodes", parent, "children"); err != nil {
		return 0, err
	}
	if a.j().grown == nil {
		a.j().grown = map[int]bool{}
	}
	a.j().grown[parent] = true
	return idx, nil
}

// AppendOrphanNode appends a generated node that no scene or parent
// references (KHR's geometry.node form points at such nodes to name a
// collision mesh without rendering it) and returns its index.
func (a *Asset) AppendOrphanNode(node *Object) int {
	mark(node)
	idx := a.appendTo("nodes", node)
	if a.j().first < 0 {
		a.j().first = idx
	}
	return idx
}

// AppendMesh appends a generated mesh with one indexed TRIANGLES
// primitive holding float32 positions, and returns the mesh index.
// Positions are rounded to float32; the accessor's min and max are those
// of the rounded values, as glTF requires.
func (a *Asset) AppendMesh(name string, positions []geom.Vec3, triangles [][3]uint32, outBinary bool) (int, error) {
	if len(positions) == 0 || len(triangles) == 0 {
		return 0, errors.New("empty mesh")
	}
	if len(positions) > math.MaxUint32 {
		return 0, errors.New("too many vertices")
	}
	pos := make([]byte, 0, 12*len(positions))
	lo := [3]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	hi := [3]float32{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	for _, p := range positions {
		if !p.IsFinite() {
			return 0, errors.New("non-finite vertex")
		}
		for c := 0; c < 3; c++ {
			f := float32(p[c])
			lo[c] = min(lo[c], f)
			hi[c] = max(hi[c], f)
			pos = binary.LittleEndian.AppendUint32(pos, math.Float32bits(f))
		}
	}
	wide := len(positions) > 65535
	var idx []byte
	for _, t := range triangles {
		for _, v := range t {
			if int(v) >= len(positions) {
				return 0, fmt.Errorf("index %d out of range", v)
			}
			if wide {
				idx = binary.LittleEndian.AppendUint32(idx, v)
			} else {
				idx = binary.LittleEndian.AppendUint16(idx, uint16(v))
			}
		}
	}
	buf, posOff, err := a.appendBytes(pos, outBinary)
	if err != nil {
		return 0, err
	}
	_, idxOff, err := a.appendBytes(idx, outBinary)
	if err != nil {
		return 0, err
	}
	bvPos := a.appendBufferView(buf, posOff, len(pos), 34962)
	bvIdx := a.appendBufferView(buf, idxOff, len(idx), 34963)

	pa := NewObject()
	pa.Set("bufferView", IntNum(bvPos))
	pa.Set("componentType", IntNum(5126))
	pa.Set("count", IntNum(len(positions)))
	pa.Set("type", "VEC3")
	pa.Set("min", []any{f32(lo[0]), f32(lo[1]), f32(lo[2])})
	pa.Set("max", []any{f32(hi[0]), f32(hi[1]), f32(hi[2])})
	mark(pa)
	posAcc := a.appendTo("accessors", pa)

	ia := NewObject()
	ia.Set("bufferView", IntNum(bvIdx))
	if wide {
		ia.Set("componentType", IntNum(5125))
	} else {
		ia.Set("componentType", IntNum(5123))
	}
	ia.Set("count", IntNum(3*len(triangles)))
	ia.Set("type", "SCALAR")
	mark(ia)
	idxAcc := a.appendTo("accessors", ia)

	attrs := NewObject()
	attrs.Set("POSITION", IntNum(posAcc))
	prim := NewObject()
	prim.Set("attributes", attrs)
	prim.Set("indices", IntNum(idxAcc))
	prim.Set("mode", IntNum(4))
	m := NewObject()
	if name != "" {
		m.Set("name", name)
	}
	m.Set("primitives", []any{prim})
	mark(m)
	return a.appendTo("meshes", m), nil
}

func f32(f float32) json.Number {
	return json.Number(strconv.FormatFloat(float64(f), 'g', -1, 32))
}

func (a *Asset) appendBufferView(buf, off, n, target int) int {
	bv := NewObject()
	bv.Set("buffer", IntNum(buf))
	bv.Set("byteOffset", IntNum(off))
	bv.Set("byteLength", IntNum(n))
	bv.Set("target", IntNum(target))
	mark(bv)
	return a.appendTo("bufferViews", bv)
}

// appendBytes stores b, 4-byte aligned, in the GLB binary buffer when
// the input's buffer 0 is its BIN chunk (or the output is a GLB and there
// is no buffer yet), else in a generated buffer of its own. Save writes
// either to one file: a GLB's BIN chunk, or a .bin beside a .gltf.
func (a *Asset) appendBytes(b []byte, outBinary bool) (buffer, offset int, err error) {
	j := a.j()
	bufs := a.Tree.Arr("buffers")
	useBin := false
	if len(bufs) == 0 {
		useBin = outBinary
	} else if b0, ok := bufs[0].(*Object); ok {
		_, hasURI := b0.Get("uri")
		useBin = !hasURI && a.Binary
	}
	if useBin {
		if len(bufs) == 0 {
			bo := NewObject()
			bo.Set("byteLength", IntNum(0))
			mark(bo)
			a.appendTo("buffers", bo)
			a.bin = nil
		} else if j.binLen < 0 {
			j.binLen = len(a.bin)
		}
		for len(a.bin)%4 != 0 {
			a.bin = append(a.bin, 0)
		}
		offset = len(a.bin)
		a.bin = append(a.bin[:len(a.bin):len(a.bin)], b...)
		if err := a.Set(IntNum(len(a.bin)), "buffers", 0, "byteLength"); err != nil {
			return 0, 0, err
		}
		return 0, offset, nil
	}
	if j.own < 0 {
		bo := NewObject()
		bo.Set("byteLength", IntNum(0))
		mark(bo)
		j.own = a.appendTo("buffers", bo)
	}
	for len(j.ownData)%4 != 0 {
		j.ownData = append(j.ownData, 0)
	}
	offset = len(j.ownData)
	j.ownData = append(j.ownData, b...)
	return j.own, offset, nil
}

// finish writes the journal into the first generated node and the
// generated data buffer's URI. It is idempotent.
func (a *Asset) finish() error {
	j := a.journal
	if j == nil {
		return nil
	}
	if j.own >= 0 {
		bo := a.Tree.Arr("buffers")[j.own].(*Object)
		bo.Set("byteLength", IntNum(len(j.ownData)))
		bo.Set("uri", dataURI(j.ownData))
	}
	if len(j.changes) == 0 && len(j.created) == 0 && !j.appended(a) {
		return nil
	}
	if j.first < 0 {
		return errors.New("internal: edits without a generated node to hold the undo record")
	}
	undo := NewObject()
	counts := NewObject()
	for _, k := range appendable {
		if n, ok := j.counts[k]; ok {
			counts.Set(k, IntNum(n))
		} else if j.created[k] {
			counts.Set(k, IntNum(0))
		}
	}
	undo.Set("counts", counts)
	var created []any
	for _, k := range appendable {
		if j.created[k] {
			created = append(created, k)
		}
	}
	if len(created) > 0 {
		undo.Set("created", created)
	}
	if j.binLen >= 0 {
		undo.Set("binLength", IntNum(j.binLen))
	}
	var ch []any
	for _, c := range j.changes {
		co := NewObject()
		co.Set("path", c.path)
		if c.absent {
			co.Set("absent", true)
		} else {
			co.Set("old", c.old)
		}
		ch = append(ch, co)
	}
	if len(ch) > 0 {
		undo.Set("changes", ch)
	}
	node := a.Tree.Arr("nodes")[j.first].(*Object)
	node.Obj("extras").Obj(MarkKey).Set("undo", undo)
	return nil
}

func (j *journal) appended(a *Asset) bool {
	for _, k := range appendable {
		if len(a.Tree.Arr(k)) > j.counts[k] {
			return true
		}
	}
	return false
}

// strip undoes an earlier run recorded in the tree, if any.
func (a *Asset) strip() error {
	nodes := a.Tree.Arr("nodes")
	first := -1
	var undo *Object
	for i, n := range nodes {
		o, _ := n.(*Object)
		if u := o.Obj("extras").Obj(MarkKey).Obj("undo"); u != nil {
			first, undo = i, u
			break
		}
	}
	if undo == nil {
		return nil
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("nodes[%d].extras.%s.undo: cannot undo the earlier autocollide run: %s", first, MarkKey, fmt.Sprintf(format, args...))
	}
	counts := undo.Obj("counts")
	if n, ok := counts.Int("nodes"); !ok || n != first {
		return fail("it must be held by the first generated node")
	}
	for _, k := range appendable {
		n, ok := counts.Int(k)
		if !ok {
			continue
		}
		arr := a.Tree.Arr(k)
		if n < 0 || n > len(arr) {
			return fail("%s count %d out of range", k, n)
		}
		for i := n; i < len(arr); i++ {
			o, _ := arr[i].(*Object)
			if g, _ := o.Obj("extras").Obj(MarkKey).Get("generated"); g != true {
				return fail("%s[%d] was added after autocollide's own objects", k, i)
			}
		}
		a.Tree.Set(k, arr[:n:n])
	}
	for _, k := range undo.Arr("created") {
		if s, ok := k.(string); ok {
			a.Tree.Delete(s)
		}
	}
	changes := undo.Arr("changes")
	for i := len(changes) - 1; i >= 0; i-- {
		c, _ := changes[i].(*Object)
		path := c.Arr("path")
		if len(path) == 0 {
			return fail("changes[%d]: empty path", i)
		}
		absent, _ := c.Get("absent")
		old, _ := c.Get("old")
		if err := a.restore(path, old, absent == true); err != nil {
			return fail("changes[%d]: %v", i, err)
		}
	}
	// A .gltf written from a GLB holds the BIN chunk in a file: the
	// restored byteLength alone cuts the generated tail off.
	if n, ok := undo.Int("binLength"); ok && a.Binary {
		if n < 0 || n > len(a.bin) {
			return fail("binLength %d out of range", n)
		}
		a.bin = a.bin[:n:n]
	}
	a.Stripped = true
	return nil
}

func (a *Asset) restore(path []any, old any, absent bool) error {
	var cur any = a.Tree
	for i, p := range path {
		last := i == len(path)-1
		switch key := p.(type) {
		case string:
			o, ok := cur.(*Object)
			if !ok {
				return fmt.Errorf("%s: not an object", pathKey(path[:i]))
			}
			if last {
				if absent {
					o.Delete(key)
				} else {
					o.Set(key, old)
				}
				return nil
			}
			cur, _ = o.Get(key)
		case json.Number:
			n, ok := asInt(key)
			arr, isArr := cur.([]any)
			if !ok || !isArr || n < 0 || n >= len(arr) {
				return fmt.Errorf("%s: no element %v", pathKey(path[:i]), key)
			}
			if last {
				arr[n] = old
				return nil
			}
			cur = arr[n]
		default:
			return fmt.Errorf("bad path element %v", p)
		}
	}
	return nil
}
