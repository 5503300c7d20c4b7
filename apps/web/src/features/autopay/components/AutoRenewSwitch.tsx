import type { SubscriptionView } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Switch } from "antd";
import { feedback } from "@/lib/feedback";
import { autopayKeys, autopayQuery, setAutoRenew } from "../autopay.api";

/** 自动续费 on one of the customer's paid plans: renewed from the balance a day before its end. */
export function AutoRenewSwitch({ row }: { row: SubscriptionView }) {
  const qc = useQueryClient();
  const { data } = useQuery(autopayQuery());
  const on = data?.renewals.includes(row.id) ?? false;
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => setAutoRenew({ subscription_id: row.id, enabled }),
    onSuccess: (state, enabled) => {
      qc.setQueryData(autopayKeys.all, state);
      feedback.success(enabled ? "已开启自动续费：到期前一天从余额续费" : "已关闭自动续费");
    },
  });
  return (
    <Switch
      size="small"
      checked={on}
      loading={toggle.isPending || !data}
      onChange={(v) => toggle.mutate(v)}
      aria-label={`自动续费 ${row.plan_name}`}
    />
  );
}
