import { Button } from "antd";
import { useEffect, useState } from "react";

/** Seconds before another code may be requested. */
export const SMS_RESEND_SECONDS = 60;

export interface SmsCodeButtonProps {
  /**
   * Validates the phone field and sends the code; resolve to start the countdown, reject (validation
   * or API error, shown by the caller / centrally) to leave the button ready.
   */
  send: () => Promise<unknown>;
  disabled?: boolean;
}

/** "获取验证码" with a 60-second countdown after a successful send. */
export function SmsCodeButton({ send, disabled }: SmsCodeButtonProps) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  const onClick = async () => {
    setSending(true);
    try {
      await send();
      setLeft(SMS_RESEND_SECONDS);
    } catch {
      // Field errors and API errors are already on screen.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button onClick={onClick} loading={sending} disabled={disabled || left > 0} className="sms-code-button">
      {left > 0 ? `${left} 秒后重新获取` : "获取验证码"}
    </Button>
  );
}
