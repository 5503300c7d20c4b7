import { idNumberProblem, ProcessStatus, type VerifyBody } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Form, Input, Space } from "antd";
import { useNavigate } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { accountKeys } from "@/features/account/account.api";
import { showFormError } from "@/lib/form-error";
import { formatTime } from "@/lib/format";
import { VerifyStatusTag } from "../components/VerifyStatusTag";
import { myVerifyQuery, resultSegment, submitVerify, verifyKeys } from "../verify.api";

/** /account/verify: the customer's identity verification (real name + resident ID number). */
export function VerifyPage() {
  const { data: state } = useQuery(myVerifyQuery());
  const [form] = Form.useForm<VerifyBody>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: submitVerify,
    meta: { silentError: true },
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: verifyKeys.all });
      await queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      // A real provider verifies on its own page and sends the browser back to the result page.
      if (result.redirect_url) window.location.assign(result.redirect_url);
      else await navigate(`/account/verify/${resultSegment(result.status)}`);
    },
    onError: (error) => showFormError(form, error),
  });
  if (!state) return null;
  const done = state.status === ProcessStatus.Done;

  return (
    <PageContainer
      title="实名认证"
      description="根据相关法规，使用隧道服务前需完成实名认证。证件号码仅以脱敏形式保存。"
    >
      <Space orientation="vertical" size={16} style={{ width: "100%" }}>
        {state.required_for_tunnels && !done ? (
          <Alert type="warning" showIcon title="完成实名认证后才能创建隧道。" />
        ) : null}
        {state.status !== ProcessStatus.None ? (
          <Card title="认证状态">
            <Descriptions column={1} size="small">
              <Descriptions.Item label="状态">
                <VerifyStatusTag status={state.status} />
              </Descriptions.Item>
              <Descriptions.Item label="姓名">{state.real_name ?? "-"}</Descriptions.Item>
              <Descriptions.Item label="身份证号码">{state.id_number ?? "-"}</Descriptions.Item>
              {state.status === ProcessStatus.Rejected ? (
                <Descriptions.Item label="驳回原因">{state.reason ?? "-"}</Descriptions.Item>
              ) : null}
              <Descriptions.Item label="更新时间">{formatTime(state.updated_at)}</Descriptions.Item>
            </Descriptions>
          </Card>
        ) : null}
        {done ? null : (
          <Card title={state.status === ProcessStatus.None ? "提交实名信息" : "重新提交"}>
            <Form
              form={form}
              layout="vertical"
              style={{ maxWidth: 480 }}
              onFinish={(values) => mutation.mutate(values)}
            >
              <Form.Item
                name="real_name"
                label="真实姓名"
                rules={[
                  { required: true, message: "请输入真实姓名" },
                  { pattern: /^[\u3400-\u9fff·•]{2,32}$/u, message: "请输入身份证上的中文姓名" },
                ]}
              >
                <Input autoComplete="name" maxLength={32} placeholder="与身份证一致" />
              </Form.Item>
              <Form.Item
                name="id_number"
                label="身份证号码"
                validateTrigger="onBlur"
                rules={[
                  { required: true, message: "请输入身份证号码" },
                  {
                    validator: async (_, v: string | undefined) => {
                      const problem = v ? idNumberProblem(v) : null;
                      if (problem) throw new Error(problem);
                    },
                  },
                ]}
              >
                <Input autoComplete="off" maxLength={18} placeholder="18 位居民身份证号码" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={mutation.isPending}>
                提交认证
              </Button>
            </Form>
          </Card>
        )}
      </Space>
    </PageContainer>
  );
}
