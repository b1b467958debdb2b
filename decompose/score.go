package decompose

import (
	"math"
	"slices"
	"sync"
)

// bestBounds returns, per part, a bound keeping the best candidate exact,
// seeded with the score of best[k] (a candidate is picked over it only if
// it scores lower).
func bestBounds(best []*candidate) []*scoreBound {
	out := make([]*scoreBound, len(best))
	for k, b := range best {
		if b != nil {
			out[k] = newScoreBound(1, b.score)
		} else {
			out[k] = newScoreBound(1)
		}
	}
	return out
}

// score returns the largest and the sum of the concavities of the kids
// marked done (all when done is nil), the others counted as 0, summed in
// kids' order: a partial estimate or a missing one is at most the full
// estimate, and floating-point addition is monotone, so rankScore of a
// partial sum is at most the full score.
func score(kids []*part, done []bool) (cmax, csum float64) {
	for j, k := range kids {
		v := 0.0
		if done == nil || done[j] {
			v = k.conc
		}
		cmax = math.Max(cmax, v)
		csum += v
	}
	return cmax, csum
}

// rankScore is a candidate's score from the largest and the sum of its n
// children's concavities and r, the share of its part's excess hull volume
// its children's hulls keep (see evalCandidates).
func rankScore(cmax, csum, r float64, n int) float64 {
	return cmax*(0.5+0.5*r) + 0.05*csum/float64(n)
}

// stopAt returns the concavity of one more child at which a candidate's
// score would exceed limit, its other children's concavities being known
// (largest m, sum s, unmeasured ones 0) and f = 0.5+0.5r, a little above
// it (the caller checks the score itself); the smallest positive value when
// the known ones exceed it already.
func stopAt(limit, m, s, f float64, n int) float64 {
	w := 0.05 / float64(n)
	t := (limit - w*s) / (f + w) // the child the largest
	if t < m {
		t = (limit-m*f)/w - s // another the largest
	}
	return math.Max(t*(1+1e-9), math.SmallestNonzeroFloat64)
}

// scoreBound is shared by the candidates of one part while they are
// evaluated in parallel: the need lowest scores found so far (any seed
// included), and with a ceiling (lookahead) the lowest largest concavity
// left. A candidate whose score is above the need-th lowest cannot be among
// the need best whatever the order the others finish in, so the kept
// candidates do not depend on the workers.
type scoreBound struct {
	mu   sync.Mutex
	need int
	top  []float64 // ascending
	// cut: with a ceiling, the lowest of it and of the largest child
	// concavities of the candidates scored.
	cut float64
}

// newScoreBound returns a bound keeping need scores exact, seeded with
// the scores of candidates scored before (a part's best so far).
func newScoreBound(need int, seed ...float64) *scoreBound {
	b := &scoreBound{need: need}
	for _, s := range seed {
		b.add(s, math.Inf(1))
	}
	return b
}

// limit returns the need-th lowest score so far (+Inf before need).
func (b *scoreBound) limit() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.need == 0 || len(b.top) < b.need {
		return math.Inf(1)
	}
	return b.top[b.need-1]
}

// ceiling returns the ceiling so far.
func (b *scoreBound) ceiling() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cut
}

// add records a scored candidate.
func (b *scoreBound) add(score, cmax float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if cmax < b.cut {
		b.cut = cmax
	}
	if b.need == 0 {
		return
	}
	i, _ := slices.BinarySearch(b.top, score)
	b.top = slices.Insert(b.top, i, score)
	if len(b.top) > b.need {
		b.top = b.top[:b.need]
	}
}
