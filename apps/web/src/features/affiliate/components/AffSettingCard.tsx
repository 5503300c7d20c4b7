import type { AffSetting } from "@burrow/contract";
import { fenToYuan, yuanToFen } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, InputNumber } from "antd";
import { useEffect } from "react";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { fieldRules } from "@/lib/rules";
import { affKeys, affSettingQuery, updateAffSetting } from "../affiliate.api";

interface SettingForm {
  /** percent */
  rate: number;
  hold_days: number;
  /** yuan */
  min_withdraw: number;
}

const toForm = (s: AffSetting): SettingForm => ({
  rate: s.rate_bp / 100,
  hold_days: s.hold_days,
  min_withdraw: Number(fenToYuan(s.min_withdraw)),
});

/** The programme's settings (Manager): rebate rate, holding period, minimum withdrawal. Audited on the server. */
export function AffSettingCard() {
  const [form] = Form.useForm<SettingForm>();
  const queryClient = useQueryClient();
  const { data } = useQuery(affSettingQuery());
  const mutation = useMutation({ mutationFn: updateAffSetting, meta: { silentError: true } });
  useEffect(() => {
    if (data) form.setFieldsValue(toForm(data));
  }, [data, form]);
  const save = async (v: SettingForm) => {
    try {
      await mutation.mutateAsync({
        rate_bp: Math.round(v.rate * 100),
        hold_days: v.hold_days,
        min_withdraw: yuanToFen(v.min_withdraw),
      });
      feedback.success("返利设置已保存，对之后支付的订单生效");
      await queryClient.invalidateQueries({ queryKey: affKeys.setting() });
    } catch (error) {
      showFormError(form, error, { rate_bp: "rate" });
    }
  };
  return (
    <Card title="返利设置" size="small">
      <Form form={form} layout="inline" name="aff-setting" onFinish={save}>
        <Form.Item
          name="rate"
          label="返利比例（%）"
          rules={fieldRules("返利比例", { required: true, range: { min: 0, max: 50 } })}
        >
          <InputNumber min={0} max={50} precision={2} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item
          name="hold_days"
          label="结算期（天）"
          rules={fieldRules("结算期", { required: true, integer: true, range: { min: 0, max: 365 } })}
        >
          <InputNumber min={0} max={365} precision={0} style={{ width: 100 }} />
        </Form.Item>
        <Form.Item
          name="min_withdraw"
          label="最低提现（元）"
          rules={fieldRules("最低提现金额", { required: true, range: { min: 0.01 } })}
        >
          <InputNumber min={0.01} precision={2} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            保存设置
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
