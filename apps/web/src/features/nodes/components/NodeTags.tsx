import { NodeStatus, NodeStatusLabel, type TunnelProtocol } from "@burrow/contract";
import { Space, Tag } from "antd";

const statusColor: Record<number, string> = {
  [NodeStatus.Online]: "success",
  [NodeStatus.Offline]: "default",
  [NodeStatus.Exception]: "warning",
  [NodeStatus.OffShelf]: "error",
};

/** A node's status (SPEC §4) as a tag. */
export function NodeStatusTag({ status }: { status: number }) {
  return <Tag color={statusColor[status] ?? "default"}>{NodeStatusLabel[status] ?? `状态 ${status}`}</Tag>;
}

const protocolColor: Record<TunnelProtocol, string> = {
  tcp: "blue",
  udp: "cyan",
  http: "green",
  https: "purple",
  // secret tunnels (no public port or domain)
  stcp: "gold",
  xtcp: "orange",
  sudp: "magenta",
};

/** A tunnel protocol as a tag. */
export function ProtocolTag({ protocol }: { protocol: string }) {
  return <Tag color={protocolColor[protocol as TunnelProtocol] ?? "default"}>{protocol.toUpperCase()}</Tag>;
}

/** The protocols a node offers. */
export function ProtocolTags({ protocols }: { protocols: string[] }) {
  return (
    <Space size={[0, 4]} wrap>
      {protocols.map((p) => (
        <ProtocolTag key={p} protocol={p} />
      ))}
    </Space>
  );
}
