package gltfio

import (
	"io"
	"os"
)

// FS is what saving writes through: the operating system's file system
// (OSFS), or in tests one that fails on purpose (a full disk, a read-only
// folder).
type FS interface {
	// CreateTemp creates a new temporary file, as os.CreateTemp.
	CreateTemp(dir, pattern string) (TempFile, error)
	// Rename renames a file, as os.Rename.
	Rename(oldpath, newpath string) error
	// Remove removes a file, as os.Remove.
	Remove(name string) error
}

// TempFile is a temporary file being written.
type TempFile interface {
	io.Writer
	Name() string
	Sync() error
	Chmod(mode os.FileMode) error
	Close() error
}

// OSFS is the operating system's file system.
type OSFS struct{}

// CreateTemp calls os.CreateTemp.
func (OSFS) CreateTemp(dir, pattern string) (TempFile, error) { return os.CreateTemp(dir, pattern) }

// Rename calls os.Rename.
func (OSFS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// Remove calls os.Remove.
func (OSFS) Remove(name string) error { return os.Remove(name) }
