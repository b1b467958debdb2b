package batch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzCacheFile feeds arbitrary bytes as an output folder's cache file:
// reading it never fails or panics, always gives a usable cache (a
// foreign or broken file is an empty one), and what was read survives
// being written back and read again unchanged, as updateCache does.
func FuzzCacheFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"entries":{"a.glb":{"key":"k","output":"o","asset":{"input":"a.gltf","status":"ok"}}}}`))
	f.Add([]byte(`{"version":1,"entries":null}`))
	f.Add([]byte(`{"version":2,"entries":{}}`))
	f.Add([]byte(`{"version":1,"entries":{"":{"asset":{"bodyList":[{"mass":1e308}],"colliders":{"box":-1}}}}}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`))
	f.Add([]byte{0xff, 0xfe, 0})
	dir := f.TempDir() // one folder per process, rewritten by each execution
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, CacheFileName), data, 0o644); err != nil {
			t.Fatal(err)
		}
		cf := readCacheFile(dir)
		if cf == nil || cf.Entries == nil || cf.Version != cacheVersion {
			t.Fatalf("unusable cache %+v", cf)
		}
		out, err := json.MarshalIndent(cf, "", "  ")
		if err != nil {
			t.Fatalf("cannot be written back: %v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, CacheFileName), out, 0o644); err != nil {
			t.Fatal(err)
		}
		again := readCacheFile(dir)
		if !reflect.DeepEqual(normalize(t, cf), normalize(t, again)) {
			t.Fatalf("changed by a round trip:\n%s", out)
		}
	})
}

// normalize compares caches as their JSON says (nil and empty lists
// encode alike).
func normalize(t *testing.T, cf *cacheFile) any {
	b, err := json.Marshal(cf)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	json.Unmarshal(b, &v)
	return v
}
