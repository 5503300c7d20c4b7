import type { Paged } from "@burrow/contract";
import { type QueryKey, type UseQueryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Popconfirm, Space } from "antd";
import { type ReactNode, useState } from "react";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import type { FilterSpec, FiltersOf } from "@/lib/url-filters";
import { AddButton } from "./table/AddButton";

export interface CrudListPageProps<T extends Partial<F>, F extends object, S extends FilterSpec, K extends QueryKey> {
  title: string;
  description?: ReactNode;
  /** what one row is called, in the texts: 新增{noun}, 编辑{noun}, {noun}已保存/已添加/已删除 */
  noun: string;
  /** the search form's filters, kept in the URL */
  filterSpec: S;
  /** the search form's fields (the 查询/重置 buttons are added) */
  searchFields: ReactNode;
  query: (filters: FiltersOf<S>) => UseQueryOptions<Paged<T>, Error, Paged<T>, K>;
  /** invalidated after a save or delete */
  invalidateKey: QueryKey;
  rowKey: keyof T & string;
  /** the columns before 操作, with their priorities (responsive-columns.ts) */
  columns: ResponsiveColumns<T>;
  /** the 操作 column (always shown) */
  actions: { width: number; compact?: boolean };
  deleteTitle: (row: T) => string;
  onDelete: (row: T) => Promise<unknown>;
  /** why the row cannot be deleted (the button is disabled with this title), or undefined */
  deleteBlocked?: (row: T) => string | undefined;
  /** creates (row undefined) or updates the row */
  onSave: (values: F, row: T | undefined) => Promise<unknown>;
  /** the form's values when creating */
  newValues?: Partial<F>;
  modalWidth?: number;
  /** the fields of the create/edit modal */
  formFields: ReactNode;
}

/**
 * An admin list of simple rows: search card, server-paged table, 新增 button, and, for writers,
 * 编辑 (a FormModal) and 删除 (a Popconfirm) on each row.
 */
export function CrudListPage<T extends Partial<F>, F extends object, S extends FilterSpec, K extends QueryKey>({
  title,
  description,
  noun,
  filterSpec,
  searchFields,
  query,
  invalidateKey,
  rowKey,
  columns,
  actions,
  deleteTitle,
  onDelete,
  deleteBlocked,
  onSave,
  newValues,
  modalWidth,
  formFields,
}: CrudListPageProps<T, F, S, K>) {
  const queryClient = useQueryClient();
  const { canWrite } = useAccess();
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(filterSpec, form);
  const { data, isFetching } = useQuery(query(filters));
  // null: closed; undefined row: creating
  const [editing, setEditing] = useState<{ row?: T } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: invalidateKey });
  const remove = useMutation({
    mutationFn: onDelete,
    onSuccess: async () => {
      feedback.success(`${noun}已删除`);
      await refresh();
    },
  });

  const save = async (v: F) => {
    await onSave(v, editing?.row);
    await refresh();
  };

  const allColumns: ResponsiveColumns<T> = [...columns];
  if (canWrite) {
    allColumns.push({
      title: "操作",
      key: "actions",
      width: actions.width,
      render: (_: unknown, row) => {
        const blocked = deleteBlocked?.(row);
        return (
          <Space size={actions.compact ? 0 : undefined}>
            <Button type="link" size="small" onClick={() => setEditing({ row })}>
              编辑
            </Button>
            <Popconfirm
              title={deleteTitle(row)}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove.mutateAsync(row).catch(() => undefined)}
            >
              <Button type="link" size="small" danger disabled={blocked !== undefined} title={blocked}>
                删除
              </Button>
            </Popconfirm>
          </Space>
        );
      },
    });
  }

  return (
    <PageContainer
      title={title}
      description={description}
      extra={canWrite ? <AddButton onClick={() => setEditing({})}>{`新增${noun}`}</AddButton> : null}
    >
      <SearchCard form={form} onFinish={search} onReset={reset}>
        {searchFields}
      </SearchCard>
      <Card>
        <ResponsiveTable<T>
          rowKey={rowKey}
          columns={allColumns}
          dataSource={data?.list}
          loading={isFetching}
          pagination={pagination(data?.total)}
        />
      </Card>
      <FormModal<F>
        open={editing !== null}
        title={editing?.row ? `编辑${noun}` : `新增${noun}`}
        width={modalWidth}
        initialValues={editing?.row ?? newValues}
        successText={editing?.row ? `${noun}已保存` : `${noun}已添加`}
        onSubmit={save}
        onClose={() => setEditing(null)}
      >
        {formFields}
      </FormModal>
    </PageContainer>
  );
}
