import { TunnelProtocols } from "@burrow/contract";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { NodeFilterField } from "@/features/nodes/components/NodeFilterField";

const protocolOptions = TunnelProtocols.map((p) => ({ value: p, label: p.toUpperCase() }));

/** The tunnel filters both tunnel lists share (name, node, protocol, status), inside their search form. */
export function TunnelFilterFields({
  nodes,
  statusOptions,
}: {
  nodes: { node_id: number; name: string }[] | undefined;
  statusOptions: { value: number; label: string }[];
}) {
  return (
    <>
      <TextFilter name="name" label="隧道名称" max={32} placeholder="支持部分名称" width={150} />
      <NodeFilterField nodes={nodes} />
      <SelectFilter name="protocol" label="协议" width={110} options={protocolOptions} />
      <SelectFilter name="status" label="状态" width={110} options={statusOptions} />
    </>
  );
}
