package gltfio

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An output named as a FIFO (or /dev/null, /dev/stdout) is written into,
// not replaced by a regular file: renaming over /dev/null as root would
// break every program on the machine.
func TestWriteFileAtomicIntoPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.glb")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo here:", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if err := WriteFileAtomic(fifo, []byte("glTF bytes")); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "glTF bytes" {
		t.Fatalf("reader got %q", b)
	}
	st, err := os.Lstat(fifo)
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v, %v", st.Mode(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
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
