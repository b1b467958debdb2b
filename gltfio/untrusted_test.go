//go:build unix

package gltfio

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/autocollide/autocollide/safefile"
)

// secret is what a hostile folder tries to exfiltrate: it must never be
// read into an asset, copied beside an output or printed.
const secret = "TOKEN=ghp_0123456789abcdef"

// triangleGLTF is a one-triangle .gltf whose buffer and image are the
// given URIs ("" for an inline buffer, no image).
func triangleGLTF(bufURI, imageURI string) string {
	pos := make([]byte, 36)
	for i, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		b := le32(v)
		copy(pos[4*i:], b[:])
	}
	if bufURI == "" {
		bufURI = "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(pos)
	}
	img := ""
	if imageURI != "" {
		img = fmt.Sprintf(`,"images":[{"uri":%q}]`, imageURI)
	}
	return fmt.Sprintf(`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"bufferViews":[{"buffer":0,"byteLength":36}],"buffers":[{"byteLength":36,"uri":%q}]%s}`, bufURI, img)
}

func le32(v float32) *[4]byte {
	b := new([4]byte)
	u := math.Float32bits(v)
	b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
	return b
}

// hostileFolder makes tmp/secret.txt and tmp/asset/ with the links and
// special files a hostile asset folder could hold.
func hostileFolder(t *testing.T) (tmp, asset string) {
	t.Helper()
	tmp = t.TempDir()
	asset = filepath.Join(tmp, "asset")
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(os.MkdirAll(asset, 0o755))
	// 36 bytes so that a buffer reading it would succeed.
	check(os.WriteFile(filepath.Join(tmp, "secret.txt"), []byte(secret+strings.Repeat("#", 36)), 0o600))
	check(os.Symlink("../secret.txt", filepath.Join(asset, "tex.png")))
	check(os.Symlink(filepath.Join(tmp, "secret.txt"), filepath.Join(asset, "buf.bin")))
	check(os.Symlink("..", filepath.Join(asset, "up")))
	check(syscall.Mkfifo(filepath.Join(asset, "pipe.bin"), 0o644))
	check(syscall.Mkfifo(filepath.Join(asset, "pipe.gltf"), 0o644))
	return tmp, asset
}

// TestLinksOutOfTheFolderRefused: an image linking to a secrets file, a
// buffer linking out and a buffer reached through a folder link up -> ..
// are refused on load, naming the URI and never the secret.
func TestLinksOutOfTheFolderRefused(t *testing.T) {
	_, asset := hostileFolder(t)
	for name, doc := range map[string]string{
		"image-link.gltf":   triangleGLTF("", "tex.png"),
		"buffer-link.gltf":  triangleGLTF("buf.bin", ""),
		"folder-link.gltf":  triangleGLTF("up/secret.txt", ""),
		"folder-image.gltf": triangleGLTF("", "up/secret.txt"),
	} {
		p := filepath.Join(asset, name)
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := loadWithin(t, p)
		if !errors.Is(err, safefile.ErrOutside) {
			t.Errorf("%s: err %v, want a refusal of a path outside the folder", name, err)
			continue
		}
		if strings.Contains(err.Error(), "ghp_") {
			t.Errorf("%s: error prints the secret: %v", name, err)
		}
	}
}

// TestSpecialFilesDoNotHang: a named pipe as a buffer or as the input
// itself fails at once.
func TestSpecialFilesDoNotHang(t *testing.T) {
	_, asset := hostileFolder(t)
	p := filepath.Join(asset, "pipe-buffer.gltf")
	if err := os.WriteFile(p, []byte(triangleGLTF("pipe.bin", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{p, filepath.Join(asset, "pipe.gltf"), "/dev/zero"} {
		if _, err := loadWithin(t, in); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("%s: err %v, want a refusal of a special file", in, err)
		}
	}
}

// TestSaveCopiesNothingFromOutside: an image inside the folder still
// loads and is copied beside the output (the refusal is not a blanket
// refusal of links).
func TestLinkInsideTheFolderIsCopied(t *testing.T) {
	_, asset := hostileFolder(t)
	if err := os.WriteFile(filepath.Join(asset, "real.png"), []byte("png!"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.png", filepath.Join(asset, "alias.png")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(asset, "ok.gltf")
	if err := os.WriteFile(p, []byte(triangleGLTF("", "alias.png")), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := loadWithin(t, p)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.gltf")
	if err := a.Save(out); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(filepath.Dir(out), "alias.png")); err != nil || string(got) != "png!" {
		t.Errorf("copied image: %q, %v", got, err)
	}
}

func loadWithin(t *testing.T, p string) (*Asset, error) {
	t.Helper()
	type res struct {
		a   *Asset
		err error
	}
	ch := make(chan res, 1)
	go func() {
		a, err := Load(p, Limits{})
		ch <- res{a, err}
	}()
	select {
	case r := <-ch:
		return r.a, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: Load blocked for 10 s", p)
		return nil, nil
	}
}
