import { ProcessStatus, VerifyModeLabel } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Descriptions, Form, Input, Modal, Popconfirm, Space, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { ApiError } from "@/api/client";
import { ADMIN_BASE } from "@/lib/access";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { adminVerifyAction, adminVerifyQuery, verifyKeys, verifySettingQuery } from "../verify.api";
import { ContestedAlert } from "./ContestedAlert";
import { VerifyStatusTag } from "./VerifyStatusTag";

/** How a request was verified, as operators read it (the contract's labels of the channels). */
export const PROVIDER_LABEL: Record<string, string> = VerifyModeLabel;

/** The review page of one user's request. */
export const reviewPath = (uid: number) => `${ADMIN_BASE}/verify/list/${uid}`;

/**
 * A user's identity verification (on /admin/usermgr/list/{Uid} and the review page): masked name
 * and number, status, the other accounts claiming the number, and for Managers approve / reject
 * with a reason / reset, and whether the site requires it for tunnels (changed on the settings page,
 * not per user). A manual review (photos waiting)
 * is approved only on its review page, with the version of the submission shown there.
 */
export function AdminVerifyCard({
  uid,
  canWrite,
  onChanged,
  showReviewLink = true,
  reviewVersion,
}: {
  uid: number;
  canWrite: boolean;
  onChanged?: () => void;
  /** link to the review page when photos wait for a decision (off on that page itself) */
  showReviewLink?: boolean;
  /** the version of the submission the review page shows: sent with the decision */
  reviewVersion?: string;
}) {
  const queryClient = useQueryClient();
  const { data: v } = useQuery(adminVerifyQuery(uid));
  const { data: setting } = useQuery(verifySettingQuery());
  const [rejecting, setRejecting] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();
  const action = useMutation({
    mutationFn: adminVerifyAction,
    // "资料已更新，请重新审核": the customer submitted again; load the new submission to review.
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409 && err.field === "version") {
        queryClient.removeQueries({ queryKey: verifyKeys.evidence(uid) });
        void queryClient.invalidateQueries({ queryKey: verifyKeys.all });
      }
    },
    onSuccess: async () => {
      feedback.success("实名认证已更新");
      setRejecting(false);
      form.resetFields();
      // The decision deleted the photos: drop what this browser holds of them too.
      queryClient.removeQueries({ queryKey: verifyKeys.evidence(uid) });
      await queryClient.invalidateQueries({ queryKey: verifyKeys.all });
      onChanged?.();
    },
  });
  if (!v) return null;
  const status = v.status;
  // Photos wait: approving needs the reviewed submission's version (only the review page has it).
  const canApprove = status === ProcessStatus.Processing && (!v.evidence || reviewVersion !== undefined);
  const version = v.evidence ? reviewVersion : undefined;

  return (
    <Card
      title="实名认证"
      extra={
        canWrite && status !== ProcessStatus.None ? (
          <Space>
            {canApprove ? (
              <Popconfirm
                title="确认通过该实名认证？"
                okText="通过"
                onConfirm={() => action.mutate({ uid, action: "approve", version })}
              >
                <Button type="primary" loading={action.isPending}>
                  审核通过
                </Button>
              </Popconfirm>
            ) : null}
            {status !== ProcessStatus.Rejected ? (
              <Button danger onClick={() => setRejecting(true)}>
                驳回
              </Button>
            ) : null}
            <Popconfirm
              title="重置后用户需要重新提交实名认证，确认？"
              okText="重置"
              onConfirm={() => action.mutate({ uid, action: "reset" })}
            >
              <Button loading={action.isPending}>重置</Button>
            </Popconfirm>
          </Space>
        ) : null
      }
    >
      <Descriptions column={{ xs: 1, md: 2 }} size="small">
        <Descriptions.Item label="状态">
          <VerifyStatusTag status={status} />
        </Descriptions.Item>
        <Descriptions.Item label="姓名">{v.real_name ?? "-"}</Descriptions.Item>
        <Descriptions.Item label="身份证号码">{v.id_number ?? "-"}</Descriptions.Item>
        <Descriptions.Item label="认证方式">
          {v.provider ? (PROVIDER_LABEL[v.provider] ?? v.provider) : "-"}
        </Descriptions.Item>
        {v.held_until ? (
          <Descriptions.Item label="号码保留至">{formatTime(v.held_until)}（第三方认证未完成前）</Descriptions.Item>
        ) : null}
        {v.evidence ? (
          <Descriptions.Item label="证件照片">
            {v.evidence.photos.length} 张，{formatTime(v.evidence.expires_at)} 前未审核将自动驳回并删除
            {showReviewLink ? (
              <>
                {" "}
                <Link to={reviewPath(uid)}>审核证件资料</Link>
              </>
            ) : null}
          </Descriptions.Item>
        ) : null}
        {status === ProcessStatus.Rejected ? (
          <Descriptions.Item label="驳回原因">{v.reason ?? "-"}</Descriptions.Item>
        ) : null}
        <Descriptions.Item label="提交时间">{formatTime(v.created_at)}</Descriptions.Item>
        <Descriptions.Item label="更新时间">{formatTime(v.updated_at)}</Descriptions.Item>
      </Descriptions>
      <ContestedAlert claims={v.contested} />
      {setting ? (
        // A site-wide rule, not this user's: said as such, changed on the settings page.
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          全站规则：创建隧道{setting.required_for_tunnels ? "需要" : "不需要"}实名认证，
          <Link to={`${ADMIN_BASE}/setting`}>在站点设置中修改</Link>
        </Typography.Paragraph>
      ) : null}
      <Modal
        title="驳回实名认证"
        open={rejecting}
        okText="驳回"
        okButtonProps={{ danger: true, loading: action.isPending }}
        onCancel={() => setRejecting(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={({ reason }) => action.mutate({ uid, action: "reject", reason, version })}
        >
          <Form.Item
            name="reason"
            label="驳回原因"
            rules={[{ required: true, whitespace: true, message: "请输入驳回原因" }]}
          >
            <Input.TextArea maxLength={200} showCount rows={3} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
