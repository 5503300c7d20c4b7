import type { MouseEvent } from "react";

/** Whether a click should stay the browser's own (new tab, new window, download, middle button). */
export function isModifiedClick(e: MouseEvent<HTMLElement>): boolean {
  return e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;
}
