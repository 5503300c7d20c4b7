import {
  type AdminWithdrawalRow,
  fenToYuan,
  WithdrawalSignalLabel,
  WithdrawalStatusLabel,
  WithdrawMethodLabel,
  WithdrawMethods,
} from "@burrow/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, Space, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, SelectFilter, TextFilter } from "@/components/SearchFields";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { ADMIN_BASE } from "@/lib/access";
import { formatTime, phoneText } from "@/lib/format";
import { labelOptions } from "@/lib/options";
import { fieldRules } from "@/lib/rules";
import { adminWithdrawalsQuery, affKeys, decideWithdrawal } from "../affiliate.api";
import { WithdrawalStatusTag, withdrawTarget } from "../components/WithdrawalTags";

/**
 * The customer's verified name and whether an external request's payee matches it; a match on the
 * masked name only (verified before full names were kept) is flagged for a closer look.
 */
function VerifiedName({ row }: { row: AdminWithdrawalRow }) {
  if (!row.verified_name) return <Typography.Text type="secondary">未实名</Typography.Text>;
  const weak = row.name_matches === true && row.name_check === "masked";
  return (
    <span>
      {row.verified_name}
      {row.name_matches === false ? <Tag color="red">收款人不一致</Tag> : null}
      {row.name_matches === true && !weak ? <Tag color="green">收款人一致</Tag> : null}
      {weak ? (
        <Tooltip title="该用户在系统保存完整姓名校验值之前完成实名认证，只能比对姓名首字和字数；打款前请核对收款账户的实名信息">
          <Tag color="orange">仅首字和字数一致</Tag>
        </Tooltip>
      ) : null}
    </span>
  );
}

const filterSpec = { status: "int", uid: "int", method: "text", id: "int", account: "text" } as const;

type Decision = { row: AdminWithdrawalRow; action: "approve" | "reject" } | null;

/**
 * /admin/withdrawal: withdrawal requests with filters (in the URL); a processing external request
 * is approved once paid out by hand (the payout reference) or rejected with a reason (the amount
 * returns to the customer's available rebate). The programme's settings above.
 */
export function WithdrawalPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(filterSpec, form);
  const { data, isFetching } = useQuery(adminWithdrawalsQuery(filters));
  const queryClient = useQueryClient();
  const [decision, setDecision] = useState<Decision>(null);

  const submit = async (v: { payout_ref?: string; reason?: string }) => {
    if (!decision) return;
    await decideWithdrawal({ id: decision.row.id, action: decision.action, ...v });
    await queryClient.invalidateQueries({ queryKey: affKeys.all });
  };

  const columns: ResponsiveColumns<AdminWithdrawalRow> = [
    { title: "编号", priority: 5, dataIndex: "id", width: 80 },
    {
      title: "状态",
      role: "status",
      dataIndex: "status",
      width: 90,
      render: (s: number) => <WithdrawalStatusTag status={s} />,
    },
    {
      title: "用户",
      role: "title",
      key: "user",
      width: 150,
      render: (_: unknown, row) => (
        <Link to={`${ADMIN_BASE}/usermgr/list/${row.uid}`}>
          {phoneText(row.phone)}（{row.uid}）
        </Link>
      ),
    },
    {
      title: "金额（元）",
      priority: 2,
      dataIndex: "amount",
      width: 100,
      align: "right",
      render: (f: number) => fenToYuan(f),
    },
    {
      // What the operator checks before paying out, together: where to, the payee, the verified
      // name it must match, and what became of the request.
      title: "收款",
      priority: 2,
      key: "payee",
      width: 250,
      render: (_: unknown, w) => (
        <Space orientation="vertical" size={0}>
          <span>{withdrawTarget(w)}</span>
          {w.account_name ? <span>收款人 {w.account_name}</span> : null}
          <span>
            实名 <VerifiedName row={w} />
          </span>
          {w.reason ? <Typography.Text type="secondary">驳回：{w.reason}</Typography.Text> : null}
          {w.payout_ref ? <Typography.Text type="secondary">流水号：{w.payout_ref}</Typography.Text> : null}
        </Space>
      ),
    },
    {
      title: "关联风险",
      priority: 2,
      key: "signals",
      width: 160,
      render: (_: unknown, w) =>
        w.signals.length ? (
          <Space size={[0, 4]} wrap data-testid={`signals-${w.id}`}>
            {w.signals.map((s) => (
              <Tooltip key={`${s.kind}-${s.detail}`} title={s.detail}>
                <Tag color="red">{WithdrawalSignalLabel[s.kind]}</Tag>
              </Tooltip>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">无</Typography.Text>
        ),
    },
    {
      title: "可提现余额（元）",
      priority: 4,
      dataIndex: "available",
      width: 140,
      align: "right",
      render: (f: number) => <Typography.Text type={f < 0 ? "danger" : undefined}>{fenToYuan(f)}</Typography.Text>,
    },
    { title: "申请时间", priority: 3, dataIndex: "created_at", width: 175, render: (v: string) => formatTime(v) },
    {
      title: "处理时间",
      priority: 5,
      dataIndex: "handled_at",
      width: 175,
      render: (v: string | null) => formatTime(v),
    },
    {
      title: "操作",
      key: "actions",
      width: 130,
      render: (_: unknown, row) =>
        row.status === 2 ? (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setDecision({ row, action: "approve" })}>
              已打款
            </Button>
            <Button type="link" size="small" danger onClick={() => setDecision({ row, action: "reject" })}>
              驳回
            </Button>
          </Space>
        ) : null,
    },
  ];

  const approving = decision?.action === "approve";
  return (
    <PageContainer title="提现管理">
      <Typography.Paragraph type="secondary">
        返利比例、结算期和最低提现金额在<Link to={`${ADMIN_BASE}/setting`}>站点设置</Link>中修改。
      </Typography.Paragraph>
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <SelectFilter name="status" label="状态" width={110} options={labelOptions(WithdrawalStatusLabel)} />
        <SelectFilter
          name="method"
          label="方式"
          width={130}
          options={WithdrawMethods.map((m) => ({ value: m, label: WithdrawMethodLabel[m] }))}
        />
        <IdFilter name="uid" label="用户 UID" width={120} />
        <IdFilter name="id" label="编号" width={100} />
        <TextFilter name="account" label="收款账号" max={64} width={180} />
      </SearchCard>
      <Card>
        <ResponsiveTable<AdminWithdrawalRow>
          rowKey="id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          pagination={pagination(data?.total)}
        />
      </Card>
      <FormModal<{ payout_ref?: string; reason?: string }>
        open={decision !== null}
        title={approving ? `确认已打款（编号 ${decision?.row.id}）` : `驳回提现（编号 ${decision?.row.id}）`}
        okText={approving ? "确认已打款" : "驳回"}
        onSubmit={submit}
        onClose={() => setDecision(null)}
        successText={approving ? "已标记为已完成" : "已驳回，金额已退回用户的可提现返利"}
      >
        {decision ? (
          <Typography.Paragraph>
            {fenToYuan(decision.row.amount)} 元 → {withdrawTarget(decision.row)}
            {decision.row.account_name ? `（${decision.row.account_name}）` : ""}
            {decision.row.signals.map((s) => (
              <Typography.Text key={`${s.kind}-${s.detail}`} type="danger" style={{ display: "block" }}>
                {WithdrawalSignalLabel[s.kind]}：{s.detail}
              </Typography.Text>
            ))}
          </Typography.Paragraph>
        ) : null}
        {approving ? (
          <Form.Item
            name="payout_ref"
            label="付款流水号"
            rules={fieldRules("付款流水号", { required: true, length: { max: 100 } })}
          >
            <Input placeholder="支付宝或银行的转账流水号" />
          </Form.Item>
        ) : (
          <Form.Item
            name="reason"
            label="驳回原因"
            rules={fieldRules("驳回原因", { required: true, length: { max: 200 } })}
          >
            <Input.TextArea rows={3} />
          </Form.Item>
        )}
      </FormModal>
    </PageContainer>
  );
}
