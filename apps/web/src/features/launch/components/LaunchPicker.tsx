import { useQuery } from "@tanstack/react-query";
import { Card, Select, Typography } from "antd";
import { useState } from "react";
import { ALL, userNodeListQuery } from "@/features/nodes/nodes.api";
import { LaunchCard } from "./LaunchCard";

/** The download page's 一键启动: the installers of a node the customer picks. */
export function LaunchPicker() {
  const { data } = useQuery(userNodeListQuery(ALL));
  const nodes = data?.list ?? [];
  const [picked, setPicked] = useState<number | null>(null);
  const nodeId = picked ?? nodes[0]?.node_id ?? null;
  const select = (
    <Select
      aria-label="一键启动的节点"
      style={{ minWidth: 200 }}
      value={nodeId ?? undefined}
      onChange={setPicked}
      options={nodes.map((n) => ({ value: n.node_id, label: n.name }))}
    />
  );
  if (nodeId === null)
    return (
      <Card title="一键启动">
        <Typography.Text type="secondary">暂无可用节点。</Typography.Text>
      </Card>
    );
  return <LaunchCard nodeId={nodeId} extra={select} />;
}
