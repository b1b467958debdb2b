package batch

import (
	"fmt"
	"math"
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

// methodCost is the estimated work of one distinct geometry of T
// triangles made with a method: K·T^P milliseconds of one core (only
// ratios matter for balancing). Hulls and primitive fits grow about
// linearly; auto, which decomposes what no primitive or hull fits, and
// decompose grow faster. K and P for auto come from the corpus's
// measured per-asset times (batch/testdata/corpus-times.json: Duck's
// 4 212 triangles against SheenCloth's 115 200 and ToyCar's three meshes
// give P ≈ 1.3); the others are set relative to it.
var methodCost = map[generate.Method]struct{ K, P float64 }{
	generate.None:      {0.0005, 1},
	generate.AABB:      {0.0005, 1},
	generate.Trimesh:   {0.001, 1},
	generate.Box:       {0.01, 1.05},
	generate.Sphere:    {0.01, 1.05},
	generate.Capsule:   {0.01, 1.05},
	generate.Cylinder:  {0.01, 1.05},
	generate.Hull:      {0.01, 1.05},
	generate.Auto:      {0.087, 1.3},
	generate.Decompose: {0.15, 1.3},
}

// costPerFile is the fixed work of loading and writing a file, and
// costPerInstance that of placing one mesh instance (ms).
const (
	costPerFile     = 5.0
	costPerInstance = 0.5
)

// EstimateCost is the expected work, in milliseconds of one core, of a
// file declaring d run with method m (an unknown method counts as auto):
// each distinct geometry once (copies are fitted once), each instance a
// little.
func EstimateCost(d gltfio.Declared, m generate.Method) float64 {
	c, ok := methodCost[m]
	if !ok {
		c = methodCost[generate.Auto]
	}
	cost := costPerFile + costPerInstance*float64(d.Instances)
	for _, t := range d.Geometries {
		cost += c.K * math.Pow(float64(max(t, 1)), c.P)
	}
	return cost
}

// JobCosts estimates each job's cost (EstimateCost) from what its file
// declares (its JSON alone, read once for the run: see summarize) and
// methods[i], the method job i runs with. A file that cannot be read
// costs costPerFile: it fails fast.
func JobCosts(jobs []Job, methods []generate.Method, lim gltfio.Limits) []float64 {
	summarize(jobs, lim)
	costs := make([]float64, len(jobs))
	for i, j := range jobs {
		var d gltfio.Declared
		if s := j.summary; s != nil && s.err == nil {
			d = s.Declared
		}
		costs[i] = EstimateCost(d, methods[i])
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
