/** Icon keys a menu item may carry (SPEC §3). */
export const MenuIconKeys = [
  "home",
  "shield",
  "list",
  "node",
  "bill",
  "wallet",
  "shippingBag",
  "account",
  "verify",
  "userShared",
  "userSetting",
  "user",
  "userNormal",
  "bardLine",
  "gobackLine",
  "homeGear",
  "coins",
  "server",
  "store",
  "service",
  "article",
  "ticket",
  "setting",
  "market",
  "group",
  "wallet3",
  "invoice",
  "download",
  "domain",
  "ssl",
  "traffic",
] as const;
export type MenuIconKey = (typeof MenuIconKeys)[number];

/** One sidebar entry as the server sends it. Admin paths are relative to the admin base (/admin). */
export interface MenuItem {
  name: string;
  id: string;
  path: string;
  icon: MenuIconKey;
  children?: MenuItem[];
}

/**
 * Normalises a path for menu selection and access checks: drops the area base, keeps the first
 * two segments, removes the trailing slash (SPEC §2 "Shell").
 */
export function normalizeMenuPath(pathname: string, base = ""): string {
  let p = pathname;
  if (base && (p === base || p.startsWith(`${base}/`))) p = p.slice(base.length);
  const segments = p.split("/").filter(Boolean).slice(0, 2);
  return `/${segments.join("/")}`;
}

/** Every path of a menu tree, normalised. */
export function menuPaths(items: MenuItem[]): Set<string> {
  const out = new Set<string>();
  const walk = (list: MenuItem[]) => {
    for (const item of list) {
      if (item.path) out.add(normalizeMenuPath(item.path));
      if (item.children) walk(item.children);
    }
  };
  walk(items);
  return out;
}
