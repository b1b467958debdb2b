package draco

// Entropy-coded symbol arrays (spec "DecodeSymbols"): either tagged, where a
// rANS-coded bit length precedes each group of raw bits, or raw, where every
// value is one rANS symbol.

const (
	symbolCodingTagged = 0
	symbolCodingRaw    = 1
	maxRawSymbolBits   = 18
)

// decodeSymbols fills out (whose length is the number of values) with
// unsigned symbols, numComponents per tagged group.
func (d *decoder) decodeSymbols(r *reader, out []uint32, numComponents int) bool {
	if len(out) == 0 {
		return true
	}
	scheme := r.u8()
	if r.err != nil {
		return false
	}
	switch scheme {
	case symbolCodingTagged:
		return d.decodeTagged(r, out, numComponents)
	case symbolCodingRaw:
		bits := int(r.u8())
		if r.err != nil {
			return false
		}
		if bits < 1 || bits > maxRawSymbolBits {
			r.failf("raw symbol bit length %d outside 1..%d", bits, maxRawSymbolBits)
			return false
		}
		var sd symbolDecoder
		if !sd.create(r, ransPrecisionBits(bits), &d.lutScratch) {
			return false
		}
		if len(sd.probs) == 0 {
			r.failf("empty symbol table for %d values", len(out))
			return false
		}
		if !sd.start(r) {
			return false
		}
		for i := range out {
			out[i] = sd.symbol()
		}
		return true
	default:
		r.failf("unknown symbol coding %d", scheme)
		return false
	}
}

func (d *decoder) decodeTagged(r *reader, out []uint32, numComponents int) bool {
	if numComponents < 1 {
		numComponents = 1
	}
	var tags symbolDecoder
	if !tags.create(r, ransPrecisionBits(5), &d.lutScratch) {
		return false
	}
	if !tags.start(r) {
		return false
	}
	if len(tags.probs) == 0 {
		r.failf("empty tag table for %d values", len(out))
		return false
	}
	br, _ := r.startBits(false)
	for i := 0; i < len(out); i += numComponents {
		n := tags.symbol()
		if n > 32 {
			r.failf("tagged value of %d bits", n)
			return false
		}
		for j := 0; j < numComponents && i+j < len(out); j++ {
			out[i+j] = br.bits(n)
		}
	}
	r.endBits(br)
	return r.err == nil
}
