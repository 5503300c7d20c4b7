import type { VerifyQueueRow } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Col, Form, Tag } from "antd";
import { Link } from "react-router";
import { linkActionColumn, timeColumn } from "@/components/ListColumns";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { GridSearchCard } from "@/components/SearchCard";
import { SEARCH_COL, SelectFilter } from "@/components/SearchFields";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { phoneText } from "@/lib/format";
import { PROVIDER_LABEL, reviewPath } from "../components/AdminVerifyCard";
import { verifyQueueQuery } from "../verify.api";

const FILTERS = { contested: "text" } as const;

const columns: ResponsiveColumns<VerifyQueueRow> = [
  {
    title: "UID",
    priority: 3,
    dataIndex: "uid",
    width: 90,
    render: (uid: number) => <Link to={reviewPath(uid)}>{uid}</Link>,
  },
  {
    title: "用户",
    role: "title",
    dataIndex: "phone",
    width: 190,
    render: (phone: string, r) => `${phoneText(phone)}${r.nickname ? `（${r.nickname}）` : ""}`,
  },
  { title: "姓名", priority: 2, dataIndex: "real_name", width: 110 },
  { title: "身份证号码", priority: 3, dataIndex: "id_number", width: 190 },
  { title: "方式", priority: 3, dataIndex: "provider", width: 110, render: (p: string) => PROVIDER_LABEL[p] ?? p },
  {
    // What the row waits for: the queue's status.
    title: "证件照片",
    role: "status",
    priority: 1,
    dataIndex: "evidence",
    width: 100,
    render: (e: boolean) => (e ? <Tag color="blue">待审核</Tag> : "-"),
  },
  {
    title: "号码争议",
    priority: 2,
    dataIndex: "contested",
    width: 170,
    render: (n: number) => (n > 0 ? <Tag color="red">另有 {n} 个账号提交</Tag> : "-"),
  },
  timeColumn("提交时间", "updated_at", { priority: 3, width: 180 }),
  linkActionColumn("审核", (r) => reviewPath(r.uid)),
];

/**
 * /admin/verify/list: the verifications waiting for a decision, oldest first; a number claimed by
 * more than one account is flagged (someone may be using another person's number).
 */
export function AdminVerifyQueuePage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const contested = filters.contested === "1" ? "1" : undefined;
  const { data, isFetching } = useQuery(verifyQueueQuery({ page: filters.page, size: filters.size, contested }));
  return (
    <PageContainer
      title="实名审核"
      description="处理中的实名认证，最早提交的在前；同一身份证号码被多个账号提交时标记为争议。"
    >
      <GridSearchCard form={form} initialValues={filters} onFinish={search} onReset={reset}>
        <Col {...SEARCH_COL}>
          <SelectFilter name="contested" label="号码争议" options={[{ value: "1", label: "仅看有争议的号码" }]} />
        </Col>
      </GridSearchCard>
      <ListTableCard
        columns={columns}
        data={data}
        loading={isFetching}
        pagination={pagination}
        rowKey="uid"
        size="middle"
      />
    </PageContainer>
  );
}
