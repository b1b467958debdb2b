package draco

// The two range asymmetric numeral system (rANS) decoders of the Draco
// bitstream: a binary one with an 8-bit probability (spec "RAnsBitDecoder")
// and a multi-symbol one with a decoded probability table (spec
// "RAnsSymbolDecoder"). Both read their bytes backwards from the end of
// their data block.

const (
	ransBitLBase = 4096
	ransIOBase   = 256
)

// bitDecoder is the rANS binary decoder.
type bitDecoder struct {
	buf   []byte
	off   int
	state uint32
	p     uint32 // probability of a one, out of 256 (8-bit, 0 when p0 is 0)
}

// start reads the zero probability and the data block.
func (d *bitDecoder) start(r *reader) bool {
	p0 := r.u8()
	size := r.uvar32()
	if r.err != nil {
		return false
	}
	if uint64(size) > uint64(r.remaining()) {
		r.failf("rANS bit block of %d bytes, %d left", size, r.remaining())
		return false
	}
	data := r.bytes(int(size))
	// The reference stores 256-p0 in a byte, so p0 = 0 means "always zero".
	d.p = uint32(uint8(256 - int(p0)))
	st, off, ok := ransInitState(data, false)
	if !ok {
		r.failf("bad rANS bit block header")
		return false
	}
	st += ransBitLBase
	if st >= ransBitLBase*ransIOBase {
		r.failf("rANS bit state out of range")
		return false
	}
	d.buf, d.off, d.state = data, off, st
	return true
}

// ransInitState decodes the state stored at the end of a rANS block: the top
// two bits of the last byte say how many bytes (1 to 3, or 4 if allowed) hold it.
func ransInitState(data []byte, allow4 bool) (uint32, int, bool) {
	n := len(data)
	if n < 1 {
		return 0, 0, false
	}
	switch data[n-1] >> 6 {
	case 0:
		return uint32(data[n-1] & 0x3f), n - 1, true
	case 1:
		if n < 2 {
			return 0, 0, false
		}
		return (uint32(data[n-2]) | uint32(data[n-1])<<8) & 0x3fff, n - 2, true
	case 2:
		if n < 3 {
			return 0, 0, false
		}
		return (uint32(data[n-3]) | uint32(data[n-2])<<8 | uint32(data[n-1])<<16) & 0x3fffff, n - 3, true
	default:
		if !allow4 || n < 4 {
			return 0, 0, false
		}
		return (uint32(data[n-4]) | uint32(data[n-3])<<8 | uint32(data[n-2])<<16 | uint32(data[n-1])<<24) & 0x3fffffff, n - 4, true
	}
}

// bit decodes one bit (rABS with descending spread).
func (d *bitDecoder) bit() bool {
	if d.state < ransBitLBase && d.off > 0 {
		d.off--
		d.state = d.state*ransIOBase + uint32(d.buf[d.off])
	}
	x := d.state
	quot, rem := x/256, x%256
	xn := quot * d.p
	if rem < d.p {
		d.state = xn + rem
		return true
	}
	d.state = x - xn - d.p
	return false
}

// symbolDecoder is the multi-symbol rANS decoder.
type symbolDecoder struct {
	precBits uint
	lBase    uint32
	probs    []uint32
	cum      []uint32
	lut      []uint32
	buf      []byte
	off      int
	state    uint32
}

// ransPrecisionBits is the precision the encoder picks for symbols of the
// given bit length: 1.5 times the length, clamped to 12..20.
func ransPrecisionBits(symbolBits int) uint {
	p := 3 * symbolBits / 2
	if p < 12 {
		p = 12
	}
	if p > 20 {
		p = 20
	}
	return uint(p)
}

// create reads the probability table. scratch lends a lookup table buffer.
func (d *symbolDecoder) create(r *reader, precBits uint, scratch *[]uint32) bool {
	d.precBits = precBits
	prec := uint32(1) << precBits
	d.lBase = prec * 4
	n := r.uvar32()
	if r.err != nil {
		return false
	}
	if uint64(n)/64 > uint64(r.remaining()) {
		r.failf("%d symbols declared, the probability table cannot fit in %d bytes", n, r.remaining())
		return false
	}
	d.probs = make([]uint32, n)
	for i := uint32(0); i < n; i++ {
		b := r.u8()
		if r.err != nil {
			return false
		}
		if b&3 == 3 {
			run := uint32(b >> 2)
			if uint64(i)+uint64(run) >= uint64(n) {
				r.failf("probability table zero run past symbol %d of %d", i+run, n)
				return false
			}
			i += run // the run's entries stay zero
			continue
		}
		p := uint32(b >> 2)
		for k := 0; k < int(b&3); k++ {
			p |= uint32(r.u8()) << (8*(k+1) - 2)
		}
		d.probs[i] = p
	}
	if r.err != nil {
		return false
	}
	if n == 0 {
		return true
	}
	d.cum = make([]uint32, n)
	if cap(*scratch) < int(prec) {
		*scratch = make([]uint32, prec)
	}
	d.lut = (*scratch)[:prec]
	var cum uint64
	for i, p := range d.probs {
		d.cum[i] = uint32(cum)
		end := cum + uint64(p)
		if end > uint64(prec) {
			r.failf("symbol probabilities exceed the rANS precision %d", prec)
			return false
		}
		for j := cum; j < end; j++ {
			d.lut[j] = uint32(i)
		}
		cum = end
	}
	if cum != uint64(prec) {
		r.failf("symbol probabilities sum to %d, not the rANS precision %d", cum, prec)
		return false
	}
	return true
}

// start reads the encoded byte block.
func (d *symbolDecoder) start(r *reader) bool {
	size := r.uvar64()
	if r.err != nil {
		return false
	}
	if size > uint64(r.remaining()) {
		r.failf("rANS symbol block of %d bytes, %d left", size, r.remaining())
		return false
	}
	data := r.bytes(int(size))
	st, off, ok := ransInitState(data, true)
	if !ok {
		r.failf("bad rANS symbol block header")
		return false
	}
	st += d.lBase
	if uint64(st) >= uint64(d.lBase)*ransIOBase {
		r.failf("rANS symbol state out of range")
		return false
	}
	d.buf, d.off, d.state = data, off, st
	return true
}

func (d *symbolDecoder) symbol() uint32 {
	for d.state < d.lBase && d.off > 0 {
		d.off--
		d.state = d.state*ransIOBase + uint32(d.buf[d.off])
	}
	quo := d.state >> d.precBits
	rem := d.state & (1<<d.precBits - 1)
	s := d.lut[rem]
	d.state = quo*d.probs[s] + rem - d.cum[s]
	return s
}
