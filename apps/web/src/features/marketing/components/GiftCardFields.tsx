import type { AdminPlan } from "@burrow/contract";
import { Kind } from "@burrow/contract";
import { Col, DatePicker, Form, InputNumber, Select } from "antd";
import { fieldRules } from "@/lib/rules";
import { beforeToday } from "../forms";

/** The fields of a card's content and limits, for generating a batch and editing one card. */
export function GiftCardFields({ kind, plans }: { kind: number; plans: AdminPlan[] }) {
  return (
    <>
      {kind === Kind.Balance ? (
        <Col xs={24} md={12}>
          <Form.Item
            name="card_value"
            label="面值（元）"
            rules={fieldRules("面值", { required: true, range: { min: 0.01, max: 10_000_000 } })}
          >
            <InputNumber min={0.01} max={10_000_000} precision={2} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
      ) : (
        <>
          <Col xs={24} md={12}>
            <Form.Item name="plan_id" label="套餐" rules={fieldRules("套餐", { required: true, choice: true })}>
              <Select
                placeholder="请选择套餐"
                showSearch
                optionFilterProp="label"
                options={plans.map((p) => ({ value: p.id, label: p.name }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="cycle_number"
              label="月数"
              rules={fieldRules("月数", { required: true, integer: true, range: { min: 1, max: 120 } })}
            >
              <InputNumber min={1} max={120} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
        </>
      )}
      <Col xs={24} md={12}>
        <Form.Item
          name="expire_date"
          label="过期日期"
          extra="当天 23:59:59 后不能再兑换"
          rules={fieldRules("过期日期", { required: true, choice: true })}
        >
          <DatePicker disabledDate={beforeToday} style={{ width: "100%" }} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="one_user_limit"
          label="每人限兑（张）"
          tooltip="同一批次每位用户最多兑换的张数，0 表示不限"
          rules={fieldRules("每人限兑", { required: true, integer: true, range: { min: 0, max: 1000 } })}
        >
          <InputNumber min={0} max={1000} precision={0} style={{ width: "100%" }} />
        </Form.Item>
      </Col>
    </>
  );
}
