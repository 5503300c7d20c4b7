import { type BalanceLedgerRow, fenToYuan, UserStatus } from "@burrow/contract";
import { RiArrowLeftLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Avatar, Button, Card, Descriptions, Modal, Result, Space } from "antd";
import { useState } from "react";
import { useParams } from "react-router";
import { LinkButton } from "@/components/LinkButton";
import { PageContainer } from "@/components/PageContainer";
import { PagedTableCard } from "@/components/PagedTableCard";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { loginLogColumns } from "@/features/account/components/LoginHistoryCard";
import { ledgerChangeColumn, ledgerTimeColumn } from "@/features/orders/components/LedgerCard";
import { AdminVerifyCard } from "@/features/verify/components/AdminVerifyCard";
import { useAccess } from "@/hooks/useAccess";
import { ADMIN_BASE } from "@/lib/access";
import { feedback } from "@/lib/feedback";
import { formatTime, phoneText } from "@/lib/format";
import { UserActionModal } from "../components/UserActionModal";
import { RoleTag, UserStatusTag } from "../components/UserTags";
import type { UserAction } from "../user-actions";
import { updateUser, userDetailQuery, userLoginListQuery, usermgrKeys } from "../usermgr.api";

const ledgerColumns: ResponsiveColumns<BalanceLedgerRow> = [
  ledgerTimeColumn(180),
  ledgerChangeColumn(120),
  { title: "变动前（元）", dataIndex: "balance_before", width: 120, align: "right", render: fenToYuan },
  { title: "变动后（元）", dataIndex: "balance_after", width: 120, align: "right", render: fenToYuan },
  { title: "原因", dataIndex: "reason", ellipsis: true },
  { title: "订单号", dataIndex: "order_id", width: 200, render: (v: string | null) => v ?? "-" },
];

/** Paged login history of one user. */
function UserLoginHistory({ uid }: { uid: number }) {
  return (
    <PagedTableCard
      title="登录记录"
      columns={loginLogColumns}
      query={(page, size) => userLoginListQuery(uid, page, size)}
    />
  );
}

/** /admin/usermgr/list/:uid: profile, balance ledger, login history and the operator's actions. */
export function UserDetailPage() {
  const params = useParams();
  const uid = Number(params.uid);
  const validUid = Number.isInteger(uid) && uid > 0;
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const [action, setAction] = useState<UserAction | null>(null);
  const { canManageUsers } = useAccess();
  const { data: user, isPending, isError } = useQuery({ ...userDetailQuery(uid), enabled: validUid });

  const unban = useMutation({
    mutationFn: updateUser,
    onSuccess: async () => {
      feedback.success("已解封");
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: usermgrKeys.detail(uid) }),
        queryClient.invalidateQueries({ queryKey: usermgrKeys.lists() }),
      ]);
    },
  });

  const back = (
    <LinkButton icon={<RiArrowLeftLine size={16} />} to={`${ADMIN_BASE}/usermgr/list`}>
      返回列表
    </LinkButton>
  );

  if (!validUid || isError) {
    return (
      <PageContainer title="用户详情" extra={back}>
        <Result status="404" title="用户不存在" subTitle={`未找到 UID 为 ${params.uid} 的用户`} />
      </PageContainer>
    );
  }
  if (isPending || !user) {
    return (
      <PageContainer title="用户详情" extra={back}>
        <Card loading />
      </PageContainer>
    );
  }

  const banned = user.status === UserStatus.Banned;
  const confirmUnban = () =>
    modal.confirm({
      title: "解封用户？",
      content: `确认解封 ${phoneText(user.phone)}（UID ${user.uid}）？解封后该用户可以重新登录。`,
      okText: "确认",
      cancelText: "取消",
      onOk: () => unban.mutateAsync({ uid: user.uid, status: 1 }).catch(() => undefined),
    });

  const actions = canManageUsers ? (
    <Space wrap>
      <Button onClick={() => setAction("nickname")}>修改昵称</Button>
      <Button onClick={() => setAction("role")}>修改角色</Button>
      <Button onClick={() => setAction("balance")}>调整余额</Button>
      <Button onClick={() => setAction("password")}>重置密码</Button>
      {banned ? (
        <Button onClick={confirmUnban} loading={unban.isPending}>
          解封
        </Button>
      ) : (
        <Button danger onClick={() => setAction("ban")}>
          封禁
        </Button>
      )}
    </Space>
  ) : null;

  return (
    <PageContainer title={`用户详情 · ${user.phone || `UID ${user.uid}`}`} extra={back}>
      {modalHolder}
      <Card title="基本信息" extra={actions} className="user-profile-card">
        <Space size={20} align="start" wrap>
          <Avatar size={64} src={user.avatar || undefined} alt="头像">
            {user.avatar ? null : (user.nickname || user.phone).slice(0, 1)}
          </Avatar>
          <Descriptions column={{ xs: 1, sm: 2, xl: 3 }} size="small">
            <Descriptions.Item label="UID">{user.uid}</Descriptions.Item>
            <Descriptions.Item label="手机号">{phoneText(user.phone)}</Descriptions.Item>
            <Descriptions.Item label="昵称">{user.nickname || "-"}</Descriptions.Item>
            <Descriptions.Item label="角色">
              <RoleTag role={user.role} />
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <UserStatusTag status={user.status} />
            </Descriptions.Item>
            {banned ? <Descriptions.Item label="封禁原因">{user.ban_reason || "-"}</Descriptions.Item> : null}
            <Descriptions.Item label="余额（元）">{fenToYuan(user.balance)}</Descriptions.Item>
            <Descriptions.Item label="邀请码">{user.invite_code || "-"}</Descriptions.Item>
            <Descriptions.Item label="邀请人 UID">{user.referrer_uid ?? "-"}</Descriptions.Item>
            <Descriptions.Item label="实名姓名">{user.real_name ?? "-"}</Descriptions.Item>
            <Descriptions.Item label="注册时间">{formatTime(user.created_at)}</Descriptions.Item>
            <Descriptions.Item label="最后登录">{formatTime(user.last_login_at)}</Descriptions.Item>
          </Descriptions>
        </Space>
      </Card>
      <AdminVerifyCard
        uid={user.uid}
        canWrite={canManageUsers}
        onChanged={() => void queryClient.invalidateQueries({ queryKey: usermgrKeys.detail(user.uid) })}
      />
      <Card title="余额明细">
        <ResponsiveTable<BalanceLedgerRow>
          rowKey="id"
          size="middle"
          columns={ledgerColumns}
          dataSource={user.ledger}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
        />
      </Card>
      <UserLoginHistory uid={user.uid} />
      {canManageUsers ? <UserActionModal action={action} user={user} onClose={() => setAction(null)} /> : null}
    </PageContainer>
  );
}
