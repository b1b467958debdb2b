package gltfio

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/autocollide/autocollide/safefile"
)

// IsBinaryName reports whether a file name asks for a GLB container.
func IsBinaryName(name string) bool { return strings.EqualFold(filepath.Ext(name), ".glb") }

// Encode returns the asset as one file: a GLB that holds every buffer
// in its BIN chunk and every image in a bufferView, or a .gltf JSON text
// whose BIN chunk or generated data is a data: URI buffer. (Save writes
// that data to a .bin file beside a .gltf instead, unless the input
// embedded its own buffers as data: URIs.)
func (a *Asset) Encode(asGLB bool) ([]byte, error) {
	if err := a.finish(); err != nil {
		return nil, err
	}
	if asGLB {
		return a.encodeGLB()
	}
	return a.encodeGLTF("")
}

// encodeGLTF returns the .gltf text, with the inline buffer (see
// inlineBuffer) referencing binURI, or as a data: URI when binURI is "".
//
// The asset is not changed, and not copied either but for the path to
// the one buffer it sets the URI of: a deep copy of the tree doubled the
// peak memory of saving a large document (226 MB for 2.1 million values).
func (a *Asset) encodeGLTF(binURI string) ([]byte, error) {
	tree := a.Tree
	if i := a.inlineBuffer(tree); i >= 0 {
		b := shallowCopy(tree.Arr("buffers")[i].(*Object))
		if binURI != "" {
			b.Set("uri", binURI)
		} else if _, has := b.Get("uri"); !has {
			b.Set("uri", dataURI(a.bufferData(tree, i)))
		}
		bufs := append([]any(nil), tree.Arr("buffers")...)
		bufs[i] = b
		tree = shallowCopy(tree)
		tree.Set("buffers", bufs)
	}
	out, err := Encode(tree, "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// inlineBuffer returns the index of the buffer whose bytes are held in
// memory rather than in a file of the input (the GLB BIN chunk, or the
// generated data's buffer), or -1. Generation appends to the BIN chunk
// when there is one, so there is at most one such buffer.
func (a *Asset) inlineBuffer(tree *Object) int {
	switch {
	case a.binIsBuffer0(tree):
		return 0
	case a.journal != nil && a.journal.own >= 0:
		return a.journal.own
	}
	return -1
}

// encodeGLB returns the asset packed as one GLB (see packGLB).
func (a *Asset) encodeGLB() ([]byte, error) {
	p, err := a.packGLB(packCopy(a.Tree))
	if err != nil {
		return nil, err
	}
	js, err := Encode(p.tree, "")
	if err != nil {
		return nil, err
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	bin := p.bin
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	total := 12 + 8 + len(js)
	if bin != nil {
		total += 8 + len(bin)
	}
	if int64(total) > 1<<32-1 {
		return nil, errors.New("GLB output would exceed 4 GiB")
	}
	var out bytes.Buffer
	out.Grow(total)
	le := binary.LittleEndian
	var hdr [12]byte
	le.PutUint32(hdr[0:], glbMagic)
	le.PutUint32(hdr[4:], 2)
	le.PutUint32(hdr[8:], uint32(total))
	out.Write(hdr[:])
	var ch [8]byte
	le.PutUint32(ch[0:], uint32(len(js)))
	le.PutUint32(ch[4:], glbChunkJSON)
	out.Write(ch[:])
	out.Write(js)
	if bin != nil {
		le.PutUint32(ch[0:], uint32(len(bin)))
		le.PutUint32(ch[4:], glbChunkBIN)
		out.Write(ch[:])
		out.Write(bin)
	}
	return out.Bytes(), nil
}

// Save writes the asset to path, choosing the container from the file
// name, each file through a temporary file renamed into place, so a
// failure never leaves a partial file. A GLB holds everything (see
// Encode). A .gltf's external files are copied beside it when it goes to
// another folder (files found missing on load keep their reference), and
// its BIN chunk or generated data goes to a .bin named after it and its
// content, or stays a data: URI when the input embedded its buffers that
// way or the output is a stream (see IsStream).
//
// A .gltf and its .bin are replaced so that a process killed at any
// moment leaves the old pair or the new pair, both loadable: the .bin's
// name carries a hash of its bytes ("x.colliders.0123456789abcdef.bin"),
// it is written first, then the .gltf is renamed into place, and only
// then are the .bin files of earlier runs removed (those the output it
// replaced referenced under such a name, and the generated buffer's file
// the input was stripped of when the output is the input; an orphan a
// killed run left is package batch's to remove, see RemoveOrphanBins). A file of
// the .bin's name holding other bytes is never replaced.
func (a *Asset) Save(path string) error { return a.SaveTo(OSFS{}, path) }

// SaveTo is Save writing through fsys.
func (a *Asset) SaveTo(fsys FS, path string) error {
	_, err := a.SaveFiles(fsys, path)
	return err
}

// SavedFile is one file of a saved output, as written.
type SavedFile struct {
	// Path is where it is: the output path, or a file beside it.
	Path string
	// SHA256 is the hex SHA-256 of its bytes.
	SHA256 string
}

// SaveFiles is SaveTo, returning every file the output consists of: the
// output itself first, then its .bin and the resources copied beside it
// (those found identical already there included).
func (a *Asset) SaveFiles(fsys FS, path string) ([]SavedFile, error) {
	files, err := a.save(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return files, nil
}

func (a *Asset) save(fsys FS, path string) ([]SavedFile, error) {
	stream, err := IsStream(path)
	if err != nil {
		return nil, err
	}
	if IsBinaryName(path) {
		data, err := a.Encode(true)
		if err != nil {
			return nil, err
		}
		if err := WriteFileAtomicTo(fsys, path, data); err != nil {
			return nil, err
		}
		return []SavedFile{{path, sha256Hex(data)}}, nil
	}
	if err := a.finish(); err != nil {
		return nil, err
	}
	binName := ""
	var binData []byte
	// A GLB's BIN chunk always goes to a file; generated data stays a
	// data: URI when the input's buffers all were. A stream gets no
	// file beside it.
	if i := a.inlineBuffer(a.Tree); i >= 0 && (a.binIsBuffer0(a.Tree) || !a.inline) && !stream {
		binData = a.bufferData(a.Tree, i)
		if binName, err = a.binFileName(path, a.binIsBuffer0(a.Tree), binData); err != nil {
			return nil, err
		}
	}
	data, err := a.encodeGLTF(strings.ReplaceAll(url.PathEscape(binName), ":", "%3A"))
	if err != nil {
		return nil, err
	}
	files := []SavedFile{{path, sha256Hex(data)}}
	outDir := filepath.Dir(path)
	if stream {
		if same, _ := sameDir(filepath.Dir(a.Path), outDir); !same && len(a.Resources) > 0 {
			return nil, fmt.Errorf("a .gltf written to a stream cannot carry the files it references (%q, ...); write it to a file, or as a .glb", a.Resources[0])
		}
	}
	copied, err := a.copyResources(fsys, outDir)
	if err != nil {
		return nil, err
	}
	if binName != "" {
		binPath := filepath.Join(outDir, binName)
		if err := writeOnce(fsys, binPath, binData, path); err != nil {
			return nil, fmt.Errorf("writing %s: %w", binName, err)
		}
		files = append(files, SavedFile{binPath, sha256Hex(binData)})
	}
	old := a.oldBins(path)
	if err := WriteFileAtomicTo(fsys, path, data); err != nil {
		return nil, err
	}
	if !stream {
		if err := a.removeOldBins(fsys, path, binName, old); err != nil {
			return nil, err
		}
	}
	return append(files, copied...), nil
}

// writeOnce writes a file whose name is derived from its content: one
// already there with the same bytes is kept; one with other bytes is
// replaced only when the file at output (the output being replaced)
// references it by name, a damaged .bin of our own, and is otherwise not
// ours and never replaced.
func writeOnce(fsys FS, path string, data []byte, output string) error {
	if old, err := readRegular(path, int64(len(data))+1); err == nil {
		if bytes.Equal(old, data) {
			return nil
		}
		prev, err := readRegular(output, maxOutputJSON)
		name := strings.ReplaceAll(url.PathEscape(filepath.Base(path)), ":", "%3A")
		if err != nil || !bytes.Contains(prev, []byte(`"`+name+`"`)) {
			return fmt.Errorf("%s is already there with other bytes and the output does not reference it (not ours); refusing to replace it", path)
		}
	}
	return WriteFileAtomicTo(fsys, path, data)
}

// maxOutputJSON bounds what writeOnce reads of an existing .gltf output.
const maxOutputJSON = 1 << 30

func readRegular(path string, max int64) ([]byte, error) { return safefile.ReadFile(path, max) }

// binFileName names the .bin file beside the .gltf output path: the
// output's stem, ".colliders" for generated data alone (the input's own
// x.bin usually sits beside it), and the first 16 hex digits of the
// SHA-256 of data. A name the input references is an error.
func (a *Asset) binFileName(path string, isBIN bool, data []byte) (string, error) {
	stem := outputStem(path)
	if !isBIN {
		stem += ".colliders"
	}
	name := stem + "." + sha256Hex(data)[:binHashLen] + ".bin"
	for _, r := range a.Resources {
		if strings.EqualFold(r, name) {
			return "", fmt.Errorf("the input references %q, the name of the output's generated data", r)
		}
	}
	if a.missing[name] {
		return "", fmt.Errorf("the input references %q, the name of the output's generated data", name)
	}
	return name, nil
}

// binHashLen is how many hex digits of its SHA-256 a .bin's name carries.
const binHashLen = 16

func outputStem(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// IsGeneratedBin reports whether name (a base name) is one Save gives the
// .bin of a .gltf output with stem stem ("x" for x.gltf): stem, an
// optional ".colliders", a dot, binHashLen hex digits and ".bin".
func IsGeneratedBin(stem, name string) bool {
	rest, ok := strings.CutPrefix(name, stem+".")
	if !ok {
		return false
	}
	rest = strings.TrimPrefix(rest, "colliders.")
	hexPart, ok := strings.CutSuffix(rest, ".bin")
	return ok && len(hexPart) == binHashLen && strings.Trim(hexPart, "0123456789abcdef") == ""
}

// oldBins returns the .bin files of an earlier run's output at path that
// this save may remove once its own output is in place: the buffers the
// output there references under a name Save gives (IsGeneratedBin, or
// the "<stem>.colliders[-N].bin" of earlier versions), and, when the
// output is the input, the generated buffers' files Load stripped. It
// reads the output's JSON only, and lists no folder.
func (a *Asset) oldBins(path string) []string {
	stem := outputStem(path)
	var old []string
	if s, err := IsStream(path); err == nil && !s {
		if rels, err := bufferFiles(path, a.lim); err == nil {
			for _, rel := range rels {
				if !strings.Contains(rel, "/") && IsOwnBin(stem, rel) {
					old = append(old, rel)
				}
			}
		}
	}
	if sameFile(a.Path, path) {
		old = append(old, a.strippedFiles...)
	}
	return old
}

// bufferFiles lists the files the buffers of the glTF file at path name
// (decoded, relative to its folder: see LocalURI), decoding its buffers
// alone: an earlier output is as large as the asset being saved, and a
// parsed tree of it (References) cost as much again (73 MB for 2.1
// million values).
func bufferFiles(path string, lim Limits) ([]string, error) {
	js, err := readJSONChunk(path, lim)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage // members matched exactly, as glTF reads them
	if err := json.Unmarshal(js, &doc); err != nil {
		return nil, err
	}
	var bufs []map[string]json.RawMessage
	if raw, ok := doc["buffers"]; ok {
		if err := json.Unmarshal(raw, &bufs); err != nil {
			return nil, err
		}
	}
	var rels []string
	for _, b := range bufs {
		var uri string
		if raw, ok := b["uri"]; !ok || json.Unmarshal(raw, &uri) != nil || uri == "" || strings.HasPrefix(uri, "data:") {
			continue
		}
		if rel, err := LocalURI(uri); err == nil {
			rels = append(rels, rel)
		}
	}
	return rels, nil
}

// IsOwnBin reports whether name is one Save gives, or earlier versions
// gave, the .bin of a .gltf output of stem: IsGeneratedBin, or
// "<stem>.colliders.bin", "<stem>.colliders-N.bin".
func IsOwnBin(stem, name string) bool {
	if IsGeneratedBin(stem, name) {
		return true
	}
	rest, ok := strings.CutPrefix(name, stem+".colliders")
	if !ok {
		return false
	}
	n, ok := strings.CutSuffix(rest, ".bin")
	return ok && (n == "" || len(n) > 1 && n[0] == '-' && strings.Trim(n[1:], "0123456789") == "")
}

// removeOldBins removes the files old (see oldBins) from path's folder
// after the output was renamed into place, except keep and the files
// the input references (in that folder as its own or as copies).
func (a *Asset) removeOldBins(fsys FS, path, keep string, old []string) error {
	refs := map[string]bool{}
	for _, r := range a.Resources {
		refs[r] = true
	}
	for _, name := range old {
		if name == keep || refs[name] {
			continue
		}
		p := filepath.Join(filepath.Dir(path), filepath.FromSlash(name))
		if err := fsys.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the earlier run's %s: %w", name, err)
		}
	}
	return nil
}

// copyResources copies the referenced external files into outDir, keeping
// their relative paths, unless outDir is the input's folder or an
// identical copy is already there. The bytes are those loaded (see
// ResourceData). It returns the files of outDir holding the copies.
func (a *Asset) copyResources(fsys FS, outDir string) ([]SavedFile, error) {
	inDir := filepath.Dir(a.Path)
	same, err := sameDir(inDir, outDir)
	if err != nil || same {
		return nil, err
	}
	var files []SavedFile
	for _, rel := range a.Resources {
		dst := filepath.Join(outDir, filepath.FromSlash(rel))
		data, err := a.ResourceData(rel)
		if err != nil {
			return nil, fmt.Errorf("copying %q: %w", rel, err)
		}
		files = append(files, SavedFile{dst, sha256Hex(data)})
		if old, err := safefile.ReadFile(dst, int64(len(data))); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := WriteFileAtomicTo(fsys, dst, data); err != nil {
			return nil, fmt.Errorf("copying %q: %w", rel, err)
		}
	}
	return files, nil
}

func sameDir(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
