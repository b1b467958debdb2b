package mass

import (
	"fmt"
	"slices"
	"strings"
)

// materials returns a fresh map (no shared mutable state) from a
// lower-case material name to a typical density in kg/m³.
// Values are typical engineering figures at room temperature (Engineering
// ToolBox "Densities of Solids"/"Wood Densities", CRC Handbook of Chemistry
// and Physics, MatWeb); real materials vary by the range given in each
// comment, so a profile needing precision should give a density.
func materials() map[string]float64 {
	return map[string]float64{
		// Woods (air-dry, ~12 % moisture).
		"wood":  700, // generic hardwood/softwood mix; woods span 400–900
		"pine":  510, // Scots/yellow pine 450–560 (white pine lighter, ~400)
		"oak":   750, // red oak 660–750, white oak 750–770
		"balsa": 160, // 100–200
		"cork":  240, // 220–260
		// Plastics and rubbers.
		"plastic":      1200, // generic moulded plastic; ABS 1040, PMMA 1180, PVC 1380
		"abs":          1050, // 1040–1060
		"polyethylene": 950,  // HDPE 940–970 (LDPE 910–930)
		"nylon":        1150, // PA6/PA66 1130–1150
		"pvc":          1380, // rigid PVC 1350–1450
		"rubber":       1100, // vulcanised rubber 1100–1200; natural raw rubber ~930
		"foam":         30,   // expanded polystyrene 15–35
		// Minerals and ceramics.
		"glass":    2500, // soda-lime glass 2440–2520
		"concrete": 2400, // normal-weight reinforced concrete; plain ~2300
		"brick":    1900, // common clay brick 1600–2000
		"granite":  2700, // 2600–2800
		"marble":   2700, // 2560–2800
		"stone":    2600, // generic building stone
		"ice":      917,  // at 0 °C
		"water":    1000, // 998 at 20 °C, 1000 at 4 °C
		// Metals.
		"aluminium": 2700,  // pure 2699; alloys 2640–2810
		"aluminum":  2700,  // US spelling of aluminium
		"titanium":  4500,  // pure 4506; Ti-6Al-4V 4430
		"iron":      7870,  // pure iron; cast iron 6800–7800
		"steel":     7850,  // carbon steel 7850; stainless 7750–8050
		"brass":     8500,  // 8400–8730
		"copper":    8960,  // pure copper
		"lead":      11340, // pure lead
		"gold":      19300, // pure gold
	}
}

// Density returns the density in kg/m³ of a named material. The lookup
// ignores case and surrounding spaces; an unknown name gives an error that
// lists the valid ones.
func Density(material string) (float64, error) {
	key := strings.ToLower(strings.TrimSpace(material))
	if d, ok := materials()[key]; ok {
		return d, nil
	}
	return 0, fmt.Errorf("mass: unknown material %q (valid: %s)", material, strings.Join(Materials(), ", "))
}

// Materials returns the names of the known materials, sorted.
func Materials() []string {
	names := make([]string, 0, 32)
	for n := range materials() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
