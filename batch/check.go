package batch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/validate"
)

// Fingerprint says what generated physics was made from, so that Check
// can tell a current output from a stale one without generating again.
// Each member is compared on its own, so Check can say why an output is
// stale.
type Fingerprint struct {
	// Tool is the program and its version ("autocollide v1.4.0"; a
	// development build is "autocollide devel").
	Tool string `json:"tool"`
	// Options is the SHA-256 of the effective generation options
	// (profile, rules, flags and project file resolved; the worker count
	// excluded, since it does not change the output).
	Options string `json:"options"`
	// Source is the SHA-256 of the input as generation read it
	// (gltfio.Asset.ContentHash): its JSON and buffers, with an earlier
	// run's additions removed.
	Source string `json:"source"`
}

// newFingerprint fingerprints a run of opt on the freshly loaded asset a.
func newFingerprint(tool string, opt generate.Options, a *gltfio.Asset) (Fingerprint, error) {
	if tool == "" {
		tool = "autocollide"
	}
	js, err := json.Marshal(opt)
	if err != nil {
		return Fingerprint{}, err
	}
	sum := sha256.Sum256(js)
	src, err := a.ContentHash()
	if err != nil {
		return Fingerprint{}, err
	}
	return Fingerprint{Tool: tool, Options: hex.EncodeToString(sum[:]), Source: src}, nil
}

// stamp records fp in the output, when the run generated anything.
func stamp(a *gltfio.Asset, fp Fingerprint) error {
	if !a.HasGenerated() {
		return nil
	}
	v, err := gltfio.FromGo(fp)
	if err != nil {
		return err
	}
	return a.SetGeneratedExtra(gltfio.FingerprintKey, v)
}

// readFingerprint returns the fingerprint recorded in a file loaded with
// gltfio.LoadRaw; ok is false when it has none (or one that is not a
// fingerprint).
func readFingerprint(file *gltfio.Asset) (fp Fingerprint, ok bool) {
	v, found := file.GeneratedExtra(gltfio.FingerprintKey)
	if !found {
		return fp, false
	}
	raw, err := json.Marshal(v)
	if err != nil || json.Unmarshal(raw, &fp) != nil || fp.Tool == "" || fp.Options == "" || fp.Source == "" {
		return Fingerprint{}, false
	}
	return fp, true
}

// staleness says why an output made as got is not what want would make,
// or "" when it is.
func (want Fingerprint) staleness(got Fingerprint) string {
	var why []string
	if got.Tool != want.Tool {
		why = append(why, fmt.Sprintf("made by %s, this is %s", got.Tool, want.Tool))
	}
	if got.Options != want.Options {
		why = append(why, "made with other settings (profile, flags or project file)")
	}
	if got.Source != want.Source {
		why = append(why, "its source changed since (geometry or other content)")
	}
	return strings.Join(why, "; ")
}

// checkOne answers, for one job, "would running generate change this
// output?" without writing: the output (the input itself in place) fails
// when it has no physics, when its generated physics is stale (its
// fingerprint differs from what this tool, these options and the current
// source would record), when it has authored physics only and a run
// would add bodies, or when its physics has errors (physics/validate).
func checkOne(ctx context.Context, j Job, opt Options, r result) result {
	fail := func(err error) result {
		r.asset.Status = Failed
		r.asset.Error = err.Error()
		return r
	}
	file, err := gltfio.LoadRaw(j.Output, opt.Limits)
	if err != nil {
		if j.Output != j.Input && errors.Is(err, fs.ErrNotExist) {
			return fail(fmt.Errorf("%s: not up to date: not generated yet (no %s)", j.Input, j.Output))
		}
		return fail(err)
	}
	src := file
	if j.Output != j.Input || file.HasGenerated() {
		if src, err = gltfio.Load(j.Input, opt.Limits); err != nil {
			return fail(err)
		}
	}
	gopt := opt.Generate
	gopt.Encoding.Binary = gltfio.IsBinaryName(j.Output)
	want, err := newFingerprint(opt.Release, gopt, src)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", j.Input, err))
	}
	stale := ""
	got, has := readFingerprint(file)
	switch {
	case has:
		stale = want.staleness(got)
	case file.HasGenerated():
		stale = "its generated physics records no fingerprint (an older autocollide made it)"
	case codecs.Family(file.Doc) == physics.None:
		stale = "no physics"
	default:
		// Authored physics only: a run keeps it; would it add bodies?
		// (On a copy: file is validated below as it is.)
		trial, err := gltfio.Load(j.Input, opt.Limits)
		if err != nil {
			return fail(err)
		}
		actx, cancel := assetContext(ctx, opt.Timeout)
		rep, err := generate.Asset(actx, trial, gopt)
		cancel()
		if err != nil {
			return fail(fmt.Errorf("%s: %w", j.Input, err))
		}
		if trial.HasGenerated() {
			stale = fmt.Sprintf("a run would add %d bodies beside its authored physics", rep.Bodies)
		}
	}
	if stale != "" {
		return fail(fmt.Errorf("%s: not up to date: %s", j.Output, stale))
	}
	probs := validate.Validate(file.Doc, validate.Options{MaxHullVertices: gopt.Collider.MaxHullVertices})
	for _, p := range probs {
		if p.Severity == validate.Error {
			return fail(fmt.Errorf("%s: physics errors: %s", j.Output, p))
		}
	}
	r.asset.Status = OK
	r.asset.Notes = append(r.asset.Notes, "up to date")
	if d, err := inspect.Describe(file); err == nil {
		// What the file carries, for the summary line and the report.
		r.asset.Bodies, r.asset.HullVertices = d.Summary.Bodies, d.Summary.HullVertices
		for k, v := range d.Summary.Colliders {
			r.asset.Colliders[k] = v
		}
	}
	return r
}
