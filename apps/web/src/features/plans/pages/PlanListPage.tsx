import { type AdminPlan, OrderType } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Modal, Space, Switch, Tag } from "antd";
import { useState } from "react";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { PLAN_KIND_OPTIONS } from "@/components/StoreTags";
import { AddButton } from "@/components/table/AddButton";
import { ALL, levelListQuery } from "@/features/nodes/nodes.api";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { askDelete } from "@/lib/confirm";
import { feedback } from "@/lib/feedback";
import { PlanFormModal } from "../components/PlanFormModal";
import { deletePlan, planListQuery, plansKeys, updatePlan } from "../plans.api";
import { planColumns } from "./PlanListPage.columns";

const filterSpec = { name: "text", order_type: "int", level_id: "int" } as const;

/** /admin/plan: plans and traffic packs with every field; managers create, edit, price, list and delete them. */
export function PlanListPage() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [modal, modalHolder] = Modal.useModal();
  const { filters, search, reset, pagination } = useUrlFilters(filterSpec, form);
  const { data, isFetching } = useQuery(planListQuery(filters));
  const { data: levels } = useQuery(levelListQuery(ALL));
  const { canWrite } = useAccess();
  const [editing, setEditing] = useState<{ plan?: AdminPlan } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: plansKeys.all });
  const update = useMutation({ mutationFn: updatePlan, onSuccess: refresh });
  const remove = useMutation({ mutationFn: deletePlan, onSuccess: refresh });

  const toggleSale = (plan: AdminPlan, on: boolean) =>
    update.mutate(
      { id: plan.id, on_sale: on },
      { onSuccess: () => feedback.success(on ? `「${plan.name}」已上架` : `「${plan.name}」已下架`) },
    );

  const makeDefault = (plan: AdminPlan) =>
    modal.confirm({
      title: "设为默认套餐？",
      content: `新注册的用户将获得「${plan.name}」；原默认套餐不再作为默认。`,
      okText: "确认",
      cancelText: "取消",
      onOk: () =>
        update
          .mutateAsync({ id: plan.id, is_default: true })
          .then(() => feedback.success(`「${plan.name}」已设为默认套餐`))
          .catch(() => undefined),
    });

  const confirmDelete = (plan: AdminPlan) =>
    askDelete(modal, {
      title: "删除套餐？",
      content: `确认删除「${plan.name}」？已有订单、订阅或礼品卡引用的套餐会改为下架而不会删除。`,
      run: () => remove.mutateAsync(plan.id),
      done: (r) => (r.deleted ? "套餐已删除" : "该套餐已被引用，已改为下架"),
    });

  const saleCell = (on: boolean, row: AdminPlan) =>
    canWrite ? (
      <Switch
        size="small"
        checked={on}
        aria-label={`${row.name} 上架`}
        loading={update.isPending && update.variables?.id === row.id}
        onChange={(checked) => toggleSale(row, checked)}
      />
    ) : (
      <Tag color={on ? "success" : "default"}>{on ? "在售" : "下架"}</Tag>
    );
  const columns = planColumns(saleCell);
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 190,
      render: (_: unknown, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setEditing({ plan: row })}>
            编辑
          </Button>
          {row.type === OrderType.Plan && !row.is_default ? (
            <Button type="link" size="small" onClick={() => makeDefault(row)}>
              设为默认
            </Button>
          ) : null}
          {row.is_default ? null : (
            <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
              删除
            </Button>
          )}
        </Space>
      ),
    });
  }

  return (
    <PageContainer
      title="套餐管理"
      extra={canWrite ? <AddButton onClick={() => setEditing({})}>新建套餐</AddButton> : null}
    >
      {modalHolder}
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <TextFilter name="name" label="名称" max={32} placeholder="支持部分名称" width={180} />
        <SelectFilter name="order_type" label="类型" width={120} options={PLAN_KIND_OPTIONS} />
        <SelectFilter
          name="level_id"
          label="等级"
          width={140}
          options={(levels?.list ?? []).map((l) => ({ value: l.id, label: l.name }))}
        />
      </SearchCard>
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} />
      {canWrite ? (
        <PlanFormModal open={editing !== null} plan={editing?.plan} onClose={() => setEditing(null)} />
      ) : null}
    </PageContainer>
  );
}
