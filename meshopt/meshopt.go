// Package meshopt decodes the EXT_meshopt_compression bitstream
// (vertex and index codecs, and the octahedral, quaternion and
// exponential filters) as its specification defines it.
package meshopt

import "errors"

// Decode decodes count elements of byteStride bytes each from src into
// dst (len(dst) must be count*byteStride). mode is "ATTRIBUTES",
// "TRIANGLES" or "INDICES"; filter is "NONE", "OCTAHEDRAL", "QUATERNION"
// or "EXPONENTIAL" (empty means "NONE").
func Decode(dst []byte, count, byteStride int, src []byte, mode, filter string) error {
	return errors.New("meshopt: decoder not written yet")
}
