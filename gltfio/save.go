package gltfio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
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
func (a *Asset) encodeGLTF(binURI string) ([]byte, error) {
	tree := cloneObject(a.Tree)
	if i := a.inlineBuffer(tree); i >= 0 {
		b := tree.Arr("buffers")[i].(*Object)
		if binURI != "" {
			b.Set("uri", binURI)
		} else if _, has := b.Get("uri"); !has {
			b.Set("uri", dataURI(a.bufferData(tree, i)))
		}
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
	p, err := a.packGLB(cloneObject(a.Tree))
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
// its BIN chunk or generated data goes to a .bin named after it, or
// stays a data: URI when the input embedded its buffers that way.
func (a *Asset) Save(path string) error { return a.SaveTo(OSFS{}, path) }

// SaveTo is Save writing through fsys.
func (a *Asset) SaveTo(fsys FS, path string) error {
	if err := a.save(fsys, path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func (a *Asset) save(fsys FS, path string) error {
	if IsBinaryName(path) {
		data, err := a.Encode(true)
		if err != nil {
			return err
		}
		return WriteFileAtomicTo(fsys, path, data)
	}
	if err := a.finish(); err != nil {
		return err
	}
	binName := ""
	var binData []byte
	// A GLB's BIN chunk always goes to a file; generated data stays a
	// data: URI when the input's buffers all were.
	if i := a.inlineBuffer(a.Tree); i >= 0 && (a.binIsBuffer0(a.Tree) || !a.inline) {
		binName, binData = a.binFileName(path, a.binIsBuffer0(a.Tree)), a.bufferData(a.Tree, i)
	}
	data, err := a.encodeGLTF(strings.ReplaceAll(url.PathEscape(binName), ":", "%3A"))
	if err != nil {
		return err
	}
	if err := a.copyResources(fsys, filepath.Dir(path)); err != nil {
		return err
	}
	if binName == "" {
		return WriteFileAtomicTo(fsys, path, data)
	}
	binPath := filepath.Join(filepath.Dir(path), binName)
	_, statErr := os.Lstat(binPath)
	if err := WriteFileAtomicTo(fsys, binPath, binData); err != nil {
		return fmt.Errorf("writing %s: %w", binName, err)
	}
	if err := WriteFileAtomicTo(fsys, path, data); err != nil {
		if errors.Is(statErr, fs.ErrNotExist) {
			fsys.Remove(binPath)
		}
		return err
	}
	return nil
}

// binFileName names the .bin file beside the .gltf output path: the
// output's name with .bin for a GLB's BIN chunk, or with .colliders.bin
// for generated data alone (the input's own x.bin usually sits beside
// it); with -1, -2, ... before .bin when the input references a file of
// that name.
func (a *Asset) binFileName(path string, isBIN bool) string {
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if !isBIN {
		stem += ".colliders"
	}
	taken := map[string]bool{}
	for _, r := range a.Resources {
		taken[strings.ToLower(r)] = true
	}
	for m := range a.missing {
		taken[strings.ToLower(m)] = true
	}
	name := stem + ".bin"
	for n := 1; taken[strings.ToLower(name)]; n++ {
		name = fmt.Sprintf("%s-%d.bin", stem, n)
	}
	return name
}

// copyResources copies the referenced external files into outDir, keeping
// their relative paths, unless outDir is the input's folder or an
// identical copy is already there.
func (a *Asset) copyResources(fsys FS, outDir string) error {
	inDir := filepath.Dir(a.Path)
	same, err := sameDir(inDir, outDir)
	if err != nil || same {
		return err
	}
	for _, rel := range a.Resources {
		dst := filepath.Join(outDir, filepath.FromSlash(rel))
		data, err := safefile.Dir(inDir).ReadFile(rel, a.lim.maxFile())
		if err != nil {
			return fmt.Errorf("copying %q: %w", rel, err)
		}
		if old, err := safefile.ReadFile(dst, int64(len(data))); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := WriteFileAtomicTo(fsys, dst, data); err != nil {
			return fmt.Errorf("copying %q: %w", rel, err)
		}
	}
	return nil
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

// WriteFileAtomic writes data to a temporary file in path's folder, syncs
// it and renames it over path. A path that is a character device
// (-o /dev/null, /dev/stdout on a terminal) is written into instead:
// renaming over it would replace the device with a regular file (as root,
// /dev/null itself). A named pipe is replaced like a file: writing into
// one nobody reads would block forever (a FIFO planted in an untrusted
// output folder must not hang a run). A directory or socket is an error.
func WriteFileAtomic(path string, data []byte) error { return WriteFileAtomicTo(OSFS{}, path, data) }

// WriteFileAtomicTo is WriteFileAtomic through fsys. On any failure the
// temporary file is removed and path is left as it was.
func WriteFileAtomicTo(fsys FS, path string, data []byte) (err error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() && st.Mode()&(os.ModeSymlink|os.ModeNamedPipe) == 0 {
		return writeDevice(path, st.Mode(), data)
	}
	tmp, err := fsys.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			fsys.Remove(tmp.Name())
		}
	}()
	if _, err = io.Copy(tmp, bytes.NewReader(data)); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return fsys.Rename(tmp.Name(), path)
}

// writeDevice writes data into the existing character device path;
// another kind of file (a directory, a socket, a block device) is refused.
func writeDevice(path string, mode os.FileMode, data []byte) error {
	if mode&os.ModeCharDevice == 0 {
		return fmt.Errorf("%s: not a regular file or character device (%v); refusing to replace it", path, mode.Type())
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
