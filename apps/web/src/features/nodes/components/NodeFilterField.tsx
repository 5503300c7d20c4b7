import { SelectFilter } from "@/components/SearchFields";

/** A search form's node filter (`node_id`), over the nodes the page has loaded. */
export function NodeFilterField({ nodes }: { nodes: { node_id: number; name: string }[] | undefined }) {
  return (
    <SelectFilter
      name="node_id"
      label="节点"
      width={150}
      options={nodes?.map((n) => ({ value: n.node_id, label: n.name }))}
    />
  );
}
