// Package geom provides the small linear-algebra vocabulary shared by the
// geometry packages of autocollide: 3-vectors, 3×3 matrices, affine 4×4
// transforms, unit quaternions and axis-aligned boxes, all in float64.
//
// The types are plain values with no hidden state; the functions are exact
// transcriptions of the textbook formulas. Conventions follow glTF: matrices
// are applied to column vectors (p' = M·p), 4×4 matrices are stored
// column-major in glTF files and row-major here (M[row][col]), quaternions
// are (x, y, z, w) with w the scalar part.
package geom
