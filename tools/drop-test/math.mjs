// Small vector, quaternion and 4×4 matrix helpers for the drop test.
// Matrices are column-major arrays of 16 numbers, as glTF writes them;
// quaternions are [x, y, z, w].

export function mat4Identity() {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}

export function mat4Mul(a, b) {
  const m = new Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      m[c * 4 + r] = s;
    }
  }
  return m;
}

// mat4FromTRS builds T·R·S.
export function mat4FromTRS(t, q, s) {
  const r = quatToMat3(q);
  return [
    r[0] * s[0], r[1] * s[0], r[2] * s[0], 0,
    r[3] * s[1], r[4] * s[1], r[5] * s[1], 0,
    r[6] * s[2], r[7] * s[2], r[8] * s[2], 0,
    t[0], t[1], t[2], 1,
  ];
}

export function mat4Point(m, p) {
  return [
    m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
    m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
    m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
  ];
}

// mat4InverseRT inverts a rotation + translation matrix (no scale).
export function mat4InverseRT(m) {
  const r = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]];
  const t = [m[12], m[13], m[14]];
  // Rᵀ in column-major: column c of Rᵀ is row c of R.
  const rt = [r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8]];
  const ti = [
    -(rt[0] * t[0] + rt[3] * t[1] + rt[6] * t[2]),
    -(rt[1] * t[0] + rt[4] * t[1] + rt[7] * t[2]),
    -(rt[2] * t[0] + rt[5] * t[1] + rt[8] * t[2]),
  ];
  return [rt[0], rt[1], rt[2], 0, rt[3], rt[4], rt[5], 0, rt[6], rt[7], rt[8], 0, ti[0], ti[1], ti[2], 1];
}

// decompose splits an affine matrix into translation, rotation and
// (positive) scale; the scale takes the sign of a reflection away so the
// rotation is proper. shear reports how far the columns are from
// orthogonal (0 for T·R·S matrices).
export function decompose(m) {
  const cols = [0, 4, 8].map((o) => [m[o], m[o + 1], m[o + 2]]);
  const s = cols.map(len);
  let det = dot(cross(cols[0], cols[1]), cols[2]);
  const sign = det < 0 ? -1 : 1;
  const axes = cols.map((c, i) => scale(c, (i === 0 ? sign : 1) / (s[i] || 1)));
  const shear = Math.max(Math.abs(dot(axes[0], axes[1])), Math.abs(dot(axes[0], axes[2])), Math.abs(dot(axes[1], axes[2])));
  const q = mat3ToQuat([...axes[0], ...axes[1], ...axes[2]]);
  // signed: the scale with the reflection kept on x, so m = T·R·diag(signed).
  return { t: [m[12], m[13], m[14]], q, s, signed: [sign * s[0], s[1], s[2]], shear };
}

export function quatToMat3(q) {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y),
  ];
}

// mat3ToQuat converts a column-major rotation matrix.
export function mat3ToQuat(r) {
  const m00 = r[0], m10 = r[1], m20 = r[2], m01 = r[3], m11 = r[4], m21 = r[5], m02 = r[6], m12 = r[7], m22 = r[8];
  const tr = m00 + m11 + m22;
  let q;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s];
  }
  return quatNormalize(q);
}

export function quatNormalize(q) {
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return q.map((v) => v / l);
}

export function quatMul(a, b) {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

export function quatRotate(q, v) {
  const r = quatToMat3(q);
  return [
    r[0] * v[0] + r[3] * v[1] + r[6] * v[2],
    r[1] * v[0] + r[4] * v[1] + r[7] * v[2],
    r[2] * v[0] + r[5] * v[1] + r[8] * v[2],
  ];
}

export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const len = (a) => Math.hypot(a[0], a[1], a[2]);
