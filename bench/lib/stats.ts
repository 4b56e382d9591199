/** Small statistics helpers (medians of passes, percentiles of samples). */
export function median(values: readonly (number | null | undefined)[]): number | null {
  const v = values.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
}

export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  return typeof a === 'number' && typeof b === 'number' && b !== 0 ? a / b : null;
}

export const round = (x: number | null | undefined, digits = 2): number | null =>
  typeof x === 'number' && Number.isFinite(x) ? Number(x.toFixed(digits)) : null;

/** `items` starting at position `pass` (wrapping): pass by pass, each server goes first in turn. */
export const rotation = <T>(items: readonly T[], pass: number): T[] => items.map((_, i) => items[(i + pass) % items.length]);
