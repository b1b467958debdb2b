package main

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/autocollide/autocollide/batch"
	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/profiles"
	"github.com/autocollide/autocollide/safefile"
	"github.com/autocollide/autocollide/viewer"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

//go:embed review.html
var reviewPageSource string

var reviewPage = template.Must(template.New("review").Parse(reviewPageSource))

type reviewFlags struct {
	profile, outDir, listen string
}

func newReview() *cobra.Command {
	var f reviewFlags
	c := &cobra.Command{
		Use:   "review DIR [--profile P] [--out-dir OUT]",
		Short: "Review and tune the colliders of a folder in the browser",
		Long: `review serves a page on 127.0.0.1 (a free port; the address printed carries
a random token, and nothing is served without it) that shows the assets of
DIR as a grid with their status, and the 3D view of each: the render mesh
and its colliders, orbit, pan, zoom, toggles per shape type and per body.

Per asset, the method, the maximum colliders, the maximum hull vertices, the
concavity, the density or material and the motion of its bodies can be
changed: the asset is generated again by the same code as
'generate DIR --out-dir OUT --profile P' (project files and AUTOCOLLIDE_*
variables apply as they do there) and the view shows the result. "Keep"
writes the change into the profile file P as a rule matching that asset
(match: {file: its path under DIR}), first among the rules, checked, its
comments kept; the next 'generate DIR --profile P' gives that asset the
colliders and bodies shown. (Each output records the profile's fingerprint,
so every output's record changes with each Keep; nothing else in the other
assets' outputs does.)
With a preset for P, Keep writes the rules to DIR/autocollide-review.yaml,
a profile extending the preset.

Outputs are written under --out-dir, as generate writes them; without it
they go to a temporary folder removed when review ends. Requests name
assets by their path under DIR and outputs by their path under the output
folder: nothing else is read.`,
		Example: `  # Review a folder with a project profile; outputs in build/
  autocollide review assets/ --profile props.yaml --out-dir build/`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runReview(c, args[0], f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.profile, "profile", "default", "profile: a preset name or a YAML file, where Keep writes its rules")
	fl.StringVar(&f.outDir, "out-dir", "", "output folder, as generate --out-dir (default: a temporary folder)")
	fl.StringVar(&f.listen, "listen", "127.0.0.1:0", "address to serve on (a loopback address; port 0: a free one)")
	return c
}

func runReview(c *cobra.Command, dir string, f reviewFlags) error {
	host, _, err := net.SplitHostPort(f.listen)
	if err != nil {
		return usageError{fmt.Errorf("--listen %s: %v", f.listen, err)}
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return usageError{fmt.Errorf("--listen %s: want a loopback address (127.0.0.1 or ::1)", f.listen)}
	}
	s, err := newReviewServer(dir, f.profile, f.outDir)
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.OutOrStdout(), "autocollide review: %d assets in %s\nopen http://%s/%s/\n(Ctrl-C ends the review)\n", len(s.jobs), s.dir, ln.Addr(), s.token)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go s.generateAll(ctx)
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// reviewChange is what the page may change for one asset: the settings of
// a profile rule. Density (kg/m³) and Material (a name of the mass
// package's table) exclude each other; Motion is static, kinematic or
// dynamic; zero values keep the profile's.
type reviewChange struct {
	Method          string  `json:"method"`
	MaxColliders    int     `json:"maxColliders"`
	MaxHullVertices int     `json:"maxHullVertices"`
	Concavity       float64 `json:"concavity"`
	Density         float64 `json:"density,omitempty"`
	Material        string  `json:"material,omitempty"`
	Motion          string  `json:"motion,omitempty"`
}

// reviewAsset is one asset as the page sees it.
type reviewAsset struct {
	Rel       string `json:"rel"`
	Status    string `json:"status"`
	Error     string `json:"error,omitempty"`
	Colliders string `json:"colliders"`
	Count     int    `json:"count"`
	Methods   string `json:"methods"`
	// Motions counts the bodies by motion ("1 dynamic"), Mass is the
	// total of the dynamic ones (kg).
	Motions string        `json:"motions"`
	Mass    float64       `json:"mass"`
	Model   string        `json:"model,omitempty"`
	Thumb   string        `json:"thumb,omitempty"`
	Version int           `json:"version"`
	Change  *reviewChange `json:"change,omitempty"`
	Kept    bool          `json:"kept"`
}

// reviewServer serves one review session.
type reviewServer struct {
	dir, outDir string
	scratch     bool // outDir is a temporary folder
	token       string
	// profile is the profile as the user named it; profileFile its file
	// ("" for a preset), keepFile where Keep writes.
	profile, profileFile, keepFile string
	jobs                           []batch.Job
	byRel                          map[string]int
	// open reads a file under outDir (tests record the calls).
	open func(name string) (*os.File, error)

	gen sync.Mutex // one generation at a time
	mu  sync.Mutex
	// text is the profile document Keep last wrote (the session's).
	text    []byte
	keptAny bool
	assets  []reviewAsset
	thumbs  reviewThumbs
	// identity names this build for the outputs' cache (buildIdentity,
	// read once: it hashes the executable).
	identity   string
	identityOK bool
}

func newReviewServer(dir, profile, outDir string) (*reviewServer, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, usageError{err}
	}
	if !st.IsDir() {
		return nil, usageError{fmt.Errorf("%s: not a folder", dir)}
	}
	s := &reviewServer{profile: profile, thumbs: reviewThumbs{slots: make(chan struct{}, runtime.NumCPU()), done: map[int]thumb{}}}
	s.identity, s.identityOK = buildIdentity()
	if s.dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if outDir == "" {
		if outDir, err = os.MkdirTemp("", "autocollide-review-"); err != nil {
			return nil, err
		}
		s.scratch = true
	}
	if s.outDir, err = filepath.Abs(outDir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.outDir, 0o755); err != nil {
		return nil, err
	}
	s.open = safefile.Dir(s.outDir).Open
	var tok [16]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return nil, err
	}
	s.token = hex.EncodeToString(tok[:])
	if profiles.IsFile(profile) {
		if s.profileFile, err = filepath.Abs(profile); err != nil {
			return nil, err
		}
		s.keepFile = s.profileFile
		if s.text, err = safefile.ReadFile(s.profileFile, profiles.MaxFileSize); err != nil {
			return nil, usageError{fmt.Errorf("%s: %w", profile, err)}
		}
	} else {
		if _, err := profiles.Load(profile); err != nil {
			return nil, usageError{err}
		}
		s.keepFile = filepath.Join(s.dir, "autocollide-review.yaml")
		s.text = []byte("# Rules kept by autocollide review over the preset " + profile + ".\nextends: " + profile + "\n")
	}
	if _, err := profiles.Parse(s.keepFile, s.text); err != nil {
		return nil, usageError{err}
	}
	if s.jobs, err = batch.Plan([]string{s.dir}, batch.PlanOptions{OutDir: s.outDir}); err != nil {
		return nil, usageError{err}
	}
	if len(s.jobs) == 0 {
		return nil, usageError{fmt.Errorf("no .gltf or .glb files in %s", dir)}
	}
	s.byRel = map[string]int{}
	for i, j := range s.jobs {
		s.byRel[j.Rel] = i
		s.assets = append(s.assets, reviewAsset{Rel: j.Rel, Status: "pending"})
	}
	return s, nil
}

// Close removes a temporary output folder.
func (s *reviewServer) Close() {
	if s.scratch {
		os.RemoveAll(s.outDir)
	}
}

// generateAll generates every asset once, as generate would.
func (s *reviewServer) generateAll(ctx context.Context) {
	idx := make([]int, len(s.jobs))
	for i := range idx {
		idx[i] = i
	}
	s.mu.Lock()
	text := s.text
	s.mu.Unlock()
	s.generate(ctx, idx, text, nil)
}

// generate runs the jobs idx through generate's pipeline with the profile
// document text (for the profile file, or for keepFile over a preset),
// and records the results with change.
func (s *reviewServer) generate(ctx context.Context, idx []int, text []byte, change *reviewChange) error {
	s.gen.Lock()
	defer s.gen.Unlock()
	g := newGenerate()
	// A preset is named as it is until a rule is tried or kept over it.
	profile := s.profile
	if s.profileFile == "" && (change != nil || s.keptAny) {
		profile = s.keepFile
	}
	if err := g.Flags().Set("profile", profile); err != nil {
		return err
	}
	l := newLayers(g.Flags())
	l.load = func(name string) (*profiles.Profile, error) {
		if abs, err := filepath.Abs(name); err == nil && profiles.IsFile(name) && abs == s.keepFile {
			return profiles.Parse(name, text)
		}
		return profiles.Load(name)
	}
	jobs := make([]batch.Job, len(idx))
	for k, i := range idx {
		jobs[k] = s.jobs[i]
	}
	groups, err := groupJobs(l, jobs)
	if err != nil {
		return err
	}
	var lim limitFlags
	lim.register(pflag.NewFlagSet("limits", pflag.ContinueOnError))
	// No pictures here: the page asks for each when it shows it (see
	// thumbnail), so an Apply answers as soon as the output is written.
	bopt := batch.Options{Mode: batch.Write, Workers: runtime.NumCPU(),
		Progress: &batch.LogProgress{Out: io.Discard, Err: io.Discard, Verbosity: batch.Quiet},
		Release:  "autocollide " + toolVersion()}
	if err := lim.apply(&bopt); err != nil {
		return err
	}
	bopt.ToolVersion, bopt.Cache = s.identity, s.identityOK
	assets, _, err := runGroups(ctx, jobs, groups, bopt)
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, i := range idx {
		s.assets[i] = s.describe(s.jobs[i].Rel, assets[k], s.assets[i].Version+1, change)
	}
	return err
}

// describe is an asset's result as the page shows it.
func (s *reviewServer) describe(rel string, a batch.Asset, version int, change *reviewChange) reviewAsset {
	r := reviewAsset{Rel: rel, Status: string(a.Status), Error: a.Error,
		Colliders: inspect.ColliderSummary(a.Colliders), Version: version, Change: change}
	for _, n := range a.Colliders {
		r.Count += n
	}
	methods := map[string]int{}
	for _, p := range a.Parts {
		methods[string(p.Method)]++
	}
	r.Methods = inspect.ColliderSummary(methods)
	motions := map[string]int{}
	for _, b := range a.BodyList {
		motions[bodyMotion(b)]++
		r.Mass += b.Mass
	}
	r.Motions = inspect.ColliderSummary(motions)
	if (a.Status == batch.OK || a.Status == batch.Cached) && a.Output != "" {
		if rel, err := filepath.Rel(s.outDir, a.Output); err == nil {
			r.Model = "out/" + escapePath(filepath.ToSlash(rel)) + fmt.Sprintf("?v=%d", version)
		}
	}
	if r.Model != "" {
		r.Thumb = thumbURL(rel, version)
	}
	return r
}

// bodyMotion is a reported body's motion: generate reports a static or
// kinematic body's mass source as "none (static)" or "none (kinematic)"
// (generate.BodyReport), and weighs dynamic bodies only.
func bodyMotion(b batch.Body) string {
	if m, ok := strings.CutPrefix(b.MassSource, "none ("); ok {
		return strings.TrimSuffix(m, ")")
	}
	return "dynamic"
}

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return strings.Join(segs, "/")
}

// ServeHTTP answers only under /TOKEN/: the page, the API and the
// outputs; everything else is 404.
func (s *reviewServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/"+s.token+"/")
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	switch {
	case rest == "" && r.Method == http.MethodGet:
		s.page(w)
	case rest == "api/assets" && r.Method == http.MethodGet:
		s.mu.Lock()
		list := append([]reviewAsset(nil), s.assets...)
		s.mu.Unlock()
		writeJSON(w, list)
	case rest == "api/change" && r.Method == http.MethodPost:
		s.change(w, r)
	case rest == "api/keep" && r.Method == http.MethodPost:
		s.keep(w, r)
	case strings.HasPrefix(rest, "out/") && r.Method == http.MethodGet:
		s.output(w, r, strings.TrimPrefix(rest, "out/"))
	case strings.HasPrefix(rest, "thumb/") && r.Method == http.MethodGet:
		s.thumbnail(w, r, strings.TrimPrefix(r.URL.EscapedPath(), "/"+s.token+"/thumb/"))
	default:
		http.NotFound(w, r)
	}
}

func (s *reviewServer) page(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var methods []string
	for _, m := range kinds.Methods() {
		if m != "none" {
			methods = append(methods, m)
		}
	}
	err := reviewPage.Execute(w, map[string]any{
		"Dir": s.dir, "Profile": s.profile, "KeepFile": s.keepFile, "Methods": methods, "Materials": mass.Materials(),
		"Viewer": template.HTML(viewer.Script()), "Palette": viewer.DefaultPalette(),
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// asset finds the job a request names by its path under DIR: only a
// listed asset, never a path built from the request.
func (s *reviewServer) asset(w http.ResponseWriter, r *http.Request) (int, bool) {
	i, ok := s.byRel[r.URL.Query().Get("asset")]
	if !ok {
		http.NotFound(w, r)
	}
	return i, ok
}

func (s *reviewServer) change(w http.ResponseWriter, r *http.Request) {
	i, ok := s.asset(w, r)
	if !ok {
		return
	}
	var ch reviewChange
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&ch); err != nil {
		http.Error(w, "bad change: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	base := s.text
	s.mu.Unlock()
	text, err := withRule(base, s.keepFile, s.jobs[i].Rel, ch)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.generate(r.Context(), []int{i}, text, &ch); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	a := s.assets[i]
	s.mu.Unlock()
	writeJSON(w, a)
}

func (s *reviewServer) keep(w http.ResponseWriter, r *http.Request) {
	i, ok := s.asset(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.assets[i].Change
	if ch == nil {
		http.Error(w, "nothing changed for "+s.jobs[i].Rel, http.StatusConflict)
		return
	}
	text, err := withRule(s.text, s.keepFile, s.jobs[i].Rel, *ch)
	if err == nil {
		err = writeFileAtomic(s.keepFile, text)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.text = text
	s.keptAny = true
	s.assets[i].Kept = true
	writeJSON(w, map[string]string{"file": s.keepFile, "rule": ruleName(s.jobs[i].Rel)})
}

// output serves a file under the output folder: the name must be a
// clean relative path (no "..", not absolute) and is opened inside the
// folder only (links that leave it are refused).
func (s *reviewServer) output(w http.ResponseWriter, r *http.Request, name string) {
	if name == "" || strings.Contains(name, "\\") || path.IsAbs(name) || path.Clean(name) != name ||
		strings.HasPrefix(name, "../") || name == ".." || strings.Contains(name, "/../") {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	f, err := s.open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	http.ServeContent(w, r, path.Base(name), st.ModTime(), f)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// writeFileAtomic replaces file with data through a temporary file in its
// folder.
func writeFileAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".autocollide-review-*.yaml")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if st, err := os.Stat(file); err == nil {
		os.Chmod(tmp.Name(), st.Mode().Perm())
	}
	return os.Rename(tmp.Name(), file)
}
