import { ProcessStatus, ProcessStatusLabel } from "@burrow/contract";
import { Tag } from "antd";

const COLORS: Record<number, string> = {
  [ProcessStatus.Done]: "success",
  [ProcessStatus.Processing]: "processing",
  [ProcessStatus.Rejected]: "error",
};

/** SPEC §4 verification status: 1 已完成, 2 处理中, 3 已驳回 (0 未提交). */
export function VerifyStatusTag({ status }: { status: number }) {
  return <Tag color={COLORS[status] ?? "default"}>{ProcessStatusLabel[status] ?? "未提交"}</Tag>;
}
