import type { RechargePromotionRow } from "@burrow/contract";
import { fenToYuan } from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, DatePicker, Form, Modal, Tag } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { NumberItem } from "@/components/form/NumberItem";
import { TextItem } from "@/components/form/TextItem";
import { deleteActionColumn } from "@/components/ListColumns";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { askDelete } from "@/lib/confirm";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { beforeToday, type RechargePromotionForm, rechargePromotionBody } from "../forms";
import {
  createRechargePromotion,
  deleteRechargePromotion,
  marketingKeys,
  rechargePromotionListQuery,
} from "../marketing.api";

/** /admin/market/recharge: recharge promotions (recharge at least X between two days, get Y). */
export function RechargePromotionPage() {
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const { filters, pagination } = useUrlFilters({});
  const { data, isFetching } = useQuery(rechargePromotionListQuery(filters));
  const { canWrite } = useAccess();
  const [creating, setCreating] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: marketingKeys.recharges() });
  const remove = useMutation({ mutationFn: deleteRechargePromotion, onSuccess: refresh });

  const confirmDelete = (row: RechargePromotionRow) =>
    askDelete(modal, {
      title: "删除充值优惠？",
      content: `确认删除「${row.name || `满 ${fenToYuan(row.min_amount)} 送 ${fenToYuan(row.bonus)}`}」？已到账的赠送金额不受影响。`,
      run: () => remove.mutateAsync(row.id),
      done: () => "充值优惠已删除",
    });

  const columns: ResponsiveColumns<RechargePromotionRow> = [
    { title: "ID", priority: 6, dataIndex: "id", width: 70 },
    { title: "名称", role: "title", dataIndex: "name", render: (v: string) => v || "-" },
    {
      title: "状态",
      role: "status",
      dataIndex: "active",
      width: 90,
      render: (active: boolean, row) =>
        active ? (
          <Tag color="success">进行中</Tag>
        ) : Date.parse(row.start_at) > Date.now() ? (
          <Tag color="processing">未开始</Tag>
        ) : (
          <Tag>已结束</Tag>
        ),
    },
    {
      title: "起充金额（元）",
      priority: 2,
      dataIndex: "min_amount",
      width: 130,
      align: "right",
      render: (fen: number) => fenToYuan(fen),
    },
    {
      title: "赠送（元）",
      priority: 2,
      dataIndex: "bonus",
      width: 110,
      align: "right",
      render: (fen: number) => fenToYuan(fen),
    },
    { title: "开始时间", priority: 3, dataIndex: "start_at", width: 175, render: (v: string) => formatTime(v) },
    { title: "结束时间", priority: 3, dataIndex: "end_at", width: 175, render: (v: string) => formatTime(v) },
  ];
  if (canWrite) columns.push(deleteActionColumn(confirmDelete));

  return (
    <PageContainer
      title="充值优惠"
      description="活动期间单笔充值达到起充金额即赠送，多个活动同时满足时取赠送最多的一个。"
      extra={
        canWrite ? (
          <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setCreating(true)}>
            新建充值优惠
          </Button>
        ) : null
      }
    >
      {modalHolder}
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} />
      {canWrite ? (
        <FormModal<RechargePromotionForm>
          open={creating}
          title="新建充值优惠"
          onSubmit={async (v) => {
            await createRechargePromotion(rechargePromotionBody(v));
            await refresh();
          }}
          onClose={() => setCreating(false)}
          successText="充值优惠已创建"
        >
          <TextItem name="name" label="名称" length={{ max: 32 }} maxLength={32} placeholder="如：开学季充值送" />
          <NumberItem
            name="min_amount"
            label="起充金额（元）"
            ruleLabel="起充金额"
            required
            min={0.01}
            max={50_000}
            precision={2}
          />
          <NumberItem
            name="bonus"
            label="赠送金额（元）"
            ruleLabel="赠送金额"
            required
            min={0.01}
            max={10_000_000}
            precision={2}
          />
          <Form.Item
            name="range"
            label="活动日期"
            extra="从开始日 00:00 到结束日 23:59:59"
            rules={fieldRules("活动日期", { required: true, choice: true })}
          >
            <DatePicker.RangePicker disabledDate={beforeToday} style={{ width: "100%" }} />
          </Form.Item>
        </FormModal>
      ) : null}
    </PageContainer>
  );
}
