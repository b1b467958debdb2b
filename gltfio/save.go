package gltfio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/autocollide/autocollide/safefile"
)

// IsBinaryName reports whether a file name asks for a GLB container.
func IsBinaryName(name string) bool { return strings.EqualFold(filepath.Ext(name), ".glb") }

// Encode returns the file bytes of the asset as a GLB (binary) or a
// .gltf JSON text. A GLB's BIN chunk becomes a data: URI buffer in a .gltf.
func (a *Asset) Encode(asGLB bool) ([]byte, error) {
	if err := a.finish(); err != nil {
		return nil, err
	}
	bufs := a.Tree.Arr("buffers")
	var b0 *Object
	if len(bufs) > 0 {
		b0, _ = bufs[0].(*Object)
	}
	_, b0HasURI := b0.Get("uri")
	binIsBuffer0 := b0 != nil && !b0HasURI && (a.Binary || a.bin != nil)
	if !asGLB {
		if binIsBuffer0 {
			b0.Set("uri", dataURI(a.bin))
			defer b0.Delete("uri")
		}
		out, err := Encode(a.Tree, "  ")
		if err != nil {
			return nil, err
		}
		return append(out, '\n'), nil
	}
	js, err := Encode(a.Tree, "")
	if err != nil {
		return nil, err
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	var bin []byte
	if binIsBuffer0 {
		bin = append([]byte(nil), a.bin...)
		for len(bin)%4 != 0 {
			bin = append(bin, 0)
		}
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
// name. The file is written to a temporary file in the same folder and
// renamed into place, so a failure never leaves a partial file. External
// files a .gltf references are copied beside the output when it goes to
// another folder.
func (a *Asset) Save(path string) error { return a.SaveTo(OSFS{}, path) }

// SaveTo is Save writing through fsys.
func (a *Asset) SaveTo(fsys FS, path string) error {
	data, err := a.Encode(IsBinaryName(path))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !IsBinaryName(path) || !a.Binary {
		if err := a.copyResources(fsys, filepath.Dir(path)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := WriteFileAtomicTo(fsys, path, data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
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
