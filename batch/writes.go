package batch

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/autocollide/autocollide/gltfio"
)

// Writes names what a run writes besides its outputs, for CheckWrites.
type Writes struct {
	// Outputs is false for a run that writes no output (--check,
	// --dry-run): only Report then counts.
	Outputs bool
	// PreviewDir receives the previews (see Previews.Dir), if set.
	PreviewDir string
	// Cache writes CacheFileName in each output folder.
	Cache bool
	// Report is the report file, if any.
	Report string
}

// CheckWrites enforces the one rule of every write: a run writes only its
// outputs (each job's output file, a .gltf output's .bin and the
// resources copied beside it, the previews, the cache files, the
// report), never a path that is an input, a resource of any input
// (buffers, images), or another output of the same run. It is called
// with the whole listing (before sharding, so that shards of one listing
// agree) and before anything is written; a collision is an error naming
// both. Each input's resources are read from its JSON alone, once for
// the run (kept in the job: see summarize); an input whose JSON cannot be
// read is left to fail when it is loaded.
//
// A .gltf output's .bin is named after its content (see gltfio.Save), so
// its exact name is known only once generated: any file of the output's
// folder that an input references and that is named as that .bin would be
// (gltfio.IsGeneratedBin, or the "<stem>.colliders.bin" of earlier
// versions) is a collision, unless it is the job's own input's resource
// (an earlier run's output, which the job replaces).
func CheckWrites(jobs []Job, w Writes, lim gltfio.Limits) error {
	c := claims{reads: map[string]claim{}, writes: map[string]claim{}, dirs: map[string]string{}}
	var bins []binClaim
	summarize(jobs, lim)
	for ji, j := range jobs {
		if j.Skip != "" || j.Unreadable != "" {
			continue
		}
		c.read(j.Input, claim{job: ji, what: "input " + j.Input})
		if j.summary.err != nil {
			continue
		}
		refs := j.summary.References
		for _, r := range refs {
			p := filepath.Join(filepath.Dir(j.Input), filepath.FromSlash(r.Rel))
			c.read(p, claim{job: ji, what: fmt.Sprintf("%s (%s of %s)", p, r.Where, j.Input), src: p})
		}
		if !w.Outputs || streamPath(j.Output) {
			continue
		}
		c.write(j.Output, claim{job: ji, what: "the output " + j.Output + " of " + j.Input})
		if !gltfio.IsBinaryName(j.Output) { // a GLB output holds everything
			outDir := filepath.Dir(j.Output)
			bins = append(bins, binClaim{job: ji, dir: c.key(outDir), stem: strings.TrimSuffix(filepath.Base(j.Output), filepath.Ext(j.Output)), what: j.Input})
			if c.key(filepath.Dir(j.Input)) != c.key(outDir) {
				for _, r := range refs {
					src := filepath.Join(filepath.Dir(j.Input), filepath.FromSlash(r.Rel))
					dst := filepath.Join(outDir, filepath.FromSlash(r.Rel))
					c.write(dst, claim{job: ji, what: fmt.Sprintf("%s (the copy of %s for %s)", dst, r.Rel, j.Input), src: src})
				}
			}
		}
		if w.Cache {
			cf := filepath.Join(filepath.Dir(j.Output), CacheFileName)
			c.write(cf, claim{job: -1, what: "the cache file " + cf, shared: true})
		}
	}
	if w.Outputs && w.PreviewDir != "" {
		for i, p := range previewPaths(jobs, w.PreviewDir) {
			if p != "" && jobs[i].Skip == "" && jobs[i].Unreadable == "" {
				c.write(p, claim{job: i, what: "the preview " + p + " of " + jobs[i].Input})
			}
		}
	}
	if w.Report != "" && !streamPath(w.Report) {
		c.write(w.Report, claim{job: -1, what: "the report " + w.Report})
	}
	if c.err != nil {
		return c.err
	}
	// The .bin of each .gltf output, by name pattern: each path read or
	// written is looked up by the stems its name could be a .bin of.
	byStem := map[string][]binClaim{}
	for _, b := range bins {
		byStem[b.dir+"\x00"+b.stem] = append(byStem[b.dir+"\x00"+b.stem], b)
	}
	find := func(k string, cl claim, format string) error {
		for _, stem := range binStems(filepath.Base(k)) {
			for _, b := range byStem[filepath.Dir(k)+"\x00"+stem] {
				if cl.job != b.job && generatedBinName(b.stem, filepath.Base(k)) {
					return fmt.Errorf(format, cl.what, b.what)
				}
			}
		}
		return nil
	}
	for _, k := range sortedKeys(c.reads) {
		if err := find(k, c.reads[k], "%s would be replaced or removed as the .bin of the output of %s"); err != nil {
			return err
		}
	}
	for _, k := range sortedKeys(c.writes) {
		if err := find(k, c.writes[k], "%s would collide with the .bin of the output of %s"); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys(m map[string]claim) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// binStems returns the stems whose .gltf output's .bin could be named
// name (see generatedBinName): "x.colliders.<hex>.bin" → x.colliders and
// x, "x.colliders.bin" and "x.colliders-2.bin" → x.
func binStems(name string) []string {
	base, ok := strings.CutSuffix(name, ".bin")
	if !ok {
		return nil
	}
	var stems []string
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		stems = append(stems, base[:i])
		if s, ok := strings.CutSuffix(base[:i], ".colliders"); ok {
			stems = append(stems, s)
		}
	}
	if i := strings.LastIndex(base, ".colliders"); i > 0 {
		stems = append(stems, base[:i])
	}
	return stems
}

type claim struct {
	job    int    // the job it belongs to, -1 for the run's own files
	what   string // how an error names it
	src    string // for a read resource or a copy: the source file
	shared bool   // several jobs may claim it (the cache file)
}

type binClaim struct {
	job             int
	dir, stem, what string
}

type claims struct {
	reads, writes map[string]claim
	dirs          map[string]string // folder → its real path
	err           error
}

func (c *claims) read(p string, cl claim) {
	k := c.key(p)
	if w, ok := c.writes[k]; ok && !(w.job == cl.job && w.job >= 0 && cl.src == "") {
		c.fail(w, cl)
	}
	if _, ok := c.reads[k]; !ok {
		c.reads[k] = cl
	}
}

func (c *claims) write(p string, cl claim) {
	k := c.key(p)
	if r, ok := c.reads[k]; ok {
		// A job's output may be its own input (in place); nothing else
		// read may be written.
		if !(r.job == cl.job && r.src == "" && cl.src == "" && cl.job >= 0) {
			c.fail(cl, r)
		}
	}
	if w, ok := c.writes[k]; ok {
		sameCopy := w.src != "" && cl.src != "" && sameFile(w.src, cl.src)
		if !sameCopy && !(w.shared && cl.shared) {
			c.fail(cl, w)
		}
		return
	}
	c.writes[k] = cl
}

func (c *claims) fail(w, other claim) {
	if c.err == nil {
		c.err = fmt.Errorf("%s would overwrite %s; nothing was written", w.what, other.what)
	}
}

// key identifies a path: absolute, cleaned, with its folder's links
// resolved (each folder once) and the file's own when it is a link.
func (c *claims) key(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	k := filepath.Join(c.realDir(filepath.Dir(abs)), filepath.Base(abs))
	if st, err := os.Lstat(k); err == nil && st.Mode()&os.ModeSymlink != 0 {
		if r, err := filepath.EvalSymlinks(k); err == nil {
			return r
		}
	}
	return k
}

// realDir resolves the links of the absolute folder dir, a folder that
// does not exist yet by its nearest existing parent.
func (c *claims) realDir(dir string) string {
	if r, ok := c.dirs[dir]; ok {
		return r
	}
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		r = dir
		if parent := filepath.Dir(dir); parent != dir {
			r = filepath.Join(c.realDir(parent), filepath.Base(dir))
		}
	}
	c.dirs[dir] = r
	return r
}

// streamPath reports whether an output path is a stream (see
// gltfio.IsStream): it replaces nothing.
func streamPath(p string) bool {
	s, err := gltfio.IsStream(p)
	return s && err == nil
}

// generatedBinName reports whether name is one a .gltf output of stem
// gives its .bin, now or in earlier versions ("<stem>.colliders.bin",
// "<stem>.colliders-N.bin").
func generatedBinName(stem, name string) bool {
	if gltfio.IsGeneratedBin(stem, name) {
		return true
	}
	rest, ok := strings.CutPrefix(name, stem+".colliders")
	if !ok {
		return false
	}
	n, ok := strings.CutSuffix(rest, ".bin")
	return ok && (n == "" || len(n) > 1 && n[0] == '-' && strings.Trim(n[1:], "0123456789") == "")
}
