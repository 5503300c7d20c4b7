import { Alert } from "antd";
import { CopyButton } from "@/components/CopyButton";

/** Recovery codes, shown once: each signs in once when the authenticator is not at hand. */
export function RecoveryCodesView({ codes }: { codes: string[] }) {
  return (
    <div>
      <Alert
        type="warning"
        showIcon
        message="请立即保存这些恢复码，它们只显示这一次"
        description="手机丢失或验证器不可用时，每个恢复码可代替验证码登录一次。"
        style={{ marginBottom: 12 }}
      />
      <ol className="recovery-codes" data-testid="recovery-codes" style={{ columns: 2, fontFamily: "monospace" }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <CopyButton text={codes.join("\n")} done="恢复码已复制">
        复制全部恢复码
      </CopyButton>
    </div>
  );
}
