import { type AdminPlan, fenToYuan, OrderType, PlanPeriodLabel, PlanPeriods } from "@burrow/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Col, Form, Input, InputNumber, Radio, Row, Select, Switch, Typography } from "antd";
import { FormModal } from "@/components/FormModal";
import { SortField } from "@/components/SortField";
import { PLAN_KIND_OPTIONS } from "@/components/StoreTags";
import { ALL, levelListQuery } from "@/features/nodes/nodes.api";

import { fieldRules } from "@/lib/rules";
import { discountText } from "../../store/pricing";
import {
  discountField,
  emptyPlanForm,
  feeField,
  formToPlanBody,
  type PlanFormValues,
  planPatch,
  planToForm,
  previewPrice,
} from "../plan-form";
import { createPlan, plansKeys, updatePlan } from "../plans.api";

export interface PlanFormModalProps {
  open: boolean;
  /** the plan being edited; undefined: a new plan */
  plan?: AdminPlan;
  onClose: () => void;
}

const intField = (label: string, max: number, required = true) =>
  fieldRules(label, { required, integer: true, range: { min: 0, max } });

/** "实付 ¥8.50（8.5折）" under a period's price, as the operator types. */
function PeriodPreview({ period }: { period: (typeof PlanPeriods)[number] }) {
  const form = Form.useFormInstance<PlanFormValues>();
  const fee = Form.useWatch(feeField(period), form);
  const discount = Form.useWatch(discountField(period), form);
  const price = previewPrice(fee, discount);
  if (price === null) return <Typography.Text type="secondary">不销售</Typography.Text>;
  const off = discountText(discount ?? 1);
  return (
    <Typography.Text type="secondary">
      实付 ¥{fenToYuan(price)}
      {off ? `（${off}）` : ""}
    </Typography.Text>
  );
}

/** Create or edit a plan: every SPEC §3 field, prices typed in yuan and sent in fen. */
export function PlanFormModal({ open, plan, onClose }: PlanFormModalProps) {
  const queryClient = useQueryClient();
  const { data: levels } = useQuery({ ...levelListQuery(ALL), enabled: open });

  const submit = async (values: PlanFormValues) => {
    if (plan) await updatePlan(planPatch(plan, values));
    else await createPlan(formToPlanBody(values));
    await queryClient.invalidateQueries({ queryKey: plansKeys.all });
  };

  return (
    <FormModal<PlanFormValues>
      open={open}
      title={plan ? `编辑套餐 · ${plan.name}` : "新建套餐"}
      initialValues={plan ? planToForm(plan) : emptyPlanForm}
      onSubmit={submit}
      onClose={onClose}
      successText={plan ? "套餐已保存" : "套餐已创建"}
      width={820}
    >
      {(form) => (
        <>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="name"
                label="套餐名称"
                rules={fieldRules("套餐名称", { required: true, length: { max: 32 } })}
              >
                <Input maxLength={32} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="tag" label="标签" rules={fieldRules("标签", { length: { max: 16 } })}>
                <Input maxLength={16} placeholder="如：热销、推荐" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="type" label="类型" rules={fieldRules("类型", { required: true, choice: true })}>
                <Radio.Group
                  options={PLAN_KIND_OPTIONS}
                  onChange={(e) => {
                    if (e.target.value === OrderType.TrafficPack) form.setFieldValue("is_default", false);
                  }}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="level_id"
                label="商店等级"
                rules={fieldRules("商店等级", { required: true, choice: true })}
              >
                <Select
                  placeholder="请选择商店等级"
                  options={(levels?.list ?? []).map((l) => ({ value: l.id, label: `${l.name}（等级 ${l.level}）` }))}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="traffic" label="流量（GB/月）" rules={intField("流量", 1_000_000)}>
                <InputNumber min={0} max={1_000_000} precision={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="bandwidth" label="带宽（Mbps）" tooltip="0 表示不限速" rules={intField("带宽", 100_000)}>
                <InputNumber min={0} max={100_000} precision={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="tunnel_limit" label="隧道数" rules={intField("隧道数", 100_000)}>
                <InputNumber min={0} max={100_000} precision={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="tunnel_peer_port_limit" label="单隧道端口数" rules={intField("单隧道端口数", 100_000)}>
                <InputNumber min={0} max={100_000} precision={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={18}>
              <Form.Item name="simple_desc" label="简介" rules={fieldRules("简介", { length: { max: 200 } })}>
                <Input.TextArea rows={2} maxLength={200} showCount />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <SortField min={-100_000} max={100_000} tooltip="越小越靠前" />
            </Col>
          </Row>
          <Typography.Title level={5}>价格</Typography.Title>
          <Typography.Paragraph type="secondary">
            价格留空表示该周期不销售；折扣为价格乘数，0.85 即八五折，1 为不打折。
          </Typography.Paragraph>
          {PlanPeriods.map((period) => (
            <Row gutter={16} key={period} align="middle">
              <Col xs={24} md={9}>
                <Form.Item
                  name={feeField(period)}
                  label={`${PlanPeriodLabel[period]}价格（元）`}
                  rules={fieldRules(`${PlanPeriodLabel[period]}价格`, { range: { min: 0, max: 10_000_000 } })}
                >
                  <InputNumber min={0} max={10_000_000} precision={2} placeholder="不销售" style={{ width: "100%" }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={7}>
                <Form.Item
                  name={discountField(period)}
                  label={`${PlanPeriodLabel[period]}折扣`}
                  rules={fieldRules(`${PlanPeriodLabel[period]}折扣`, { required: true, range: { min: 0.01, max: 1 } })}
                >
                  <InputNumber min={0.01} max={1} step={0.05} style={{ width: "100%" }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <PeriodPreview period={period} />
              </Col>
            </Row>
          ))}
          <Row gutter={16}>
            <Col xs={12}>
              <Form.Item name="on_sale" label="上架销售" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={12}>
              <Form.Item noStyle shouldUpdate={(a: PlanFormValues, b: PlanFormValues) => a.type !== b.type}>
                {() => (
                  <Form.Item
                    name="is_default"
                    label="新用户默认套餐"
                    valuePropName="checked"
                    tooltip="新用户注册即获得此套餐；只能有一个默认套餐"
                  >
                    <Switch disabled={form.getFieldValue("type") !== OrderType.Plan || Boolean(plan?.is_default)} />
                  </Form.Item>
                )}
              </Form.Item>
            </Col>
          </Row>
        </>
      )}
    </FormModal>
  );
}
