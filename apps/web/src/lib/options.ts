/** Select/Radio options from a contract label map (number → 标签), in the map's order. */
export const labelOptions = (labels: Record<number, string>): { value: number; label: string }[] =>
  Object.entries(labels).map(([value, label]) => ({ value: Number(value), label }));

/** Select/Radio options of a contract's list of values (string enums), each labelled from its label map, in the list's order. */
export const valueOptions = <V extends string | number>(
  values: readonly V[],
  labels: Record<V, string>,
): { value: V; label: string }[] => values.map((value) => ({ value, label: labels[value] }));
