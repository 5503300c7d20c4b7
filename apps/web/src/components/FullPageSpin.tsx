/**
 * Centred spinner for whole-page waits (route chunks, the shell's menu and user). Plain CSS rather
 * than antd's Spin: it is the router's first paint and ships in the entry chunk.
 */
export function FullPageSpin({ tip = "加载中…" }: { tip?: string }) {
  return (
    <div className="full-page-spin" role="status" aria-live="polite">
      <span className="full-page-spin-dot" aria-hidden />
      <span className="full-page-spin-tip">{tip}</span>
    </div>
  );
}
