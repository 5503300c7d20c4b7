import { Alert, Button, Modal, Typography } from "antd";
import { CopyButton } from "./CopyButton";

export interface ShownOnceModalProps {
  /** the secret; null: closed */
  value: string | null;
  title: string;
  /** what it is, in the texts: 令牌, 签名密钥 … */
  what: string;
  /** what to do when it is lost */
  lost: string;
  /** test id of the value (e2e reads it) */
  testId: string;
  onClose: () => void;
}

/** A secret shown this once (an API token, a webhook's signing secret), with a copy button. */
export function ShownOnceModal({ value, title, what, lost, testId, onClose }: ShownOnceModalProps) {
  return (
    <Modal
      open={value !== null}
      title={title}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          我已保存
        </Button>
      }
    >
      <Alert
        type="warning"
        showIcon
        message={`${what}只显示这一次`}
        description={`关闭后无法再次查看，请立即复制并妥善保存；${lost}`}
      />
      <Typography.Paragraph className="api-token-value">
        <Typography.Text code data-testid={testId}>
          {value}
        </Typography.Text>
      </Typography.Paragraph>
      <CopyButton text={value ?? ""} done={`${what}已复制`}>
        复制{what}
      </CopyButton>
    </Modal>
  );
}
