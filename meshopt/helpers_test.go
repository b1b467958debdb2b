package meshopt

import (
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// runNode runs tools/meshopt/<script> with req as JSON on stdin and decodes
// the JSON answer into resp.
func runNode(t testing.TB, script string, req, resp any) {
	t.Helper()
	testassets.RunNode(t, "meshoptimizer", filepath.Join("meshopt", script), req, resp)
}

// stream is one compressed buffer with the parameters needed to decode it.
type stream struct {
	Name       string `json:"name,omitempty"`
	Mode       string `json:"mode"`
	Filter     string `json:"filter,omitempty"`
	Count      int    `json:"count"`
	ByteStride int    `json:"byteStride"`
	Src        []byte `json:"src"` // base64 in JSON
}

// decodeResult is decode.mjs's answer for one stream.
type decodeResult struct {
	Out   []byte `json:"out"`
	Error string `json:"error"`
}

// npmDecode decodes the streams with the npm reference decoder.
func npmDecode(t testing.TB, streams []stream) []decodeResult {
	t.Helper()
	var res []decodeResult
	runNode(t, "decode.mjs", streams, &res)
	if len(res) != len(streams) {
		t.Fatalf("decode.mjs answered %d results for %d streams", len(res), len(streams))
	}
	return res
}

// encodeRequest is one input of encode.mjs.
type encodeRequest struct {
	Mode           string        `json:"mode"`
	Count          int           `json:"count"`
	ByteStride     int           `json:"byteStride"`
	Data           []byte        `json:"data"`
	Filter         *filterParams `json:"filter,omitempty"`
	Version        *int          `json:"version,omitempty"`
	Level          *int          `json:"level,omitempty"`
	DefaultEncoder bool          `json:"defaultEncoder,omitempty"`
	// Not sent: how the decoder must be called and what to call the case.
	name, decodeFilter string
}

type filterParams struct {
	Kind    string `json:"kind"`
	Bits    int    `json:"bits"`
	ExpMode string `json:"expMode,omitempty"`
}

type encodeResult struct {
	Src   []byte `json:"src"`
	Raw   []byte `json:"raw"`
	Error string `json:"error"`
}

// npmEncode encodes the requests with the npm encoder and returns the
// streams (with the raw bytes that were compressed, for lossless checks).
func npmEncode(t testing.TB, reqs []encodeRequest) ([]stream, [][]byte) {
	t.Helper()
	var res []encodeResult
	runNode(t, "encode.mjs", reqs, &res)
	if len(res) != len(reqs) {
		t.Fatalf("encode.mjs answered %d results for %d requests", len(res), len(reqs))
	}
	streams := make([]stream, len(reqs))
	raws := make([][]byte, len(reqs))
	for i, r := range res {
		if r.Error != "" {
			t.Fatalf("encode %s: %s", reqs[i].name, r.Error)
		}
		streams[i] = stream{Name: reqs[i].name, Mode: reqs[i].Mode, Filter: reqs[i].decodeFilter,
			Count: reqs[i].Count, ByteStride: reqs[i].ByteStride, Src: r.Src}
		raws[i] = r.Raw
	}
	return streams, raws
}

func intp(v int) *int { return &v }
