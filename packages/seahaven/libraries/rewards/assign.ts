/**
 * One-to-one assignment of expected rows to actual changes: the Hungarian method (Kuhn–Munkres), O(n²·m) for n
 * expectations and m candidate changes. Exact, so the grade never depends on the order changes happened to arrive in;
 * ties resolve to the lowest indices, so the same input always gives the same assignment.
 */

/**
 * Maximise the total value of a matching. `value[i][j]` is the worth of pairing row i with column j, or `null` when
 * they may not pair. Returns, for each row, its column or -1.
 * @example
 * maxAssignment([[3, 2], [2, null]]) // [1, 0]: 2 + 2 beats 3 alone
 */
export function maxAssignment(value: readonly (readonly (number | null)[])[]): number[] {
  const n = value.length;
  if (n === 0) return [];
  const cols = value[0].length;
  // Padding with one dummy column per row lets every row stay unassigned, and keeps n <= m as the method needs.
  const m = cols + n;
  const cost = (i: number, j: number): number => {
    if (j >= cols) return 0;
    const v = value[i][j];
    return v === null ? 0 : -v;
  };
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1);
  const way = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(m + 1).fill(Infinity);
    const used = new Uint8Array(m + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  const out = new Array<number>(n).fill(-1);
  for (let j = 1; j <= cols; j++) {
    const i = p[j] - 1;
    if (i >= 0 && value[i][j - 1] !== null) out[i] = j - 1;
  }
  return out;
}
