import type { message } from "antd";

type MessageInstance = ReturnType<typeof message.useMessage>[0];
type Kind = "error" | "success" | "warning";

/**
 * Global toasts for code that runs outside React (API client, QueryClient callbacks). The providers
 * bind antd's context-aware instance on mount (app/providers.tsx); anything raised before that is
 * queued and shown then.
 */
let api: MessageInstance | null = null;
const pending: { kind: Kind; text: string }[] = [];

function show(kind: Kind, text: string): void {
  if (!api) {
    pending.push({ kind, text });
    return;
  }
  // Keyed by text: the same error raised by parallel calls is shown once.
  void api[kind]({ content: text, key: `${kind}:${text}` });
}

/** Binds antd's context-aware message instance (message.useMessage()). */
export function bindMessageApi(instance: MessageInstance): void {
  api = instance;
  for (const { kind, text } of pending.splice(0)) show(kind, text);
}

export const feedback = {
  error: (text: string) => show("error", text),
  success: (text: string) => show("success", text),
  warning: (text: string) => show("warning", text),
};
