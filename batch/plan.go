package batch

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Job is one input file and where its output goes.
type Job struct {
	// Input is the file's path as found (an argument, or joined under
	// the folder argument it was found in).
	Input string
	// Output is the file to write (the input itself in place).
	Output string
	// Rel is the slash-separated path of the file relative to the folder
	// argument it was found in (its base name for a file argument). It
	// is the shard key.
	Rel string
	// Skip, when not empty, says why the job is not processed (a
	// symbolic link that leads out of its input folder).
	Skip string
	// Unreadable, when not empty, says why a path found in a folder
	// argument could not be read (a subfolder that cannot be listed):
	// the job fails with it, and the rest of the run goes on.
	Unreadable string
	// Preview is the slash-separated name of the job's preview PNG under
	// a preview folder, distinct over the whole listing Plan made (empty:
	// named from the jobs of the run).
	Preview string
	// summary is the one read of the input's JSON before the run, made
	// by the first of CheckWrites, JobCosts or Run that needs it.
	summary *summary
}

// PlanOptions says how inputs map to outputs. Exactly one of Output,
// OutDir and InPlace is set.
type PlanOptions struct {
	Output  string // the one output file
	OutDir  string // outputs mirror the input tree under this folder
	InPlace bool   // each input is overwritten
	// Include and Exclude are glob patterns (see Match) applied to the
	// paths of files found in folder arguments, relative to that folder.
	// A file is taken when it ends in .gltf or .glb, matches some
	// Include pattern (or Include is empty) and matches no Exclude
	// pattern. A folder matching an Exclude pattern is not entered. File
	// arguments are always taken as given.
	Include, Exclude []string
}

// Plan expands the arguments into jobs: file arguments in argument order,
// each folder argument's files (recursively, in sorted order of their
// relative paths) at its place. Symbolic links to files inside the
// folder are followed; links that lead out of it become skipped jobs;
// linked folders are not entered. The output folder is never searched
// for inputs. Two jobs writing the same output is an error.
func Plan(args []string, opt PlanOptions) ([]Job, error) {
	for _, p := range append(append([]string(nil), opt.Include...), opt.Exclude...) {
		if err := CheckPattern(p); err != nil {
			return nil, err
		}
	}
	var jobs []Job
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil || !st.IsDir() {
			// A missing or unreadable file fails when it is loaded, with
			// the loader's message, like any other bad input.
			jobs = append(jobs, Job{Input: arg, Rel: filepath.Base(arg), Output: outputFor(opt, arg, filepath.Base(arg))})
			continue
		}
		found, err := walk(arg, opt)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, found...)
	}
	if opt.Output != "" && len(jobs) != 1 {
		return nil, fmt.Errorf("-o takes one input file; %d found (use --out-dir)", len(jobs))
	}
	for i, n := range previewNames(jobs) {
		jobs[i].Preview = n
	}
	seen := map[string]string{}
	for _, j := range jobs {
		if j.Skip != "" {
			continue
		}
		k := filepath.Clean(j.Output)
		if prev, ok := seen[k]; ok {
			return nil, fmt.Errorf("%s and %s would both write %s", prev, j.Input, j.Output)
		}
		seen[k] = j.Input
	}
	return jobs, nil
}

func outputFor(opt PlanOptions, in, rel string) string {
	switch {
	case opt.InPlace:
		return in
	case opt.OutDir != "":
		return filepath.Join(opt.OutDir, filepath.FromSlash(rel))
	}
	return opt.Output
}

// walk lists the glTF files under root, sorted by relative path.
func walk(root string, opt PlanOptions) ([]Job, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	var outSt os.FileInfo
	if opt.OutDir != "" {
		outSt, _ = os.Stat(opt.OutDir)
	}
	var jobs []Job
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, relErr := filepath.Rel(root, p)
		if relErr != nil {
			return relErr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			// An unreadable path fails alone (its job reports it) and
			// the walk goes on; a folder is not entered.
			if p != root && matchAny(opt.Exclude, rel) {
				return nil
			}
			jobs = append(jobs, Job{Input: p, Rel: rel, Output: outputFor(opt, p, rel), Unreadable: fmt.Sprintf("reading %s: %v", p, bareErr(err))})
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if matchAny(opt.Exclude, rel) {
				return filepath.SkipDir
			}
			if outSt != nil {
				if st, err := os.Stat(p); err == nil && os.SameFile(st, outSt) {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !isGLTFName(p) || len(opt.Include) > 0 && !matchAny(opt.Include, rel) || matchAny(opt.Exclude, rel) {
			return nil
		}
		j := Job{Input: p, Rel: rel, Output: outputFor(opt, p, rel)}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(p)
			switch {
			case err != nil:
				j.Skip = fmt.Sprintf("broken symbolic link: %v", err)
			case !within(realRoot, target):
				j.Skip = "symbolic link leads out of the input folder; not followed"
			default:
				if st, err := os.Stat(target); err != nil || !st.Mode().IsRegular() {
					return nil // a linked folder is not entered
				}
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		jobs = append(jobs, j)
		return nil
	})
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].Rel < jobs[b].Rel })
	return jobs, err
}

// bareErr drops the operation and path of a *fs.PathError (the message
// names the path once).
func bareErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func isGLTFName(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".gltf" || ext == ".glb" || ext == ".g4tf" || ext == ".g4b"
}

// Shard selects a deterministic slice of a job list: shard K of N
// (1 ≤ K ≤ N) keeps the jobs whose Rel hashes (64-bit FNV-1a) to K-1
// modulo N. Shards are disjoint and cover the set, and a file's shard
// depends on its own relative path only, so adding files never moves
// other files between shards. The zero Shard keeps everything.
type Shard struct{ K, N int }

// ParseShard reads "K/N".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("shard %q: want K/N with 1 ≤ K ≤ N", s)
	}
	return Shard{K: k, N: n}, nil
}

// ShardFromEnv makes shard JOB_COMPLETION_INDEX+1 of count, the
// 0-based index a Kubernetes Indexed Job gives each pod.
func ShardFromEnv(count int, getenv func(string) string) (Shard, error) {
	v := getenv("JOB_COMPLETION_INDEX")
	if v == "" {
		return Shard{}, errors.New("JOB_COMPLETION_INDEX is not set")
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i >= count {
		return Shard{}, fmt.Errorf("JOB_COMPLETION_INDEX=%q: want 0 … %d", v, count-1)
	}
	return Shard{K: i + 1, N: count}, nil
}

// String is "K/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Keep reports whether the job with relative path rel belongs to s.
func (s Shard) Keep(rel string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(rel))
	return int(h.Sum64()%uint64(s.N)) == s.K-1
}

// Filter returns the jobs that belong to s, in their order.
func (s Shard) Filter(jobs []Job) []Job {
	var out []Job
	for _, j := range jobs {
		if s.Keep(j.Rel) {
			out = append(out, j)
		}
	}
	return out
}
