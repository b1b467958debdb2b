package fit

import (
	"errors"
	"math"

	"github.com/autocollide/autocollide/geom"
)

// ErrBadAxis is returned by CapsuleAlong for a zero or non-finite axis.
var ErrBadAxis = errors.New("fit: capsule axis is zero or not finite")

// CapsuleAlong fits the shortest capsule whose axis is parallel to axis (a
// direction in the input frame, any length): the axis is given, not
// searched, as when a capsule must follow a bone. For that direction the
// fit is the one KindCapsule makes for its best axis (the axis line through
// the centre of the projected points' minimum enclosing circle, the exact
// shortest segment for each radius, the radius by golden-section search),
// re-measured on every point and inflated by the tolerance, so every point
// lies inside. Volume, Overshoot and MaxGap are filled as by Fit.
func (in *Input) CapsuleAlong(axis geom.Vec3, opt Options) (Shape, error) {
	if in == nil || len(in.support) == 0 {
		return Shape{}, errors.New("fit: Input not prepared (use Prepare)")
	}
	if !axis.IsFinite() || axis.Len() == 0 {
		return Shape{}, ErrBadAxis
	}
	q := geom.QuatFromMat3(axisFrame(axis.Normalize()))
	return in.measured(in.capsuleIn(q, q.Mat3(), opt.tolerance()*in.diag), opt), nil
}

// measured fills the fit-error fields of s (Volume, Overshoot, MaxGap)
// as (*Input).Fit does.
func (in *Input) measured(s Shape, opt Options) Shape {
	s.Volume = volume(s)
	s.Overshoot = math.Inf(1)
	if in.hullVol > 0 {
		s.Overshoot = s.Volume / in.hullVol
	}
	if n := opt.gapSamples(); n > 0 {
		s.MaxGap = in.maxGap(s, n)
	}
	return s
}
