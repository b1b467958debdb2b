package meshopt

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalidArgument is wrapped by every error caused by the call itself
// (an unknown mode or filter, a stride the mode does not allow, a
// destination of the wrong length) rather than by the compressed bytes.
var ErrInvalidArgument = errors.New("invalid argument")

// ErrMalformed is wrapped by every error caused by the compressed bytes:
// a bad header, a truncated stream, bytes left over, a reference to a
// FIFO entry that was never written, a reserved value.
var ErrMalformed = errors.New("malformed stream")

// Limits of the glTF extension (EXT_meshopt_compression / KHR_meshopt_compression).
const (
	// maxAttributeStride is the largest byteStride the ATTRIBUTES mode allows.
	maxAttributeStride = 256
)

// Decode decodes count elements of byteStride bytes each from src into
// dst. len(dst) must be count*byteStride. mode is "ATTRIBUTES",
// "TRIANGLES" or "INDICES"; filter is "", "NONE", "OCTAHEDRAL",
// "QUATERNION", "EXPONENTIAL" or "COLOR" (empty means "NONE"; filters other
// than NONE are only allowed with ATTRIBUTES).
//
// The arguments are checked against the extension's rules (ATTRIBUTES:
// byteStride a multiple of 4 and at most 256; TRIANGLES: count a multiple
// of 3; TRIANGLES and INDICES: byteStride 2 or 4; OCTAHEDRAL and COLOR:
// byteStride 4 or 8; QUATERNION: byteStride 8). A bad argument gives an
// error wrapping ErrInvalidArgument; a stream that does not follow the
// bitstream specification gives an error wrapping ErrMalformed. Decode
// never panics and does not allocate. On error the contents of dst are
// unspecified.
func Decode(dst []byte, count, byteStride int, src []byte, mode, filter string) error {
	if err := checkArgs(len(dst), count, byteStride, mode, filter); err != nil {
		return fmt.Errorf("meshopt: %w", err)
	}
	var err error
	switch mode {
	case "ATTRIBUTES":
		err = decodeAttributes(dst, count, byteStride, src)
		if err == nil {
			applyFilter(dst, count, byteStride, filter)
		}
	case "TRIANGLES":
		err = decodeTriangles(dst, count, byteStride, src)
	case "INDICES":
		err = decodeIndices(dst, count, byteStride, src)
	}
	if err != nil {
		return fmt.Errorf("meshopt: %s: %w", mode, err)
	}
	return nil
}

// checkArgs validates the call against the extension's JSON rules.
func checkArgs(dstLen, count, stride int, mode, filter string) error {
	if count < 0 {
		return fmt.Errorf("%w: negative count %d", ErrInvalidArgument, count)
	}
	if stride <= 0 {
		return fmt.Errorf("%w: byteStride %d is not positive", ErrInvalidArgument, stride)
	}
	if count > math.MaxInt/stride || dstLen != count*stride {
		return fmt.Errorf("%w: destination has %d bytes, want count %d × byteStride %d", ErrInvalidArgument, dstLen, count, stride)
	}
	switch mode {
	case "ATTRIBUTES":
		if stride%4 != 0 || stride > maxAttributeStride {
			return fmt.Errorf("%w: ATTRIBUTES needs a byteStride that is a multiple of 4 and at most %d, got %d", ErrInvalidArgument, maxAttributeStride, stride)
		}
	case "TRIANGLES", "INDICES":
		if stride != 2 && stride != 4 {
			return fmt.Errorf("%w: %s needs byteStride 2 or 4, got %d", ErrInvalidArgument, mode, stride)
		}
		if mode == "TRIANGLES" && count%3 != 0 {
			return fmt.Errorf("%w: TRIANGLES needs a count divisible by 3, got %d", ErrInvalidArgument, count)
		}
		if filter != "" && filter != "NONE" {
			return fmt.Errorf("%w: filter %q is only allowed with ATTRIBUTES, not %s", ErrInvalidArgument, filter, mode)
		}
	default:
		return fmt.Errorf("%w: unknown mode %q", ErrInvalidArgument, mode)
	}
	switch filter {
	case "", "NONE", "EXPONENTIAL":
		// EXPONENTIAL needs a multiple of 4, which ATTRIBUTES already requires.
	case "OCTAHEDRAL", "COLOR":
		if stride != 4 && stride != 8 {
			return fmt.Errorf("%w: filter %s needs byteStride 4 or 8, got %d", ErrInvalidArgument, filter, stride)
		}
	case "QUATERNION":
		if stride != 8 {
			return fmt.Errorf("%w: filter QUATERNION needs byteStride 8, got %d", ErrInvalidArgument, stride)
		}
	default:
		return fmt.Errorf("%w: unknown filter %q", ErrInvalidArgument, filter)
	}
	return nil
}

// malformed builds an error wrapping ErrMalformed.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)
}

// MinEncodedSize returns the fewest bytes a valid stream of count
// elements of byteStride bytes can take in mode, or -1 for arguments
// Decode would refuse. A stream shorter than that cannot hold what it
// declares, so a caller can refuse it before allocating the count ×
// byteStride bytes of its output. For ATTRIBUTES the bound is the
// smaller of the two versions' minimums (every byte channel of every
// block stored as "all zero").
func MinEncodedSize(count, byteStride int, mode string) int {
	if checkArgs(0, 0, byteStride, mode, "") != nil || count < 0 {
		return -1
	}
	switch mode {
	case "TRIANGLES":
		return 1 + count/3 + codeauxSize
	case "INDICES":
		return 1 + count + sequenceTail
	}
	blockMax := min((attrBlockBytes/byteStride)&^(groupSize-1), attrBlockMax)
	blocks, rest := count/blockMax, count%blockMax
	headers := func(n int) int { return ((n+groupSize-1)/groupSize + 3) / 4 } // group header bytes of a block of n
	v0 := 1 + max(byteStride, tailMinV0) + byteStride*blocks*headers(blockMax)
	v1 := 1 + max(byteStride+byteStride/4, tailMinV1) + byteStride/4*blocks
	if rest > 0 {
		v0 += byteStride * headers(rest)
		v1 += byteStride / 4
	}
	return min(v0, v1)
}
