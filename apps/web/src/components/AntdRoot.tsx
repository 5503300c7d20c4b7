import { ConfigProvider, message } from "antd";
import zhCN from "antd/locale/zh_CN";
import { type ReactNode, useEffect } from "react";
import { bindMessageApi } from "@/lib/feedback";
import { reducedMotion } from "@/lib/motion";

const theme = {
  token: {
    colorPrimary: "#1668dc",
    borderRadius: 6,
    // no transitions for a visitor who asked for less motion (lib/motion.ts)
    motion: !reducedMotion,
    fontFamily:
      '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif',
  },
};

/**
 * Hands a context-aware message instance (theme, locale) to code outside React: the API client and
 * the QueryClient's error handlers. `message.useMessage` rather than antd's `App`, which would also
 * put Modal and Notification into the entry chunk.
 */
function MessageHost() {
  const [api, holder] = message.useMessage({ maxCount: 3 });
  useEffect(() => bindMessageApi(api), [api]);
  return holder;
}

/** antd (zh_CN, theme) and the global messages: the console's and /login's light host's root. */
export function AntdRoot({ children }: { children: ReactNode }) {
  return (
    // autoInsertSpace off: antd would render "登录" as "登 录", which reads oddly and changes accessible names.
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      <MessageHost />
      {children}
    </ConfigProvider>
  );
}
