package preview

// Palette is the part of the previews' palette that is not in the kinds
// table: triggers, ragdoll joints and the hues of a decomposition's hulls
// (the k-th convex collider of a body with several is drawn in HSV colour
// (HueStart + k·HueStep mod 1, HueSaturation, HueValue)). Other views of
// colliders (the report's 3D viewer) use it to look the same.
type Palette struct {
	Trigger, Joint                             [3]float32
	HueStart, HueStep, HueSaturation, HueValue float64
}

// Colors returns the previews' palette.
func Colors() Palette {
	return Palette{Trigger: triggerColor, Joint: jointColor,
		HueStart: hueStart, HueStep: hueStep, HueSaturation: hueSaturation, HueValue: hueValue}
}
