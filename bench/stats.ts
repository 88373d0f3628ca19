/** The value at or below which `p` percent of `xs` fall (nearest rank); 0 for none. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
