package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"sort"
	"sync"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/safefile"
)

// CacheFileName is the file, in each output folder, that records which
// outputs are current. It maps an output's base name to the key of what
// produced it and the SHA-256 of every file written for it (the output,
// a .gltf's .bin and the resources copied beside it); it records no
// absolute path, so the folder can be moved.
const CacheFileName = ".autocollide-cache.json"

// cacheVersion changes when the cache file's meaning changes.
const cacheVersion = 2

type cacheFile struct {
	Version int                   `json:"version"`
	Entries map[string]cacheEntry `json:"entries"`
}

type cacheEntry struct {
	// Key is the SHA-256 of the input, its resources, the options and
	// the tool version (see cacheKey).
	Key string `json:"key"`
	// Output is the SHA-256 of the output file as written.
	Output string `json:"output"`
	// Files holds the SHA-256 of each other file of the output (a
	// .gltf's .bin, the resources copied beside it), by its path
	// relative to the output's folder, with forward slashes.
	Files map[string]string `json:"files,omitempty"`
	// Asset is the result of the run that wrote it, reported again when
	// the output is reused. Its paths are left out (see newCacheEntry).
	Asset Asset `json:"asset"`
}

// newCacheEntry records a written output. The entry holds no path and no
// timing: it is keyed by the output's name in its own folder, and the
// input and output paths are those of the job that reuses it. So runs of
// the same inputs into different folders write identical cache files,
// and a moved or restored output folder is still current.
func newCacheEntry(key string, files []gltfio.SavedFile, a Asset) *cacheEntry {
	a.Input, a.Output, a.Preview, a.TimeMS = "", "", "", 0
	e := &cacheEntry{Key: key, Output: files[0].SHA256, Asset: a}
	dir := filepath.Dir(files[0].Path)
	for _, f := range files[1:] {
		rel, err := filepath.Rel(dir, f.Path)
		if err != nil {
			return nil
		}
		if e.Files == nil {
			e.Files = map[string]string{}
		}
		e.Files[filepath.ToSlash(rel)] = f.SHA256
	}
	return e
}

// cache reads each output folder's cache file once; it is only read
// while jobs run and written after they finish.
type cache struct {
	mu   sync.Mutex
	dirs map[string]*cacheFile
}

// MaxCacheFileSize bounds the cache file read from an output folder
// (about 30,000 entries); a larger one is treated as empty.
const MaxCacheFileSize = 64 << 20

// readCacheFile reads dir's cache file through safefile: a link, a pipe
// or a device planted in its place, or a file over MaxCacheFileSize, is
// treated as no cache at all.
func readCacheFile(dir string) *cacheFile {
	cf := &cacheFile{Version: cacheVersion, Entries: map[string]cacheEntry{}}
	data, err := safefile.ReadFile(filepath.Join(dir, CacheFileName), MaxCacheFileSize)
	if err != nil {
		return cf
	}
	var got cacheFile
	// An unreadable or foreign cache file is treated as empty: the worst
	// outcome is redoing work.
	if json.Unmarshal(data, &got) != nil || got.Version != cacheVersion || got.Entries == nil {
		return cf
	}
	return &got
}

func (c *cache) lookup(out string) (cacheEntry, bool) {
	dir, name := filepath.Split(out)
	dir = filepath.Clean(dir)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dirs == nil {
		c.dirs = map[string]*cacheFile{}
	}
	cf := c.dirs[dir]
	if cf == nil {
		cf = readCacheFile(dir)
		c.dirs[dir] = cf
	}
	e, ok := cf.Entries[name]
	return e, ok
}

// update records the results of a run: entries of written outputs are
// set, entries of failed ones removed. Each folder's file is re-read just
// before it is rewritten, so entries of other files (another shard's)
// survive; two processes writing the same folder's file at the same
// moment can lose each other's new entries, which only costs a redo.
func updateCache(fsys gltfio.FS, results []result) error {
	byDir := map[string]map[string]*cacheEntry{}
	for _, r := range results {
		if r.entry == nil && !r.forget {
			continue
		}
		dir, name := filepath.Split(r.job.Output)
		dir = filepath.Clean(dir)
		if byDir[dir] == nil {
			byDir[dir] = map[string]*cacheEntry{}
		}
		byDir[dir][name] = r.entry
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var errs []error
	for _, dir := range dirs {
		cf := readCacheFile(dir)
		changed := false
		for name, e := range byDir[dir] {
			old, had := cf.Entries[name]
			switch {
			case e == nil && had:
				delete(cf.Entries, name)
				changed = true
			case e != nil && (!had || !reflect.DeepEqual(old, *e)):
				cf.Entries[name] = *e
				changed = true
			}
		}
		if !changed {
			continue
		}
		path := filepath.Join(dir, CacheFileName)
		if s, err := gltfio.IsStream(path); s || err != nil {
			// A pipe, a device or a folder planted as the cache file is
			// no cache, as when it is read: never replaced nor written.
			continue
		}
		data, err := json.MarshalIndent(cf, "", "  ")
		if err == nil {
			err = gltfio.WriteFileAtomicTo(fsys, path, append(data, '\n'))
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("writing the cache in %s: %w", dir, err))
		}
	}
	return errors.Join(errs...)
}

// cacheKey hashes everything an output depends on: the tool version, the
// effective options (encoded as JSON, so every field counts), the output
// container, the input's bytes and each referenced resource's name and
// bytes, as the asset read them (read once: generation uses the same).
// Every part is length-prefixed so no two different inputs hash alike by
// concatenation.
func cacheKey(version string, options any, binary bool, input []byte, a *gltfio.Asset) (string, error) {
	opt, err := json.Marshal(options)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	part := func(b []byte) {
		var n [8]byte
		for i := range n {
			n[i] = byte(uint64(len(b)) >> (8 * i))
		}
		h.Write(n[:])
		h.Write(b)
	}
	part([]byte(fmt.Sprintf("autocollide-batch-cache/%d", cacheVersion)))
	part([]byte(version))
	part(opt)
	part([]byte(fmt.Sprint(binary)))
	part(input)
	for _, rel := range a.Resources {
		data, err := a.ResourceData(rel)
		if err != nil {
			return "", fmt.Errorf("reading %q: %w", rel, err)
		}
		part([]byte(rel))
		part(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileSHA256 hashes the regular file at p as it streams by.
func fileSHA256(p string) (string, bool) {
	f, err := safefile.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}
