package geom

import (
	"errors"
	"math"
)

// flatness is how thin a transform may be for Rigid, relative to its
// size: its shortest axis at least flatness times its longest, and the
// |det| of its axes normalized (the volume of their unit box) at least
// flatness. Thinner, the axes are (within rounding) coplanar or one of
// them is zero, and no frame follows from them.
const flatness = 1e-12

// errNoFrame is Rigid's error: the transform has no rigid frame.
var errNoFrame = errors.New("transform has zero or non-finite scale")

// Rigid splits the affine transform m into its rigid frame, the
// translation t and the proper rotation q, and the scale s along the
// frame's axes that remains: m = TRS(t, q, s) when m's axes are
// orthogonal. Each axis of the frame is m's column normalized, the first
// one negated (and s[0] negative) when m mirrors. It fails when an axis
// is not finite, or when m is flat (flatness: 1e-12): an axis zero, or
// 1e-12 of the longest or less, or the axes coplanar.
func (m Mat4) Rigid() (t Vec3, q Quat, s Vec3, err error) {
	lin := m.Linear()
	var axes [3]Vec3
	for j := range 3 {
		axes[j] = lin.Col(j)
		if !axes[j].IsFinite() {
			return Vec3{}, Quat{}, Vec3{}, errNoFrame
		}
		s[j] = axes[j].Len()
	}
	det := lin.Det()
	shortest, longest := math.Min(s[0], math.Min(s[1], s[2])), math.Max(s[0], math.Max(s[1], s[2]))
	if !(shortest > flatness*longest) || !(math.Abs(det) > flatness*s[0]*s[1]*s[2]) || math.IsInf(longest, 0) {
		return Vec3{}, Quat{}, Vec3{}, errNoFrame
	}
	for j := range 3 {
		axes[j] = axes[j].Scale(1 / s[j])
	}
	if det < 0 {
		s[0], axes[0] = -s[0], axes[0].Scale(-1)
	}
	return m.Translation(), QuatFromMat3(FromCols(axes[0], axes[1], axes[2])), s, nil
}

// nearTolerance is how far IsIdentity and ScaleOnly let an entry be from
// the identity's or a diagonal's: rounding, not a transform.
const nearTolerance = 1e-9

// IsIdentity reports every entry of m within 1e-9 of the identity's.
func (m Mat4) IsIdentity() bool {
	id := Identity4()
	for i := range 4 {
		for j := range 4 {
			if math.Abs(m[i][j]-id[i][j]) > nearTolerance {
				return false
			}
		}
	}
	return true
}

// ScaleOnly returns m's diagonal when m is a scale: every entry off the
// diagonal within 1e-9 of zero, relative to its row's diagonal entry.
func (m Mat4) ScaleOnly() (Vec3, bool) {
	for i := range 4 {
		for j := range 4 {
			if i != j && math.Abs(m[i][j]) > nearTolerance*math.Abs(m[i][i]) {
				return Vec3{}, false
			}
		}
	}
	return Vec3{m[0][0], m[1][1], m[2][2]}, true
}
