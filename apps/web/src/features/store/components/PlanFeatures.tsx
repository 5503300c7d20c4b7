import { OrderType, type StorePlan } from "@burrow/contract";
import { Descriptions, type DescriptionsProps } from "antd";
import { bandwidthText } from "../pricing";

export interface PlanFeaturesProps {
  plan: Pick<StorePlan, "type" | "traffic" | "bandwidth" | "tunnel_limit" | "tunnel_peer_port_limit" | "level_name">;
  column?: DescriptionsProps["column"];
}

/** What a plan gives: traffic, bandwidth and tunnel limits (a traffic pack only adds traffic). */
export function PlanFeatures({ plan, column = 1 }: PlanFeaturesProps) {
  const items: DescriptionsProps["items"] = [{ key: "traffic", label: "流量", children: `${plan.traffic} GB/月` }];
  if (plan.type !== OrderType.TrafficPack) {
    items.push(
      { key: "bandwidth", label: "带宽", children: bandwidthText(plan.bandwidth) },
      { key: "tunnels", label: "隧道数", children: `${plan.tunnel_limit} 个` },
      { key: "ports", label: "单隧道端口", children: `${plan.tunnel_peer_port_limit} 个` },
      { key: "level", label: "节点等级", children: plan.level_name ?? "-" },
    );
  }
  return <Descriptions size="small" column={column} className="plan-features" items={items} />;
}
