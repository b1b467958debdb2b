// Command report-bench measures how fast a batch's HTML report opens in
// headless Chromium, and checks that opening it loads no model.
//
//	go build -o /tmp/ac ./cmd/autocollide
//	go run ./tools/report-bench -ac new=/tmp/ac,main=/tmp/ac-main -n 1000 -runs 5
//
// It copies n small corpus assets (cycling through -assets) into
// WORK/in, runs each binary's `generate WORK/in --out-dir WORK/out-NAME
// --report WORK/out-NAME/report.html -j 2 -q` once, then opens each
// report -runs times from disk (file://, as a user double-clicking it
// would), the binaries interleaved within each round, each time in a new
// tab with the browser's cache disabled. Per open it records the
// renderer's main-thread CPU time from navigation to the load event
// (Performance metrics in thread ticks: what the page costs, even on a
// loaded machine), the first contentful paint and the load event in
// wall time, and every request for a model (.glb, .gltf, .bin) the page
// made, which must be none. It prints each open and the medians.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

type binary struct{ name, path string }

// open is one measured opening of a report.
type open struct {
	cpu, fcp, load float64 // seconds
	models         []string
}

func main() {
	acs := flag.String("ac", "", "comma-separated NAME=PATH autocollide binaries to compare")
	n := flag.Int("n", 1000, "assets in the batch")
	runs := flag.Int("runs", 5, "opens of each report")
	work := flag.String("work", "", "work folder (default: a new temporary one, removed at the end)")
	shared := flag.String("shared", "../shared", "the shared folder (its corpus/ gives the assets)")
	assets := flag.String("assets", "Box/glTF-Binary/Box.glb,BoxInterleaved/glTF-Binary/BoxInterleaved.glb,BoxTextured/glTF-Binary/BoxTextured.glb,Duck/glTF-Binary/Duck.glb,NegativeScaleTest/glTF-Binary/NegativeScaleTest.glb,AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb,MultiUVTest/glTF-Binary/MultiUVTest.glb", "corpus assets to cycle through, relative to SHARED/corpus")
	chromium := flag.String("chromium", "chromium", "the Chromium binary")
	reuse := flag.Bool("reuse", false, "keep WORK's reports when present (do not run generate again)")
	pages := flag.String("pages", "", "comma-separated NAME=FILE reports to open as they are, instead of -ac")
	flag.Parse()
	if *pages != "" {
		bins, err := pairs("-pages", *pages)
		if err != nil {
			fail(err)
		}
		compare(bins, *chromium, *runs, func(b binary) string { return b.path })
		return
	}
	bins, err := pairs("-ac", *acs)
	if err != nil {
		fail(err)
	}
	if *work == "" {
		dir, err := os.MkdirTemp("", "report-bench-")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
		*work = dir
	}
	in := filepath.Join(*work, "in")
	if err := makeInputs(in, filepath.Join(*shared, "corpus"), strings.Split(*assets, ","), *n); err != nil {
		fail(err)
	}
	for _, b := range bins {
		page := reportOf(*work, b)
		if _, err := os.Stat(page); err == nil && *reuse {
			continue
		}
		out := filepath.Dir(page)
		os.RemoveAll(out)
		start := time.Now()
		cmd := exec.Command(b.path, "generate", in, "--out-dir", out, "--report", page, "-j", "2", "-q")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			fail(fmt.Errorf("%s generate: %w", b.name, err))
		}
		size, files := folderSize(out)
		st, _ := os.Stat(page)
		fmt.Printf("%s: generate %d assets in %.1f s; report %.2f MB; output folder %d files, %.1f MB\n",
			b.name, *n, time.Since(start).Seconds(), float64(st.Size())/1e6, files, float64(size)/1e6)
	}
	compare(bins, *chromium, *runs, func(b binary) string { return reportOf(*work, b) })
}

// pairs parses NAME=PATH[,NAME=PATH…].
func pairs(flagName, list string) ([]binary, error) {
	var bins []binary
	for _, s := range strings.Split(list, ",") {
		name, path, ok := strings.Cut(s, "=")
		if !ok || name == "" || path == "" {
			return nil, fmt.Errorf("%s %q: want NAME=PATH[,NAME=PATH…]", flagName, list)
		}
		bins = append(bins, binary{name, path})
	}
	return bins, nil
}

// compare opens each binary's page runs times, interleaved, and prints
// each open and the medians; it exits 1 when a page requested a model.
func compare(bins []binary, chromium string, runs int, page func(binary) string) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.WindowSize(1400, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Do(browser, chromedp.Navigate("about:blank")); err != nil {
		fail(err)
	}
	got := map[string][]open{}
	for r := range runs {
		for _, b := range bins {
			o, err := measure(browser, page(b))
			if err != nil {
				fail(fmt.Errorf("%s, run %d: %w", b.name, r+1, err))
			}
			fmt.Printf("run %d %-8s cpu %5.0f ms  first paint %5.0f ms  load %5.0f ms  models requested %d\n",
				r+1, b.name, o.cpu*1000, o.fcp*1000, o.load*1000, len(o.models))
			got[b.name] = append(got[b.name], o)
		}
	}
	fmt.Println("medians:")
	bad := false
	for _, b := range bins {
		var cpu, fcp, load []float64
		var models []string
		for _, o := range got[b.name] {
			cpu, fcp, load = append(cpu, o.cpu), append(fcp, o.fcp), append(load, o.load)
			models = append(models, o.models...)
		}
		fmt.Printf("%-8s cpu %5.0f ms  first paint %5.0f ms  load %5.0f ms  (%d runs)\n",
			b.name, median(cpu)*1000, median(fcp)*1000, median(load)*1000, len(cpu))
		if len(models) > 0 {
			bad = true
			fmt.Printf("%-8s requested models while opening: %q\n", b.name, models)
		}
	}
	if bad {
		os.Exit(1)
	}
}

func reportOf(work string, b binary) string {
	return filepath.Join(work, "out-"+b.name, "report.html")
}

// measure opens page in a new tab with the cache disabled.
func measure(browser context.Context, page string) (open, error) {
	var o open
	var mu sync.Mutex
	tab, cancel := chromedp.NewContext(browser, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			u := strings.ToLower(strings.SplitN(e.Request.URL, "?", 2)[0])
			for _, ext := range []string{".glb", ".gltf", ".bin"} {
				if strings.HasSuffix(u, ext) {
					mu.Lock()
					o.models = append(o.models, e.Request.URL)
					mu.Unlock()
				}
			}
		}
	}))
	defer cancel()
	ctx, stop := context.WithTimeout(tab, 2*time.Minute)
	defer stop()
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		return o, err
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return o, err
	}
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		return o, err
	}
	if _, err := chromedp.Call(ctx, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks}); err != nil {
		return o, err
	}
	taskTime := func() (float64, error) {
		m, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return 0, err
		}
		for _, x := range m.Metrics {
			if x.Name == "TaskDuration" {
				return x.Value, nil
			}
		}
		return 0, fmt.Errorf("no TaskDuration metric")
	}
	before, err := taskTime()
	if err != nil {
		return o, err
	}
	abs, err := filepath.Abs(page)
	if err != nil {
		return o, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	if err := chromedp.Do(ctx, chromedp.Navigate(u.String())); err != nil {
		return o, err
	}
	after, err := taskTime()
	if err != nil {
		return o, err
	}
	o.cpu = after - before
	t, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ FCP, Load float64 }](`({FCP: (performance.getEntriesByName("first-contentful-paint")[0] || {startTime: -1}).startTime,
	  Load: performance.getEntriesByType("navigation")[0].loadEventEnd})`))
	if err != nil {
		return o, err
	}
	o.fcp, o.load = t.FCP/1000, t.Load/1000
	// A model fetched just after the load event counts too.
	time.Sleep(500 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	o.models = append([]string(nil), o.models...)
	return o, nil
}

// makeInputs copies the corpus assets, cycling, into dir as
// a0000.glb, a0001.glb, …
func makeInputs(dir, corpus string, assets []string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var data [][]byte
	for _, a := range assets {
		b, err := os.ReadFile(filepath.Join(corpus, filepath.FromSlash(a)))
		if err != nil {
			return err
		}
		data = append(data, b)
	}
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("a%04d.glb", i))
		if err := os.WriteFile(p, data[i%len(data)], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func folderSize(dir string) (int64, int) {
	var size int64
	files := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
				files++
			}
		}
		return nil
	})
	return size, files
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "report-bench:", err)
	os.Exit(2)
}
