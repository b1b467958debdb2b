package conformance

import "fmt"

// boxGeometry adds a box shape that contains MeshCube.
func boxGeometry(b *builder) geometry {
	return implicit(b.shape("box", map[string]any{"size": []float64{0.6, 0.6, 0.6}}))
}

func filters() []*Case {
	var out []*Case
	for _, fam := range []Family{OMI, KHR} {
		for _, mode := range []string{"collideWithSystems", "notCollideWithSystems"} {
			b := newBuilder(fam)
			// "A node A will collide with node B if A.collisionSystem ⊆
			// B.collideWithSystems && A.collisionSystem ⊄
			// B.notCollideWithSystems".
			b.filters = []any{
				map[string]any{"collisionSystems": []string{"player"}, mode: []string{"debris", "pickups"}},
				map[string]any{"collisionSystems": []string{"debris"}},
			}
			g := boxGeometry(b)
			for i, name := range []string{"Player", "Debris"} {
				g.filter = i
				body(b, name, Dynamic, g, -1, float64(i), 1, 0)
			}
			// A trigger with a filter: "The trigger also contains an
			// optional collisionFilter parameter".
			zone := b.node("PickupZone", -1, 3, 1, 0)
			b.trigger(zone, geometry{shape: b.shape("sphere", map[string]any{"radius": 1.0}), node: -1, filter: 0})
			c := newCase(fmt.Sprintf("%s-filter-%s", fam, mode), fam, "filter", b)
			fp := bodiesDocPath(fam) + ".collisionFilters[0]"
			c.broken("both-filter-lists", fp, "only one of these must be specified per object; If both are specified, the collision filter is invalid",
				func(d map[string]any) {
					other := "notCollideWithSystems"
					if mode == other {
						other = "collideWithSystems"
					}
					at(d, fp)[other] = []any{"world"}
				})
			out = append(out, c)
		}
	}
	return out
}

// combineModes are the friction and restitution combine policies.
var combineModes = []string{"average", "minimum", "maximum", "multiply"}

func materials() []*Case {
	var out []*Case
	for _, fam := range []Family{OMI, KHR} {
		b := newBuilder(fam)
		for i, mode := range combineModes {
			b.materials = append(b.materials, map[string]any{
				"staticFriction": 0.2 * float64(i+1), "dynamicFriction": 0.15 * float64(i+1), "restitution": 0.25 * float64(i),
				"frictionCombine": mode, "restitutionCombine": combineModes[(i+1)%4],
			})
		}
		// Every member absent: the defaults (0.6, 0.6, 0).
		b.materials = append(b.materials, map[string]any{})
		g := boxGeometry(b)
		for i := range b.materials {
			mo := Static
			if i == 0 {
				mo = Dynamic
			}
			body(b, fmt.Sprintf("Slab%d", i), mo, g, i, float64(i), 1, 0)
		}
		c := newCase(string(fam)+"-material-combine", fam, "material", b)
		mp := bodiesDocPath(fam) + ".physicsMaterials[0]"
		c.broken("negative-friction", mp+".staticFriction", "staticFriction has minimum 0",
			func(d map[string]any) { at(d, mp)["staticFriction"] = -0.5 })
		out = append(out, c)
	}
	return out
}

// motionCase is one motion of the suite: its members, and whether the
// body is kinematic.
type motionCase struct {
	name      string
	kinematic bool
	members   map[string]any
}

var full = map[string]any{
	"mass": 2.0, "centerOfMass": []float64{0, 0.05, 0}, "inertiaDiagonal": []float64{0.1, 0.2, 0.3},
	"inertiaOrientation": []float64{0, 0.38268343, 0, 0.92387953},
	"linearVelocity":     []float64{1, 0, 0}, "angularVelocity": []float64{0, 1, 0}, "gravityFactor": 0.5,
}

// motionCases per family. KHR: "If not provided, the mass and inertia
// properties should be calculated by the simulation engine"; "a value of
// zero in mass or any of the components of inertiaDiagonal should be
// understood to represent a value of infinity". OMI: mass "If not
// specified, the default value is 1 kilogram"; inertia "If zero or not
// specified, the inertia should be automatically calculated".
func motionCases(fam Family) []motionCase {
	cs := []motionCase{
		{"mass-absent", false, map[string]any{}},
		{"inertia-zero", false, map[string]any{"mass": 2.0, "inertiaDiagonal": []float64{0, 0, 0}}},
		{"inertia-absent", false, map[string]any{"mass": 2.0}},
		{"full", false, full},
		{"gravity-zero", false, map[string]any{"mass": 1.0, "gravityFactor": 0.0}},
		{"kinematic-velocity", true, map[string]any{"linearVelocity": []float64{0, 0, 1}, "angularVelocity": []float64{0, 0.5, 0}}},
	}
	if fam == KHR {
		cs = append(cs,
			motionCase{"mass-zero", false, map[string]any{"mass": 0.0}},
			motionCase{"inertia-partly-zero", false, map[string]any{"mass": 2.0, "inertiaDiagonal": []float64{0, 0.1, 0.1}}})
	}
	return cs
}

func motions() []*Case {
	var out []*Case
	for _, fam := range []Family{OMI, KHR} {
		for _, mc := range motionCases(fam) {
			b := newBuilder(fam)
			n := b.node("Body", -1, 0, 1, 0)
			b.nodes[n]["mesh"] = MeshCube
			kind := Dynamic
			if mc.kinematic {
				kind = Kinematic
			}
			b.motion(n, kind, mc.members)
			b.collider(b.node("Body.collider", n), boxGeometry(b), -1)
			c := newCase(fmt.Sprintf("%s-motion-%s", fam, mc.name), fam, "motion", b)
			c.Motion = kind
			mp := bodyPath(fam, n) + ".motion"
			if mc.name == "full" {
				c.broken("negative-mass", mp+".mass", "mass is a mass (KHR: zero is infinite, below it is invalid)",
					func(d map[string]any) { at(d, mp)["mass"] = -2.0 })
				c.broken("negative-inertia", mp+".inertiaDiagonal", "principal moments of inertia are not negative",
					func(d map[string]any) { arr(at(d, mp)["inertiaDiagonal"])[1] = -0.2 })
			}
			out = append(out, c)
		}
	}
	return out
}

// required: "because it is optional, it does not need to be added to the
// extensionsRequired array" (OMI) — need not, yet a file's author may.
func required() []*Case {
	var out []*Case
	for _, v := range []struct {
		fam  Family
		name string
		exts []string
	}{
		{KHR, "shapes", []string{extKHRShapes}},
		{KHR, "all", []string{extKHRShapes, extKHRBodies}},
		{OMI, "all", []string{extOMIBody, extOMIShape}},
	} {
		b := newBuilder(v.fam)
		body(b, "Body", Dynamic, boxGeometry(b), -1, 0, 1, 0)
		b.extRequire = v.exts
		c := newCase(fmt.Sprintf("%s-required-%s", v.fam, v.name), v.fam, "required", b)
		c.Shape, c.Motion = "box", Dynamic
		out = append(out, c)
	}
	return out
}

// triggers: a simple trigger (a shape of its own) and a compound trigger
// ("an array of glTF nodes which make up a compound trigger ... The nodes
// in this array must be descendent nodes which must have trigger
// properties"), on a static node and on a kinematic body.
func triggers() []*Case {
	var out []*Case
	for _, fam := range []Family{OMI, KHR} {
		b := newBuilder(fam)
		zone := b.node("Zone", -1, 0, 1, 0)
		b.trigger(zone, implicit(b.shape("sphere", map[string]any{"radius": 1.0})))
		gate := b.node("Gate", -1, 3, 1, 0)
		b.motion(gate, Kinematic, nil)
		parts := []int{b.node("Gate.left", gate, -1, 0, 0), b.node("Gate.right", gate, 1, 0, 0)}
		box := implicit(b.shape("box", map[string]any{"size": []float64{0.5, 2, 0.5}}))
		for _, p := range parts {
			b.trigger(p, box)
		}
		b.compound(gate, parts...)
		c := newCase(string(fam)+"-trigger-simple-and-compound", fam, "trigger", b)
		tp := bodyPath(fam, gate) + ".trigger.nodes"
		c.broken("compound-not-descendant", tp, "The nodes in this array must be descendent nodes",
			func(d map[string]any) {
				at(d, bodyPath(fam, gate)+".trigger")["nodes"] = []any{float64(parts[0]), float64(zone)}
			})
		out = append(out, c)
	}
	return out
}

// legacy: the archived OMI_collider, whose capsule height is "the total
// height from bottom to top" (at least twice the radius); a shorter one
// is a sphere. Each file has a loose mesh root for generate.
func legacy() []*Case {
	var out []*Case
	for _, v := range []struct {
		name           string
		height, radius float64
	}{{"capsule", 2, 0.5}, {"capsule-shorter-than-diameter", 0.8, 0.5}} {
		b := newBuilder(Legacy)
		b.shapes = append(b.shapes, map[string]any{"type": "capsule", "height": v.height, "radius": v.radius})
		n := b.node("Collider", -1, 0, 1, 0)
		b.ext(n, extOMILegacy)["collider"] = 0
		loose := b.node("Loose", -1, 3, 1, 0)
		b.nodes[loose]["mesh"] = MeshCube
		c := newCase("omi-legacy-"+v.name, Legacy, "legacy", b)
		c.Loose = loose
		out = append(out, c)
	}
	return out
}

// resources: files whose resources test the writers: an embedded buffer,
// a missing image (a resource geometry does not need), and per family a
// loose mesh beside authored physics (generate's input).
func resources() []*Case {
	var out []*Case
	for _, fam := range []Family{OMI, KHR} {
		b := newBuilder(fam)
		body(b, "Body", Dynamic, boxGeometry(b), -1, 0, 1, 0)
		loose := b.node("Loose", -1, 3, 1, 0)
		b.nodes[loose]["mesh"] = MeshCube
		c := newCase(string(fam)+"-generate-beside-authored", fam, "generate", b)
		c.Loose = loose
		out = append(out, c)
	}
	b := newBuilder(OMI)
	body(b, "Body", Dynamic, boxGeometry(b), -1, 0, 1, 0)
	c := newCase("omi-resources-embedded-buffer", OMI, "resources", b)
	c.Embedded = true
	out = append(out, c)

	b = newBuilder(KHR)
	body(b, "Body", Dynamic, boxGeometry(b), -1, 0, 1, 0)
	b.extra["images"] = []any{map[string]any{"uri": "missing.png"}}
	b.extra["textures"] = []any{map[string]any{"source": 0}}
	b.extra["materials"] = []any{map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorTexture": map[string]any{"index": 0}}}}
	c = newCase("khr-resources-missing-image", KHR, "resources", b)
	c.MissingImage = "missing.png"
	out = append(out, c)
	return out
}
