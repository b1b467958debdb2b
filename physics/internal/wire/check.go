package wire

// The checks and copies the encoders apply to each member they write:
// finite numbers, indices in range, and copies of slices so an encoded
// document shares nothing with its model.

import (
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
)

// Finite returns an error at path unless every value is a finite number.
func Finite(path string, vs ...float64) error {
	if !jsonx.Finite(vs...) {
		return physics.Errorf(path, "not a finite number")
	}
	return nil
}

// FinitePtr is Finite for an optional value.
func FinitePtr(path string, p *float64) error {
	if p == nil {
		return nil
	}
	return Finite(path, *p)
}

// FiniteArr is Finite for an optional vector, naming the bad component.
func FiniteArr[A [3]float64 | [4]float64](path string, p *A) error {
	if p == nil {
		return nil
	}
	a := *p
	for i := range len(a) {
		if err := Finite(fmt.Sprintf("%s[%d]", path, i), a[i]); err != nil {
			return err
		}
	}
	return nil
}

// Ref returns an error at path unless 0 ≤ i < n (n items of kind what).
func Ref(path string, i, n int, what string) error {
	if i < 0 || i >= n {
		return physics.Errorf(path, "index %d out of range (%d %s)", i, n, what)
	}
	return nil
}

// Strings returns a copy of s, or nil for nil (an absent member).
func Strings(s []string) *[]string {
	if s == nil {
		return nil
	}
	c := append([]string{}, s...)
	return &c
}

// Ints returns a copy of s, or nil for nil (an absent member).
func Ints(s []int) *[]int {
	if s == nil {
		return nil
	}
	c := append([]int{}, s...)
	return &c
}
