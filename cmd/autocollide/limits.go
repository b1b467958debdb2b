package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/autocollide/autocollide/batch"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/spf13/pflag"
)

// defaultTimeout bounds each asset's generation unless --timeout says
// otherwise: far above any real asset (the slowest corpus file takes
// about 20 s), low enough that a pathological one cannot hold a batch.
const defaultTimeout = 30 * time.Minute

// limitFlags are generate's resource limits on each input.
type limitFlags struct {
	maxFileSize  string
	maxTriangles int64
	timeout      time.Duration
}

func (l *limitFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&l.maxFileSize, "max-file-size", "", fmt.Sprintf("largest input file or external buffer, in bytes or with a unit (512MB, 2GiB) (default %s)", formatSize(gltfio.DefaultMaxFileSize)))
	fl.Int64Var(&l.maxTriangles, "max-triangles", gltfio.DefaultMaxTriangles, "largest triangle count of an asset's scene, every instance counted")
	fl.DurationVar(&l.timeout, "timeout", defaultTimeout, "time limit on each asset's generation (0: none)")
}

// apply sets the limits on a run's options.
func (l limitFlags) apply(o *batch.Options) error {
	if l.maxFileSize != "" {
		n, err := parseSize(l.maxFileSize)
		if err != nil {
			return fmt.Errorf("--max-file-size: %w", err)
		}
		o.Limits.MaxFileSize = n
	}
	if l.maxTriangles < 1 {
		return fmt.Errorf("--max-triangles %d: want at least 1", l.maxTriangles)
	}
	if l.timeout < 0 {
		return fmt.Errorf("--timeout %v: want a positive duration, or 0 for none", l.timeout)
	}
	o.Limits.MaxTriangles, o.Timeout = l.maxTriangles, l.timeout
	return nil
}

var sizeUnits = []struct {
	suffix string
	scale  int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"B", 1},
}

// parseSize reads a byte count: an integer with an optional unit (B, KB,
// MB, GB, TB in powers of 1000; KiB, MiB, GiB, TiB in powers of 1024).
func parseSize(s string) (int64, error) {
	num, scale := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(strings.ToUpper(num), strings.ToUpper(u.suffix)) {
			num, scale = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q: want a positive whole number of bytes, optionally with a unit (KB, MB, GB, KiB, MiB, GiB)", s)
	}
	if n > (1<<62)/scale {
		return 0, fmt.Errorf("%q: too large", s)
	}
	return n * scale, nil
}

func formatSize(n int64) string {
	for _, u := range sizeUnits[:4] {
		if n >= u.scale && n%u.scale == 0 && n/u.scale < 1024 {
			return strconv.FormatInt(n/u.scale, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
