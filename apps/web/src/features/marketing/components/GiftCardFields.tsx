import type { AdminPlan } from "@burrow/contract";
import { Kind } from "@burrow/contract";
import { Form, Select } from "antd";
import { HalfCol } from "@/components/form/HalfCol";
import { NumberItem } from "@/components/form/NumberItem";
import { fieldRules } from "@/lib/rules";
import { ExpireDateItem } from "./ExpireDateItem";

/** The fields of a card's content and limits, for generating a batch and editing one card. */
export function GiftCardFields({ kind, plans }: { kind: number; plans: AdminPlan[] }) {
  return (
    <>
      {kind === Kind.Balance ? (
        <HalfCol>
          <NumberItem
            name="card_value"
            label="面值（元）"
            ruleLabel="面值"
            required
            min={0.01}
            max={10_000_000}
            precision={2}
          />
        </HalfCol>
      ) : (
        <>
          <HalfCol>
            <Form.Item name="plan_id" label="套餐" rules={fieldRules("套餐", { required: true, choice: true })}>
              <Select
                placeholder="请选择套餐"
                showSearch
                optionFilterProp="label"
                options={plans.map((p) => ({ value: p.id, label: p.name }))}
              />
            </Form.Item>
          </HalfCol>
          <HalfCol>
            <NumberItem name="cycle_number" label="月数" required min={1} max={120} precision={0} />
          </HalfCol>
        </>
      )}
      <HalfCol>
        <ExpireDateItem extra="当天 23:59:59 后不能再兑换" />
      </HalfCol>
      <HalfCol>
        <NumberItem
          name="one_user_limit"
          label="每人限兑（张）"
          ruleLabel="每人限兑"
          tooltip="同一批次每位用户最多兑换的张数，0 表示不限"
          required
          min={0}
          max={1000}
          precision={0}
        />
      </HalfCol>
    </>
  );
}
