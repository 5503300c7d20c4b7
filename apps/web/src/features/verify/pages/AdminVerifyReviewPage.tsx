import type { AdminVerifyReview } from "@burrow/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Card, Descriptions, Space, Typography } from "antd";
import { Link, useParams } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { usermgrKeys } from "@/features/usermgr/usermgr.api";
import { useAccess } from "@/hooks/useAccess";
import { ADMIN_BASE } from "@/lib/access";
import { formatTime } from "@/lib/format";
import { AdminVerifyCard } from "../components/AdminVerifyCard";
import { EvidencePhoto } from "../components/EvidencePhoto";
import { adminVerifyQuery, verifyReviewQuery } from "../verify.api";

/** The unmasked name and number and the photos of the submission under review (every fetch is audited). */
function EvidenceCard({ uid, review, isError }: { uid: number; review?: AdminVerifyReview; isError: boolean }) {
  return (
    <Card
      title="证件资料"
      extra={<Typography.Text type="secondary">仅管理员可见，每次查看均记入审计日志</Typography.Text>}
    >
      {isError ? <Alert type="error" showIcon title="证件资料无法加载" /> : null}
      {review ? (
        <Space orientation="vertical" size={16} style={{ width: "100%" }}>
          <Descriptions column={{ xs: 1, md: 2 }} size="small">
            <Descriptions.Item label="真实姓名">{review.real_name}</Descriptions.Item>
            <Descriptions.Item label="身份证号码">{review.id_number}</Descriptions.Item>
            <Descriptions.Item label="提交时间">{formatTime(review.created_at)}</Descriptions.Item>
            <Descriptions.Item label="自动驳回时间">{formatTime(review.expires_at)}</Descriptions.Item>
          </Descriptions>
          <Space wrap size={16} align="start">
            {review.photos.map((p) => (
              <EvidencePhoto key={p.kind} uid={uid} kind={p.kind} version={review.version} />
            ))}
          </Space>
        </Space>
      ) : null}
    </Card>
  );
}

/**
 * /admin/verify/list/{uid}: one request's review. The reviewer compares the photos with the full
 * name and number, sees the other accounts claiming the number, and (a Manager) decides on the
 * submission shown (its version goes with the decision); the decision deletes the photos. Support
 * staff see the masked request only.
 */
export function AdminVerifyReviewPage() {
  const uid = Number(useParams().uid);
  const { canManageUsers } = useAccess();
  const queryClient = useQueryClient();
  const { data: v } = useQuery(adminVerifyQuery(uid));
  // Only Managers decide, so only they load the full data (the server refuses it to support).
  const review = useQuery({ ...verifyReviewQuery(uid), enabled: canManageUsers && !!v?.evidence });
  return (
    <PageContainer
      title={`实名审核：UID ${uid}`}
      extra={
        <Space>
          <Link to={`${ADMIN_BASE}/verify/list`}>返回审核列表</Link>
          <Link to={`${ADMIN_BASE}/usermgr/list/${uid}`}>用户详情</Link>
        </Space>
      }
    >
      <Space orientation="vertical" size={16} style={{ width: "100%" }}>
        <AdminVerifyCard
          uid={uid}
          canWrite={canManageUsers}
          showReviewLink={false}
          reviewVersion={review.data?.version}
          onChanged={() => void queryClient.invalidateQueries({ queryKey: usermgrKeys.all })}
        />
        {v?.evidence && canManageUsers ? (
          <EvidenceCard uid={uid} review={review.data} isError={review.isError} />
        ) : v?.evidence ? (
          <Card title="证件资料">
            <Typography.Text type="secondary" data-testid="verify-evidence-managers-only">
              证件照片和完整姓名、号码仅管理员可查看（由管理员审核）。
            </Typography.Text>
          </Card>
        ) : v ? (
          <Card title="证件资料">
            <Typography.Text type="secondary">
              没有待审核的证件照片（人工审核的照片在审核完成或超期后即删除）。
            </Typography.Text>
          </Card>
        ) : null}
      </Space>
    </PageContainer>
  );
}
