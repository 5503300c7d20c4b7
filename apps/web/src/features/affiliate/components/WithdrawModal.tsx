import type { AffSummary, WithdrawMethod } from "@burrow/contract";
import { fenToYuan, WithdrawMethodLabel, WithdrawMethods, yuanToFen } from "@burrow/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Form, InputNumber, Radio } from "antd";
import { Link } from "react-router";
import { FormModal } from "@/components/FormModal";
import { TextItem } from "@/components/form/TextItem";
import { fieldRules } from "@/lib/rules";
import { affKeys, requestWithdrawal } from "../affiliate.api";

interface WithdrawForm {
  method: WithdrawMethod;
  /** yuan */
  amount: number;
  account?: string;
  account_name?: string;
  bank_name?: string;
}

/**
 * The customer's withdrawal request: to the balance (credited at once) or to an Alipay account or
 * bank card (paid out by an operator; one at a time). Amount in yuan, between the minimum and what
 * is available.
 */
export function WithdrawModal({ open, onClose, summary }: { open: boolean; onClose: () => void; summary: AffSummary }) {
  const queryClient = useQueryClient();
  const min = summary.setting.min_withdraw;
  const max = Math.max(0, summary.available);
  const submit = async (v: WithdrawForm) => {
    const external = v.method !== "balance";
    await requestWithdrawal({
      method: v.method,
      amount: yuanToFen(v.amount),
      ...(external && { account: v.account, account_name: v.account_name }),
      ...(v.method === "bank" && { bank_name: v.bank_name }),
    });
    await queryClient.invalidateQueries({ queryKey: affKeys.all });
  };
  return (
    <FormModal<WithdrawForm>
      open={open}
      title="申请提现"
      okText="提交"
      onSubmit={submit}
      onClose={onClose}
      successText="提现申请已提交"
      initialValues={{ method: "balance" }}
    >
      {(form) => (
        <>
          <Form.Item name="method" label="提现方式" rules={fieldRules("提现方式", { required: true, choice: true })}>
            <Radio.Group
              optionType="button"
              options={WithdrawMethods.map((m) => ({
                value: m,
                label: WithdrawMethodLabel[m],
                disabled: m !== "balance" && summary.external_processing,
              }))}
            />
          </Form.Item>
          {summary.external_processing ? (
            <Alert type="info" showIcon message="已有一笔提现到支付宝或银行卡的申请在处理中，处理完成后才能再申请" />
          ) : null}
          <Form.Item
            name="amount"
            label={`提现金额（元，可提现 ${fenToYuan(max)} 元，最低 ${fenToYuan(min)} 元）`}
            rules={fieldRules("提现金额", { required: true, range: { min: min / 100, max: max / 100 } })}
          >
            <InputNumber min={0.01} precision={2} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item noStyle shouldUpdate={(a, b) => a.method !== b.method}>
            {() => {
              const method = form.getFieldValue("method") as WithdrawMethod;
              if (method === "balance") return null;
              return (
                <>
                  {summary.verified_name ? (
                    <Alert
                      type="info"
                      showIcon
                      message={`收款人须为本人：姓名与实名认证姓名（${summary.verified_name}）一致`}
                    />
                  ) : (
                    <Alert
                      type="warning"
                      showIcon
                      data-testid="withdraw-verify-hint"
                      message={
                        <span>
                          提现到支付宝或银行卡需先完成实名认证，<Link to="/account/verify">前往实名认证</Link>
                        </span>
                      }
                    />
                  )}
                  <TextItem
                    name="account"
                    label={method === "alipay" ? "支付宝账号（手机号或邮箱）" : "银行卡号"}
                    ruleLabel={method === "alipay" ? "支付宝账号" : "银行卡号"}
                    required
                    length={{ max: 64 }}
                    autoComplete="off"
                  />
                  <TextItem
                    name="account_name"
                    label="收款人姓名"
                    required
                    length={{ min: 2, max: 32 }}
                    autoComplete="off"
                  />
                  {method === "bank" ? (
                    <TextItem
                      name="bank_name"
                      label="开户行"
                      required
                      length={{ max: 64 }}
                      placeholder="如：中国工商银行北京分行"
                    />
                  ) : null}
                </>
              );
            }}
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}
