import { useQuery } from "@tanstack/react-query";
import { Card, Segmented } from "antd";
import { useState } from "react";
import { TrafficChart } from "@/features/traffic/components/TrafficChart";
import { tunnelTrafficQuery } from "../tunnels.api";

/** The tunnel's daily traffic over the last 7 or 30 days. */
export function TunnelTrafficCard({ tunId }: { tunId: number }) {
  const [days, setDays] = useState(7);
  const { data } = useQuery(tunnelTrafficQuery(tunId, days));
  return (
    <Card
      title="流量趋势"
      extra={
        <Segmented
          value={days}
          onChange={(v) => setDays(Number(v))}
          options={[
            { value: 7, label: "近 7 天" },
            { value: 30, label: "近 30 天" },
          ]}
        />
      }
    >
      <TrafficChart days={data?.days ?? []} label={`隧道近 ${days} 天流量`} />
    </Card>
  );
}
