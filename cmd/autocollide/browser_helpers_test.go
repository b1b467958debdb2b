package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/chromedp/chromedp"
)

// browser is a headless Chromium tab whose console errors and uncaught
// exceptions are collected.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

// newBrowser starts headless Chromium (skipping the test without it,
// failing it under AUTOCOLLIDE_REQUIRE_TOOLS=1) with a tab of w×h.
func newBrowser(t *testing.T, w, h int, timeout time.Duration) *browser {
	t.Helper()
	chromium := testassets.Chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.WindowSize(w, h), chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancel(); cancelTab(); cancelAlloc() })
	b := &browser{ctx: ctx}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				where := m.URL
				if len(where) > 80 {
					where = where[:80] + "…"
				}
				b.mu.Lock()
				b.problems = append(b.problems, m.String()+" at "+where+":"+strconv.FormatInt(m.Line+1, 10))
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// consoleErrors returns the console errors so far, once every message
// the page wrote before the call has been seen.
func (b *browser) consoleErrors(t *testing.T) []string {
	t.Helper()
	// A round trip through the page orders its earlier messages first.
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`1`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// eval runs a script expression (awaiting a promise) and decodes its
// JSON value.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", excerpt(expr), err)
	}
	return v
}

func excerpt(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// decodeDataURL decodes a PNG data: URL.
func decodeDataURL(t *testing.T, u string) image.Image {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(u, "data:image/png;base64,"))
	if err != nil {
		t.Fatalf("canvas data URL: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("canvas PNG: %v", err)
	}
	return img
}

// hsvOf is a pixel's hue (degrees), saturation and value.
func hsvOf(r, g, b float64) (h, s, v float64) {
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	v = mx
	if mx <= 0 {
		return 0, 0, 0
	}
	s = (mx - mn) / mx
	d := mx - mn
	switch {
	case d == 0:
		h = 0
	case mx == r:
		h = 60 * math.Mod((g-b)/d, 6)
	case mx == g:
		h = 60 * ((b-r)/d + 2)
	default:
		h = 60 * ((r-g)/d + 4)
	}
	if h < 0 {
		h += 360
	}
	return h, s, v
}

func hueDistance(a, b float64) float64 {
	d := math.Abs(a - b)
	return math.Min(d, 360-d)
}

// rect is a screen rectangle in CSS pixels.
type rect struct {
	X0 float64 `json:"x0"`
	Y0 float64 `json:"y0"`
	X1 float64 `json:"x1"`
	Y1 float64 `json:"y1"`
}

func (r rect) holds(x, y int, margin float64) bool {
	fx, fy := float64(x)+0.5, float64(y)+0.5
	return fx >= r.X0-margin && fx <= r.X1+margin && fy >= r.Y0-margin && fy <= r.Y1+margin
}

// writePNG saves a picture for a person to look at.
func writePNG(file string, img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}

// waitUntil polls the page until the JavaScript condition cond holds,
// failing the test after 90 s with what it waited for.
func waitUntil(t *testing.T, b *browser, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !eval[bool](t, b, cond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %s never held", what, cond)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
