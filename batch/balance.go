package batch

import (
	"fmt"
	"sort"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
)

// ShardMode says how a Shard splits a listing.
type ShardMode string

// Shard modes.
const (
	// HashShards keeps the jobs whose relative path hashes to the shard:
	// stable when files are added (incremental runs keep their shard),
	// balanced only on average.
	HashShards ShardMode = "hash"
	// BalancedShards assigns the whole listing longest-expected-first to
	// the least loaded shard (Balance), by a cost estimate from each
	// file's declared triangles and method: every pod computes the same
	// assignment from the same listing, and the shards finish close
	// together, but adding a file may move others.
	BalancedShards ShardMode = "balanced"
)

// ParseShardMode reads "hash" or "balanced".
func ParseShardMode(s string) (ShardMode, error) {
	switch m := ShardMode(s); m {
	case HashShards, BalancedShards:
		return m, nil
	}
	return "", fmt.Errorf("shard mode %q: want hash or balanced", s)
}

// costPerTriangle is the estimated work per declared triangle of each
// method, in milliseconds of one core, and costPerFile the fixed work of
// loading and writing a file. They come from the corpus's per-asset
// times (batch/testdata/corpus-times.json, see balance_test.go): only
// their ratios matter for balancing.
var costPerTriangle = map[generate.Method]float64{
	generate.None:      0.0005,
	generate.AABB:      0.0005,
	generate.Box:       0.003,
	generate.Sphere:    0.003,
	generate.Capsule:   0.005,
	generate.Cylinder:  0.005,
	generate.Trimesh:   0.001,
	generate.Hull:      0.02,
	generate.Auto:      0.03,
	generate.Decompose: 0.5,
}

const costPerFile = 5.0

// EstimateCost is the expected work, in milliseconds of one core, of a
// file with the given declared triangles run with method m (an unknown
// method counts as auto).
func EstimateCost(triangles int64, m generate.Method) float64 {
	k, ok := costPerTriangle[m]
	if !ok {
		k = costPerTriangle[generate.Auto]
	}
	return costPerFile + k*float64(max(triangles, 0))
}

// JobCosts estimates each job's cost (EstimateCost) from its file's
// declared triangles (gltfio.DeclaredTriangles: the JSON alone is read)
// and methods[i], the method job i runs with. A file that cannot be read
// costs costPerFile: it fails fast.
func JobCosts(jobs []Job, methods []generate.Method, lim gltfio.Limits) []float64 {
	costs := make([]float64, len(jobs))
	for i, j := range jobs {
		tris, err := gltfio.DeclaredTriangles(j.Input, lim)
		if err != nil || j.Skip != "" {
			tris = 0
		}
		costs[i] = EstimateCost(tris, methods[i])
	}
	return costs
}

// Balance assigns each job to one of n shards (0-based) by the longest
// processing time first rule: jobs in decreasing cost (ties in order of
// their relative paths), each to the shard with the least cost so far
// (ties to the lowest index). It depends only on the listing and the
// costs, so every pod computes the same assignment. Its makespan is at
// most 4/3 of the optimum for exact costs, and in practice close to the
// lower bound max(total/n, largest).
func Balance(jobs []Job, costs []float64, n int) []int {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ca, cb := costs[order[a]], costs[order[b]]
		if ca != cb {
			return ca > cb
		}
		return jobs[order[a]].Rel < jobs[order[b]].Rel
	})
	shard := make([]int, len(jobs))
	load := make([]float64, max(n, 1))
	for _, i := range order {
		best := 0
		for s := range load {
			if load[s] < load[best] {
				best = s
			}
		}
		shard[i] = best
		load[best] += costs[i]
	}
	return shard
}

// FilterBalanced returns the jobs Balance assigns to s (all of them for
// the zero Shard), in their order.
func (s Shard) FilterBalanced(jobs []Job, costs []float64) []Job {
	if s.N <= 1 {
		return jobs
	}
	assign := Balance(jobs, costs, s.N)
	var out []Job
	for i, j := range jobs {
		if assign[i] == s.K-1 {
			out = append(out, j)
		}
	}
	return out
}
