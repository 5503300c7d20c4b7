import {
  DEFAULT_TOPUP_THRESHOLD,
  fenToYuan,
  MAX_TOPUP_MONTHLY_CAP,
  type PlanPeriod,
  PlanPeriodLabel,
  yuanToFen,
} from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, InputNumber, Select, Space, Switch, Tag, Typography } from "antd";
import { useEffect } from "react";
import { feedback } from "@/lib/feedback";
import { autopayKeys, autopayQuery, saveTopupRule, trafficPacksQuery } from "../autopay.api";

interface RuleForm {
  enabled: boolean;
  plan_id?: number;
  period?: PlanPeriod;
  threshold: number;
  /** yuan */
  cap?: number;
}

/**
 * 自动购买流量包: when less than the threshold of traffic is left, buy the chosen pack from the
 * balance, at most once per crossing and never beyond the monthly cap.
 */
export function TopupRuleCard() {
  const qc = useQueryClient();
  const [form] = Form.useForm<RuleForm>();
  const { data: state } = useQuery(autopayQuery());
  const { data: packs = [] } = useQuery(trafficPacksQuery());
  const planId = Form.useWatch("plan_id", form);
  const pack = packs.find((p) => p.id === planId);

  useEffect(() => {
    const r = state?.topup;
    form.setFieldsValue(
      r
        ? {
            enabled: r.enabled,
            plan_id: r.plan_id,
            period: r.period,
            threshold: r.threshold,
            cap: Number(fenToYuan(r.monthly_cap)),
          }
        : { enabled: true, threshold: DEFAULT_TOPUP_THRESHOLD },
    );
  }, [state?.topup, form]);

  const save = useMutation({
    mutationFn: (v: RuleForm) =>
      saveTopupRule({
        enabled: v.enabled,
        plan_id: v.plan_id ?? 0,
        period: v.period ?? "monthly",
        threshold: v.threshold,
        monthly_cap: yuanToFen(v.cap ?? 0),
      }),
    onSuccess: (next) => {
      qc.setQueryData(autopayKeys.all, next);
      // A rule saved while traffic is already low buys at once: the plans and orders changed.
      void qc.invalidateQueries({ queryKey: ["subscriptions"] });
      void qc.invalidateQueries({ queryKey: ["orders"] });
      feedback.success("自动购买规则已保存");
    },
  });

  return (
    <Card
      title="自动购买流量包"
      extra={
        state ? (
          <Typography.Text type="secondary" aria-label="本月自动购买">
            本月（{state.month}）已自动购买 {fenToYuan(state.spent_this_month)} 元
          </Typography.Text>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary">
        剩余流量（套餐与流量包合计）低于阈值时，从余额购买所选流量包；每次跌破阈值最多购买一次，且本月合计不超过每月上限。购买会生成订单并通知您。
      </Typography.Paragraph>
      <Form form={form} layout="inline" onFinish={(v) => save.mutate(v)} aria-label="自动购买流量包规则">
        <Form.Item name="enabled" label="启用" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="plan_id" label="流量包" rules={[{ required: true, message: "请选择流量包" }]}>
          <Select
            style={{ minWidth: 180 }}
            placeholder="选择在售流量包"
            options={packs.map((p) => ({ value: p.id, label: p.name }))}
            onChange={() => form.setFieldValue("period", undefined)}
          />
        </Form.Item>
        <Form.Item name="period" label="周期" rules={[{ required: true, message: "请选择购买周期" }]}>
          <Select
            style={{ minWidth: 150 }}
            placeholder="选择周期"
            options={(pack?.periods ?? []).map((p) => ({
              value: p.period,
              label: `${PlanPeriodLabel[p.period]} ${fenToYuan(p.price)} 元`,
            }))}
          />
        </Form.Item>
        <Form.Item name="threshold" label="剩余低于（%）" rules={[{ required: true, message: "请输入阈值" }]}>
          <InputNumber min={1} max={50} precision={0} />
        </Form.Item>
        <Form.Item name="cap" label="每月上限（元）" rules={[{ required: true, message: "请输入每月上限" }]}>
          <InputNumber min={0.01} max={MAX_TOPUP_MONTHLY_CAP / 100} precision={2} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              保存规则
            </Button>
            {state?.topup?.below ? <Tag color="orange">当前低于阈值</Tag> : null}
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
