package main

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/autocollide/autocollide/preview"
)

// reviewThumbs holds the grid's pictures: each asset's drawn once per
// version of its output, when the page first asks for it, so that neither
// the first pass over the folder nor an Apply waits for pictures.
type reviewThumbs struct {
	// slots bounds the pictures drawn at once.
	slots chan struct{}
	// done is the PNG of each asset's output at a version.
	done map[int]thumb
}

type thumb struct {
	version int
	png     []byte
}

// thumbURL is the address of the picture of the asset at rel at version.
func thumbURL(rel string, version int) string {
	return "thumb/" + escapePath(rel) + "?v=" + strconv.Itoa(version)
}

// thumbnail serves the picture of the listed asset rel (its path under
// DIR; only a listed asset's output is read, never a path built from the
// request): half the size of generate's preview, drawn from the output on
// disk, as the HTML report's are.
func (s *reviewServer) thumbnail(w http.ResponseWriter, r *http.Request, escaped string) {
	rel, err := url.PathUnescape(escaped)
	i, ok := s.byRel[rel]
	if err != nil || !ok {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	a := s.assets[i]
	t, drawn := s.thumbs.done[i]
	s.mu.Unlock()
	if a.Model == "" {
		http.NotFound(w, r)
		return
	}
	if !drawn || t.version != a.Version {
		s.thumbs.slots <- struct{}{}
		img, _, err := preview.RenderFile(s.jobs[i].Output, preview.Options{})
		var data []byte
		if err == nil {
			data, err = preview.EncodePNG(preview.Shrink(img, 2))
		}
		<-s.thumbs.slots
		if err != nil {
			http.Error(w, "preview: "+err.Error(), http.StatusInternalServerError)
			return
		}
		t = thumb{version: a.Version, png: data}
		s.mu.Lock()
		if old, ok := s.thumbs.done[i]; !ok || old.version <= t.version {
			s.thumbs.done[i] = t
		}
		s.mu.Unlock()
	}
	w.Header().Set("Content-Type", "image/png")
	// The address names the version: a new output gets a new one.
	w.Header().Set("Cache-Control", "private, max-age=86400, immutable")
	w.Write(t.png)
}
