package gltfio

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/safefile"
)

// Limits bounds what Load accepts, so that hostile input fails early with
// a clear error instead of exhausting memory or time. Zero fields take the
// defaults (see limits.go).
type Limits struct {
	// MaxFileSize bounds the input file and each external buffer and
	// image, in bytes.
	MaxFileSize int64
	// MaxTriangles bounds the triangles of the default scene counted with
	// every instance (nodes and GPU instances), from declared counts.
	MaxTriangles int64
	// MaxInstances bounds the mesh instances of the default scene (nodes
	// and GPU instances).
	MaxInstances int64
	// MaxValues bounds the values of the JSON document, object keys
	// included.
	MaxValues int
	// MaxElements bounds the length of every JSON array (nodes,
	// accessors, children, ...) and the members of every object.
	MaxElements int
}

// Asset is a loaded glTF file.
type Asset struct {
	// Path is the file it was loaded from.
	Path string
	// Binary is true for a GLB container.
	Binary bool
	// Tree is the JSON document, with members in their original order.
	// It is what Save writes.
	Tree *Object
	// Doc is the typed document with every buffer's Data loaded (a
	// meshopt fallback buffer without a URI has nil Data). It is for
	// reading geometry only: edits go to Tree.
	Doc *gltf.Document
	// Resources lists the relative URIs of external files the document
	// references (buffers and images) that exist, decoded, in document
	// order.
	Resources []string
	// Warnings lists what was found wrong but could be done without,
	// each naming the file and the JSON path: an image, or a buffer no
	// geometry is read from, missing on disk. Its reference is kept.
	Warnings []string
	// Stripped is true when a previous autocollide run's additions were
	// found and removed on load.
	Stripped bool

	bin     []byte          // GLB BIN chunk, buffer 0's bytes
	missing map[string]bool // referenced files not on disk (see Warnings)
	inline  bool            // a .gltf whose buffers are all data: URIs
	journal *journal
	lim     Limits // what it was loaded under, for copying its resources

	// files holds each resource's bytes as read, once: a buffer's whole
	// file at load, an image's on first use (see ResourceData).
	files map[string][]byte
	// strippedFiles lists the files of the generated buffers strip
	// removed (relative URIs): an earlier run's .bin, which Save removes
	// once the output replacing it is in place.
	strippedFiles []string
}

const (
	glbMagic     = 0x46546C67 // "glTF"
	glbChunkJSON = 0x4E4F534A // "JSON"
	glbChunkBIN  = 0x004E4942 // "BIN\0"
)

// Load reads a .gltf or .glb file, validates its container, loads its
// buffers, and removes what an earlier autocollide run added.
func Load(path string, lim Limits) (*Asset, error) {
	return loadPath(path, lim, true)
}

// LoadRaw is Load without removing an earlier run's additions: for
// inspecting generated output.
func LoadRaw(path string, lim Limits) (*Asset, error) {
	return loadPath(path, lim, false)
}

// Parse is Load on bytes already read from path (for a caller that also
// hashes them: both then see the same bytes, read once).
func Parse(path string, raw []byte, lim Limits) (*Asset, error) {
	a, err := parse(path, raw, lim, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

func loadPath(path string, lim Limits, strip bool) (*Asset, error) {
	a, err := load(path, lim, strip)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

func load(path string, lim Limits, strip bool) (*Asset, error) {
	raw, err := safefile.ReadFile(path, lim.maxFile())
	if err != nil {
		return nil, err
	}
	return parse(path, raw, lim, strip)
}

// parse builds an Asset from a file's bytes; path names the file and
// locates its external buffers.
func parse(path string, raw []byte, lim Limits, strip bool) (*Asset, error) {
	var err error
	a := &Asset{Path: path, lim: lim}
	jsonBytes := raw
	if len(raw) >= 4 && binary.LittleEndian.Uint32(raw) == glbMagic {
		a.Binary = true
		jsonBytes, a.bin, err = splitGLB(raw)
		if err != nil {
			return nil, err
		}
	}
	if !a.Binary && IsBinaryName(path) {
		return nil, errors.New("not a GLB file (no glTF magic number)")
	}
	if t := bytes.TrimLeft(jsonBytes, " \t\r\n\ufeff"); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("not a glTF file (neither GLB nor a JSON object)")
	}
	tree, err := parseJSON(jsonBytes, lim.maxElements(), lim.maxValues())
	if err != nil {
		return nil, err
	}
	a.Tree = tree
	if err := checkAsset(tree); err != nil {
		return nil, err
	}
	if strip {
		if err := a.strip(); err != nil {
			return nil, err
		}
	}
	if err := checkScale(a.Tree, lim); err != nil {
		return nil, err
	}
	if err := a.decodeTyped(); err != nil {
		return nil, err
	}
	if err := a.loadBuffers(lim); err != nil {
		return nil, err
	}
	if err := a.checkImages(lim); err != nil {
		return nil, err
	}
	return a, nil
}

// splitGLB validates a GLB container and returns its JSON and BIN chunks.
func splitGLB(raw []byte) (jsonChunk, bin []byte, err error) {
	if len(raw) < 20 {
		return nil, nil, errors.New("GLB: truncated header")
	}
	version := binary.LittleEndian.Uint32(raw[4:])
	if version != 2 {
		return nil, nil, fmt.Errorf("GLB: version %d, want 2", version)
	}
	total := binary.LittleEndian.Uint32(raw[8:])
	if int64(total) != int64(len(raw)) {
		return nil, nil, fmt.Errorf("GLB: header says %d bytes, file has %d", total, len(raw))
	}
	off := 12
	for chunk := 0; off < len(raw); chunk++ {
		if len(raw)-off < 8 {
			return nil, nil, fmt.Errorf("GLB: chunk %d: truncated chunk header", chunk)
		}
		n := int64(binary.LittleEndian.Uint32(raw[off:]))
		typ := binary.LittleEndian.Uint32(raw[off+4:])
		off += 8
		if n > int64(len(raw)-off) {
			return nil, nil, fmt.Errorf("GLB: chunk %d: length %d runs past the end of the file (%d bytes left)", chunk, n, len(raw)-off)
		}
		data := raw[off : off+int(n)]
		off += int(n)
		switch {
		case chunk == 0 && typ != glbChunkJSON:
			return nil, nil, errors.New("GLB: first chunk is not JSON")
		case chunk == 0:
			jsonChunk = data
		case chunk == 1 && typ == glbChunkBIN:
			bin = data
		case typ == glbChunkJSON || typ == glbChunkBIN:
			return nil, nil, fmt.Errorf("GLB: chunk %d: unexpected second %s chunk", chunk, chunkName(typ))
		}
		// Chunks of unknown type are skipped, as the specification asks.
	}
	if jsonChunk == nil {
		return nil, nil, errors.New("GLB: no JSON chunk")
	}
	return jsonChunk, bin, nil
}

func chunkName(t uint32) string {
	if t == glbChunkJSON {
		return "JSON"
	}
	return "BIN"
}

// decodeTyped fills a.Doc from the (possibly stripped) tree.
func (a *Asset) decodeTyped() error {
	raw, err := a.Tree.MarshalJSON()
	if err != nil {
		return err
	}
	doc := new(gltf.Document)
	if err := json.Unmarshal(raw, doc); err != nil {
		return fmt.Errorf("invalid glTF JSON: %w", err)
	}
	if len(doc.Buffers) != len(a.Tree.Arr("buffers")) {
		return errors.New("buffers: not an array of objects")
	}
	a.Doc = doc
	return nil
}

func (a *Asset) loadBuffers(lim Limits) error {
	dir := filepath.Dir(a.Path)
	var geometry map[int]bool
	a.inline = !a.Binary && len(a.Doc.Buffers) > 0
	for i, b := range a.Doc.Buffers {
		where := fmt.Sprintf("buffers[%d]", i)
		bo, _ := a.Tree.Arr("buffers")[i].(*Object)
		declared, ok := bo.Int("byteLength")
		if !ok || declared < 1 {
			return fmt.Errorf("%s.byteLength: missing or not a positive integer", where)
		}
		uri := b.URI
		switch {
		case uri == "" && a.Binary && i == 0:
			if int64(len(a.bin)) < int64(declared) {
				return fmt.Errorf("%s: byteLength %d exceeds the GLB BIN chunk (%d bytes)", where, declared, len(a.bin))
			}
			a.bin = a.bin[:declared:declared]
			b.Data = a.bin
		case uri == "":
			if isMeshoptFallback(bo) {
				continue // data comes from EXT_meshopt_compression views
			}
			return fmt.Errorf("%s: no uri and not the GLB binary chunk", where)
		case strings.HasPrefix(uri, "data:"):
			data, err := decodeDataURI(uri, declared)
			if err != nil {
				return fmt.Errorf("%s.uri: %w", where, err)
			}
			b.Data = data
		default:
			a.inline = false
			rel, err := LocalURI(uri)
			if err != nil {
				return fmt.Errorf("%s.uri: %w", where, err)
			}
			data, err := readBuffer(safefile.Dir(dir), rel, int64(declared), lim.maxFile())
			if errors.Is(err, fs.ErrNotExist) {
				if geometry == nil {
					geometry = geometryBuffers(a.Tree)
				}
				if geometry[i] {
					return fmt.Errorf("%s.uri %q: file not found, and mesh geometry is read from it", where, uri)
				}
				a.warnMissing(where, uri, rel, "no geometry is read from it")
				continue
			}
			if err != nil {
				return fmt.Errorf("%s.uri %q: %w", where, uri, err)
			}
			b.Data = data[:declared:declared]
			a.keep(rel, data)
			a.Resources = append(a.Resources, rel)
		}
	}
	return nil
}

// warnMissing records a referenced file that is not on disk and that
// geometry does not need: its reference stays, with a warning.
func (a *Asset) warnMissing(where, uri, rel, why string) {
	if a.missing == nil {
		a.missing = map[string]bool{}
	}
	a.missing[rel] = true
	a.Warnings = append(a.Warnings, fmt.Sprintf("%s.uri %q: file not found (%s); the reference is kept", where, uri, why))
}

func isMeshoptFallback(bo *Object) bool {
	ext := bo.Obj("extensions")
	for _, name := range meshoptExtensions {
		if e := ext.Obj(name); e != nil {
			if v, _ := e.Get("fallback"); v == true {
				return true
			}
		}
	}
	return false
}

func (a *Asset) checkImages(lim Limits) error {
	for i, im := range a.Tree.Arr("images") {
		o, _ := im.(*Object)
		v, _ := o.Get("uri")
		uri, _ := v.(string)
		if uri == "" || strings.HasPrefix(uri, "data:") {
			continue
		}
		rel, err := LocalURI(uri)
		if err != nil {
			return fmt.Errorf("images[%d].uri: %w", i, err)
		}
		err = checkResource(safefile.Dir(filepath.Dir(a.Path)), rel, lim)
		if errors.Is(err, fs.ErrNotExist) {
			a.warnMissing(fmt.Sprintf("images[%d]", i), uri, rel, "an image: geometry does not need it")
			continue
		}
		if err != nil {
			return fmt.Errorf("images[%d].uri %q: %w", i, uri, err)
		}
		a.Resources = append(a.Resources, rel)
	}
	return nil
}

// LocalURI checks that a relative URI stays inside the referring file's
// folder and returns it percent-decoded, with forward slashes. Absolute
// paths, schemes (file:, http:, ...) and ".." escapes are refused.
func LocalURI(uri string) (string, error) {
	if strings.ContainsAny(uri, "\\") {
		return "", fmt.Errorf("%q: backslashes are not allowed in URIs", uri)
	}
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("%q: %w", uri, err)
	}
	if u.Scheme != "" || u.Host != "" {
		return "", fmt.Errorf("%q: only relative file references and data: URIs are allowed (refusing scheme %q)", uri, u.Scheme)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q: query and fragment are not allowed in file references", uri)
	}
	p, err := url.PathUnescape(u.EscapedPath())
	if err != nil {
		return "", fmt.Errorf("%q: %w", uri, err)
	}
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) || !filepath.IsLocal(filepath.FromSlash(p)) {
		return "", fmt.Errorf("%q resolves outside the asset's folder", uri)
	}
	return filepath.ToSlash(filepath.Clean(filepath.FromSlash(p))), nil
}

// readBuffer reads the file name inside dir, which must hold at least n
// bytes.
func readBuffer(dir safefile.Dir, name string, n, max int64) ([]byte, error) {
	if n > max {
		return nil, fmt.Errorf("byteLength %d is over the limit of %d", n, max)
	}
	data, err := dir.ReadFile(name, max)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) < n {
		return nil, fmt.Errorf("byteLength %d exceeds the file's %d bytes", n, len(data))
	}
	return data, nil
}

// keep records the bytes read of resource rel.
func (a *Asset) keep(rel string, data []byte) {
	if a.files == nil {
		a.files = map[string][]byte{}
	}
	a.files[rel] = data
}

// ResourceData returns the bytes of the external file rel (one of
// Resources), read once per asset: a buffer's as read at load, an
// image's on its first use. Copies, packed images and hashes all take
// these bytes, so a file changing on disk during a run never mixes two
// versions in one output.
func (a *Asset) ResourceData(rel string) ([]byte, error) {
	if data, ok := a.files[rel]; ok {
		return data, nil
	}
	data, err := safefile.Dir(filepath.Dir(a.Path)).ReadFile(rel, a.lim.maxFile())
	if err != nil {
		return nil, err
	}
	a.keep(rel, data)
	return data, nil
}

// decodeDataURI decodes a base64 data: URI holding at least n bytes and
// returns its first n (all of them when n is 0).
func decodeDataURI(uri string, n int) ([]byte, error) {
	comma := strings.IndexByte(uri, ',')
	if comma < 0 {
		return nil, errors.New("data: URI without a comma")
	}
	meta, payload := uri[5:comma], uri[comma+1:]
	if !strings.HasSuffix(meta, ";base64") {
		return nil, errors.New("data: URI is not base64-encoded")
	}
	enc := base64.StdEncoding
	if !strings.HasSuffix(payload, "=") && len(payload)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	if have := enc.DecodedLen(len(payload)); have < n {
		return nil, fmt.Errorf("byteLength %d exceeds the data: URI's %d bytes", n, have)
	}
	data, err := enc.DecodeString(payload)
	if err != nil {
		return nil, fmt.Errorf("data: URI: %w", err)
	}
	if len(data) < n {
		return nil, fmt.Errorf("byteLength %d exceeds the data: URI's %d bytes", n, len(data))
	}
	if n == 0 {
		return data, nil
	}
	return data[:n:n], nil
}

// dataURI encodes bytes as an application/octet-stream data: URI.
func dataURI(b []byte) string {
	var s bytes.Buffer
	s.WriteString("data:application/octet-stream;base64,")
	s.WriteString(base64.StdEncoding.EncodeToString(b))
	return s.String()
}
