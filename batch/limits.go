package batch

import (
	"context"
	"errors"
	"time"

	"github.com/autocollide/autocollide/gltfio"
)

// assetContext returns the context one asset is generated under: the
// run's, with timeout as a deadline when it is positive.
func assetContext(run context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return context.WithCancel(run)
	}
	return context.WithTimeout(run, timeout)
}

// timedOut reports whether the asset's context passed its own deadline
// while the run itself goes on (valid after the asset's cancel too).
func timedOut(run, asset context.Context) bool {
	return run.Err() == nil && errors.Is(asset.Err(), context.DeadlineExceeded)
}

// outputFS returns fsys, or the operating system's file system when nil.
func outputFS(fsys gltfio.FS) gltfio.FS {
	if fsys == nil {
		return gltfio.OSFS{}
	}
	return fsys
}
