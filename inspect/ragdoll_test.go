package inspect

import (
	"math"
	"testing"
)

// TestLimitText: joint limits read as swing and twist in degrees, "±"
// only when symmetric, with the definition's name first.
func TestLimitText(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	d := math.Pi / 180
	for _, c := range []struct {
		j    Joint
		want string
	}{
		{Joint{DefName: "elbow", Limits: []Limit{{LinearAxes: []int{0, 1, 2}, Min: f(0), Max: f(0)}, {AngularAxes: []int{0, 2}, Min: f(-75 * d), Max: f(75 * d)}, {AngularAxes: []int{1}, Min: f(-30 * d), Max: f(30 * d)}}},
			"elbow: pinned, swing ±75°, twist ±30°"},
		{Joint{Limits: []Limit{{AngularAxes: []int{0}, Min: f(-10 * d), Max: f(10 * d)}, {AngularAxes: []int{2}, Min: f(-20 * d), Max: f(20 * d)}, {AngularAxes: []int{1}, Min: f(-90 * d), Max: f(0)}}},
			"swing1 ±10°, swing2 ±20°, twist -90°..0°"},
		{Joint{Limits: []Limit{{LinearAxes: []int{1}, Min: f(-0.5), Max: f(0.5)}, {AngularAxes: []int{0, 1}, Max: f(d)}}},
			"linear axes [1] -0.5..0.5 m, angular axes [0 1] free..1°"},
		{Joint{DefName: "free"}, "free: no limits"},
	} {
		if got := LimitText(c.j); got != c.want {
			t.Errorf("LimitText = %q, want %q", got, c.want)
		}
	}
}
