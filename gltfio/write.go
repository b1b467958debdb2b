package gltfio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// WriteFileAtomic writes data to a temporary file in path's folder, syncs
// it and renames it over path, so a reader never sees a partial file.
//
// A special file is never replaced (see IsStream): a character device
// (-o /dev/null, a terminal), a named pipe, or a link leading through
// /dev or /proc (-o /dev/stdout, a link to /proc/self/fd/1, whatever
// stdout is) is written into as a stream; a named pipe nobody
// reads is an error at once, never a hang. A folder, a socket or a block
// device is refused.
func WriteFileAtomic(path string, data []byte) error { return WriteFileAtomicTo(OSFS{}, path, data) }

// WriteFileAtomicTo is WriteFileAtomic through fsys. On any failure the
// temporary file is removed and path is left as it was.
func WriteFileAtomicTo(fsys FS, path string, data []byte) (err error) {
	stream, err := IsStream(path)
	if err != nil {
		return err
	}
	if stream {
		return writeStream(path, data)
	}
	tmp, err := fsys.CreateTemp(filepath.Dir(path), tempPattern(filepath.Base(path)))
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

// IsStream reports whether path is written into as a stream rather than
// replaced: a character device, a named pipe, or a link leading through
// /dev/ or /proc/ (what /dev/stdout and /dev/fd/N are), whatever it
// reaches (stdout redirected to a file included). It fails for what can be neither replaced nor
// streamed into: a folder, a socket, a block device. A missing path, a
// regular file and a link elsewhere (replaced as a link) are not
// streams.
func IsStream(path string) (bool, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return false, nil
	}
	mode := st.Mode()
	if mode&os.ModeSymlink != 0 {
		if !linksToSystem(path) {
			fst, err := os.Stat(path)
			if err != nil || fst.Mode().IsRegular() {
				return false, nil // a dangling link or one to a file: replaced
			}
			mode = fst.Mode()
		} else if fst, err := os.Stat(path); err == nil {
			mode = fst.Mode()
		}
	} else if mode.IsRegular() {
		return false, nil
	}
	switch {
	case mode.IsRegular(), mode&(os.ModeCharDevice|os.ModeNamedPipe) != 0:
		return true, nil
	}
	return false, fmt.Errorf("%s: %s, neither a regular file nor a stream; refusing to replace it", path, fileKind(mode))
}

// linksToSystem reports whether following the link path passes through
// /dev/ or /proc/ (at most 16 links).
func linksToSystem(path string) bool {
	p := path
	for range 16 {
		if systemPath(p) {
			return true
		}
		t, err := os.Readlink(p)
		if err != nil {
			return false
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = t
	}
	return false
}

func systemPath(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	return strings.HasPrefix(abs, "/proc/") || strings.HasPrefix(abs, "/dev/") && !strings.HasPrefix(abs, "/dev/shm/")
}

func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

// writeStream writes data into the existing stream path, appending (so
// that a redirected stdout keeps what was written before). A named pipe
// without a reader fails at once.
func writeStream(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ENXIO) {
		return fmt.Errorf("%s: a named pipe nobody reads", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Temporary files are named ".<name>.tmp-<pid>-<random>" beside the file
// they become, so RemoveStaleTemps can tell those of a killed run.
func tempPattern(base string) string {
	return "." + base + ".tmp-" + strconv.Itoa(os.Getpid()) + "-*"
}

// CleanOutputFolder repairs what a killed run left in the output folder
// dir, listing it once, before a run writes its outputs there (the base
// names in outputs): it removes the temporary files WriteFileAtomic left
// (".<name>.tmp-<pid>-<digits>" whose process no longer runs on this
// machine; one of a process on another machine sharing the folder is
// left alone when its number is running here), and the .bin files named
// as Save names those of a .gltf among outputs (IsGeneratedBin) that the
// .gltf now there does not reference: a new .bin whose .gltf was never
// renamed in, or an old one a kill kept from being removed. It returns
// the names removed.
func CleanOutputFolder(fsys FS, dir string, outputs []string, lim Limits) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	stems := map[string]string{} // stem → output name, for .gltf outputs
	for _, o := range outputs {
		if !IsBinaryName(o) {
			stems[outputStem(o)] = o
		}
	}
	referenced := map[string]map[string]bool{} // output → its buffers
	refs := func(out string) map[string]bool {
		if m, ok := referenced[out]; ok {
			return m
		}
		m := map[string]bool{}
		rs, err := References(filepath.Join(dir, out), lim)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			m = nil // unreadable: remove nothing for it
		}
		for _, r := range rs {
			m[r.Rel] = true
		}
		referenced[out] = m
		return m
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() {
			continue
		}
		stale := false
		if pid, ok := tempOwner(name); ok {
			stale = !running(pid)
		} else if base, ok := strings.CutSuffix(name, ".bin"); ok {
			for stem := base; ; {
				i := strings.LastIndexByte(stem, '.')
				if i <= 0 {
					break
				}
				stem = stem[:i]
				if out, ok := stems[stem]; ok && IsGeneratedBin(stem, name) {
					m := refs(out)
					stale = m != nil && !m[name]
					break
				}
			}
		}
		if !stale {
			continue
		}
		if err := fsys.Remove(filepath.Join(dir, name)); err != nil {
			return removed, err
		}
		removed = append(removed, name)
	}
	return removed, nil
}

// tempOwner parses ".<name>.tmp-<pid>-<digits>" and returns the pid.
func tempOwner(name string) (int, bool) {
	i := strings.LastIndex(name, ".tmp-")
	if !strings.HasPrefix(name, ".") || i < 2 {
		return 0, false
	}
	pidStr, rnd, ok := strings.Cut(name[i+len(".tmp-"):], "-")
	pid, err := strconv.Atoi(pidStr)
	if !ok || err != nil || pid <= 0 || rnd == "" || strings.Trim(rnd, "0123456789") != "" {
		return 0, false
	}
	return pid, true
}

func running(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
