import type { CreatedGiftCards } from "@burrow/contract";
import { RiDownloadLine } from "@remixicon/react";
import { Button, Input, Modal, Space, Typography } from "antd";
import { CopyButton } from "@/components/CopyButton";

/** The batch just generated: its numbers, to copy or export. */
export function CreatedBatchModal({
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
