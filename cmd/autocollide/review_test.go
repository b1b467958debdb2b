package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/profiles"
	"github.com/chromedp/chromedp"
)

const reviewProfile = `# Props of the test level.
extends: default
colliders:
  method: decompose  # the props are concave
`

// startReview serves a review of dir with the profile file and output
// folder out on a free loopback port, having generated every asset; it
// returns the server, its base URL (with the token) and the names of the
// files it opened.
func startReview(t *testing.T, dir, profile, out string) (*reviewServer, string, func() []string) {
	t.Helper()
	s, err := newReviewServer(dir, profile, out)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var opened []string
	open := s.open
	s.open = func(name string) (*os.File, error) {
		mu.Lock()
		opened = append(opened, name)
		mu.Unlock()
		return open(name)
	}
	s.generateAll(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: s}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close(); s.Close() })
	return s, "http://" + ln.Addr().String(), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), opened...)
	}
}

func reviewTree(t *testing.T) (dir, profile string) {
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	dir = t.TempDir()
	for rel, src := range map[string]string{"props/duck.glb": "Duck/glTF-Binary/Duck.glb", "crate.glb": "Box/glTF-Binary/Box.glb"} {
		data, err := os.ReadFile(filepath.Join(corpus, src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	profile = filepath.Join(t.TempDir(), "props.yaml")
	if err := os.WriteFile(profile, []byte(reviewProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, profile
}

// TestReviewConfinesRequests: without the token, or with a path that
// leaves the output folder (../, encoded or not, absolute), or an asset
// that is not one of DIR's, the server answers 403 or 404 and opens no
// file; an output is served with the token.
func TestReviewConfinesRequests(t *testing.T) {
	testassets.Shared(t)
	dir, profile := reviewTree(t)
	secret := filepath.Join(filepath.Dir(dir), "secret.glb")
	os.WriteFile(secret, []byte("secret"), 0o644)
	out := t.TempDir()
	s, base, opened := startReview(t, dir, profile, out)
	get := func(method, p string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+p, strings.NewReader(`{"method":"box"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Opaque, _, _ = strings.Cut(p, "?") // sent as written: no client-side cleaning
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	tok := "/" + s.token
	for _, c := range []struct{ method, path string }{
		{"GET", "/"},
		{"GET", "/api/assets"},
		{"GET", "/out/crate.glb"},
		{"GET", "/" + strings.Repeat("0", len(s.token)) + "/api/assets"},
		{"GET", tok},
		{"GET", tok + "/out/../secret.glb"},
		{"GET", tok + "/out/%2e%2e/secret.glb"},
		{"GET", tok + "/out/props/../../secret.glb"},
		{"GET", tok + "/out//" + strings.TrimPrefix(filepath.ToSlash(secret), "/")},
		{"GET", tok + "/out/" + filepath.ToSlash(secret)},
		{"GET", tok + "/out/..%5csecret.glb"},
		{"GET", "/thumb/crate.glb"},
		{"GET", tok + "/thumb/../secret.glb"},
		{"GET", tok + "/thumb/%2e%2e/secret.glb"},
		{"GET", tok + "/thumb/" + filepath.ToSlash(secret)},
		{"GET", tok + "/thumb/" + url.PathEscape(filepath.ToSlash(secret))},
		{"POST", tok + "/api/change?asset=../secret.glb"},
		{"POST", tok + "/api/change?asset=" + filepath.ToSlash(secret)},
		{"POST", tok + "/api/keep?asset=../secret.glb"},
	} {
		code, body := get(c.method, c.path)
		if code != http.StatusForbidden && code != http.StatusNotFound {
			t.Errorf("%s %s: %d, want 403 or 404", c.method, c.path, code)
		}
		if strings.Contains(body, "secret") && !strings.Contains(c.path, "secret") {
			t.Errorf("%s %s: the answer shows the file", c.method, c.path)
		}
	}
	if got := opened(); len(got) != 0 {
		t.Errorf("files opened for refused requests: %q", got)
	}
	if code, body := get("GET", tok+"/out/crate.glb"); code != 200 || !strings.HasPrefix(body, "glTF") {
		t.Errorf("an output with the token: %d, want 200 and the GLB", code)
	}
	if got := opened(); len(got) != 1 || got[0] != "crate.glb" {
		t.Errorf("files opened: %q, want crate.glb only", got)
	}
}

// TestReviewInChromium drives the review page: the decomposed duck's
// method is changed to box, the page shows one box collider and the view
// draws it; Keep writes the rule into the profile file (comments kept,
// the profile valid). The crate's density is set to a quarter of the
// default (its mass becomes a quarter), then its motion to kinematic (it
// then weighs nothing); Keep writes both into its rule. generate over
// the folder with that profile writes the same bytes as the review did.
func TestReviewInChromium(t *testing.T) {
	b := newBrowser(t, 1400, 900, 4*time.Minute)
	dir, profile := reviewTree(t)
	out := t.TempDir()
	s, base, _ := startReview(t, dir, profile, out)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/"+s.token+"/")); err != nil {
		t.Fatal(err)
	}
	waitFor := func(what, cond string) {
		t.Helper()
		waitUntil(t, b, what, cond)
	}
	waitFor("the duck's card", `!!document.querySelector('.card[data-rel="props/duck.glb"] img')`)
	eval[bool](t, b, `(document.querySelector('.card[data-rel="props/duck.glb"]').click(), true)`)
	waitFor("the duck's view", `!!window.autocollideView && window.autocollideView.items.length > 0`)
	before := eval[viewShot](t, b, shotJS(0))
	if before.Counts["convex"] < 2 {
		t.Fatalf("decomposed duck: view counts %v, want several hulls", before.Counts)
	}
	// Apply, timed by the page from the click to the view drawn: the
	// method alternates so each Apply regenerates; the last is box.
	var shown []float64
	for k, m := range []string{"box", "sphere", "box", "sphere", "box"} {
		start := time.Now()
		eval[bool](t, b, `(document.getElementById("method").value = "`+m+`", document.getElementById("apply").click(), true)`)
		waitFor(m, `!!window.autocollideView && window.autocollideView.counts().`+m+` === 1 && /^1 colliders: 1 `+m+`/.test(document.getElementById("count").textContent) && /shown in/.test(document.getElementById("msg").textContent)`)
		msg := eval[string](t, b, `document.getElementById("msg").textContent`)
		var gen, sec float64
		if _, err := fmt.Sscanf(msg, "generated in %g s, shown in %g s", &gen, &sec); err != nil {
			t.Fatalf("Apply's message %q: %v", msg, err)
		}
		shown = append(shown, sec)
		t.Logf("Apply %d (%s): generated in %.1f s, shown in %.1f s (page); %v seen by the test", k+1, m, gen, sec, time.Since(start).Round(time.Millisecond))
	}
	slices.Sort(shown)
	t.Logf("Apply to shown: median %.1f s of %d", shown[len(shown)/2], len(shown))
	// The grid's picture is the new output's.
	waitFor("the duck's new picture", `(i => i && i.complete && i.naturalWidth > 0 && /[?]v=6$/.test(i.src))(document.querySelector('.card[data-rel="props/duck.glb"] img'))`)
	after := eval[viewShot](t, b, shotJS(0))
	if after.Counts["convex"] != 0 {
		t.Errorf("after the change the view still draws hulls: %v", after.Counts)
	}
	pp := newPalettePixels(after.Counts)
	img := decodeDataURL(t, after.PNG)
	checkColours(t, img, after, pp, filepath.Join(t.TempDir(), "review-box.png"))

	eval[bool](t, b, `(document.getElementById("keep").click(), true)`)
	waitFor("Keep", `/^kept as rule/.test(document.getElementById("msg").textContent)`)
	text, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Props of the test level.", "# the props are concave", "file: props/duck.glb", "method: box"} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("kept profile lacks %q:\n%s", want, text)
		}
	}
	if _, err := profiles.Load(profile); err != nil {
		t.Errorf("kept profile does not load: %v", err)
	}
	// The output stamps the options' hash, the whole profile's: a batch
	// run matches the asset last kept.
	sameAsBatch := func(rel string) {
		t.Helper()
		again := t.TempDir()
		if code, _, stderr := runCLI("generate", dir, "--out-dir", again, "--profile", profile, "-q"); code != 0 {
			t.Fatalf("generate with the kept profile: exit %d\n%s", code, stderr)
		}
		reviewed, err1 := os.ReadFile(filepath.Join(out, rel))
		batched, err2 := os.ReadFile(filepath.Join(again, rel))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(reviewed, batched) {
			t.Errorf("%s: generate with the kept profile wrote %d bytes unlike the reviewed %d", rel, len(batched), len(reviewed))
		}
	}
	sameAsBatch("props/duck.glb")

	// The crate: density, then motion, each applied and shown, then kept.
	eval[bool](t, b, `(document.querySelector('.card[data-rel="crate.glb"]').click(), true)`)
	bodies := func() string { return eval[string](t, b, `document.getElementById("bodies").textContent`) }
	waitFor("the crate's figures", `/^bodies: 1 dynamic, [0-9.e+]+ kg$/.test(document.getElementById("bodies").textContent)`)
	var kg0, kg1 float64
	if _, err := fmt.Sscanf(bodies(), "bodies: 1 dynamic, %g kg", &kg0); err != nil || kg0 <= 0 {
		t.Fatalf("crate figures %q: %v", bodies(), err)
	}
	old := bodies()
	eval[bool](t, b, `(document.getElementById("method").value = "box", document.getElementById("density").value = "250", document.getElementById("density").dispatchEvent(new Event("input")), document.getElementById("apply").click(), true)`)
	waitFor("density 250", `/^bodies: 1 dynamic, [0-9.e+]+ kg$/.test(document.getElementById("bodies").textContent) && document.getElementById("bodies").textContent !== `+fmt.Sprintf("%q", old)+` && /shown in|generated in/.test(document.getElementById("msg").textContent)`)
	if _, err := fmt.Sscanf(bodies(), "bodies: 1 dynamic, %g kg", &kg1); err != nil || math.Abs(kg1-kg0/4) > 1e-3*kg0 {
		t.Errorf("crate at 250 kg/m³: %q (%v), want a quarter of the default's %g kg", bodies(), err, kg0)
	}
	t.Logf("crate: %g kg at the profile's density, %g kg at 250 kg/m³", kg0, kg1)
	eval[bool](t, b, `(document.getElementById("motion").value = "kinematic", document.getElementById("apply").click(), true)`)
	waitFor("motion kinematic", `document.getElementById("bodies").textContent === "bodies: 1 kinematic" && /generated in/.test(document.getElementById("msg").textContent)`)
	eval[bool](t, b, `(document.getElementById("keep").click(), true)`)
	waitFor("Keep", `/^kept as rule .review: crate.glb/.test(document.getElementById("msg").textContent)`)
	if text, err = os.ReadFile(profile); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"file: crate.glb", "motion: kinematic", "mass: {density: 250}", "file: props/duck.glb"} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("kept profile lacks %q:\n%s", want, text)
		}
	}
	if _, err := profiles.Load(profile); err != nil {
		t.Errorf("kept profile does not load: %v", err)
	}
	sameAsBatch("crate.glb")
	for _, p := range b.consoleErrors(t) {
		t.Errorf("console: %s", p)
	}
}

// TestReviewUsage: review refuses a non-loopback address, a missing
// folder and an unknown profile as usage errors, before serving; the
// root help lists it.
func TestReviewUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"review", dir, "--listen", "0.0.0.0:0"}, "loopback"},
		{[]string{"review", filepath.Join(dir, "nope")}, "nope"},
		{[]string{"review", dir, "--profile", "no-such-preset"}, "no-such-preset"},
		{[]string{"review", dir}, "no .gltf or .glb"},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d naming %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
	if _, stdout, _ := runCLI("--help"); !strings.Contains(stdout, "review") {
		t.Error("--help does not list review")
	}
}
