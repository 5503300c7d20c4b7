import { type DiscountCodeRow, PromoCode } from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Col, Form, Modal, Row, Select, Tag, Typography } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { HalfCol } from "@/components/form/HalfCol";
import { NumberItem } from "@/components/form/NumberItem";
import { TextItem } from "@/components/form/TextItem";
import { deleteActionColumn } from "@/components/ListColumns";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { TextFilter } from "@/components/SearchFields";
import { allPlansQuery } from "@/features/plans/plans.api";
import { discountText } from "@/features/store/pricing";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { askDelete } from "@/lib/confirm";
import { formatTime } from "@/lib/format";
import { ExpireDateItem } from "../components/ExpireDateItem";
import { type DiscountCodeForm, discountCodeBody, emptyDiscountCodeForm } from "../forms";
import { createDiscountCode, deleteDiscountCode, discountCodeListQuery, marketingKeys } from "../marketing.api";

/** /admin/market/code: promo codes (a multiplier off plans, packs and renewals until a date, within use limits). */
export function DiscountCodePage() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [modal, modalHolder] = Modal.useModal();
  const { filters, search, reset, pagination } = useUrlFilters({ code: "text" }, form);
  const { data, isFetching } = useQuery(discountCodeListQuery(filters));
  const { canWrite } = useAccess();
  const { data: plans } = useQuery({ ...allPlansQuery(), enabled: canWrite });
  const [creating, setCreating] = useState(false);
  const planName = (id: number) => plans?.list.find((p) => p.id === id)?.name ?? `#${id}`;

  const refresh = () => queryClient.invalidateQueries({ queryKey: marketingKeys.codes() });
  const remove = useMutation({ mutationFn: deleteDiscountCode, onSuccess: refresh });

  const confirmDelete = (row: DiscountCodeRow) =>
    askDelete(modal, {
      title: "删除优惠码？",
      content: `确认删除优惠码 ${row.code}？已使用它的订单不受影响。`,
      run: () => remove.mutateAsync(row.id),
      done: () => "优惠码已删除",
    });

  const columns: ResponsiveColumns<DiscountCodeRow> = [
    {
      title: "优惠码",
      role: "title",
      dataIndex: "code",
      width: 180,
      render: (code: string) => <Typography.Text copyable>{code}</Typography.Text>,
    },
    {
      title: "状态",
      role: "status",
      dataIndex: "expired",
      width: 90,
      render: (expired: boolean) => (expired ? <Tag>已过期</Tag> : <Tag color="success">有效</Tag>),
    },
    { title: "折扣", priority: 2, dataIndex: "discount", width: 90, render: (d: number) => discountText(d) || d },
    {
      title: "已用 / 总次数",
      priority: 2,
      key: "uses",
      width: 120,
      render: (_: unknown, row) => `${row.used_count} / ${row.use_limit > 0 ? row.use_limit : "不限"}`,
    },
    {
      title: "每人限用",
      priority: 4,
      dataIndex: "user_limit",
      width: 90,
      render: (n: number) => (n > 0 ? `${n} 次` : "不限"),
    },
    {
      title: "适用套餐",
      priority: 3,
      dataIndex: "plan_ids",
      render: (ids: number[]) => (ids.length === 0 ? "全部套餐" : ids.map((id) => <Tag key={id}>{planName(id)}</Tag>)),
    },
    { title: "过期时间", priority: 3, dataIndex: "expire_date", width: 175, render: (v: string) => formatTime(v) },
    { title: "创建时间", priority: 5, dataIndex: "created_at", width: 175, render: (v: string) => formatTime(v) },
  ];
  if (canWrite) columns.push(deleteActionColumn(confirmDelete, (row) => `删除 ${row.code}`));

  return (
    <PageContainer
      title="优惠码"
      extra={
        canWrite ? (
          <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setCreating(true)}>
            新建优惠码
          </Button>
        ) : null
      }
    >
      {modalHolder}
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <TextFilter name="code" label="优惠码" max={32} width={200} />
      </SearchCard>
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} />
      {canWrite ? (
        <FormModal<DiscountCodeForm>
          open={creating}
          title="新建优惠码"
          initialValues={emptyDiscountCodeForm}
          onSubmit={async (v) => {
            await createDiscountCode(discountCodeBody(v));
            await refresh();
          }}
          onClose={() => setCreating(false)}
          successText="优惠码已创建"
          width={640}
        >
          <Row gutter={16}>
            <HalfCol>
              <TextItem
                name="code"
                label="优惠码"
                extra="留空则自动生成 8 位随机码；字母不区分大小写"
                schema={PromoCode}
                maxLength={32}
                placeholder="如 SPRING2026"
              />
            </HalfCol>
            <HalfCol>
              <NumberItem
                name="discount"
                label="折扣"
                extra="价格乘数，0.85 即八五折"
                required
                min={0.01}
                max={0.99}
                step={0.05}
              />
            </HalfCol>
            <HalfCol>
              <ExpireDateItem extra="当天 23:59:59 过期" />
            </HalfCol>
            <Col xs={12} md={6}>
              <NumberItem
                name="use_limit"
                label="总次数"
                tooltip="0 表示不限"
                required
                min={0}
                max={1_000_000}
                precision={0}
              />
            </Col>
            <Col xs={12} md={6}>
              <NumberItem
                name="user_limit"
                label="每人次数"
                tooltip="0 表示不限"
                required
                min={0}
                max={1000}
                precision={0}
              />
            </Col>
            <Col span={24}>
              <Form.Item name="plan_ids" label="适用套餐" extra="不选表示适用于全部套餐、流量包与续费">
                <Select
                  mode="multiple"
                  allowClear
                  placeholder="全部套餐"
                  optionFilterProp="label"
                  options={(plans?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
                />
              </Form.Item>
            </Col>
          </Row>
        </FormModal>
      ) : null}
    </PageContainer>
  );
}
