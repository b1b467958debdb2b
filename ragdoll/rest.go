package ragdoll

// RestOverlaps returns, for each body of rd, the other bodies (ascending)
// whose solids overlap its own at rest, leaving out the jointed pairs
// (a body and its parent), which their joint keeps from colliding:
// solids[i] is body i's collider placed in world space (RoundSolid,
// PointSolid).
func (rd *Ragdoll) RestOverlaps(solids []Solid) [][]int {
	n := len(rd.Bodies)
	out := make([][]int, n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if rd.Bodies[i].Parent == j || rd.Bodies[j].Parent == i || !solids[i].Overlaps(solids[j]) {
				continue
			}
			out[i] = append(out[i], j)
			out[j] = append(out[j], i)
		}
	}
	return out
}
