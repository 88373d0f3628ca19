/**
 * The little linear algebra the Mahalanobis distance needs: the Cholesky factor of a covariance
 * matrix given as its lower triangle, and the squared distance through it.
 */

/** The lower Cholesky factor L of a symmetric positive definite matrix (lower triangle, row by row): A = L Lᵀ. Throws when A is not positive definite. */
export function cholesky(lower: readonly (readonly number[])[]): Float64Array[] {
  const p = lower.length;
  const l = Array.from({ length: p }, () => new Float64Array(p));
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = lower[i]![j]!;
      const li = l[i]!;
      const lj = l[j]!;
      for (let k = 0; k < j; k++) sum -= li[k]! * lj[k]!;
      if (i === j) {
        if (!(sum > 0)) throw new Error('the covariance matrix is not positive definite');
        li[i] = Math.sqrt(sum);
      } else li[j] = sum / lj[j]!;
    }
  }
  return l;
}

/** (x − mean)ᵀ A⁻¹ (x − mean) with A = L Lᵀ: the squared length of z solving L z = x − mean. */
export function squaredDistance(l: readonly Float64Array[], mean: readonly number[], x: readonly number[]): number {
  const p = mean.length;
  const z = new Float64Array(p);
  let d2 = 0;
  for (let i = 0; i < p; i++) {
    let sum = x[i]! - mean[i]!;
    const li = l[i]!;
    for (let k = 0; k < i; k++) sum -= li[k]! * z[k]!;
    z[i] = sum / li[i]!;
    d2 += z[i]! * z[i]!;
  }
  return d2;
}

/** Column means and the sample covariance (n − 1), lower triangle row by row, of rows of equal length. */
export function meanAndCovariance(rows: readonly (readonly number[])[]): { mean: number[]; covariance: number[][] } {
  const n = rows.length;
  const p = rows[0]?.length ?? 0;
  const mean = Array.from({ length: p }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0) / n);
  // Centred columns in typed arrays: p² / 2 dot products over n is the build's heaviest loop.
  const columns = Array.from({ length: p }, (_, j) => Float64Array.from(rows, (r) => r[j]! - mean[j]!));
  const covariance = Array.from({ length: p }, (_, i) =>
    Array.from({ length: i + 1 }, (_, j) => {
      const a = columns[i]!;
      const b = columns[j]!;
      let s = 0;
      for (let k = 0; k < n; k++) s += a[k]! * b[k]!;
      return s / (n - 1);
    }),
  );
  return { mean, covariance };
}

/** The full symmetric matrix's entry (i, j) from its lower triangle. */
export const entry = (lower: readonly (readonly number[])[], i: number, j: number): number => (i >= j ? lower[i]![j]! : lower[j]![i]!);
