import { WithdrawalStatusLabel, WithdrawMethodLabel, WithdrawMethods } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Form, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, SelectFilter, TextFilter } from "@/components/SearchFields";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { ADMIN_BASE } from "@/lib/access";
import { labelOptions, valueOptions } from "@/lib/options";
import { adminWithdrawalsQuery } from "../affiliate.api";
import { type WithdrawalDecision, WithdrawalDecisionModal } from "../components/WithdrawalDecisionModal";
import { withdrawalColumns } from "./WithdrawalPage.columns";

const filterSpec = { status: "int", uid: "int", method: "text", id: "int", account: "text" } as const;

/**
 * /admin/withdrawal: withdrawal requests with filters (in the URL); a processing external request
 * is approved once paid out by hand (the payout reference) or rejected with a reason (the amount
 * returns to the customer's available rebate). The programme's settings above.
 */
export function WithdrawalPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(filterSpec, form);
  const { data, isFetching } = useQuery(adminWithdrawalsQuery(filters));
  const [decision, setDecision] = useState<WithdrawalDecision>(null);

  const columns = withdrawalColumns(setDecision);

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
          options={valueOptions(WithdrawMethods, WithdrawMethodLabel)}
        />
        <IdFilter name="uid" label="用户 UID" width={120} />
        <IdFilter name="id" label="编号" width={100} />
        <TextFilter name="account" label="收款账号" max={64} width={180} />
      </SearchCard>
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} />
      <WithdrawalDecisionModal decision={decision} onClose={() => setDecision(null)} />
    </PageContainer>
  );
}
