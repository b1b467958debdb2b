package batch

import (
	"errors"
	"fmt"

	"github.com/autocollide/autocollide/gltfio"
)

// summary is what one read of a job's input JSON said before the run
// (gltfio.Summarize): the write check (CheckWrites), the cost estimates
// (JobCosts: balanced shards, dispatch order) and the run itself all
// derive from it, so each input's JSON is read and parsed once before
// the run. The run's own read of the input (the whole file, buffers
// included) is checked against it: an input whose JSON changed since is
// failed, never generated from contents other than those checked.
type summary struct {
	gltfio.Summary
	err error // the JSON could not be read or parsed
}

// errChanged fails an input whose JSON is not what it was when the run
// checked its writes and estimated its cost.
var errChanged = errors.New("changed since the run started (its writes were checked against the earlier contents); run again")

// summarize reads the JSON of each job not summarized yet, once, and
// keeps it in the job (in place: the jobs' copies made later share it).
// Skipped and unreadable jobs are not read.
func summarize(jobs []Job, lim gltfio.Limits) {
	for i := range jobs {
		j := &jobs[i]
		if j.summary != nil || j.Skip != "" || j.Unreadable != "" {
			continue
		}
		s, err := gltfio.Summarize(j.Input, lim)
		j.summary = &summary{Summary: s, err: err}
	}
}

// unchanged checks the bytes the run read and loaded of j's input
// against its summary (none: nothing to check). A file whose JSON could
// not be read before the run and loads now has changed too.
func (j Job) unchanged(raw []byte) error {
	s := j.summary
	if s == nil {
		return nil
	}
	if sum, ok := gltfio.JSONSum(raw); s.err != nil || !ok || sum != s.JSON {
		return fmt.Errorf("%s: %w", j.Input, errChanged)
	}
	return nil
}
