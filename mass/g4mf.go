package mass

import "github.com/autocollide/autocollide/geom"

// G4MF (a separate N-dimensional format, specs/G4MF/spec/transform.md and
// spec/physics/motion.md) stores rotations as rotors and rotational
// quantities as bivectors, with components in dimensionally-increasing
// order: a 3D bivector is [xy, xz, yz] and a 3D rotor [scalar, xy, xz, yz].
// The transform spec notes that a quaternion (x, y, z, w) means
// [yz, zx, xy, scalar] and that xz = −zx; G4MF rotors rotate a vector v as
// R̃·v·R (godot-4d's Rotor4D::rotate_vector), which makes the xy part equal
// to +z of the quaternion. Hence, in 3D:
//
//	bivector of a vector (x, y, z)          = [z, −y, x]
//	inertia of principal moments (dx,dy,dz) = [dz, dy, dx]   (moments are not signed)
//	rotor of a quaternion (x, y, z, w)      = [w, z, −y, x]
//
// The tests rebuild the inertia tensor from the bivector diagonal and the
// rotor with geometric-algebra products and compare it with R·diag·Rᵀ.

// G4MFInertiaDiagonal maps principal moments (about x, y, z) to the G4MF
// inertia bivector [XY, XZ, YZ] = [dz, dy, dx].
func G4MFInertiaDiagonal(d [3]float64) [3]float64 { return [3]float64{d[2], d[1], d[0]} }

// InertiaDiagonalFromG4MF is the inverse of G4MFInertiaDiagonal.
func InertiaDiagonalFromG4MF(b [3]float64) [3]float64 { return [3]float64{b[2], b[1], b[0]} }

// G4MFAngularVelocity maps an angular velocity vector (ωx, ωy, ωz) to the
// G4MF bivector [ωz, −ωy, ωx].
func G4MFAngularVelocity(w geom.Vec3) [3]float64 { return [3]float64{w[2], -w[1], w[0]} }

// AngularVelocityFromG4MF is the inverse of G4MFAngularVelocity.
func AngularVelocityFromG4MF(b [3]float64) geom.Vec3 { return geom.Vec3{b[2], -b[1], b[0]} }

// G4MFRotor maps a unit quaternion (x, y, z, w) to the G4MF rotor
// [w, z, −y, x] of the same rotation.
func G4MFRotor(q geom.Quat) [4]float64 { return [4]float64{q[3], q[2], -q[1], q[0]} }

// QuatFromG4MFRotor is the inverse of G4MFRotor.
func QuatFromG4MFRotor(r [4]float64) geom.Quat { return geom.Quat{r[3], -r[2], r[1], r[0]} }
