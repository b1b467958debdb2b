package gltfio

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An output path that is a FIFO nobody reads (planted in an output
// folder, say) is replaced like a file: writing into it would block.
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
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("writing over a FIFO blocked")
	}
	if b, err := os.ReadFile(fifo); err != nil || string(b) != "glTF bytes" {
		t.Fatalf("got %q, %v", b, err)
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
