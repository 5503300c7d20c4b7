/**
 * The visitor asked their system for less motion (prefers-reduced-motion): antd's transitions and
 * the charts' animations are then off (WCAG 2.3.3). Read once at start: the setting rarely changes
 * while a page is open, and a reload picks a change up.
 */
export const reducedMotion: boolean =
  typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
