package gltfio

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An output path that is a FIFO is never replaced (issue #41, defect 9):
// with a reader, the bytes go to it as a stream; with none, the write
// fails at once with a clear error (a FIFO planted in an untrusted output
// folder must not hang a run) and the FIFO stays.
func TestWriteFileAtomicOverPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.glb")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo here:", err)
	}
	done := make(chan error, 1)
	go func() { done <- WriteFileAtomic(fifo, []byte("glTF bytes")) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a named pipe nobody reads") {
			t.Fatalf("writing into a FIFO nobody reads: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("writing over a FIFO blocked")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo) // opens for reading: blocks until a writer comes
		got <- string(b)
	}()
	var err error
	for range 100 { // until the reader has opened its end
		if err = WriteFileAtomic(fifo, []byte("glTF bytes")); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "glTF bytes" {
		t.Fatalf("the reader got %q", s)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
}

// A link leading through /proc (what /dev/stdout is: a link to
// /proc/self/fd/1) is written into, whatever it reaches, never replaced
// by a regular file (issue #41, defect 9; on main at 7919010 the link
// became a regular file and nothing reached the stream).
func TestWriteFileAtomicThroughProcLink(t *testing.T) {
	dir := t.TempDir()
	sink := filepath.Join(dir, "sink")
	f, err := os.Create(sink)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc here")
	}
	link := filepath.Join(dir, "stdout")
	if err := os.Symlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), link); err != nil {
		t.Fatal(err)
	}
	f.WriteString("before;")
	if err := WriteFileAtomic(link, []byte("glTF bytes")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if b, _ := os.ReadFile(sink); string(b) != "before;glTF bytes" {
		t.Fatalf("the stream holds %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files left beside: %v", entries)
	}
}

func TestWriteFileAtomicRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	err := WriteFileAtomic(dir, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("writing over a directory: %v", err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatal("the directory was replaced")
	}
}

func TestWriteFileAtomicDevNull(t *testing.T) {
	st, err := os.Stat(os.DevNull)
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Skip("no character-device /dev/null here")
	}
	if err := WriteFileAtomic(os.DevNull, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v %v", st.Mode(), err)
	}
}
