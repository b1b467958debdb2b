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
// produced it and the SHA-256 of the bytes written; it records no path,
// so the folder can be moved.
const CacheFileName = ".autocollide-cache.json"

// cacheVersion changes when the cache file's meaning changes.
const cacheVersion = 1

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
	// Asset is the result of the run that wrote it, reported again when
	// the output is reused. Its paths are left out (see newCacheEntry).
	Asset Asset `json:"asset"`
}

// newCacheEntry records a written output. The entry holds no path and no
// timing: it is keyed by the output's name in its own folder, and the
// input and output paths are those of the job that reuses it. So runs of
// the same inputs into different folders write identical cache files,
// and a moved or restored output folder is still current.
func newCacheEntry(key, outputSum string, a Asset) *cacheEntry {
	a.Input, a.Output, a.Preview, a.TimeMS = "", "", "", 0
	return &cacheEntry{Key: key, Output: outputSum, Asset: a}
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
func updateCache(results []result) error {
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
		data, err := json.MarshalIndent(cf, "", "  ")
		if err == nil {
			err = gltfio.WriteFileAtomic(filepath.Join(dir, CacheFileName), append(data, '\n'))
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
// bytes. Every part is length-prefixed so no two different inputs hash
// alike by concatenation. It also returns each resource's SHA-256, to
// check the copies beside an output.
func cacheKey(version string, options any, binary bool, input []byte, dir string, resources []string, maxSize int64) (string, map[string]string, error) {
	opt, err := json.Marshal(options)
	if err != nil {
		return "", nil, err
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
	sums := map[string]string{}
	for _, rel := range resources {
		data, err := safefile.Dir(dir).ReadFile(rel, maxSize)
		if err != nil {
			return "", nil, fmt.Errorf("reading %q: %w", rel, err)
		}
		part([]byte(rel))
		part(data)
		sums[rel] = sha256Hex(data)
	}
	return hex.EncodeToString(h.Sum(nil)), sums, nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
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
