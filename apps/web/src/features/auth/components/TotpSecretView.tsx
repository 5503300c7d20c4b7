import { QRCode, Space } from "antd";
import { CopyButton } from "@/components/CopyButton";

/**
 * A new TOTP secret to put into an authenticator app: the otpauth:// URI as a QR code drawn in the
 * browser (no image service sees the secret), and the secret itself to type or copy.
 */
export function TotpSecretView({ secret, uri }: { secret: string; uri: string }) {
  return (
    <div className="totp-secret">
      <p>用验证器应用（如 Google Authenticator、Microsoft Authenticator、1Password）扫描二维码：</p>
      <QRCode value={uri} size={176} bordered={false} errorLevel="M" />
      <p style={{ marginTop: 12 }}>无法扫码时，手动输入密钥（基于时间，6 位，30 秒）：</p>
      <Space wrap>
        <code data-testid="totp-secret" style={{ fontSize: 15, letterSpacing: 1, wordBreak: "break-all" }}>
          {secret}
        </code>
        <CopyButton size="small" text={secret} done="密钥已复制" />
        <CopyButton size="small" text={uri} done="链接已复制">
          复制 otpauth 链接
        </CopyButton>
      </Space>
    </div>
  );
}
