package g4mf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/safefile"
)

// MaxFileSize bounds a G4MF file and each external buffer it names: 2 GiB.
const MaxFileSize = 2 << 30

// Binary container constants (godot-dimensions/g4mf,
// specification/parts/binary_file_format.md): a 16-byte file header
// (magic, version 0, u64 total size) then 16-byte-aligned chunks, each
// with a 16-byte header (type, compression, u64 data size).
const (
	magic       = "G4MF"
	chunkJSON   = "JSON"
	chunkBLOB   = "BLOB"
	headerSize  = 16
	chunkHeader = 16
	dataURI     = "data:application/octet-stream;base64,"
)

// File is a G4MF document: its JSON tree, with members in their original
// order, and the bytes of its buffers.
type File struct {
	// Path is the file it was read from ("" for a built one).
	Path string
	// Binary is true for a .g4b container.
	Binary bool
	// Tree is the JSON document; it is what Encode writes.
	Tree *gltfio.Object

	bufs []buffer // parallel to Tree's buffers
}

// buffer is one buffer's bytes. Inline buffers (from a BLOB chunk, a
// data: URI, or made by autocollide) are written into the output file;
// the others keep their relative URI.
type buffer struct {
	data   []byte
	inline bool
}

// IsName reports whether a file name has a G4MF extension (.g4tf or .g4b).
func IsName(name string) bool {
	e := strings.ToLower(filepath.Ext(name))
	return e == ".g4tf" || e == ".g4b"
}

// IsBinaryName reports whether name ends in .g4b.
func IsBinaryName(name string) bool { return strings.EqualFold(filepath.Ext(name), ".g4b") }

// Read loads a .g4tf or .g4b file (the content decides, not the name),
// checks that it is a 3D G4MF document and loads its buffers. Every
// error names the file and, where it applies, the JSON path.
func Read(path string) (*File, error) {
	data, err := safefile.ReadFile(path, MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := Parse(data, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Path = path
	return f, nil
}

// Parse decodes G4MF bytes (binary when they start with the G4MF magic,
// else JSON text). dir is the folder external buffer URIs are relative
// to; "" refuses external buffers.
func Parse(data []byte, dir string) (*File, error) {
	f := &File{}
	jsonData := data
	var chunks [][]byte
	if len(data) >= 4 && string(data[:4]) == magic {
		f.Binary = true
		var err error
		if jsonData, chunks, err = splitBinary(data); err != nil {
			return nil, err
		}
	}
	tree, err := gltfio.ParseJSON(jsonData)
	if err != nil {
		return nil, err
	}
	f.Tree = tree
	asset := tree.Obj("asset")
	if asset == nil {
		return nil, errors.New("asset: missing; not a G4MF document")
	}
	dim, ok := asset.Int("dimension")
	if !ok {
		return nil, errors.New("asset.dimension: missing or not an integer; not a G4MF document")
	}
	if dim != 3 {
		return nil, fmt.Errorf("asset.dimension: the file is %dD; autocollide reads only 3D G4MF files", dim)
	}
	if req := asset.Arr("extensionsRequired"); len(req) > 0 {
		return nil, fmt.Errorf("asset.extensionsRequired: %v required, which autocollide does not support", req)
	}
	for i, b := range tree.Arr("buffers") {
		bo, _ := b.(*gltfio.Object)
		p := fmt.Sprintf("buffers[%d]", i)
		if bo == nil {
			return nil, fmt.Errorf("%s: not an object", p)
		}
		n, ok := bo.Int("byteLength")
		if !ok || n < 0 {
			return nil, fmt.Errorf("%s.byteLength: missing or not a non-negative integer", p)
		}
		if n > MaxFileSize {
			return nil, fmt.Errorf("%s.byteLength: %d is over the %d-byte limit", p, n, MaxFileSize)
		}
		if enc, ok := bo.Get("encoding"); ok {
			return nil, fmt.Errorf("%s.encoding: %v-encoded buffers are not supported", p, enc)
		}
		var buf buffer
		c, hasChunk := bo.Int("chunk")
		uri, hasURI := bo.Get("uri")
		switch {
		case hasChunk && hasURI:
			return nil, fmt.Errorf("%s: both chunk and uri are set", p)
		case hasChunk:
			if !f.Binary {
				return nil, fmt.Errorf("%s.chunk: chunks exist only in .g4b files", p)
			}
			if c < 1 || c >= len(chunks)+1 {
				return nil, fmt.Errorf("%s.chunk: %d is not a BLOB chunk of the file (it has %d)", p, c, len(chunks))
			}
			buf = buffer{data: chunks[c-1], inline: true}
		case hasURI:
			s, ok := uri.(string)
			if !ok {
				return nil, fmt.Errorf("%s.uri: not a string", p)
			}
			if strings.HasPrefix(s, "data:") {
				k := strings.Index(s, ";base64,")
				if k < 0 {
					return nil, fmt.Errorf("%s.uri: data URI is not base64", p)
				}
				if base64.StdEncoding.DecodedLen(len(s)-k-8) > MaxFileSize {
					return nil, fmt.Errorf("%s.uri: data URI too long", p)
				}
				d, err := base64.StdEncoding.DecodeString(s[k+8:])
				if err != nil {
					return nil, fmt.Errorf("%s.uri: %w", p, err)
				}
				buf = buffer{data: d, inline: true}
			} else {
				if dir == "" {
					return nil, fmt.Errorf("%s.uri: external buffers need a file path", p)
				}
				rel, err := gltfio.LocalURI(s)
				if err != nil {
					return nil, fmt.Errorf("%s.uri: %w", p, err)
				}
				d, err := safefile.Dir(dir).ReadFile(rel, MaxFileSize)
				if err != nil {
					return nil, fmt.Errorf("%s.uri: %w", p, err)
				}
				buf = buffer{data: d}
			}
		default:
			return nil, fmt.Errorf("%s: neither chunk nor uri is set", p)
		}
		if len(buf.data) < n {
			return nil, fmt.Errorf("%s.byteLength: %d bytes declared but only %d present", p, n, len(buf.data))
		}
		buf.data = buf.data[:n]
		f.bufs = append(f.bufs, buf)
	}
	return f, nil
}

// splitBinary checks a .g4b container and returns its JSON chunk and the
// data of the chunks after it.
func splitBinary(data []byte) ([]byte, [][]byte, error) {
	if len(data) < headerSize+chunkHeader {
		return nil, nil, fmt.Errorf("binary G4MF: %d bytes is shorter than the 32-byte headers", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 0 {
		return nil, nil, fmt.Errorf("binary G4MF: version %d is not supported (want 0, the draft)", v)
	}
	if size := binary.LittleEndian.Uint64(data[8:]); size != uint64(len(data)) {
		return nil, nil, fmt.Errorf("binary G4MF: header says %d bytes, file has %d", size, len(data))
	}
	var jsonData []byte
	var chunks [][]byte
	off := uint64(headerSize)
	for k := 0; off < uint64(len(data)); k++ {
		if uint64(len(data))-off < chunkHeader {
			return nil, nil, fmt.Errorf("binary G4MF: chunk %d header at byte %d is truncated", k, off)
		}
		typ := string(data[off : off+4])
		comp := binary.LittleEndian.Uint32(data[off+4:])
		size := binary.LittleEndian.Uint64(data[off+8:])
		start := off + chunkHeader
		if size > uint64(len(data))-start {
			return nil, nil, fmt.Errorf("binary G4MF: chunk %d declares %d bytes, only %d remain", k, size, uint64(len(data))-start)
		}
		if comp != 0 {
			return nil, nil, fmt.Errorf("binary G4MF: chunk %d is compressed (%q), which is not supported", k, string(data[off+4:off+8]))
		}
		body := data[start : start+size]
		if k == 0 {
			if typ != chunkJSON {
				return nil, nil, fmt.Errorf("binary G4MF: first chunk is %q, want JSON", typ)
			}
			jsonData = body
		} else {
			chunks = append(chunks, body)
		}
		off = start + size
		if off < uint64(len(data)) {
			off = (off + 15) &^ 15
		}
	}
	return jsonData, chunks, nil
}

// Encode returns the file's bytes in the text (.g4tf) or binary (.g4b)
// container. Inline buffers become BLOB chunks (binary: those contiguous
// from the first buffer, as the specification requires) or data: URIs;
// external buffers keep their URIs. The tree is not modified.
func (f *File) Encode(asBinary bool) ([]byte, error) {
	tree, err := cloneObject(f.Tree)
	if err != nil {
		return nil, err
	}
	bufs := tree.Arr("buffers")
	var chunks [][]byte
	chunked := asBinary
	for i, b := range bufs {
		bo := b.(*gltfio.Object)
		if i >= len(f.bufs) || !f.bufs[i].inline {
			chunked = false
			continue
		}
		d := f.bufs[i].data
		bo.Delete("uri")
		bo.Delete("chunk")
		if chunked {
			chunks = append(chunks, d)
			bo.Set("chunk", gltfio.IntNum(len(chunks)))
		} else {
			bo.Set("uri", dataURI+base64.StdEncoding.EncodeToString(d))
		}
	}
	if !asBinary {
		out, err := gltfio.Encode(tree, "\t")
		if err != nil {
			return nil, err
		}
		return append(out, '\n'), nil
	}
	js, err := gltfio.Encode(tree, "")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write(make([]byte, 12)) // version 0, size patched below
	writeChunk := func(typ string, body []byte, pad byte, last bool) {
		var h [chunkHeader]byte
		copy(h[:], typ)
		binary.LittleEndian.PutUint64(h[8:], uint64(len(body)))
		b.Write(h[:])
		b.Write(body)
		if !last {
			for b.Len()%16 != 0 {
				b.WriteByte(pad)
			}
		}
	}
	writeChunk(chunkJSON, js, ' ', len(chunks) == 0)
	for i, c := range chunks {
		writeChunk(chunkBLOB, c, 0, i == len(chunks)-1)
	}
	out := b.Bytes()
	binary.LittleEndian.PutUint64(out[8:], uint64(len(out)))
	return out, nil
}

// Save writes the file atomically, in the container its name asks for.
func (f *File) Save(path string) error {
	data, err := f.Encode(IsBinaryName(path))
	if err != nil {
		return err
	}
	return gltfio.WriteFileAtomic(path, data)
}

func cloneObject(o *gltfio.Object) (*gltfio.Object, error) {
	raw, err := o.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return gltfio.ParseJSON(raw)
}
