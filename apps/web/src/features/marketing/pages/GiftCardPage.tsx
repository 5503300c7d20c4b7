import {
  type CreatedGiftCards,
  fenToYuan,
  type GiftCardExportQuery,
  type GiftCardRow,
  Kind,
  KindLabel,
} from "@burrow/contract";
import { RiAddLine, RiDownloadLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Col, Form, Input, InputNumber, Modal, Radio, Row, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { reportError } from "@/api/query-client";
import { CopyButton } from "@/components/CopyButton";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { KindTag } from "@/components/StoreTags";
import { allPlansQuery } from "@/features/plans/plans.api";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { askDelete } from "@/lib/confirm";
import { saveBlob } from "@/lib/download";
import { formatTime } from "@/lib/format";
import { labelOptions } from "@/lib/options";
import { fieldRules } from "@/lib/rules";
import { GiftCardFields } from "../components/GiftCardFields";
import {
  emptyGiftCardForm,
  type GiftCardEditForm,
  type GiftCardForm,
  giftCardPatch,
  giftCardState,
  giftCardsBody,
  giftCardToForm,
} from "../forms";
import {
  createGiftCards,
  deleteGiftCards,
  exportGiftCards,
  giftCardListQuery,
  marketingKeys,
  updateGiftCard,
} from "../marketing.api";

const filterSpec = { type: "int", card_number: "text", batch_no: "text", used: "int" } as const;
const kindOptions = labelOptions(KindLabel);

/** The batch just generated: its numbers, to copy or export. */
function CreatedBatchModal({
  batch,
  onExport,
  onClose,
}: {
  batch: CreatedGiftCards | null;
  onExport: (batchNo: string) => void;
  onClose: () => void;
}) {
  const text = batch?.card_numbers.join("\n") ?? "";
  return (
    <Modal
      open={batch !== null}
      title={batch ? `已生成 ${batch.count} 张礼品卡` : ""}
      onCancel={onClose}
      footer={
        <Space>
          <CopyButton text={text} done="卡号已复制">
            复制全部卡号
          </CopyButton>
          <Button icon={<RiDownloadLine size={14} />} onClick={() => batch && onExport(batch.batch_no)}>
            导出本批次
          </Button>
          <Button type="primary" onClick={onClose}>
            完成
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph>批次号：{batch?.batch_no}</Typography.Paragraph>
      <Input.TextArea aria-label="生成的卡号" value={text} readOnly autoSize={{ minRows: 4, maxRows: 12 }} />
    </Modal>
  );
}

/** /admin/market/gift: gift cards — generate batches, edit or delete unused cards, export CSV. */
export function GiftCardPage() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [modal, modalHolder] = Modal.useModal();
  const { filters, search, reset, pagination } = useUrlFilters(filterSpec, form);
  const { data, isFetching } = useQuery(giftCardListQuery(filters));
  const { canWrite } = useAccess();
  const { data: plans } = useQuery({ ...allPlansQuery(), enabled: canWrite });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedGiftCards | null>(null);
  const [editing, setEditing] = useState<GiftCardRow | null>(null);
  const [exporting, setExporting] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: marketingKeys.gifts() });
  const remove = useMutation({ mutationFn: deleteGiftCards, onSuccess: refresh });

  const download = async (query: Partial<GiftCardExportQuery>) => {
    setExporting(true);
    try {
      const file = await exportGiftCards(query);
      saveBlob(file.blob, file.filename ?? `gift-cards-${query.batch_no ?? "export"}.csv`);
    } catch (error) {
      // Not a query or mutation: shown here, the same way the central handler would.
      reportError(error);
    } finally {
      setExporting(false);
    }
  };

  const confirmDelete = (card: GiftCardRow) =>
    askDelete(modal, {
      title: "删除礼品卡？",
      content: `确认删除礼品卡 ${card.card_number}？删除后不能再兑换。`,
      run: () => remove.mutateAsync({ card_id: card.card_id }),
      done: () => "礼品卡已删除",
    });

  const confirmDeleteBatch = (batchNo: string) =>
    askDelete(modal, {
      title: "删除整批未兑换的礼品卡？",
      content: `确认删除批次 ${batchNo} 中所有未兑换的礼品卡？已兑换的卡保留为记录。`,
      run: () => remove.mutateAsync({ batch_no: batchNo }),
      done: (r) => `已删除 ${r.deleted} 张礼品卡`,
    });

  const columns: ResponsiveColumns<GiftCardRow> = [
    {
      title: "卡号",
      role: "title",
      dataIndex: "card_number",
      width: 210,
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    {
      title: "状态",
      role: "status",
      key: "state",
      width: 200,
      render: (_: unknown, row) => {
        const state = giftCardState(row);
        if (state === "used") {
          return (
            <span>
              <Tag color="default">已兑换</Tag>UID {row.used_uid} · {formatTime(row.sub_time)}
            </span>
          );
        }
        return state === "expired" ? <Tag color="warning">已过期</Tag> : <Tag color="success">未使用</Tag>;
      },
    },
    { title: "类型", priority: 2, dataIndex: "type", width: 80, render: (t: number) => <KindTag kind={t} /> },
    {
      title: "内容",
      priority: 2,
      key: "value",
      width: 200,
      render: (_: unknown, row) =>
        row.type === Kind.Balance
          ? `¥${fenToYuan(row.card_value)}`
          : `${row.plan_name ?? "-"} × ${row.cycle_number} 个月`,
    },
    { title: "过期时间", priority: 3, dataIndex: "expire_date", width: 175, render: (v: string) => formatTime(v) },
    {
      title: "每人限兑",
      priority: 4,
      dataIndex: "one_user_limit",
      width: 90,
      render: (n: number) => (n > 0 ? `${n} 张` : "不限"),
    },
    {
      title: "批次",
      priority: 3,
      dataIndex: "batch_no",
      width: 200,
      render: (v: string) => (
        <Button type="link" size="small" onClick={() => search({ batch_no: v })}>
          {v}
        </Button>
      ),
    },
    { title: "生成时间", priority: 4, dataIndex: "created_at", width: 175, render: (v: string) => formatTime(v) },
  ];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 120,
      render: (_: unknown, row) =>
        row.used_uid === null ? (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing(row)}>
              编辑
            </Button>
            <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
              删除
            </Button>
          </Space>
        ) : (
          "-"
        ),
    });
  }

  // The export takes every list filter, paging aside: a filter added to the list applies to it too.
  const { page: _page, size: _size, ...exportQuery } = filters;

  return (
    <PageContainer
      title="礼品卡"
      extra={
        <Space>
          {canWrite ? (
            <Button icon={<RiDownloadLine size={16} />} loading={exporting} onClick={() => void download(exportQuery)}>
              导出 CSV
            </Button>
          ) : null}
          {canWrite ? (
            <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setCreating(true)}>
              生成礼品卡
            </Button>
          ) : null}
        </Space>
      }
    >
      {modalHolder}
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <SelectFilter name="type" label="类型" width={110} options={kindOptions} />
        <TextFilter name="card_number" label="卡号" max={40} width={200} />
        <TextFilter name="batch_no" label="批次" max={40} width={200} />
        <SelectFilter
          name="used"
          label="状态"
          width={110}
          options={[
            { value: 0, label: "未兑换" },
            { value: 1, label: "已兑换" },
          ]}
        />
      </SearchCard>
      <Card
        extra={
          canWrite && filters.batch_no ? (
            <Button danger onClick={() => confirmDeleteBatch(filters.batch_no ?? "")}>
              删除本批次未兑换的卡
            </Button>
          ) : null
        }
      >
        <ResponsiveTable<GiftCardRow>
          rowKey="card_id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          pagination={pagination(data?.total)}
        />
      </Card>
      {canWrite ? (
        <>
          <FormModal<GiftCardForm>
            open={creating}
            title="生成礼品卡"
            initialValues={emptyGiftCardForm}
            onSubmit={async (v) => {
              const batch = await createGiftCards(giftCardsBody(v));
              setCreated(batch);
              await refresh();
            }}
            onClose={() => setCreating(false)}
            okText="生成"
            width={640}
          >
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="count"
                  label="数量（张）"
                  rules={fieldRules("数量", { required: true, integer: true, range: { min: 1, max: 1000 } })}
                >
                  <InputNumber min={1} max={1000} precision={0} style={{ width: "100%" }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="type" label="类型" rules={fieldRules("类型", { required: true, choice: true })}>
                  <Radio.Group
                    options={[
                      { value: Kind.Balance, label: "余额卡" },
                      { value: Kind.Plan, label: "套餐卡" },
                    ]}
                  />
                </Form.Item>
              </Col>
              <Form.Item noStyle shouldUpdate={(a: GiftCardForm, b: GiftCardForm) => a.type !== b.type}>
                {({ getFieldValue }) => <GiftCardFields kind={getFieldValue("type")} plans={plans?.list ?? []} />}
              </Form.Item>
            </Row>
          </FormModal>
          <FormModal<GiftCardEditForm>
            open={editing !== null}
            title={editing ? `编辑礼品卡 · ${editing.card_number}` : "编辑礼品卡"}
            initialValues={editing ? giftCardToForm(editing) : undefined}
            onSubmit={async (v) => {
              if (!editing) return;
              await updateGiftCard(giftCardPatch(editing, v));
              await refresh();
            }}
            onClose={() => setEditing(null)}
            successText="礼品卡已保存"
            width={640}
          >
            <Row gutter={16}>
              <GiftCardFields kind={editing?.type ?? Kind.Balance} plans={plans?.list ?? []} />
            </Row>
          </FormModal>
          <CreatedBatchModal
            batch={created}
            onExport={(batchNo) => void download({ batch_no: batchNo })}
            onClose={() => setCreated(null)}
          />
        </>
      ) : null}
    </PageContainer>
  );
}
