import {
  idNumberProblem,
  ProcessStatus,
  VERIFY_PHOTO_KINDS,
  VERIFY_PHOTO_REQUIRED,
  VerifyBody,
  type VerifyPhotoKind,
} from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Form, Input, Space, Typography, type UploadFile } from "antd";
import { useNavigate } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { accountKeys } from "@/features/account/account.api";
import { showFormError } from "@/lib/form-error";
import { formatTime } from "@/lib/format";
import { schemaRule } from "@/lib/rules";
import { PhotoField } from "../components/PhotoField";
import { VerifyStatusTag } from "../components/VerifyStatusTag";
import { myVerifyQuery, resultSegment, submitReview, submitVerify, verifyKeys } from "../verify.api";

type Values = VerifyBody & Partial<Record<VerifyPhotoKind, UploadFile[]>>;

/** The chosen file of a photo field, kept in the browser until the form is sent. */
const fileOf = (list: UploadFile[] | undefined): Blob | undefined => list?.[0]?.originFileObj;

/** /account/verify: the customer's identity verification (real name + resident ID number). */
export function VerifyPage() {
  const { data: state } = useQuery(myVerifyQuery());
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (values: Values) => {
      const body = { real_name: values.real_name, id_number: values.id_number };
      const photos = Object.fromEntries(VERIFY_PHOTO_KINDS.map((k) => [k, fileOf(values[k])]));
      // Photos go to an operator's review (the manual mode; in the sandbox, when any is given).
      const review = state?.mode === "manual" || Object.values(photos).some(Boolean);
      return review ? submitReview(body, photos) : submitVerify(body);
    },
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
  // The manual mode decides on photos of the ID card; the sandbox takes them optionally (then an operator reviews).
  const photos = state.mode === "manual" || state.mode === "sandbox";
  const photosRequired = state.mode === "manual";

  return (
    <PageContainer
      title="实名认证"
      description={
        photosRequired
          ? "根据相关法规，使用隧道服务前需完成实名认证。提交的证件照片加密保存，仅审核人员可见，审核完成后即删除。"
          : "根据相关法规，使用隧道服务前需完成实名认证。证件号码仅以脱敏形式保存。"
      }
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
                rules={[{ required: true, message: "请输入真实姓名" }, schemaRule(VerifyBody.shape.real_name)]}
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
              {photos ? (
                <>
                  <Typography.Paragraph type="secondary">
                    {photosRequired
                      ? `请上传身份证人像面和国徽面照片（可另附手持身份证照片），png、jpg 或 webp，较大的照片会在上传前自动压缩。照片加密保存，仅审核人员可见，审核完成后即删除。`
                      : "沙箱环境：上传证件照片后转人工审核；不上传则按姓名自动判定。"}
                  </Typography.Paragraph>
                  <Space wrap size={16} align="start">
                    {VERIFY_PHOTO_KINDS.map((kind) => (
                      <PhotoField
                        key={kind}
                        kind={kind}
                        required={photosRequired && VERIFY_PHOTO_REQUIRED.includes(kind)}
                      />
                    ))}
                  </Space>
                </>
              ) : null}
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
