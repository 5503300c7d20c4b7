/** Select/Radio options from a contract label map (number → 标签), in the map's order. */
export const labelOptions = (labels: Record<number, string>): { value: number; label: string }[] =>
  Object.entries(labels).map(([value, label]) => ({ value: Number(value), label }));
