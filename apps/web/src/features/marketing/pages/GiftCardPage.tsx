import { type CreatedGiftCards, type GiftCardExportQuery, type GiftCardRow, KindLabel } from "@burrow/contract";
import { RiAddLine, RiDownloadLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Modal, Space } from "antd";
import { useState } from "react";
import { reportError } from "@/api/query-client";
import { PageContainer } from "@/components/PageContainer";
import { ResponsiveTable } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { allPlansQuery } from "@/features/plans/plans.api";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { askDelete } from "@/lib/confirm";
import { saveBlob } from "@/lib/download";
import { labelOptions } from "@/lib/options";
import { CreatedBatchModal } from "../components/CreatedBatchModal";
import { GiftCardCreateModal, GiftCardEditModal } from "../components/GiftCardModals";
import { deleteGiftCards, exportGiftCards, giftCardListQuery, marketingKeys } from "../marketing.api";
import { giftCardColumns } from "./GiftCardPage.columns";

const filterSpec = { type: "int", card_number: "text", batch_no: "text", used: "int" } as const;
const kindOptions = labelOptions(KindLabel);

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

  const columns = giftCardColumns({
    canWrite,
    onBatch: (batchNo) => search({ batch_no: batchNo }),
    onEdit: setEditing,
    onDelete: confirmDelete,
  });

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
          <GiftCardCreateModal
            open={creating}
            plans={plans?.list ?? []}
            onCreated={async (batch) => {
              setCreated(batch);
              await refresh();
            }}
            onClose={() => setCreating(false)}
          />
          <GiftCardEditModal
            editing={editing}
            plans={plans?.list ?? []}
            onSaved={refresh}
            onClose={() => setEditing(null)}
          />
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
