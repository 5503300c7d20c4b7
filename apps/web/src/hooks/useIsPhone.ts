import { useSyncExternalStore } from "react";

/**
 * Phone width: below SPEC §9's 768 px breakpoint. There the menu is a drawer over the page; from
 * 768 px up it stays the sider (collapsed below xl).
 */
export const PHONE_QUERY = "(max-width: 767.98px)";

const subscribe = (onChange: () => void) => {
  const mq = window.matchMedia(PHONE_QUERY);
  mq.addEventListener("change", onChange);
  return () => mq.removeEventListener("change", onChange);
};

/** Whether the window is phone-wide now (read synchronously: the first paint already has the right shell). */
export function useIsPhone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  );
}
