package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrOutside is wrapped by the error of a read whose real path (links
// and ".." resolved) leaves the folder it was confined to.
var ErrOutside = errors.New("resolves outside the asset's folder")

// ErrNotRegular is wrapped by the error of a read of anything but a
// regular file: a named pipe, a device, a socket, a folder.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error of a read of a file over its cap.
var ErrTooLarge = errors.New("over the limit")

// Open opens the regular file at path for reading. It never blocks: the
// file is opened with O_NONBLOCK, so a named pipe without a writer
// returns at once, and is then refused by fstat like every other special
// file. Links are followed (path is named by the caller, not by a file).
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, bare(err)
	}
	return checkRegular(f)
}

// ReadFile reads the regular file at path, refusing one over max bytes.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, max)
}

// Dir is a folder whose files are read without ever leaving it: a name
// is resolved inside the folder (links followed, ".." applied after
// resolving them) and refused when its real path lies outside.
type Dir string

// Open opens the regular file name (slash-separated, relative to d) for
// reading, without blocking, refusing a real path outside d.
func (d Dir) Open(name string) (*os.File, error) {
	root, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, bare(err)
	}
	defer root.Close()
	rel := filepath.FromSlash(name)
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if escapes(err) {
			return nil, fmt.Errorf("%w (through a symbolic link or \"..\")", ErrOutside)
		}
		return nil, bare(err)
	}
	return checkRegular(f)
}

// ReadFile reads the regular file name inside d, refusing one over max
// bytes.
func (d Dir) ReadFile(name string, max int64) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, max)
}

// Check opens the file name inside d as ReadFile would and returns its
// size, refusing one over max bytes, without reading it.
func (d Dir) Check(name string, max int64) (int64, error) {
	f, err := d.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if st.Size() > max {
		return 0, tooLarge(st.Size(), max)
	}
	return st.Size(), nil
}

// escapes reports whether err is os.Root's refusal of a path leaving
// the root.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes")
}

// bare drops the operation and path os puts in its errors: callers name
// the file themselves, once.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkRegular closes f and fails unless it is a regular file.
func checkRegular(f *os.File) (*os.File, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))
	}
	return f, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// readAll reads f to its end, failing once it holds more than max bytes
// (a file growing while it is read included).
func readAll(f *os.File, max int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > max {
		return nil, tooLarge(st.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, tooLarge(int64(len(data)), max)
	}
	return data, nil
}

func tooLarge(size, max int64) error {
	return fmt.Errorf("file is %d bytes, %w of %d", size, ErrTooLarge, max)
}
